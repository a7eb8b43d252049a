/**
 * The plug-in example (examples/plugin/echo-extension.ts): its server run as a child process over
 * stdio, driven with raw JSON-RPC in both eras (a 2025-11-25 session, then 2026-07-28 requests with
 * `_meta`), and over Streamable HTTP through `server.fetch`: the method it adds answers, with a
 * precise error for bad params, and `capabilities.extensions` advertises it.
 */
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEchoServer, ECHO_EXTENSION } from "../../examples/plugin/echo-extension.js";
import { modern, modernMessage } from "../http-helpers.js";
import { type LineClient, type Program, ROOT, spawnLineClient } from "../size-helpers.js";

const EXTENSION = { [ECHO_EXTENSION]: { maxLength: 100 } };
const TOO_LONG = "echo/say echoes at most 100 characters; got 101. Send a shorter text.";

const running: Program[] = [];
afterEach(async () => {
  for (const program of running.splice(0)) {
    program.child.stdin.end();
    // A failure guard, not a measurement: the server exits once stdin ends.
    const timer = setTimeout(() => program.child.kill("SIGKILL"), 10_000);
    expect(await program.exited).toBe(0);
    clearTimeout(timer);
  }
});

function serveExample(file = "examples/plugin/echo-extension.ts"): LineClient {
  return spawnLineClient(file, running);
}

describe("the echo extension plug-in over stdio", () => {
  it("2025-11-25: initialize advertises the extension; echo/say answers, and refuses bad params precisely", async () => {
    const client = serveExample();
    const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "echo-test", version: "1" } };
    expect(await client.request({ jsonrpc: "2.0", id: 1, method: "initialize", params })).toMatchObject({
      result: { capabilities: { tools: {}, extensions: EXTENSION } },
    });
    client.notify({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(await client.request({ jsonrpc: "2.0", id: 2, method: "echo/say", params: { text: "hi" } })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { text: "hi", era: "legacy" },
    });
    expect(await client.request({ jsonrpc: "2.0", id: 3, method: "echo/say", params: {} })).toMatchObject({
      error: { code: -32602, message: "echo/say needs params.text: the text to echo back, a string" },
    });
    const long = { jsonrpc: "2.0", id: 4, method: "echo/say", params: { text: "x".repeat(101) } };
    expect(await client.request(long)).toMatchObject({ error: { code: -32602, message: TOO_LONG } });
  });

  // Was: nothing served, exit 0, for Node names the module by its real path and argv[1] as typed.
  it("serves when started through a symlinked folder, as macOS's /tmp is /private/tmp", async () => {
    const folder = mkdtempSync(join(tmpdir(), "picomcp-link-"));
    try {
      symlinkSync(join(ROOT, "examples"), join(folder, "examples"), "dir");
      const client = serveExample(join(folder, "examples/plugin/echo-extension.ts"));
      expect(await client.request(modernMessage("echo/say", { text: "hi" }, 1).body)).toMatchObject({
        result: { text: "hi", era: "modern" },
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("2026-07-28: server/discover advertises the extension; echo/say answers with the era's fields", async () => {
    const client = serveExample();
    expect(await client.request(modernMessage("server/discover", {}, 1).body)).toMatchObject({
      result: { capabilities: { extensions: EXTENSION } },
    });
    expect(await client.request(modernMessage("echo/say", { text: "hi" }, 2).body)).toMatchObject({
      result: { text: "hi", era: "modern", resultType: "complete" },
    });
  });
});

describe("the echo extension plug-in over Streamable HTTP (server.fetch)", () => {
  it("answers a 2026-07-28 echo/say, and an unknown method is still not found", async () => {
    const server = createEchoServer();
    const response = await server.fetch(modern("echo/say", { text: "over HTTP" }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ result: { text: "over HTTP", era: "modern" } });
    expect((await server.fetch(modern("echo/shout", { text: "x" }))).status).toBe(404);
  });
});
