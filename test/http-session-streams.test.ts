/**
 * The resumable streams of legacy (2025-11-25) sessions over a real loopback listener: the event
 * history bounded in bytes per session and per server (docs/limits.md), resumption of a stream of
 * any size with Last-Event-ID, a reader that stops reading, and the answer to a cancelled request.
 * The memory checks run the server in a child process (test/fixtures/history-server.ts), against its
 * own baseline.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import type { Listening } from "../src/transports/listen.js";
import { initialize as initializeFetch, modernCallInit, signal, within } from "./http-helpers.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MiB = 1024 * 1024;
const SSE_ONLY = "text/event-stream";
const BOTH = "application/json, text/event-stream";

const children = new Set<ChildProcessWithoutNullStreams>();
const listeners: Listening[] = [];

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
});

afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listening) => listening.close()));
});

/** The fixture server in a child process with these limits; resolves with its URL. */
async function child(limits: Record<string, number> = {}): Promise<string> {
  const server = spawn(process.execPath, ["--expose-gc", "--import", "tsx", "test/fixtures/history-server.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HISTORY_LIMITS: JSON.stringify(limits) },
  });
  children.add(server);
  let stderr = "";
  server.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  let stdout = "";
  const url = new Promise<string>((resolve, reject) => {
    server.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const end = stdout.indexOf("\n");
      if (end !== -1) resolve((JSON.parse(stdout.slice(0, end)) as { url: string }).url);
    });
    server.on("exit", (code) => reject(new Error(`the fixture exited with ${code}: ${stderr}`)));
  });
  return within(url, 15_000, "the fixture's URL");
}

let nextId = 1;

function headers(session: string | undefined, accept: string): Record<string, string> {
  const all: Record<string, string> = { "content-type": "application/json", accept };
  if (session !== undefined) {
    all["mcp-session-id"] = session;
    all["mcp-protocol-version"] = "2025-11-25";
  }
  return all;
}

/** Starts a 2025-11-25 session; answers its id. */
async function initialize(url: string): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: headers(undefined, BOTH),
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "1" } },
    }),
  });
  expect(response.status).toBe(200);
  const session = response.headers.get("mcp-session-id")!;
  await response.text();
  const initialized = await fetch(url, {
    method: "POST",
    headers: headers(session, BOTH),
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  expect(initialized.status).toBe(202);
  return session;
}

/** A tools/call in `session`, with a progress token. */
function call(url: string, session: string, name: string, args: object, init: RequestInit & { accept?: string } = {}) {
  const { accept = SSE_ONLY, ...rest } = init;
  const id = nextId++;
  const body = {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args, _meta: { progressToken: id } },
  };
  return {
    id,
    response: fetch(url, { method: "POST", headers: headers(session, accept), body: JSON.stringify(body), ...rest }),
  };
}

/** GET with Last-Event-ID: resumes a stream of `session`. */
function resume(url: string, session: string, lastEventId: string, init: RequestInit = {}) {
  return fetch(url, {
    method: "GET",
    headers: { ...headers(session, SSE_ONLY), "last-event-id": lastEventId },
    ...init,
  });
}

interface Event {
  id?: string;
  data: string;
}

/** The events of a stream resumed after `lastEventId`, after its priming event, which carries that id. */
function afterPriming(events: Event[], lastEventId: string): Event[] {
  expect(events[0]).toEqual({ id: lastEventId, data: "" });
  return events.slice(1);
}

function parseEvents(text: string): Event[] {
  return text
    .split("\n\n")
    .filter((frame) => frame !== "")
    .map((frame) => {
      const event: Event = { data: "" };
      for (const line of frame.split("\n")) {
        if (line.startsWith("id: ")) event.id = line.slice(4);
        else if (line.startsWith("data: ")) event.data = line.slice(6);
      }
      return event;
    });
}

