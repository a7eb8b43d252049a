/**
 * Calls that outlast a second on Deno (the `deno` devDependency), where picomcp never reads
 * `request.signal` (web.ts, DENO_STREAM_AFTER_MS): their answers arrive, Deno prints no warning of
 * its own about the signal, and a client that drops the connection mid-call aborts the tool's
 * `ctx.signal`, in both eras and in a 2025-03-26 batch (batch-post.ts). Once through `server.serve()`
 * on Deno.serve, once as `export default server` under `deno serve`, once with Deno's
 * `--unstable-no-legacy-abort`.
 *
 * Deno (2.9) does abort `request.signal` when the client drops the connection before the answer, in
 * either mode; but in its default one, the first time a handler that read the signal answers, it
 * prints a warning that the signal also aborts on successful responses (legacy behavior), which
 * picomcp never makes a server print. So a request or batch still running after a second becomes an
 * event stream, whose body Deno cancels when its client leaves.
 */
import type { IncomingMessage } from "node:http";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  denoExecutable,
  modernCall,
  openSession,
  post,
  printed,
  START_TIMEOUT,
  type Started,
  start,
} from "./harness.js";

const FIXTURE = "test/runtimes/slow.ts";
const FLAGS = ["--no-lock", "--no-prompt", "--sloppy-imports", "--allow-env=PICO_PORT", "--allow-net=127.0.0.1"];
const ENV = { DENO_NO_UPDATE_CHECK: "1" };
/** The whole body of a response. */
async function text(response: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of response) body += String(chunk);
  return body;
}

/** A 2025-03-26 batch of tools/call requests, ids from 1: each `[name, args]`. */
const batchOf = (calls: [string, Record<string, unknown>][]) =>
  calls.map(([name, args], index) => ({
    jsonrpc: "2.0",
    id: index + 1,
    method: "tools/call",
    params: { name, arguments: args },
  }));

