import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ErrorCode, McpError, pico } from "../src/index.js";
import { bare, ENDPOINT, initialize, inSession, modern, modernMessage, post } from "./http-helpers.js";

/**
 * The Streamable HTTP endpoint as a whole, driven through `server.fetch` with no network (and through
 * serve({ port }) where Node reads the body its own way): routing, HTTP methods, content negotiation,
 * body limits and error bodies, in both protocol eras.
 * The modern request checks, sessions and Host/Origin validation have their own files.
 */

function server(http = {}) {
  return pico({ name: "http", version: "1.0.0", http })
    .tool("echo", { input: z.object({ text: z.string() }), run: ({ text }) => text })
    .tool("boom", {
      run: () => {
        throw new Error("kaput");
      },
    })
    .tool("denied", {
      run: () => {
        throw new McpError(-32001, "You may not do that", { reason: "policy" });
      },
    });
}

const call = (name: string, args: Record<string, unknown> = {}) => modern("tools/call", { name, arguments: args });

/** A stack trace shows up as "    at fn (file:line:col)" lines or as source paths. */
function expectNoStack(text: string): void {
  expect(text).not.toMatch(/\n\s+at /);
  expect(text).not.toMatch(/\.(ts|js):\d+/);
  expect(text).not.toContain("stack");
}

describe("routing", () => {
  it("answers every path when no path is configured", async () => {
    const request = call("echo", { text: "hi" });
    const response = await server().fetch(
      new Request("http://localhost/anything?x=1", {
        method: "POST",
        headers: request.headers,
        body: await request.text(),
      }),
    );
    expect(response.status).toBe(200);
  });

  it("answers 404 with a JSON-RPC error on other paths when a path is configured", async () => {
    const app = server({ path: "/mcp" });
    const other = await app.fetch(new Request("http://localhost/other", { method: "POST" }));
    expect(other.status).toBe(404);
    expect(other.headers.get("content-type")).toBe("application/json");
    expect(await other.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: ErrorCode.InvalidRequest, message: "Not found: the MCP endpoint is /mcp" },
    });
    expect((await app.fetch(new Request("http://localhost/mcp/extra", { method: "GET" }))).status).toBe(404);
    expect((await app.fetch(new Request("http://localhost/", { method: "DELETE" }))).status).toBe(404);
  });

  it("matches the path without its query string", async () => {
    const app = server({ path: "/mcp" });
    const request = call("echo", { text: "q" });
    const response = await app.fetch(
      new Request(`${ENDPOINT}?token=abc`, { method: "POST", headers: request.headers, body: await request.text() }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ result: { content: [{ type: "text", text: "q" }] } });
  });
});

describe("HTTP methods", () => {
  it("answers 405 with Allow to methods other than GET, POST and DELETE", async () => {
    for (const method of ["PUT", "PATCH", "OPTIONS", "HEAD"]) {
      const response = await server().fetch(bare(method));
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, POST, DELETE");
      if (method !== "HEAD") {
        expect(await response.json()).toEqual({
          jsonrpc: "2.0",
          error: { code: ErrorCode.InvalidRequest, message: "Method Not Allowed: use GET, POST, DELETE" },
        });
      }
    }
  });

  it("allows only POST without sessions", async () => {
    const app = server({ sessions: false });
    for (const method of ["GET", "DELETE", "PUT"]) {
      const response = await app.fetch(bare(method, { accept: "text/event-stream", "mcp-session-id": "x" }));
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
      expect(await response.json()).toMatchObject({ error: { message: "Method Not Allowed: use POST" } });
    }
  });
});