/** The server's heap plus what it holds outside the heap (ArrayBuffers), after GC; and its RSS. */
async function memory(url: string): Promise<{ held: number; rss: number }> {
  const response = await fetch(url, modernCallInit("memory"));
  const answer = (await response.json()) as { result: { content: { text: string }[] } };
  const usage = JSON.parse(answer.result.content[0]!.text) as NodeJS.MemoryUsage;
  return { held: usage.heapUsed + usage.external, rss: usage.rss };
}

/** The id of the last event of a stream, and the JSON-RPC message of each event with data. */
function messages(events: Event[]): Record<string, unknown>[] {
  return events.filter((event) => event.data !== "").map((event) => JSON.parse(event.data) as Record<string, unknown>);
}

describe("the event history, bounded in bytes", () => {
  it("keeps 20 SSE-only sessions of 4 MiB results within maxHistoryBytes; an evicted event answers 404 on resume, a kept one replays exactly what followed", async () => {
    const cap = 48 * MiB;
    const url = await child({ maxHistoryBytes: cap, maxHistoryBytesPerSession: 10 * MiB });
    const sessions: string[] = [];
    // Warm-up: the session code is loaded and compiled before the baseline.
    const warm = await initialize(url);
    await (await call(url, warm, "big", { bytes: 10 }).response).text();
    const before = await memory(url);
    for (let s = 0; s < 20; s++) {
      const session = await initialize(url);
      sessions.push(session);
      for (let c = 1; c <= 3; c++) {
        const { id, response } = call(url, session, "big", { bytes: 4 * MiB });
        const reply = await response;
        expect(reply.headers.get("content-type")).toBe("text/event-stream");
        const events = parseEvents(await reply.text());
        // Stream c of the session: its priming event, then the result.
        expect(events.map((event) => event.id)).toEqual([`${c}-0`, `${c}-1`]);
        expect(messages(events)[0]).toMatchObject({ id, result: { content: [{ type: "text" }] } });
      }
    }
    const after = await memory(url);
    // 240 MiB of results went through; the history keeps at most `cap` of them.
    expect(after.held - before.held).toBeLessThan(cap + 32 * MiB);

    // Each session keeps at most its two newest results (10 MiB): session 0's first is forgotten.
    const forgotten = await resume(url, sessions[0]!, "1-0");
    expect(forgotten.status).toBe(404);
    expect(((await forgotten.json()) as { error: { message: string } }).error.message).toBe(
      'Not found: no stream to resume for Last-Event-ID "1-0"',
    );
    // Together they keep at most `cap`: 11 results of 4 MiB, the newest session's among them.
    let kept = 0;
    let newestKept = false;
    for (const session of sessions) {
      const resumed = await resume(url, session, "3-0");
      if (resumed.status === 404) {
        await resumed.text();
        continue;
      }
      expect(resumed.status).toBe(200);
      // A kept stream replays exactly the events after the id given: here, the result.
      const replay = afterPriming(parseEvents(await resumed.text()), "3-0");
      expect(replay.map((event) => event.id)).toEqual(["3-1"]);
      expect(JSON.stringify(messages(replay)[0]).length).toBeGreaterThan(4 * MiB);
      kept++;
      if (session === sessions.at(-1)) newestKept = true;
    }
    expect(newestKept).toBe(true);
    expect(kept).toBeLessThanOrEqual(Math.floor(cap / (4 * MiB)));
    // An ended stream with nothing after the id given: nothing to resume.
    expect((await resume(url, sessions.at(-1)!, "3-1")).status).toBe(404);
  });

  it("past maxHistoryBytes forgets the oldest events of the session holding the most, not a small session's", async () => {
    const url = await child({ maxHistoryBytes: 16 * MiB, maxHistoryBytesPerSession: 24 * MiB });
    const small = await initialize(url);
    const large = await initialize(url);
    const mine = call(url, small, "big", { bytes: 1000 });
    await (await mine.response).text();
    for (let c = 0; c < 5; c++) await (await call(url, large, "big", { bytes: 4 * MiB }).response).text();
    // The large session holds at most what is left of the server's cap once the small one is counted.
    const replay = afterPriming(parseEvents(await (await resume(url, small, "1-0")).text()), "1-0");
    expect(replay.map((event) => event.id)).toEqual(["1-1"]);
    expect(messages(replay)[0]).toMatchObject({ id: mine.id, result: { content: [{ text: "x".repeat(1000) }] } });
    // The large session lost its oldest results first, and kept its newest.
    expect((await resume(url, large, "1-0")).status).toBe(404);
    expect((await resume(url, large, "2-0")).status).toBe(404);
    const newest = afterPriming(parseEvents(await (await resume(url, large, "5-0")).text()), "5-0");
    expect(newest.map((event) => event.id)).toEqual(["5-1"]);
  });
});

