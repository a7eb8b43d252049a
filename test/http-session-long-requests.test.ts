import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, expect, it, vi } from "vitest";
import { pico } from "../src/index.js";
import { initialize, inSession, remote, signal, within } from "./http-helpers.js";

/**
 * A 2025-11-25 session whose only traffic is one request that runs longer than
 * `sessions.idleTimeoutMs` and is answered as plain JSON (no stream): the session was in use the
 * whole time, so the client's next request finds it (2025-11-25 "Session Management": the server
 * may end a session, but one in use is not idle). Was: its last use stayed the request's start, and
 * the next request's sweep forgot it, 404. A session with an open stream is in use on that account
 * (test/http-sessions.test.ts): the official v1 client holds a GET stream open, so here it is given
 * a fetch that the GET is refused to (405, as a server without one answers), as a client without
 * one is. Over a real listener; only Date is faked, so the idle time passes without a wait.
 */

const IDLE_MS = 1000;

const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const close of closers.splice(0).reverse()) await close();
});

/** A server whose tool "slow" runs until the test lets it answer. */
async function listen() {
  const started = signal();
  const done = signal<string>();
  const server = pico({
    name: "long",
    version: "1.0.0",
    signals: false,
    http: { sessions: { idleTimeoutMs: IDLE_MS } },
  })
    .tool("slow", {
      description: "Answers once the test lets it.",
      run: () => {
        started.resolve();
        return done.promise;
      },
    })
    .tool("hello", { description: "Says hello.", run: () => "hello" });
  const listening = await server.serve({ port: 0 });
  closers.push(() => listening.close());
  return { url: new URL(listening.url), started, finish: done.resolve };
}

it("keeps a session whose request ran longer than idleTimeoutMs and was answered as JSON (official v1 client)", async () => {
  const { url, started, finish } = await listen();
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: (input, init) =>
      init?.method === "GET" ? Promise.resolve(new Response(null, { status: 405 })) : fetch(input, init),
  });
  const client = new Client({ name: "v1", version: "1.0.0" });
  await client.connect(transport);
  closers.push(() => client.close());
  vi.useFakeTimers({ toFake: ["Date"] });
  const start = Date.now();
  const call = client.callTool({ name: "slow" }, undefined, { timeout: 5000 });
  await within(started.promise, 5000, "the tool running");
  vi.setSystemTime(start + 5 * IDLE_MS);
  finish("done");
  expect(await call).toEqual({ content: [{ type: "text", text: "done" }] });
  // Was: a 404, "Session not found: it ended or expired; send initialize to start a new session".
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["slow", "hello"]);
});

it("keeps a 2025-03-26 session whose batch ran longer than idleTimeoutMs", async () => {
  const { url, started, finish } = await listen();
  const server = remote(url.href);
  const session = await initialize(server, "2025-03-26");
  const headers = { "mcp-protocol-version": "2025-03-26" };
  vi.useFakeTimers({ toFake: ["Date"] });
  const start = Date.now();
  const batch = server.fetch(
    inSession(
      session,
      [
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow" } },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "hello" } },
      ],
      headers,
    ),
  );
  await within(started.promise, 5000, "the tool running");
  vi.setSystemTime(start + 5 * IDLE_MS);
  finish("done");
  expect((await batch).status).toBe(200);
  expect(await (await batch).json()).toHaveLength(2);
  // Was: 404, the session forgotten by this request's sweep.
  const next = await server.fetch(inSession(session, { jsonrpc: "2.0", id: 3, method: "tools/list" }, headers));
  expect(next.status).toBe(200);
  await next.body?.cancel();
});
