/**
 * The runtime smoke test on workerd, the Cloudflare Workers runtime (the `workerd` devDependency):
 * a module bundled by esbuild as the worker, served on a 127.0.0.1 socket on a free port that
 * workerd reports on its control fd. Workers forbid a request to settle a promise of another
 * request, and cancel a request that waits on one as hung: workerd's output must stay clean.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { META } from "../../src/core/types.js";
import { EventReader, messageOf } from "../http-helpers.js";
import {
  ROOT,
  rawExchange,
  SERVER,
  START_TIMEOUT,
  type Started,
  smokeV1,
  smokeV2,
  start,
  workerdExecutable,
} from "./harness.js";

/** A workerd config serving worker.js on 127.0.0.1, port 0; `extra` adds fields to the worker. */
function config(extra = ""): string {
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2026-01-01",${extra}
);
`;
}

/** One Durable Object class, kept in memory, bound as `SESSIONS` (test/runtimes/durable-object.ts). */
const DURABLE_OBJECT = `
  durableObjectNamespaces = [(className = "McpSessions", uniqueKey = "picomcp-sessions")],
  durableObjectStorage = (inMemory = void),
  bindings = [(name = "SESSIONS", durableObjectNamespace = "McpSessions")],`;

/** What workerd writes when a request hangs, a promise crosses requests, or an exception escapes. */
const TROUBLE = /error|warning|uncaught|hung|canceled|different request context/i;

interface Worker extends Started {
  readonly dir: string;
}

/** Bundles `entry` as the worker and starts workerd on it. */
async function startWorker(entry: string, extra?: string): Promise<Worker> {
  const dir = await mkdtemp(join(tmpdir(), "picomcp-workerd-"));
  await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    target: "es2022",
    outfile: join(dir, "worker.js"),
    logLevel: "silent",
  });
  await writeFile(join(dir, "config.capnp"), config(extra));
  // workerd reports the port it bound on its control fd: `{"event":"listen","socket":"http","port":…}`.
  const started = await start(workerdExecutable(), ["serve", "config.capnp", "--control-fd=3"], {
    cwd: dir,
    from: "fd3",
    endpoint: (line) => {
      const event = JSON.parse(line) as { event?: string; port?: number };
      return event.event === "listen" ? `http://127.0.0.1:${event.port}/mcp` : undefined;
    },
  });
  return { ...started, dir };
}

async function stopWorker(worker: Worker | undefined): Promise<void> {
  await worker?.stop();
  if (worker) await rm(worker.dir, { recursive: true, force: true });
}

/** Stops the worker, so everything workerd had to say about the requests is written, and checks it said nothing wrong. */
async function expectCleanOutput(worker: Worker): Promise<void> {
  await worker.stop();
  expect(worker.output()).not.toMatch(TROUBLE);
}

/** One JSON-RPC POST of the 2025-11-25 era, as a client without a session sends it after `initialize`. */
function legacy(url: string, method: string, params: Record<string, unknown>, id?: number): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(method === "initialize" ? {} : { "mcp-protocol-version": "2025-11-25" }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", ...(id === undefined ? {} : { id }), method, params }),
  });
}

/** A 2026-07-28 request: the envelope in `_meta`, the standard headers mirroring it. */
function modern(url: string, method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (typeof params.name === "string") headers["mcp-name"] = params.name;
  return fetch(url, {
    method: "POST",
    signal,
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: method,
      method,
      params: { ...params, _meta: { [META.protocolVersion]: "2026-07-28", [META.clientCapabilities]: {} } },
    }),
  });
}

/** The text of a tools/call result. */
async function callText(url: string, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const answer = (await (await modern(url, "tools/call", { name, arguments: args })).json()) as {
    result: { content: { text: string }[] };
  };
  return answer.result.content[0]!.text;
}

describe("export default server on workerd", () => {
  let worker: Worker;
  beforeAll(async () => {
    worker = await startWorker(SERVER);
  }, START_TIMEOUT);
  afterAll(() => stopWorker(worker));

  it("serves the v1 client without a session: list, call, progress over SSE, validation error", () =>
    smokeV1(worker.url, "workerd", { session: false }));

  it("answers a 2025-11-25 initialize without Mcp-Session-Id, and the calls after it on their own", async () => {
    const init = await legacy(
      worker.url,
      "initialize",
      { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      1,
    );
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toBeNull();
    expect(await init.json()).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
    expect((await legacy(worker.url, "notifications/initialized", {})).status).toBe(202);
    const stream = await fetch(worker.url, { headers: { accept: "text/event-stream" } });
    expect(stream.status).toBe(405);
    expect(stream.headers.get("allow")).toBe("POST");
    await stream.body?.cancel();
    const call = await legacy(worker.url, "tools/call", { name: "greet", arguments: { name: "Di" } }, 2);
    expect(await call.json()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: "Hello, Di, from workerd" }] },
    });
  });

  it("serves the v2 client in the 2026-07-28 era", () => smokeV2(worker.url, "workerd"));

  it("leaves workerd's output clean: no hung request, no promise across requests, no uncaught error", () =>
    expectCleanOutput(worker));
});