/** The tests every way of serving runs; `name` tells the tags of one server's calls apart. */
function slowCalls(server: () => Started, name: string): void {
  it("answers a call of 1.5 s to the v1 client (session) and the v2 client", async () => {
    const v1 = new Client({ name: "slow-v1", version: "1.0.0" });
    const v2 = new ClientV2({ name: "slow-v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
    try {
      await v1.connect(new StreamableHTTPClientTransport(new URL(server().url)));
      await v2.connect(new TransportV2(new URL(server().url)));
      const done = [{ type: "text", text: "done after 1.5 s" }];
      const [legacy, modern] = await Promise.all([
        v1.callTool({ name: "slow", arguments: {} }),
        v2.callTool({ name: "slow", arguments: {} }),
      ]);
      expect(legacy.content).toEqual(done);
      expect(modern.content).toEqual(done);
    } finally {
      await Promise.all([v1.close(), v2.close()]);
    }
  });

  it("answers a call still running after a second as an event stream, a client that takes only JSON in JSON", async () => {
    const streamed = await modernCall(server().url, "slow", {}).response;
    expect(streamed.headers["content-type"]).toBe("text/event-stream");
    expect(await text(streamed)).toContain('"text":"done after 1.5 s"');
    const json = await modernCall(server().url, "slow", {}, "application/json").response;
    expect(json.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(await text(json))).toMatchObject({ id: 1, result: { content: [{ text: "done after 1.5 s" }] } });
  });

  it("aborts ctx.signal of a 2026-07-28 call whose client drops the connection before the second is up", async () => {
    const tag = `${name}-modern-early`;
    const call = modernCall(server().url, "hang", { tag });
    await printed(server(), `hang ${tag}: started`);
    call.drop();
    await printed(server(), `hang ${tag}: aborted`);
  });

  it("aborts ctx.signal of a 2026-07-28 call whose client drops the connection once it streams", async () => {
    const tag = `${name}-modern-streaming`;
    const call = modernCall(server().url, "hang", { tag });
    expect((await call.response).headers["content-type"]).toBe("text/event-stream");
    call.drop();
    await printed(server(), `hang ${tag}: aborted`);
  });

  it("aborts ctx.signal of a call in a 2025-11-25 session whose client drops the connection", async () => {
    const tag = `${name}-session`;
    const session = await openSession(server().url);
    const call = post(
      server().url,
      { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hang", arguments: { tag } } },
    );
    expect((await call.response).headers["content-type"]).toBe("text/event-stream");
    call.drop();
    await printed(server(), `hang ${tag}: aborted`);
  });

  it("answers a 2025-03-26 batch still running after a second as an event stream, a client that takes only JSON in JSON", async () => {
    const session = await openSession(server().url, "2025-03-26");
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-03-26" };
    const batch = batchOf([
      ["slow", {}],
      ["slow", {}],
    ]);
    const streamed = await post(server().url, headers, batch).response;
    expect(streamed.headers["content-type"]).toBe("text/event-stream");
    // One event per answer (2025-03-26 "Sending Messages to the Server").
    const events = (await text(streamed)).match(/^data: .*$/gm) ?? [];
    expect(events.map((event) => JSON.parse(event.slice("data: ".length)))).toMatchObject([
      { id: 1, result: { content: [{ text: "done after 1.5 s" }] } },
      { id: 2, result: { content: [{ text: "done after 1.5 s" }] } },
    ]);
    const json = await post(server().url, { ...headers, accept: "application/json" }, batch).response;
    expect(json.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(await text(json))).toMatchObject([{ id: 1 }, { id: 2 }]);
  });

  it("aborts ctx.signal of every request of a 2025-03-26 batch whose client drops the connection, and frees their slots", async () => {
    const tags = [1, 2].map((n) => `${name}-batch-${n}`);
    const session = await openSession(server().url, "2025-03-26");
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-03-26" };
    const call = post(server().url, headers, batchOf(tags.map((tag) => ["hang", { tag }])));
    for (const tag of tags) await printed(server(), `hang ${tag}: started`);
    call.drop();
    // Was: neither aborted (a batch's answer never became a stream, and Deno shows a client leaving
    // only by cancelling one), and both held the server's two slots: the next request got 503.
    for (const tag of tags) await printed(server(), `hang ${tag}: aborted`);
    const next = await post(server().url, headers, batchOf([["slow", {}]])[0]).response;
    expect(next.statusCode).toBe(200);
    expect(await text(next)).toContain('"text":"done after 1.5 s"');
  });

  it("prints no warning of Deno's about reading request.signal", () => {
    expect(server().output()).toContain("hang");
    expect(server().output()).not.toContain("request.signal");
  });
}

describe("calls of over a second on Deno, server.serve()", () => {
  let server: Started;
  beforeAll(async () => {
    server = await start(denoExecutable(), ["run", ...FLAGS, FIXTURE], { env: ENV });
  }, START_TIMEOUT);
  afterAll(() => server?.stop());
  slowCalls(() => server, "serve");
});

describe("calls of over a second on Deno, export default server under deno serve", () => {
  let server: Started;
  beforeAll(async () => {
    server = await start(denoExecutable(), ["serve", ...FLAGS, "--host", "127.0.0.1", "--port", "0", FIXTURE], {
      env: { ...ENV, PICO_PORT: "" },
      from: "stderr",
      endpoint: (line) => /Listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(line)?.[1]?.concat("/mcp"),
    });
  }, START_TIMEOUT);
  afterAll(() => server?.stop());
  slowCalls(() => server, "deno-serve");
});

describe("calls of over a second on Deno, server.serve() with --unstable-no-legacy-abort", () => {
  let server: Started;
  beforeAll(async () => {
    server = await start(denoExecutable(), ["run", "--unstable-no-legacy-abort", ...FLAGS, FIXTURE], { env: ENV });
  }, START_TIMEOUT);
  afterAll(() => server?.stop());
  slowCalls(() => server, "no-legacy-abort");
});
