import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode, pico } from "../src/index.js";
import type { HttpOptions } from "../src/transports/http/options.js";
import type { Listening } from "../src/transports/listen.js";
import { bare, initialize, modern, originRefused, post } from "./http-helpers.js";

/**
 * CORS for clients in a web page (spec-2025-11-25 §17.2 [rec], 2026-07-28 §5.2 [rec]): off by default;
 * with `cors`, preflights are answered and replies carry Access-Control-Allow-Origin for accepted origins.
 */

function server(http: HttpOptions = {}) {
  return pico({ name: "cors", version: "1", http }).tool("hello", { run: () => "hello" });
}

const PAGE = "https://app.example.com";
const MCP_HEADERS = [
  "Content-Type",
  "Accept",
  "Authorization",
  "MCP-Protocol-Version",
  "Mcp-Session-Id",
  "Mcp-Method",
  "Mcp-Name",
  "Last-Event-ID",
];

function preflight(origin: string | null, headers: Record<string, string> = {}): Request {
  return bare("OPTIONS", {
    origin,
    "access-control-request-method": "POST",
    "access-control-request-headers": "content-type,mcp-protocol-version,mcp-method,mcp-name,mcp-param-region",
    ...headers,
  });
}

/** The exposed headers name Mcp-Session-Id (others, such as auth challenges, may be listed too). */
const EXPOSES_SESSION = /(^|,\s*)Mcp-Session-Id(\s*,|$)/;

const hello = (origin: string | null) => modern("tools/call", { name: "hello" }, { origin });

function corsHeaders(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name.startsWith("access-control-") || name === "vary") out[name] = value;
  });
  return out;
}

describe("without the cors option", () => {
  it("answers a preflight 405 and sends no CORS headers", async () => {
    const app = server({ allowedOrigins: [PAGE] });
    const response = await app.fetch(preflight(PAGE));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST, DELETE");
    expect(corsHeaders(response)).toEqual({});
    const call = await app.fetch(hello(PAGE));
    expect(call.status).toBe(200);
    expect(corsHeaders(call)).toEqual({});
  });

  it("still refuses a foreign origin with 403", async () => {
    expect((await server().fetch(hello(PAGE))).status).toBe(403);
  });

  it('accepts any origin with allowedOrigins ["*"], still without CORS headers', async () => {
    const response = await server({ allowedOrigins: ["*"] }).fetch(hello("https://anywhere.example"));
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual({});
  });
});

describe("cors: true", () => {
  it("answers a preflight from any origin with the methods and the MCP headers", async () => {
    const response = await server({ cors: true }).fetch(preflight("https://anywhere.example"));
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    const headers = corsHeaders(response);
    expect(headers).toMatchObject({
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET, POST, DELETE",
      "access-control-expose-headers": expect.stringMatching(EXPOSES_SESSION),
      "access-control-max-age": "7200",
    });
    const allowed = headers["access-control-allow-headers"]!.split(",").map((name) => name.trim());
    // `*` covers Mcp-Param-* where browsers allow it; Authorization is never covered by `*`, so it is named.
    expect(allowed).toEqual(["*", ...MCP_HEADERS]);
  });

  it("offers only POST when legacy sessions are off", async () => {
    const response = await server({ cors: true, sessions: false }).fetch(preflight(PAGE));
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-methods")).toBe("POST");
  });

  it("lets a page from any origin call a tool and read the result", async () => {
    const response = await server({ cors: true }).fetch(hello(PAGE));
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual({
      "access-control-allow-origin": "*",
      "access-control-expose-headers": expect.stringMatching(EXPOSES_SESSION),
    });
    expect(await response.json()).toMatchObject({ result: { content: [{ type: "text", text: "hello" }] } });
  });

  it("exposes the session id of initialize to the page, and marks errors readable too", async () => {
    const app = server({ cors: true });
    const response = await app.fetch(
      post(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "1" } },
        },
        { origin: PAGE },
      ),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeTruthy();
    expect(response.headers.get("access-control-expose-headers")).toMatch(EXPOSES_SESSION);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");

    const expired = await app.fetch(bare("DELETE", { origin: PAGE, "mcp-session-id": "no-such-session" }));
    expect(expired.status).toBe(404);
    expect(expired.headers.get("access-control-allow-origin")).toBe("*");
    expect(await expired.json()).toMatchObject({ error: { code: ErrorCode.InvalidRequest } });
  });

  it("streams SSE replies with the CORS headers", async () => {
    const app = server({ cors: true });
    const session = await initialize(app);
    const stream = await app.fetch(
      bare("GET", { origin: PAGE, accept: "text/event-stream", "mcp-session-id": session }),
    );
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    expect(stream.headers.get("access-control-allow-origin")).toBe("*");
    await stream.body!.cancel();
    app.close();
  });

  it("adds nothing to a request without Origin: it does not come from a page", async () => {
    const response = await server({ cors: true }).fetch(hello(null));
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual({});
  });

  it("keeps the Host check", async () => {
    const app = server({ cors: true, allowedHosts: ["localhost"] });
    expect((await app.fetch(preflight(PAGE, { host: "evil.example.com" }))).status).toBe(403);
    expect(
      (await app.fetch(modern("tools/call", { name: "hello" }, { origin: PAGE, host: "evil.example.com" }))).status,
    ).toBe(403);
    expect((await app.fetch(modern("tools/call", { name: "hello" }, { origin: PAGE, host: "localhost" }))).status).toBe(
      200,
    );
  });
});