describe("POST content negotiation", () => {
  it("answers 415 to a body that is not declared as JSON", async () => {
    for (const type of [
      null,
      "text/plain",
      "application/x-www-form-urlencoded",
      // The media type is parsed, not searched for application/json.
      "application/json-seq",
      "application/jsonx",
      "text/plain; profile=application/json",
      "multipart/form-data; boundary=application/json",
      "application/json/x",
      "application/ json",
      "",
    ]) {
      const response = await server().fetch(post({ jsonrpc: "2.0", id: 1, method: "ping" }, { "content-type": type }));
      // Request gives a string body text/plain by default; a missing type is that case.
      expect(response.status, String(type)).toBe(415);
      expect(await response.json()).toEqual({
        jsonrpc: "2.0",
        error: {
          code: ErrorCode.InvalidRequest,
          message: "Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json",
        },
      });
    }
  });

  it("accepts application/json with parameters and in any case", async () => {
    for (const type of [
      "application/json; charset=utf-8",
      "Application/JSON",
      "application/json;charset=UTF-8",
      "application/json ; charset=utf-8",
      " application/json ",
    ]) {
      const request = call("echo", { text: type });
      const response = await server().fetch(
        new Request(ENDPOINT, {
          method: "POST",
          headers: { ...Object.fromEntries(request.headers), "content-type": type },
          body: await request.text(),
        }),
      );
      expect(response.status, type).toBe(200);
    }
  });

  it("answers 406 when Accept allows neither JSON nor an event stream", async () => {
    for (const accept of ["text/html", "application/xml, text/plain"]) {
      const refused = await server().fetch(
        modern("tools/call", { name: "echo", arguments: { text: "x" } }, { accept }),
      );
      expect(refused.status, accept).toBe(406);
      expect(await refused.json()).toEqual({
        jsonrpc: "2.0",
        error: {
          code: ErrorCode.InvalidRequest,
          message:
            "Not Acceptable: the Accept header allows neither application/json nor text/event-stream; send Accept: application/json, text/event-stream",
        },
      });
    }
  });

  it("reads Accept as media ranges with weights (RFC 9110 §12.5.1): q=0 refuses a type, the most specific range decides", async () => {
    const answer = async (accept: string) => {
      const request = modern("tools/call", { name: "echo", arguments: { text: "x" } }, { accept });
      const response = await server().fetch(request);
      return `${response.status} ${response.headers.get("content-type")}`;
    };
    // A range names both, or one of them.
    expect(await answer("application/*, text/*")).toBe("200 application/json");
    expect(await answer("text/*")).toBe("200 text/event-stream");
    expect(await answer("application/*")).toBe("200 application/json");
    // q=0 is "not acceptable", whatever a wider range allows.
    expect(await answer("application/json;q=0, */*")).toBe("200 text/event-stream");
    expect(await answer("application/json; q=0.0, text/event-stream;q=0")).toBe("406 application/json");
    expect(await answer("*/*;q=0")).toBe("406 application/json");
    expect(await answer("text/event-stream;q=0, text/*")).toBe("406 application/json");
    // A type is not a prefix of another, nor found inside a parameter.
    expect(await answer("application/jsonl, text/event-streams")).toBe("406 application/json");
    expect(await answer('text/html; note="application/json"')).toBe("406 application/json");
    // Case, spaces and weights above zero change nothing.
    expect(await answer(" Application/JSON ; q=0.5 , TEXT/EVENT-STREAM;Q=1")).toBe("200 application/json");
  });

  it("treats a missing or empty Accept and */* as accepting both", async () => {
    // An empty field lists no media range: read as a missing one (RFC 9110 §12.5.1 lets a server
    // disregard Accept rather than answer 406), which is what a client that sends it means.
    for (const accept of [null, "", "  ", " , ", "*/*"]) {
      const response = await server().fetch(
        modern("tools/call", { name: "echo", arguments: { text: "x" } }, { accept }),
      );
      expect(response.status, String(accept)).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
    }
  });
});

describe("body limits", () => {
  it("answers 413 when Content-Length is over maxBodyBytes", async () => {
    const app = server({ maxBodyBytes: 64 });
    const response = await app.fetch(call("echo", { text: "x".repeat(100) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: ErrorCode.InvalidRequest, message: "Payload Too Large: request bodies are limited to 64 bytes" },
    });
  });

  it("answers 413 to a streamed body without Content-Length once it passes the limit", async () => {
    const app = server({ maxBodyBytes: 1024 });
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 1000) controller.close();
        else controller.enqueue(new TextEncoder().encode(" ".repeat(100)));
      },
    });
    const response = await app.fetch(
      new Request(ENDPOINT, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    // It stopped reading soon after the limit instead of draining 100 kB.
    expect(pulled).toBeLessThan(100);
  });

  it("accepts a body of exactly maxBodyBytes, counted in bytes", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "é" } },
    });
    const bytes = new TextEncoder().encode(body).length;
    expect(bytes).toBe(body.length + 1);
    const fits = await server({ sessions: false, maxBodyBytes: bytes }).fetch(post(body));
    expect(fits.status).toBe(200);
    expect((await fits.json()).result.content).toEqual([{ type: "text", text: "é" }]);
    expect((await server({ sessions: false, maxBodyBytes: bytes - 1 }).fetch(post(body))).status).toBe(413);
  });
});

describe("malformed messages", () => {
  it("answers 400 with -32700 and no id to a body that is not JSON", async () => {
    const response = await server().fetch(post("{not json"));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toMatchObject({ jsonrpc: "2.0", error: { code: ErrorCode.ParseError } });
    expect(body.error.message).toMatch(/^Parse error: /);
    expect(body).not.toHaveProperty("id");
  });

  it("answers 400 with -32600 to a message that is not JSON-RPC", async () => {
    const cases: [unknown, string][] = [
      [42, "Invalid Request: expected a JSON-RPC object, got number 42"],
      [null, "Invalid Request: expected a JSON-RPC object, got null"],
      [{ jsonrpc: "1.0", id: 1, method: "ping" }, 'Invalid Request: "jsonrpc" must be "2.0"'],
      [{ jsonrpc: "2.0", id: null, method: "ping" }, 'Invalid Request: "id" must be a string or an integer, got null'],
      [{ jsonrpc: "2.0", id: 1 }, 'Invalid Request: "method" must be a string'],
    ];
    for (const [body, message] of cases) {
      const response = await server().fetch(post(body));
      expect(response.status, message).toBe(400);
      const answer = await response.json();
      expect(answer.error).toEqual({ code: ErrorCode.InvalidRequest, message });
    }
  });

  it("answers 400 with -32602 and the id when params is not an object", async () => {
    const response = await server().fetch(post({ jsonrpc: "2.0", id: 9, method: "tools/list", params: [1] }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 9,
      error: { code: ErrorCode.InvalidParams, message: 'Invalid params: "params" must be an object, got an array' },
    });
  });
});