describe("sessions turned on in a Durable Object on workerd", () => {
  let worker: Worker;
  beforeAll(async () => {
    worker = await startWorker("test/runtimes/durable-object.ts", DURABLE_OBJECT);
  }, START_TIMEOUT);
  afterAll(() => stopWorker(worker));

  it("serves the v1 client a session: list, call, progress over SSE, validation error, GET stream, DELETE", () =>
    smokeV1(worker.url, "workerd"));

  it("serves the v2 client in the 2026-07-28 era", () => smokeV2(worker.url, "workerd"));

  it("answers a session id it does not hold with 404, saying where sessions live on Workers", async () => {
    // As a plain Worker's isolate answers a session another isolate started.
    const call = await fetch(worker.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        "mcp-session-id": "started-in-another-isolate",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(call.status).toBe(404);
    // Was: "it ended or expired" alone, on Workers too, where the likelier reason is the isolate.
    expect(await call.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message:
          'Session not found: it ended or expired, or another isolate of this Worker holds it (on Cloudflare Workers each isolate keeps its own sessions unless one Durable Object serves them: picomcp\'s docs/http.md, "Cloudflare Workers"); send initialize to start a new session',
      },
    });
  });

  it("leaves workerd's output clean", () => expectCleanOutput(worker));
});

describe("a Worker across requests on workerd", () => {
  let worker: Worker;
  beforeAll(async () => {
    worker = await startWorker("test/runtimes/worker-extras.ts");
  }, START_TIMEOUT);
  afterAll(() => stopWorker(worker));

  it("ends every call at limits.handlerTimeoutMs, not only the first request's", async () => {
    // A timer set in one request dies with it on Workers: each call needs a deadline of its own.
    for (let call = 1; call <= 3; call++) {
      expect(await callText(worker.url, "sleep"), `call ${call}`).toBe(
        'Tool "sleep" did not finish within 0.2 s (limits.handlerTimeoutMs) and was cancelled.',
      );
      expect(await callText(worker.url, "greet", { name: "Ed" })).toBe("Hello, Ed, from workerd");
    }
  });

  it("answers a body that stops arriving 408 at limits.receiveTimeoutMs", async () => {
    const stalled =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
      `Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n${" ".repeat(999)}`;
    const { status, body } = await rawExchange(Number(new URL(worker.url).port), stalled);
    // Was: 400 "the request body could not be read": workerd rejects the read the deadline cancels.
    expect(status).toBe(408);
    expect(JSON.parse(body)).toMatchObject({
      error: {
        message:
          "Request Timeout: the request body was still arriving after 0.5 s (limits.receiveTimeoutMs); send the whole request at once",
      },
    });
  });

  it("keeps a subscriptions/listen stream open, and sends it a list change made by another request", async () => {
    const leave = new AbortController();
    const listen = new EventReader(
      await modern(worker.url, "subscriptions/listen", { notifications: { toolsListChanged: true } }, leave.signal),
    );
    try {
      expect(messageOf(await listen.next())).toMatchObject({ method: "notifications/subscriptions/acknowledged" });
      expect(await callText(worker.url, "toggle_spare")).toBe("added");
      expect(messageOf(await listen.next())).toEqual({
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { [META.subscriptionId]: "subscriptions/listen" } },
      });
    } finally {
      leave.abort();
    }
    // workerd learns that the client left when it next writes to the stream: a change after it is harmless.
    expect(await callText(worker.url, "toggle_spare")).toBe("removed");
  });

  it("tells a 2025 client's tool that asks a question what to do on Workers: a Durable Object, not sessions on", async () => {
    const capabilities = { elicitation: {} };
    const clientInfo = { name: "raw", version: "1" };
    await legacy(worker.url, "initialize", { protocolVersion: "2025-11-25", capabilities, clientInfo }, 1);
    const call = await legacy(worker.url, "tools/call", { name: "ask_name", arguments: {} }, 2);
    // Was: "Use a session (the default), …": on Workers sessions are off by default, and turning them
    // on in a plain Worker loses them between isolates.
    expect(await call.json()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: {
        content: [
          {
            type: "text",
            text: "This request cannot ask the client for input: it came over stateless HTTP, which has no way back to the client. On Cloudflare Workers, 2025 clients are served without sessions, since a Worker's isolates share no memory: serve sessions from a Durable Object (picomcp's docs/http.md, \"Cloudflare Workers\"), or use the 2026-07-28 protocol.",
          },
        ],
        isError: true,
      },
    });
  });

  it("leaves workerd's output clean", () => expectCleanOutput(worker));
});
