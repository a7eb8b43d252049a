/**
 * A tool that reports progress and answers at once: its reports and its response are ready in the
 * same turn of the event loop. The official TypeScript clients handle a response as they read it and a
 * notification a microtask later, so a response read together with its request's progress drops the
 * handler the progress needed: `onprogress` never runs and `onerror` says "Received a progress
 * notification for an unknown token" (modelcontextprotocol/typescript-sdk#2580). Over stdio picomcp
 * joined every line of a turn into one write, so no report of such a call ever arrived (was); it now
 * writes the response later than its progress (transports/line-output.ts). Over Streamable HTTP both
 * clients read an SSE stream one event at a time, each after the microtasks of the one before, and
 * got every report before as after. Both official clients, over stdio (test/fixtures/quick-progress-server.ts
 * as a child process) and over HTTP on 127.0.0.1 (a 2025-11-25 session's SSE reply, and 2026-07-28).
 */
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdioTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import { PAUSE_MS, quickProgressServer, STEPS } from "../fixtures/quick-progress-server.js";
import { tsxProgram } from "./fixture.js";
import { servedToClients } from "./served.js";

const FIXTURE = "test/fixtures/quick-progress-server.ts";
/** Calls made one after the other on one connection: the first of a connection and later ones. */
const CALLS = 5;

const clients = servedToClients(quickProgressServer());
const closing: { close(): Promise<void> }[] = [];

afterAll(async () => {
  for (const each of closing) await each.close();
});

interface Update {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** What each official client does here, spelled the same. */
interface Peer {
  steps(onprogress: (update: Update) => void): Promise<unknown>;
  pause(onprogress: (update: Update) => void): Promise<unknown>;
  /** The client's `onerror`, where the SDK reports a progress notification it has no handler for. */
  onerror(report: (error: Error) => void): void;
}

function legacyPeer(client: Client): Peer {
  return {
    steps: (onprogress) => client.callTool({ name: "steps" }, undefined, { onprogress }),
    pause: (onprogress) => client.callTool({ name: "pause" }, undefined, { onprogress }),
    onerror: (report) => (client.onerror = report),
  };
}

function modernPeer(client: ModernClient): Peer {
  return {
    steps: (onprogress) => client.callTool({ name: "steps" }, { onprogress }),
    pause: (onprogress) => client.callTool({ name: "pause" }, { onprogress }),
    onerror: (report) => (client.onerror = report),
  };
}

const EVERY_REPORT = Array.from({ length: STEPS }, (_, step) => ({
  progress: step + 1,
  total: STEPS,
  message: `step ${step + 1}`,
}));

/**
 * CALLS calls made one after the other on one connection with `call`: each is answered "done" and gets
 * `reports` to its onprogress, and the client reports no error. `meanwhile` runs as each call is sent.
 */
async function everyReport(
  peer: Peer,
  call: (onprogress: (update: Update) => void) => Promise<unknown>,
  { reports, meanwhile }: { reports: Update[]; meanwhile?: () => void },
): Promise<void> {
  const errors: string[] = [];
  peer.onerror((error) => errors.push(error.message));
  for (let made = 0; made < CALLS; made++) {
    const seen: Update[] = [];
    const answer = call((update) => seen.push(update));
    meanwhile?.();
    expect(await answer).toMatchObject({ content: [{ text: "done" }] });
    expect({ call: made, seen }).toEqual({ call: made, seen: reports });
  }
  expect(errors).toEqual([]);
}

function eachCall(connect: () => Promise<Peer>) {
  it("gets every progress report of each call to its onprogress, and no error", async () => {
    const peer = await connect();
    await everyReport(peer, peer.steps, { reports: EVERY_REPORT });
  });
}

/**
 * The client's event loop held for BUSY_MS after each call is sent: longer than `pause` takes between its
 * report and its answer, so both wait in the pipe when the client reads again unless the response is
 * written AFTER_PROGRESS_MS after the report (transports/line-output.ts; was: at once, and lost).
 */
const BUSY_MS = PAUSE_MS + 6;

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // The client computes: it reads nothing meanwhile.
  }
}

function afterAShortWait(connect: () => Promise<Peer>) {
  it("gets the progress report of a tool that answers a few milliseconds after it, read by a client a little busy", async () => {
    const peer = await connect();
    await everyReport(peer, peer.pause, {
      reports: [{ progress: 1, total: 1, message: "started" }],
      meanwhile: () => busy(BUSY_MS),
    });
  });
}

/** The v1 client, on the fixture as a child process over stdio. */
async function legacyOverStdio(): Promise<Peer> {
  const client = new Client({ name: "v1", version: "1.0.0" });
  closing.push(client);
  await client.connect(new StdioClientTransport(tsxProgram(FIXTURE)));
  return legacyPeer(client);
}

/** The v2 client, on the fixture as a child process over stdio. */
async function modernOverStdio(): Promise<Peer> {
  const client = new ModernClient({ name: "v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
  closing.push(client);
  await client.connect(new ModernStdioTransport(tsxProgram(FIXTURE)));
  return modernPeer(client);
}

describe("the official v1 client over stdio", () => {
  afterAShortWait(legacyOverStdio);
  eachCall(legacyOverStdio);
});

describe("the official v2 client over stdio", () => {
  afterAShortWait(modernOverStdio);
  eachCall(modernOverStdio);
});

describe("the official v1 client over Streamable HTTP (2025-11-25, the reply an SSE stream)", () => {
  eachCall(async () => legacyPeer(await clients.legacy()));
});

describe("the official v2 client over Streamable HTTP (2026-07-28)", () => {
  eachCall(async () => modernPeer(await clients.modern()));
});

describe("the official v1 client over stdio, on a connection where a resource update's read check waited", () => {
  it("gets every progress report, of a call held behind the check and of the calls after it", async () => {
    // test/fixtures/stdio-held-server.ts: the read check of slow://{ms} (an asynchronous `allow`) answers after ms.
    const client = new Client({ name: "v1", version: "1.0.0" });
    closing.push(client);
    await client.connect(new StdioClientTransport(tsxProgram("test/fixtures/stdio-held-server.ts")));
    await client.subscribeResource({ uri: "slow://200" });
    const peer = legacyPeer(client);
    const errors: string[] = [];
    peer.onerror((error) => errors.push(error.message));
    const seen: Update[][] = [];
    const call = () => {
      const updates: Update[] = [];
      seen.push(updates);
      return peer.steps((update) => updates.push(update));
    };
    // The first call's progress and response wait behind the update's check, and go once it answers.
    await Promise.all([client.callTool({ name: "update", arguments: { uri: "slow://200" } }), call()]);
    for (let later = 1; later < CALLS; later++) await call();
    // Was: the reports lost, the response read with them (the responses sent through the read check's
    // holder, which the connection keeps once made, went without their request: line-output.ts held none).
    expect(seen).toEqual(Array.from({ length: CALLS }, () => EVERY_REPORT));
    expect(errors).toEqual([]);
  });
});
