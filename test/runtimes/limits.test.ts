/**
 * The limits on Bun.serve and Deno.serve (`serve({ port })`), where the runtime, not node:http,
 * receives requests and sends answers: a body that stops arriving is ended at
 * limits.receiveTimeoutMs, as Node's listener does, so that a few such bodies cannot hold
 * limits.maxBodyBytesInFlight, and every other POST out, for good; and a client that does not read
 * its event stream has it dropped at limits.maxSseBufferBytes, said in one line on the server's
 * output.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { META } from "../../src/core/types.js";
import {
  bunExecutable,
  denoExecutable,
  printed,
  rawExchange,
  START_TIMEOUT,
  type Started,
  start,
  versionOf,
} from "./harness.js";

const FIXTURE = "test/runtimes/limits.ts";
const ENV = { PICO_PORT: "", LIMITS_PORT: "0", DENO_NO_UPDATE_CHECK: "1" };
const DENO_FLAGS = ["--no-lock", "--no-prompt", "--sloppy-imports", "--allow-env", "--allow-net=127.0.0.1"];
/** How long a test waits for the server to do something: a failure guard, not a measure. */
const WAIT_MS = 10_000;

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** A 2026-07-28 tools/call, as the standard headers and the `_meta` envelope say it. */
function modernCall(name: string, meta: Record<string, unknown> = {}) {
  return {
    headers: { ...HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name,
        arguments: name === "greet" ? { name: "Ada" } : {},
        _meta: { [META.protocolVersion]: "2026-07-28", [META.clientCapabilities]: {}, ...meta },
      },
    }),
  };
}

/** A POST that says its body is 1000 bytes long, sends all of it but the last byte, and stays open. */
const STALLED =
  "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
  `Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n${" ".repeat(999)}`;

describe.each([
  { runtime: `bun ${versionOf("bun")}`, command: bunExecutable, args: ["--eval", `await import("./${FIXTURE}")`] },
  { runtime: `deno ${versionOf("deno")}`, command: denoExecutable, args: ["run", ...DENO_FLAGS, FIXTURE] },
])("serve() on $runtime", ({ runtime, command, args }) => {
  let server: Started;
  beforeAll(async () => {
    server = await start(command(), args, { env: ENV });
  }, START_TIMEOUT);
  afterAll(() => server?.stop());

  it("answers a body that stops arriving 408 at limits.receiveTimeoutMs, and frees what it held of the body budget", async () => {
    const port = Number(new URL(server.url).port);
    // Two of them hold the whole budget (2000 bytes) while they wait.
    const stalled = await Promise.all([rawExchange(port, STALLED), rawExchange(port, STALLED)]);
    // Was, on Deno: never answered, and the budget held for good (every other POST 503); on Bun: cut
    // without an answer after Bun's idleTimeout (10 s).
    for (const { status, body } of stalled) {
      expect(status).toBe(408);
      expect(JSON.parse(body)).toEqual({
        jsonrpc: "2.0",
        error: {
          code: -32600,
          message:
            "Request Timeout: the request body was still arriving after 0.5 s (limits.receiveTimeoutMs); send the whole request at once",
        },
      });
    }
    const { headers, body } = modernCall("greet");
    const answer = await fetch(server.url, { method: "POST", headers, body, signal: AbortSignal.timeout(WAIT_MS) });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      result: { content: [{ type: "text", text: `Hello, Ada, from ${runtime}` }] },
    });
  });

  it("drops the event stream of a client that does not read it, and says so in one line, not a stack", async () => {
    // A subscriptions/listen stream watching the resource the flood announces: its updates must not be
    // missed, so a reader too far behind is dropped (a request's own stream lets its logs and progress
    // go instead, since 488a6ba).
    const note = `notes://${"x".repeat(600)}`; // limits.ts's NOTE
    const listen = {
      headers: { ...HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "subscriptions/listen" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "subscriptions/listen",
        params: {
          notifications: { resourceSubscriptions: [note] },
          _meta: { [META.protocolVersion]: "2026-07-28", [META.clientCapabilities]: {} },
        },
      }),
    };
    const req = request(server.url, { method: "POST", agent: false, headers: listen.headers, timeout: WAIT_MS });
    try {
      const response = await new Promise<import("node:http").IncomingMessage>((resolve, reject) => {
        req.once("response", resolve).once("error", reject);
        req.once("timeout", () => req.destroy(new Error(`no response head within ${WAIT_MS} ms`)));
        req.end(listen.body);
      });
      expect(response.headers["content-type"]).toBe("text/event-stream");
      response.pause(); // Not read: what the server writes waits for this client.
      const { headers, body } = modernCall("flood");
      const flooded = await fetch(server.url, { method: "POST", headers, body, signal: AbortSignal.timeout(WAIT_MS) });
      expect(await flooded.text()).toContain("flooded");
      await printed(server, "flood: all sent");
      // Reading again, the client takes what was on its way, then finds the stream cut (Bun tells of the
      // drop only then).
      await new Promise((resolve) =>
        response
          .once("close", resolve)
          .on("error", () => {})
          .resume(),
      );
    } finally {
      req.destroy();
    }
    await printed(
      server,
      'picomcp: an event stream was dropped: its client read it too slowly, and more than limits.maxSseBufferBytes waited for it (docs/limits.md, "SSE streams and slow readers")',
    );
    const output = server.output();
    // Was: "The reader fell too far behind; the stream was dropped" as an Error, with picomcp's stack
    // (and, on Bun, the lines of web.ts around it), as if picomcp had failed.
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain("web.ts");
  });
});