/** Events 1..count of a flood, then the result: the ids a stream `n` of it carries after `from`. */
function floodIds(stream: number, from: number, count: number): string[] {
  return Array.from({ length: count + 1 - from }, (_, i) => `${stream}-${from + 1 + i}`);
}

describe("resuming a stream of any size", () => {
  it("delivers every event a dropped stream of more than maxSseBufferBytes missed, once, then the result", async () => {
    const url = await child();
    const session = await initialize(url);
    const count = 40;
    const client = new AbortController();
    const flood = call(url, session, "flood", { count, bytes: 64 * 1024, hold: 2 }, { signal: client.signal });
    const reply = await flood.response;
    const reader = reply.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    // The priming event and the first two notifications, then the client goes away.
    while (parseEvents(text).length < 3 || !text.endsWith("\n\n")) {
      const { done, value } = await within(reader.read(), 5000, "the first events");
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const seen = parseEvents(text);
    expect(seen.map((event) => event.id)).toEqual(["1-0", "1-1", "1-2"]);
    client.abort();
    await reader.cancel().catch(() => {});
    // 38 more notifications of 64 KiB (2.4 MiB) and the result are written while nobody reads.
    const released = call(url, session, "release", {}, { accept: BOTH });
    await (await released.response).text();
    const resumed = await resume(url, session, "1-2");
    expect(resumed.status).toBe(200);
    const rest = afterPriming(parseEvents(await within(resumed.text(), 10_000, "the replay")), "1-2");
    expect(rest.map((event) => event.id)).toEqual(floodIds(1, 2, count));
    const replayed = messages(rest);
    for (let n = 3; n <= count; n++) {
      expect(replayed[n - 3]).toMatchObject({ method: "notifications/progress", params: { progress: n } });
      expect((replayed[n - 3]!.params as { message: string }).message.startsWith(`${n}:`)).toBe(true);
    }
    expect(replayed.at(-1)).toMatchObject({ id: flood.id, result: { content: [{ text: `flooded ${count}` }] } });
  });

  it("gives a reader that stops reading for more than maxSseBufferBytes every event, on its stream or by resuming it", async () => {
    // 24 MiB: more than the loopback socket buffers hold, so the server itself must hold the rest.
    const count = 96;
    const url = await child({ maxHistoryBytesPerSession: 64 * MiB });
    const session = await initialize(url);
    const id = nextId++;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "flood", arguments: { count, bytes: 256 * 1024, hold: 1 }, _meta: { progressToken: id } },
    });
    const stream = new SlowStream(url, headers(session, SSE_ONLY), body);
    await within(stream.until(2), 5000, "the first event");
    stream.pause();
    // The whole flood is written while the reader does not read.
    const released = call(url, session, "release", {}, { accept: BOTH });
    await within((await released.response).text(), 15_000, "the flood");
    stream.resume();
    let events = await within(stream.ended, 20_000, "the end of the stream");
    for (let attempt = 0; attempt < 3 && !events.some((event) => event.id === `1-${count + 1}`); attempt++) {
      // Dropped on the way: the client comes back for the rest.
      const last = events.findLast((event) => event.id !== undefined)!.id!;
      const again = await resume(url, session, last);
      expect(again.status).toBe(200);
      events = [...events, ...afterPriming(parseEvents(await within(again.text(), 20_000, "the replay")), last)];
    }
    expect(events.map((event) => event.id)).toEqual(["1-0", ...floodIds(1, 0, count)]);
    expect(messages(events).at(-1)).toMatchObject({ id, result: { content: [{ text: `flooded ${count}` }] } });
  });
});

