/**
 * The official v2 client (@modelcontextprotocol/client) drives `server.serve({ port: 0 })` over
 * Streamable HTTP in the 2026-07-28 era: it discovers with server/discover, then sends every
 * request statelessly with the `_meta` envelope and the SEP-2243 standard headers. The wire is
 * recorded through the `fetch` the transport is given.
 */
import {
  Client,
  ProtocolError,
  StreamableHTTPClientTransport,
  UnsupportedProtocolVersionError,
} from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Listening } from "../../src/transports/listen.js";
import {
  eventIds,
  makeServer,
  PRICE,
  type Recorded,
  recordingFetch,
  SEED_VALIDATION_ERROR,
  sseMessages,
} from "./http-fixture.js";

const SERVER_INFO_META = {
  "io.modelcontextprotocol/serverInfo": { name: "http-peer", version: "1.0.0", title: "HTTP peer" },
};

const { server, cancels } = makeServer();
let listening: Listening;
const clients: Client[] = [];
let client: Client;
let exchanges: Recorded[];
/** Rewrites the headers of the next request for `method`, when set (to test the server's checks). */
let tamper: { method: string; rewrite(headers: Headers): void } | undefined;

async function connect(name: string, mode: "auto" | "legacy", fetchLike?: typeof fetch) {
  const connected = new Client(
    { name, version: "2.0.0" },
    { versionNegotiation: { mode }, capabilities: { roots: {} } },
  );
  clients.push(connected);
  await connected.connect(
    new StreamableHTTPClientTransport(new URL(listening.url), fetchLike ? { fetch: fetchLike } : undefined),
  );
  return connected;
}

beforeAll(async () => {
  listening = await server.serve({ port: 0 });
  const wire = recordingFetch();
  exchanges = wire.exchanges;
  const tampering = (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    if (!tamper || headers.get("mcp-method") !== tamper.method) return wire.fetch(url, init);
    tamper.rewrite(headers);
    tamper = undefined;
    return wire.fetch(url, { ...init, headers });
  };
  client = await connect("v2-http", "auto", tampering as typeof fetch);
});

afterAll(async () => {
  for (const each of clients) await each.close();
  await listening?.close();
});

const call = (name: string, args?: Record<string, unknown>) => client.callTool({ name, arguments: args });
const textOf = (result: { content: unknown }) => (result.content as { text: string }[])[0]!.text;
/** The last POST on the wire, its JSON-RPC request and the result the server sent back. */
function last(): { exchange: Recorded; request: Record<string, unknown>; response: Record<string, unknown> } {
  const exchange = exchanges.filter((each) => each.method === "POST").at(-1)!;
  const response = exchange.contentType?.startsWith("text/event-stream")
    ? sseMessages(exchange.text).at(-1)!
    : JSON.parse(exchange.text);
  return { exchange, request: exchange.body as Record<string, unknown>, response };
}

describe("v2 client over Streamable HTTP: discovery", () => {
  it("probes with server/discover and settles on 2026-07-28, with no handshake and no session", () => {
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const methods = exchanges.map((each) => (each.body as { method?: string } | undefined)?.method);
    expect(methods[0]).toBe("server/discover");
    expect(methods).not.toContain("initialize");
    // No GET stream and no session in this era.
    expect(exchanges.some((each) => each.method !== "POST")).toBe(false);
    for (const each of exchanges) expect(each.headers.get("mcp-session-id")).toBeNull();
  });

  it("reads versions, capabilities, instructions and serverInfo from the DiscoverResult", () => {
    expect(client.getDiscoverResult()).toMatchObject({
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: { listChanged: true } },
      instructions: "Test only.",
      resultType: "complete",
      _meta: SERVER_INFO_META,
    });
    expect(client.getServerVersion()).toEqual({ name: "http-peer", version: "1.0.0", title: "HTTP peer" });
  });

  it("sends server/discover with its envelope and the matching standard headers", () => {
    const discover = exchanges[0]!;
    expect(discover.headers.get("mcp-protocol-version")).toBe("2026-07-28");
    expect(discover.headers.get("mcp-method")).toBe("server/discover");
    expect(discover.body).toMatchObject({
      method: "server/discover",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
    });
  });
});

