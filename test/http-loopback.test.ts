import { afterEach, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { testIssuer } from "../src/testing.js";
import { isLoopbackHost } from "../src/transports/http/security.js";
import type { Listening } from "../src/transports/listen.js";
import { BOTH, hostRefused, modernMessage } from "./http-helpers.js";
import { RawClient, requestHead } from "./socket-helpers.js";

/**
 * The loopback Host check of serve() (DNS rebinding protection, 2025-11-25 "Security Warning") on
 * every spelling of a loopback address, ahead of every route, with Host headers parsed strictly;
 * over real loopback listeners, with raw sockets where a Host must be forged.
 */

const open: Listening[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((listening) => listening.close()));
});

async function serve(host: string, auth = false): Promise<Listening> {
  const issuer = auth ? await testIssuer() : undefined;
  const app = pico({
    name: "loopback",
    version: "1.0.0",
    signals: false,
    auth: issuer && { verify: issuer.verify, authorizationServers: [issuer.issuer] },
  }).tool("hello", { run: () => "hello" });
  const listening = await app.serve({ port: 0, host });
  open.push(listening);
  return listening;
}

/** A raw request to the listener, as `host` names it, with the given Host header. */
async function send(
  listening: Listening,
  bound: string,
  request: { method?: string; path?: string; host: string; headers?: Record<string, string>; body?: string },
) {
  const client = await RawClient.connect(listening.port, bound);
  const body = request.body ?? "";
  await client.write(
    requestHead(request.method ?? "POST", request.path ?? "/mcp", {
      host: request.host,
      connection: "close",
      ...(request.method === "GET" ? {} : { "content-length": String(Buffer.byteLength(body)) }),
      ...request.headers,
    }) + body,
  );
  const response = await client.fullResponse(5000);
  client.destroy();
  return response;
}

const HELLO = modernMessage("tools/call", { name: "hello" }, 1);
const CALL = JSON.stringify(HELLO.body);
const CALL_HEADERS = { "content-type": "application/json", accept: BOTH, ...HELLO.headers };

describe("isLoopbackHost", () => {
  it("is true for localhost, all of 127.0.0.0/8, and ::1 and ::ffff:127.x.y.z in every spelling", () => {
    for (const host of [
      "localhost",
      "LOCALHOST",
      "127.0.0.1",
      "127.255.3.4",
      "127.1",
      "0x7f.0.0.1",
      "2130706433",
      "0177.0.0.1",
      "::1",
      "[::1]",
      "0:0:0:0:0:0:0:1",
      "[0000:0000:0000:0000:0000:0000:0000:0001]",
      "::0:1",
      "::ffff:127.0.0.1",
      "[::ffff:127.9.8.7]",
      "::ffff:7f00:1",
      "0:0:0:0:0:ffff:7f00:0001",
      "::1%lo",
    ]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
  });

  it("is false for every other address and for names that only look like one", () => {
    for (const host of [
      "",
      "0.0.0.0",
      "::",
      "128.0.0.1",
      "126.255.255.255",
      "10.0.0.1",
      "127.0.0.1.evil.example.com",
      "127.evil.example.com",
      "localhost.evil.example.com",
      "evil-localhost",
      "::2",
      "::ffff:10.0.0.1",
      "::ffff:8000:1",
      "::127.0.0.1",
      "1::1",
      "::1::",
      "[::1",
      "127.0.0.256",
      "127.0.0.1.2",
      "0x7f.0.0.1x",
      "localhost/evil",
      "evil.example.com@127.0.0.1",
      "127.0.0.1#",
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe.each([
  ["::ffff:127.0.0.1", "[::ffff:127.0.0.1]"],
  ["0:0:0:0:0:0:0:1", "[0:0:0:0:0:0:0:1]"],
  ["::1", "[::1]"],
  ["127.0.0.1", "127.0.0.1"],
])("serve() bound to %s", (bound, literal) => {
  it("answers a foreign Host with 403 before reading the body", async () => {
    const listening = await serve(bound);
    const client = await RawClient.connect(listening.port, bound);
    // The body is announced and never sent: an answer can only come before it is read.
    await client.write(
      requestHead("POST", "/mcp", { host: "evil.example.com", "content-length": "1000", ...CALL_HEADERS }),
    );
    const response = await client.fullResponse(5000);
    client.destroy();
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body).error.message).toBe(hostRefused("evil.example.com"));
  });

  it("accepts the loopback Host headers, its own address in any spelling among them", async () => {
    const listening = await serve(bound);
    for (const host of [literal, `${literal}:${listening.port}`, "localhost", `127.0.0.1:${listening.port}`, "[::1]"]) {
      const response = await send(listening, bound, { host, headers: CALL_HEADERS, body: CALL });
      expect(response.status, host).toBe(200);
    }
  });
});

describe("the Host header on a loopback server", () => {
  it("is parsed strictly: host[:port] with a numeric port, IPv6 in brackets; anything else answers 400", async () => {
    const listening = await serve("127.0.0.1");
    for (const host of [
      "127.0.0.1:evil.example.com",
      "localhost:1@evil.example.com",
      "localhost@evil.example.com",
      "127.0.0.1:80:81",
      "localhost:",
      "localhost:99999",
      "localhost:-1",
      "[::1",
      "::1",
      "[::1]x",
      "[evil.example.com]",
      "local host",
      "localhost/evil",
      "localhost,evil.example.com",
    ]) {
      const response = await send(listening, "127.0.0.1", { host, headers: CALL_HEADERS, body: CALL });
      expect(response.status, host).toBe(400);
      expect(JSON.parse(response.body).error.message, host).toBe(
        `Bad Request: the Host header ${JSON.stringify(host)} is not a host name or address with an optional numeric port`,
      );
    }
  });

  it("is checked ahead of the OAuth protected resource metadata", async () => {
    const listening = await serve("127.0.0.1", true);
    const own = `127.0.0.1:${listening.port}`;
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const forged = await send(listening, "127.0.0.1", { method: "GET", path, host: "evil.example.com" });
      expect(forged.status, path).toBe(403);
      expect(JSON.parse(forged.body)).toEqual({
        jsonrpc: "2.0",
        error: { code: -32600, message: hostRefused("evil.example.com") },
      });
      const served = await send(listening, "127.0.0.1", { method: "GET", path, host: own });
      expect(served.status, path).toBe(200);
      expect(JSON.parse(served.body).resource).toBe(`http://${own}/mcp`);
    }
  });

  it("serves the OAuth protected resource metadata at its exact paths only (RFC 9728 §3.1)", async () => {
    const listening = await serve("127.0.0.1", true);
    const own = `127.0.0.1:${listening.port}`;
    for (const path of [
      "/.well-known/oauth-protected-resource/other",
      "/.well-known/oauth-protected-resource/mcp/more",
      "/.well-known/oauth-protected-resource/",
    ]) {
      const response = await send(listening, "127.0.0.1", { method: "GET", path, host: own });
      expect(response.status, path).toBe(404);
    }
  });

  it("is checked ahead of the 404 of another path", async () => {
    const listening = await serve("127.0.0.1");
    const response = await send(listening, "127.0.0.1", { path: "/other", host: "evil.example.com" });
    expect(response.status).toBe(403);
  });
});