describe("a reader the history cannot wait for", () => {
  it("lets go of the notifications the history forgot before it read them, and gets the answer; a resume from before them answers 404, not a gap", async () => {
    const count = 96;
    const url = await child({ maxHistoryBytesPerSession: 2 * MiB });
    const session = await initialize(url);
    const id = nextId++;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "flood", arguments: { count, bytes: 256 * 1024, hold: 1 }, _meta: { progressToken: id } },
    });
    const stream = new SlowStream(url, headers(session, SSE_ONLY), body);
    await within(stream.until(2), 5000, "the first event");
    stream.pause();
    const released = call(url, session, "release", {}, { accept: BOTH });
    await within((await released.response).text(), 15_000, "the flood");
    stream.resume();
    const events = await within(stream.ended, 20_000, "the end of the stream");
    // 24 MiB were sent while it did not read; the session keeps 2 MiB, the reader holds 1 MiB past
    // that: progress it could not hold was let go, the answer never (was: the stream dropped, the
    // answer with it, and its resume answered 404).
    expect(events.at(-1)?.id).toBe(`1-${count + 1}`);
    expect(messages(events).at(-1)).toMatchObject({ id, result: { content: [{ text: `flooded ${count}` }] } });
    const sent = events.map((event) => Number(event.id!.split("-")[1]));
    expect(sent).toEqual([...sent].sort((a, b) => a - b));
    expect(sent.length).toBeLessThan(count + 2);
    // A resume from before what the session forgot cannot be exact: 404, never a gap.
    const again = await resume(url, session, "1-1");
    expect(again.status).toBe(404);
    await again.text();
    // What the session still keeps, the newest events and the result, can be read from where they start.
    const newest = await resume(url, session, `1-${count - 2}`);
    expect(newest.status).toBe(200);
    const rest = afterPriming(parseEvents(await newest.text()), `1-${count - 2}`);
    expect(rest.map((event) => event.id)).toEqual(floodIds(1, count - 2, count));
    expect(messages(rest).at(-1)).toMatchObject({ id, result: { content: [{ text: `flooded ${count}` }] } });
  });
});

describe("resuming through server.fetch (the Web stream of Bun, Deno and Workers)", () => {
  it("streams a replay of 9 times maxSseBufferBytes as the reader pulls it", async () => {
    const gate = signal();
    const finished = signal();
    const app = pico({ name: "web", version: "1.0.0", limits: { maxSseBufferBytes: 10_000 }, signals: false }).tool(
      "chatter",
      {
        run: async (_args, ctx) => {
          ctx.progress(1, 91, "first");
          await gate.promise;
          for (let n = 2; n <= 91; n++) ctx.progress(n, 91, `${n}:${"z".repeat(1000)}`);
          finished.resolve();
          return "chattered";
        },
      },
    );
    const session = await initializeFetch(app);
    const body = {
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "chatter", _meta: { progressToken: 7 } },
    };
    const reply = await app.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: headers(session, SSE_ONLY),
        body: JSON.stringify(body),
      }),
    );
    const reader = reply.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (parseEvents(text).length < 2 || !text.endsWith("\n\n")) text += decoder.decode((await reader.read()).value);
    expect(parseEvents(text).map((event) => event.id)).toEqual(["1-0", "1-1"]);
    await reader.cancel();
    gate.resolve();
    await within(finished.promise);
    const resumed = await app.fetch(
      new Request("http://localhost/mcp", {
        method: "GET",
        headers: { ...headers(session, SSE_ONLY), "last-event-id": "1-1" },
      }),
    );
    const rest = afterPriming(parseEvents(await within(resumed.text(), 10_000, "the replay")), "1-1");
    expect(rest.map((event) => event.id)).toEqual(floodIds(1, 1, 91));
    expect(messages(rest).at(-1)).toMatchObject({ id: 7, result: { content: [{ text: "chattered" }] } });
  });
});