describe("notifications and client responses", () => {
  it("accepts a modern notification with 202 and an empty body, with or without standard headers", async () => {
    const withMeta = await server().fetch(
      post({
        jsonrpc: "2.0",
        method: "notifications/whatever",
        params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
      }),
    );
    expect(withMeta.status).toBe(202);
    expect(await withMeta.text()).toBe("");
    const byHeader = await server().fetch(
      post({ jsonrpc: "2.0", method: "notifications/whatever" }, { "mcp-protocol-version": "2026-07-28" }),
    );
    expect(byHeader.status).toBe(202);
    expect(await byHeader.text()).toBe("");
  });

  it("accepts a legacy notification in a session with 202", async () => {
    const app = server();
    const session = await initialize(app);
    const response = await app.fetch(
      inSession(session, { jsonrpc: "2.0", method: "notifications/roots/list_changed" }),
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("accepts a client's JSON-RPC response in a session with 202", async () => {
    const app = server();
    const session = await initialize(app);
    for (const body of [
      { jsonrpc: "2.0", id: "s1", result: {} },
      { jsonrpc: "2.0", id: "s2", error: { code: -1, message: "no" } },
    ]) {
      const response = await app.fetch(inSession(session, body));
      expect(response.status).toBe(202);
      expect(await response.text()).toBe("");
    }
  });

  // JSON-RPC 2.0 §6: nothing at all when no element of a batch calls for a response; a response calls
  // for none, in any version. Was: refused 400 with -32600, batches being only for 2025-03-26.
  it("accepts an array made only of responses in a 2025-11-25 session with 202", async () => {
    const app = server();
    const session = await initialize(app);
    const response = await app.fetch(
      inSession(session, [
        { jsonrpc: "2.0", id: "s1", result: {} },
        { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } },
      ]),
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("refuses a legacy notification or response without a session: 400", async () => {
    for (const body of [
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 1, result: {} },
    ]) {
      const response = await server().fetch(post(body));
      expect(response.status).toBe(400);
      expect((await response.json()).error.code).toBe(ErrorCode.InvalidRequest);
    }
  });
});

describe("error bodies", () => {
  it("carry a thrown error's message as a tool error, never its stack", async () => {
    const response = await server().fetch(call("boom"));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text).result).toMatchObject({ isError: true, content: [{ type: "text", text: "kaput" }] });
    expectNoStack(text);
  });

  it("turn McpError into a JSON-RPC error with its code and data, in-band with 200", async () => {
    const response = await server().fetch(call("denied"));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({
      error: { code: -32001, message: "You may not do that", data: { reason: "policy" } },
    });
    expectNoStack(text);
  });

  it("never carry a stack, whatever the rejection", async () => {
    const app = server({ path: "/mcp", maxBodyBytes: 200 });
    const session = await initialize(app);
    const requests = [
      post("{"),
      post([1, 2]),
      post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-session-id": "nope" }),
      post({ jsonrpc: "2.0", id: 1, method: "nope" }, { "mcp-session-id": session }),
      modern("tools/call", { name: "missing" }),
      modern("tools/call", { name: "echo", arguments: { text: 1 } }),
      modern("nope/nope"),
      call("echo", { text: "x".repeat(500) }),
      bare("PUT"),
    ];
    for (const request of requests) expectNoStack(await (await app.fetch(request)).text());
  });
});

describe("a UTF-8 byte order mark before the body", () => {
  it("is skipped over serve({ port }), as over server.fetch (RFC 8259 §8.1: MAY ignore)", async () => {
    const app = server();
    const listening = await app.serve({ port: 0 });
    try {
      const { headers, body } = modernMessage("tools/call", { name: "echo", arguments: { text: "hi" } });
      const init = {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...headers },
        body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(body))]),
      };
      // Was, over serve({ port }) alone: 400 -32700 "Unexpected token '\uFEFF'", naming an invisible character.
      const answers = [await fetch(listening.url, init), await server().fetch(new Request(ENDPOINT, init))];
      for (const response of answers) {
        expect(response.status).toBe(200);
        expect((await response.json()).result.content).toEqual([{ type: "text", text: "hi" }]);
      }
    } finally {
      await listening.close();
    }
  });
});
