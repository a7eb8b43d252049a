/**
 * Request bodies on Bun.serve and Deno.serve (`serve({ port })`), which put no bound of their own on
 * a body that stops arriving: limits.receiveTimeoutMs ends it, as Node's listener does, so that a
 * few such bodies cannot hold limits.maxBodyBytesInFlight, and every other POST out, for good.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bunExecutable,
  denoExecutable,
  rawExchange,
  START_TIMEOUT,
  type Started,
  smokeV2,
  start,
  versionOf,
} from "./harness.js";

const FIXTURE = "test/runtimes/bodies.ts";
const ENV = { PICO_PORT: "", BODIES_PORT: "0", DENO_NO_UPDATE_CHECK: "1" };
const DENO_FLAGS = ["--no-lock", "--no-prompt", "--sloppy-imports", "--allow-env", "--allow-net=127.0.0.1"];

/** A POST that says its body is 1000 bytes long, sends all of it but the last byte, and stays open. */
function stalledPost(): string {
  return (
    "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
    `Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n${" ".repeat(999)}`
  );
}

describe.each([
  { runtime: `bun ${versionOf("bun")}`, command: bunExecutable, args: ["--eval", `await import("./${FIXTURE}")`] },
  { runtime: `deno ${versionOf("deno")}`, command: denoExecutable, args: ["run", ...DENO_FLAGS, FIXTURE] },
])("a body that stops arriving, serve() on $runtime", ({ runtime, command, args }) => {
  let server: Started;
  beforeAll(async () => {
    server = await start(command(), args, { env: ENV });
  }, START_TIMEOUT);
  afterAll(() => server?.stop());

  it("is answered 408 at limits.receiveTimeoutMs, and what it held of the body budget is free again", async () => {
    const port = Number(new URL(server.url).port);
    // Two of them hold the whole budget (2000 bytes) while they wait.
    const stalled = await Promise.all([rawExchange(port, stalledPost()), rawExchange(port, stalledPost())]);
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
    await smokeV2(server.url, runtime);
  });
});
