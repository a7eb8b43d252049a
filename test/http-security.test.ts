import { describe, expect, it } from "vitest";
import { ErrorCode, pico } from "../src/index.js";
import type { HttpOptions } from "../src/transports/http/options.js";
import { bare, hostRefused, initialize, modern, originRefused } from "./http-helpers.js";

/**
 * Host and Origin validation against DNS rebinding (spec-2025-11-25 §17.2, 2026-07-28 §5.2):
 * a present Origin that is neither the server's own nor allowed gets 403, and so does a Host
 * outside `allowedHosts`, before anything else about the request is looked at.
 */

function server(http: HttpOptions = {}) {
  return pico({ name: "guarded", version: "1", http }).tool("hello", { run: () => "hello" });
}

const hello = (headers: Record<string, string | null>) => modern("tools/call", { name: "hello" }, headers);

async function expectForbidden(response: Response, message: string) {
  expect(response.status).toBe(403);
  expect(await response.json()).toEqual({
    jsonrpc: "2.0",
    error: { code: ErrorCode.InvalidRequest, message },
  });
}

describe("Host", () => {
  it("is not checked by fetch unless allowedHosts is set (a Worker sits behind its own routing)", async () => {
    expect((await server().fetch(hello({ host: "evil.example.com" }))).status).toBe(200);
  });

  it("must be in allowedHosts: a bare name allows any port, a name with a port only that port", async () => {
    const app = server({ allowedHosts: ["localhost", "api.example.com:8443", "[::1]"] });
    for (const host of ["localhost", "localhost:3000", "LOCALHOST:1", "api.example.com:8443", "[::1]", "[::1]:9000"]) {
      expect((await app.fetch(hello({ host }))).status, host).toBe(200);
    }
    for (const host of [
      "evil.example.com",
      "localhost.evil.example.com",
      "api.example.com",
      "api.example.com:80",
      "[::2]:1",
    ]) {
      await expectForbidden(await app.fetch(hello({ host })), hostRefused(host));
    }
  });

  it("reads a Web Request without a Host header by its URL's host, which must be allowed too", async () => {
    // A Request built in-process (a test, a framework passing one on) has a URL and no Host header; a
    // runtime's has both, the URL made from the Host. Before, such a request was refused as Host "".
    const app = server({ allowedHosts: ["localhost"] });
    expect((await app.fetch(hello({}))).status).toBe(200);
    const elsewhere = new Request("http://evil.example.com:8080/mcp", hello({}));
    expect(elsewhere.headers.get("host")).toBeNull();
    await expectForbidden(await app.fetch(elsewhere), hostRefused("evil.example.com:8080"));
    // A Host header, when there is one, is what is checked: never the URL.
    const rebound = new Request("http://localhost/mcp", hello({ host: "evil.example.com" }));
    await expectForbidden(await app.fetch(rebound), hostRefused("evil.example.com"));
  });

  it("serves server.fetch's in-process requests for the URL serve({ port }) listens on, and none for another", async () => {
    const app = pico({ name: "guarded", version: "1", signals: false }).tool("hello", { run: () => "hello" });
    const listening = await app.serve({ port: 0 });
    try {
      // Once serve() listens on loopback, only loopback hosts are allowed, server.fetch's requests included.
      const own = await app.fetch(new Request(listening.url, hello({})));
      expect(own.status).toBe(200);
      expect(await own.json()).toMatchObject({ result: { content: [{ type: "text", text: "hello" }] } });
      await expectForbidden(
        await app.fetch(new Request("http://rebound.example.com/mcp", hello({}))),
        hostRefused("rebound.example.com"),
      );
    } finally {
      await listening.close();
    }
  });

  it("is checked before the method, the content type and the session", async () => {
    const app = server({ allowedHosts: ["localhost"] });
    const evil = { host: "evil.example.com" };
    for (const request of [
      bare("PUT", evil),
      bare("GET", { ...evil, accept: "text/event-stream", "mcp-session-id": "x" }),
      bare("DELETE", { ...evil, "mcp-session-id": "x" }),
      hello({ ...evil, "content-type": "text/plain" }),
      hello({ ...evil, accept: "text/html" }),
    ]) {
      expect((await app.fetch(request)).status).toBe(403);
    }
  });
});