describe("v2 client over Streamable HTTP: tools", () => {
  it("lists the tools, and the request and result carry the 2026-07-28 fields", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "search_issues",
      "get_price",
      "forbidden",
      "count",
      "poll",
      "drop",
      "wait_for_cancel",
      "add_tool",
    ]);
    expect(tools[1]!.outputSchema).toMatchObject({ type: "object", required: ["sku", "cents", "currency"] });
    const { exchange, request, response } = last();
    expect(exchange.headers.get("mcp-protocol-version")).toBe("2026-07-28");
    expect(exchange.headers.get("mcp-method")).toBe("tools/list");
    expect(exchange.headers.get("mcp-name")).toBeNull();
    expect(request).toMatchObject({
      method: "tools/list",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "v2-http", version: "2.0.0" },
          "io.modelcontextprotocol/clientCapabilities": { roots: {} },
        },
      },
    });
    expect(exchange).toMatchObject({ status: 200, contentType: "application/json" });
    expect(response.result).toMatchObject({
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      _meta: SERVER_INFO_META,
    });
  });

  it("calls a tool with Mcp-Name mirroring the tool name; the result is complete and carries serverInfo", async () => {
    expect(textOf(await call("search_issues", { repo: "a/b", query: "bug" }))).toBe("a/b bug 10");
    const { exchange, response } = last();
    expect(exchange.headers.get("mcp-protocol-version")).toBe("2026-07-28");
    expect(exchange.headers.get("mcp-method")).toBe("tools/call");
    expect(exchange.headers.get("mcp-name")).toBe("search_issues");
    expect(exchange.contentType).toBe("application/json");
    expect(response.result).toEqual({
      content: [{ type: "text", text: "a/b bug 10" }],
      resultType: "complete",
      _meta: SERVER_INFO_META,
    });
  });

  it("answers invalid arguments with the seed's tool error, as a complete result", async () => {
    expect(await call("search_issues", { repo: "a/b", query: "q", limit: 99 })).toMatchObject({
      content: [{ type: "text", text: SEED_VALIDATION_ERROR }],
      isError: true,
    });
    expect(last().response.result).toMatchObject({ isError: true, resultType: "complete" });
  });

  it("sends structured output, parsed, plus a JSON text copy", async () => {
    const result = await call("get_price", { sku: "A-1" });
    expect(result.structuredContent).toEqual(PRICE);
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(PRICE) }]);
    expect(last().response.result).toMatchObject({ structuredContent: PRICE, resultType: "complete" });
  });

  it("turns McpError into a ProtocolError with its code and data; unknown tools are -32602", async () => {
    const forbidden = await call("forbidden").catch((thrown: unknown) => thrown);
    expect(forbidden).toBeInstanceOf(ProtocolError);
    expect(forbidden).toMatchObject({
      code: -32001,
      message: "Not authorised for this workspace",
      data: { workspace: "acme" },
    });
    // Handler errors travel in-band, with HTTP 200.
    expect(last().exchange.status).toBe(200);
    const unknown = await call("no_such_tool").catch((thrown: unknown) => thrown);
    expect(unknown).toBeInstanceOf(ProtocolError);
    expect(unknown).toMatchObject({ code: -32602 });
    expect(last().exchange.headers.get("mcp-name")).toBe("no_such_tool");
  });

  it("streams a call's notifications as SSE before the result, without event ids (nothing resumes in 2026-07-28)", async () => {
    const seen: number[] = [];
    const result = await client.callTool(
      { name: "count", arguments: { steps: 3 } },
      { onprogress: (update) => seen.push(update.progress) },
    );
    expect(textOf(result)).toBe("counted to 3");
    expect(seen).toEqual([1, 2, 3]);
    const { exchange, response } = last();
    expect(exchange.contentType).toBe("text/event-stream");
    expect(sseMessages(exchange.text).map((message) => message.method ?? "result")).toEqual([
      "notifications/progress",
      "notifications/progress",
      "notifications/progress",
      "result",
    ]);
    expect(eventIds(exchange.text)).toEqual([]);
    expect(response.result).toMatchObject({ resultType: "complete" });
  });

  it("cancels the tool when the client aborts the call by closing its request", async () => {
    const controller = new AbortController();
    const pending = client.callTool({ name: "wait_for_cancel" }, { signal: controller.signal });
    await expect.poll(() => cancels.started, { timeout: 5000 }).toBe(1);
    controller.abort("stop it");
    await expect(pending).rejects.toThrow(/stop it/);
    await expect.poll(() => cancels.reasons, { timeout: 5000 }).toEqual(["AbortError"]);
    // The cancellation is the closed request itself: no notifications/cancelled is POSTed.
    const methods = exchanges.map((each) => (each.body as { method?: string } | undefined)?.method);
    expect(methods).not.toContain("notifications/cancelled");
  });
});