describe("cors: { origins }", () => {
  const OTHER = "https://other.example.com";

  it("answers a listed origin with that origin, and varies on Origin", async () => {
    const app = server({ cors: { origins: [PAGE] } });
    const response = await app.fetch(preflight("https://APP.example.com"));
    expect(response.status).toBe(204);
    expect(corsHeaders(response)).toMatchObject({
      "access-control-allow-origin": "https://APP.example.com",
      vary: "Origin",
    });
    const call = await app.fetch(hello(PAGE));
    expect(call.status).toBe(200);
    expect(corsHeaders(call)).toEqual({
      "access-control-allow-origin": PAGE,
      "access-control-expose-headers": expect.stringMatching(EXPOSES_SESSION),
      vary: "Origin",
    });
  });

  it("lets the listed origins through the Origin check, and no others", async () => {
    const app = server({ cors: { origins: [PAGE] } });
    for (const request of [preflight(OTHER), hello(OTHER)]) {
      const response = await app.fetch(request);
      expect(response.status).toBe(403);
      expect(corsHeaders(response)).toEqual({});
      expect(await response.json()).toEqual({
        jsonrpc: "2.0",
        error: { code: ErrorCode.InvalidRequest, message: originRefused(OTHER) },
      });
    }
  });

  it("matches a listed origin as the Origin check does: an explicit default port is the same origin", async () => {
    const app = server({ cors: { origins: [`${PAGE}:443`] } });
    for (const request of [preflight(PAGE), hello(PAGE)]) {
      const response = await app.fetch(request);
      expect(response.status).toBeLessThan(300);
      expect(response.headers.get("access-control-allow-origin")).toBe(PAGE);
    }
  });

  it("also serves the origins of allowedOrigins", async () => {
    const app = server({ cors: { origins: [PAGE] }, allowedOrigins: [OTHER] });
    const response = await app.fetch(hello(OTHER));
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe(OTHER);
  });
});

describe("cors over node:http", () => {
  let listening: Listening | undefined;
  afterEach(async () => {
    await listening?.close();
    listening = undefined;
  });

  it("answers a preflight and a call from a page on a loopback server", async () => {
    const app = server();
    listening = await app.serve({ port: 0, cors: { origins: [PAGE] } });
    const answer = await fetch(listening.url, {
      method: "OPTIONS",
      headers: { origin: PAGE, "access-control-request-method": "POST" },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(answer.headers.get("access-control-allow-headers")).toContain("Mcp-Method");

    const request = modern("tools/call", { name: "hello" }, { origin: PAGE });
    const call = await fetch(listening.url, { method: "POST", headers: request.headers, body: await request.text() });
    expect(call.status).toBe(200);
    expect(call.headers.get("access-control-allow-origin")).toBe(PAGE);
    expect(call.headers.get("access-control-expose-headers")).toMatch(EXPOSES_SESSION);
    expect(await call.json()).toMatchObject({ result: { content: [{ text: "hello" }] } });
  });
});