describe("Origin", () => {
  it("is optional: clients other than browsers do not send it", async () => {
    expect((await server().fetch(hello({ origin: null }))).status).toBe(200);
  });

  it("is accepted when it is the server's own origin: its scheme, host and port", async () => {
    const app = server();
    for (const [origin, host] of [
      ["http://localhost", "localhost"],
      ["http://localhost:3000", "localhost:3000"],
      ["http://localhost:80", "localhost"],
      ["http://[::1]:3000", "[0:0:0:0:0:0:0:1]:3000"],
    ]) {
      expect((await app.fetch(hello({ origin: origin!, host: host! }))).status, origin).toBe(200);
    }
    const secure = new Request(
      "https://api.example.com/mcp",
      hello({ origin: "https://API.example.com:443", host: "api.example.com" }),
    );
    expect((await app.fetch(secure)).status).toBe(200);
  });

  it("is compared with its scheme: the same host under another scheme is another origin", async () => {
    const app = server({ allowedOrigins: ["https://app.example.com", "http://localhost:6274"] });
    for (const [origin, host] of [
      ["https://localhost:3000", "localhost:3000"],
      ["ws://localhost:3000", "localhost:3000"],
      ["http://app.example.com", "localhost"],
      ["https://localhost:6274", "localhost"],
    ]) {
      await expectForbidden(await app.fetch(hello({ origin: origin!, host: host! })), originRefused(origin!));
    }
    const secure = new Request(
      "https://api.example.com/mcp",
      hello({ origin: "http://api.example.com", host: "api.example.com" }),
    );
    await expectForbidden(await app.fetch(secure), originRefused("http://api.example.com"));
    expect((await app.fetch(hello({ origin: "https://app.example.com", host: "localhost" }))).status).toBe(200);
    expect((await app.fetch(hello({ origin: "http://localhost:6274", host: "localhost" }))).status).toBe(200);
  });

  it("answers 403 with an id-less JSON-RPC error to any other origin", async () => {
    const app = server();
    for (const [origin, host] of [
      ["http://evil.example.com", "localhost"],
      ["http://localhost:3001", "localhost:3000"],
      ["null", "localhost"],
      ["http://localhost", "localhost.evil.example.com"],
      ["http://user@localhost", "localhost"],
      ["http://localhost/", "localhost"],
    ]) {
      await expectForbidden(await app.fetch(hello({ origin: origin!, host: host! })), originRefused(origin!));
    }
  });

  it("accepts the configured origins, case-insensitively", async () => {
    const app = server({ allowedOrigins: ["https://app.example.com"] });
    expect((await app.fetch(hello({ origin: "https://app.example.com", host: "localhost" }))).status).toBe(200);
    expect((await app.fetch(hello({ origin: "HTTPS://APP.EXAMPLE.COM", host: "localhost" }))).status).toBe(200);
    await expectForbidden(
      await app.fetch(hello({ origin: "https://app.example.com:444", host: "localhost" })),
      originRefused("https://app.example.com:444"),
    );
  });

  it("is checked on every method of a session", async () => {
    const app = server();
    const session = await initialize(app);
    const evil = { origin: "http://evil.example.com", host: "localhost", "mcp-session-id": session };
    expect((await app.fetch(bare("GET", { ...evil, accept: "text/event-stream" }))).status).toBe(403);
    expect((await app.fetch(bare("DELETE", evil))).status).toBe(403);
    // The session survived the refused DELETE.
    expect((await app.fetch(bare("DELETE", { "mcp-session-id": session }))).status).toBe(200);
  });
});

describe("the lists among the HTTP options, as plain JavaScript may write them", () => {
  it("refuses a string where a list of hosts or origins goes, naming the option and what it takes", async () => {
    // Was: allowedHosts and allowedOrigins failed every request with "options.allowedHosts?.map is
    // not a function" (or allowedOrigins'), and cors.origins took the string's characters for origins.
    for (const [http, message] of [
      [
        { allowedHosts: "mcp.example.com" },
        'allowedHosts must be a list of strings, such as ["mcp.example.com"]; got "mcp.example.com".',
      ],
      [
        { allowedOrigins: "https://app.example.com" },
        'allowedOrigins must be a list of strings, such as ["https://app.example.com"]; got "https://app.example.com".',
      ],
      [
        { cors: { origins: "https://app.example.com" } },
        'cors.origins must be a list of strings, such as ["https://app.example.com"]; got "https://app.example.com".',
      ],
      [
        { cors: { origin: ["https://app.example.com"] } },
        'cors.origins must be a list of strings, such as ["https://app.example.com"]; got undefined.',
      ],
      [
        { allowedHosts: ["localhost", 8443] },
        'allowedHosts must be a list of strings, such as ["mcp.example.com"]; got ["localhost",8443].',
      ],
    ] as const) {
      const app = server(http as unknown as HttpOptions);
      await expect(app.serve({ port: 0 })).rejects.toThrow(new TypeError(`The HTTP option ${message}`));
    }
  });
});