describe("a Web reader with several reads pending", () => {
  it("gets each live event as it comes, none left waiting in the history", async () => {
    const app = pico({ name: "web", version: "1.0.0", signals: false }).tool("first", { run: () => "" });
    const session = await initializeFetch(app);
    const stream = await app.fetch(
      new Request("http://localhost/mcp", { method: "GET", headers: headers(session, SSE_ONLY) }),
    );
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toMatch(/^id: 0-0\n/);
    // Three reads wait at once; each tool added sends one notification on the GET stream.
    const reads = [reader.read(), reader.read(), reader.read()];
    for (let n = 0; n < 3; n++) {
      app.tool(`added_${n}`, { run: () => "" });
      await new Promise((resolve) => setImmediate(resolve));
    }
    const texts = (await within(Promise.all(reads), 2000, "three events")).map((read) => decoder.decode(read.value));
    expect(texts.map((text) => parseEvents(text)[0]!.id)).toEqual(["0-1", "0-2", "0-3"]);
    await reader.cancel();
  });
});

/** An SSE response read with node:http, so that the test can stop reading it (pause) and go on. */
class SlowStream {
  readonly ended: Promise<Event[]>;
  #text = "";
  #response: IncomingMessage | undefined;
  #wake: (() => void) | undefined;

  constructor(url: string, requestHeaders: Record<string, string>, body: string) {
    this.ended = new Promise((resolve, reject) => {
      const request = httpRequest(url, { method: "POST", headers: requestHeaders, agent: false }, (response) => {
        this.#response = response;
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          this.#text += chunk;
          this.#wake?.();
        });
        const end = () => resolve(parseEvents(this.#text.slice(0, this.#text.lastIndexOf("\n\n") + 2)));
        response.on("end", end);
        response.on("aborted", end);
        response.on("error", end);
        response.on("close", end);
      });
      request.on("error", reject);
      request.end(body);
    });
  }

  /** Resolves once `count` events have arrived. */
  async until(count: number): Promise<void> {
    while (parseEvents(this.#text.slice(0, this.#text.lastIndexOf("\n\n") + 2)).length < count) {
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  pause(): void {
    this.#response?.pause();
  }

  resume(): void {
    this.#response?.resume();
  }
}

describe("a cancelled request", () => {
  it("gets an event stream that ends without a response, not an empty 202 (2025-11-25 §Sending Messages to the Server)", async () => {
    const started = signal();
    const aborted = signal();
    const app = pico({ name: "cancel", version: "1.0.0", signals: false }).tool("wait", {
      run: async (_args, ctx) => {
        started.resolve();
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        aborted.resolve();
        return "too late";
      },
    });
    const listening = await app.serve({ port: 0 });
    listeners.push(listening);
    const url = listening.url;
    const session = await initialize(url);
    const pending = call(url, session, "wait", {}, { accept: BOTH });
    await within(started.promise, 5000, "the call starting");
    const cancel = await fetch(url, {
      method: "POST",
      headers: headers(session, BOTH),
      body: JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: pending.id, reason: "the user stopped it" },
      }),
    });
    expect(cancel.status).toBe(202);
    await within(aborted.promise, 5000, "the handler's signal aborting");
    const response = await within(pending.response, 5000, "the cancelled call's answer");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("mcp-session-id")).toBe(session);
    const events = parseEvents(await within(response.text(), 5000, "the end of the stream"));
    // No response for the cancelled id, and no event id to resume from: the exchange is over.
    expect(messages(events).filter((message) => message.id === pending.id)).toEqual([]);
    expect(events.filter((event) => event.id !== undefined)).toEqual([]);
  });
});