describe("v2 client over Streamable HTTP: errors the server raises before dispatch", () => {
  it("answers an unsupported _meta protocol version with HTTP 400 and -32022 naming the supported ones", async () => {
    const error = await client
      .callTool({ name: "search_issues", _meta: { "io.modelcontextprotocol/protocolVersion": "2030-01-01" } })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect(error).toMatchObject({ code: -32022, data: { supported: ["2026-07-28"], requested: "2030-01-01" } });
    expect(last().exchange.status).toBe(400);
  });

  it("answers an Mcp-Name header that disagrees with the body with HTTP 400 and -32020, which the client retries", async () => {
    tamper = { method: "tools/call", rewrite: (headers) => headers.set("mcp-name", "get_price") };
    const before = exchanges.length;
    // SEP-2243: on -32020 for tools/call the client refreshes tools/list and tries once more.
    expect(textOf(await call("search_issues", { repo: "a/b", query: "q" }))).toBe("a/b q 10");
    const sent = exchanges.slice(before);
    expect(sent.map((each) => [each.headers.get("mcp-method"), each.headers.get("mcp-name"), each.status])).toEqual([
      ["tools/call", "get_price", 400],
      ["tools/list", null, 200],
      ["tools/call", "search_issues", 200],
    ]);
    expect(sent[0]!.contentType).toBe("application/json");
    expect(JSON.parse(sent[0]!.text)).toEqual({
      jsonrpc: "2.0",
      id: (sent[0]!.body as { id: number }).id,
      error: { code: -32020, message: expect.stringContaining("Mcp-Name") },
    });
  });

  it("answers a request without the Mcp-Method header with HTTP 400 and -32020", async () => {
    tamper = { method: "tools/list", rewrite: (headers) => headers.delete("mcp-method") };
    const error = await client.listTools().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32020 });
    expect(last().exchange.status).toBe(400);
  });

  it("keeps serving after the errors", async () => {
    expect(textOf(await call("search_issues", { repo: "a/b", query: "ok" }))).toBe("a/b ok 10");
  });
});

describe("v2 client over Streamable HTTP: both eras on one endpoint", () => {
  it("a v2 client left in legacy mode initializes and gets a session, with no 2026 fields", async () => {
    const wire = recordingFetch();
    const legacy = await connect("v2-http-legacy", "legacy", wire.fetch as typeof fetch);
    expect(legacy.getProtocolEra()).toBe("legacy");
    expect(legacy.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect((await legacy.callTool({ name: "get_price", arguments: { sku: "A-1" } })).structuredContent).toEqual(PRICE);
    const post = wire.exchanges.filter((each) => each.method === "POST").at(-1)!;
    expect(post.headers.get("mcp-session-id")).toMatch(/^[\x21-\x7e]+$/);
    expect(post.headers.get("mcp-method")).toBeNull();
    expect(JSON.parse(post.text).result).toEqual({
      content: [{ type: "text", text: JSON.stringify(PRICE) }],
      structuredContent: PRICE,
    });
  });
});
