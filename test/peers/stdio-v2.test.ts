/**
 * The official v2 client (@modelcontextprotocol/client, speaks 2026-07-28) drives the fixture server
 * as a child process over stdio: it discovers with server/discover, then sends every request with
 * the per-request `_meta` envelope, statelessly.
 */
import {
  Client,
  type JSONRPCMessage,
  ProtocolError,
  UnsupportedProtocolVersionError,
} from "@modelcontextprotocol/client";
import { StdioClientTransport, type StdioServerParameters } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CAPABILITIES,
  CONTENT_CASES,
  fixture,
  GET_PRICE_OUTPUT_SCHEMA,
  SEARCH_ISSUES,
  SEED_VALIDATION_ERROR,
  TOOL_NAMES,
} from "./fixture.js";

const SERVER_INFO_META = {
  "io.modelcontextprotocol/serverInfo": { name: "fixture", version: "1.2.3", title: "Peer fixture" },
};

/**
 * Records the wire in both directions. Being a subclass, it also makes the client probe in place
 * (the SDK spawns a throw-away sibling only for its base transport), so the probe is on this pipe.
 */
class TappedTransport extends StdioClientTransport {
  readonly sent: JSONRPCMessage[] = [];
  readonly received: JSONRPCMessage[] = [];

  constructor(params: StdioServerParameters) {
    super(params);
    let handler: StdioClientTransport["onmessage"];
    Object.defineProperty(this, "onmessage", {
      get: () =>
        handler &&
        ((message: JSONRPCMessage, ...rest: unknown[]) => {
          this.received.push(message);
          (handler as (...args: unknown[]) => void)(message, ...rest);
        }),
      set: (value: StdioClientTransport["onmessage"]) => {
        handler = value;
      },
    });
  }

  override send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    return super.send(message);
  }

  /** The last response received: calls here are sequential, so it answers the last request. */
  lastResult(): Record<string, unknown> {
    const last = this.received.at(-1) as { result?: Record<string, unknown> };
    return last.result!;
  }
}

const clients: Client[] = [];
let client: Client;
let transport: TappedTransport;

beforeAll(async () => {
  transport = new TappedTransport(fixture({ PICO_PAGE_SIZE: "5" }));
  client = new Client(
    { name: "v2-peer", version: "2.0.0" },
    { versionNegotiation: { mode: "auto" }, capabilities: { roots: {} } },
  );
  clients.push(client);
  await client.connect(transport);
});

afterAll(async () => {
  await Promise.all(clients.map((each) => each.close()));
});

const call = (name: string, args?: Record<string, unknown>) => client.callTool({ name, arguments: args });
const textOf = (result: { content: unknown }) => (result.content as { text: string }[])[0]!.text;

async function stats(): Promise<{ runs: Record<string, number>; aborts: { reason: string; name: string }[] }> {
  return JSON.parse(textOf(await call("stats")));
}

describe("v2 client over stdio: discovery", () => {
  it("probes with server/discover on the pipe and settles on 2026-07-28", () => {
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(transport.sent[0]).toMatchObject({ method: "server/discover" });
    // No handshake at all in this era.
    expect(transport.sent.some((message) => "method" in message && message.method === "initialize")).toBe(false);
  });

  it("reads supportedVersions, capabilities, instructions, cache hints and serverInfo from the DiscoverResult", () => {
    expect(client.getDiscoverResult()).toEqual({
      supportedVersions: ["2026-07-28"],
      capabilities: CAPABILITIES,
      instructions: "Test only.",
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      _meta: SERVER_INFO_META,
    });
    expect(client.getServerVersion()).toEqual({ name: "fixture", version: "1.2.3", title: "Peer fixture" });
  });

  it("works the same when the SDK probes on a sibling process, as its own stdio transport does", async () => {
    const sibling = new Client({ name: "v2-sibling", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
    clients.push(sibling);
    await sibling.connect(new StdioClientTransport(fixture()));
    expect(sibling.getProtocolEra()).toBe("modern");
    const result = await sibling.callTool({ name: "content", arguments: { kind: "string" } });
    expect(result.content).toEqual(CONTENT_CASES.string);
  });

  it("still gets the legacy era when the v2 client is left in its default (legacy) mode", async () => {
    const legacy = new TappedTransport(fixture());
    const legacyClient = new Client({ name: "v2-legacy", version: "2.0.0" });
    clients.push(legacyClient);
    await legacyClient.connect(legacy);
    expect(legacyClient.getProtocolEra()).toBe("legacy");
    expect(legacyClient.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect(await legacyClient.callTool({ name: "content", arguments: { kind: "string" } })).toEqual({
      content: CONTENT_CASES.string,
    });
    // Legacy results carry none of the 2026 additions.
    expect(legacy.lastResult()).toEqual({ content: CONTENT_CASES.string });
  });
});

describe("v2 client over stdio: tools/list", () => {
  it("walks every page and gets all tools in registration order", async () => {
    const sentBefore = transport.sent.length;
    const receivedBefore = transport.received.length;
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    const requests = transport.sent.slice(sentBefore) as { method: string; params?: { cursor?: string } }[];
    const pages = transport.received.slice(receivedBefore) as { result: Record<string, unknown> }[];
    expect(requests.map((request) => request.method)).toEqual(["tools/list", "tools/list", "tools/list"]);
    expect(requests.map((request) => request.params?.cursor)).toEqual([
      undefined,
      pages[0]!.result.nextCursor,
      pages[1]!.result.nextCursor,
    ]);
    expect(pages[2]!.result).not.toHaveProperty("nextCursor");
  });

  it("marks each list page complete and cacheable, with serverInfo in _meta", async () => {
    const receivedBefore = transport.received.length;
    await client.listTools(undefined, { cacheMode: "bypass" });
    const pages = transport.received.slice(receivedBefore) as { result: Record<string, unknown> }[];
    expect(pages).toHaveLength(3);
    for (const page of pages) {
      expect(page.result).toMatchObject({
        resultType: "complete",
        ttlMs: 0,
        cacheScope: "private",
        _meta: SERVER_INFO_META,
      });
    }
  });

  it("describes a tool with every field, and announces output schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools[0]).toEqual(SEARCH_ISSUES);
    expect(tools.find((tool) => tool.name === "get_price")?.outputSchema).toEqual(GET_PRICE_OUTPUT_SCHEMA);
  });
});

describe("v2 client over stdio: tools/call", () => {
  it.each(Object.entries(CONTENT_CASES))("turns a %s return value into content", async (kind, content) => {
    const result = await call("content", { kind });
    expect(result.content).toEqual(content);
    expect(transport.lastResult()).toEqual({ content, resultType: "complete", _meta: SERVER_INFO_META });
  });

  it("validates before run: the seed's exact error, and run is not called", async () => {
    const before = (await stats()).runs.search_issues ?? 0;
    const bad = await call("search_issues", { repo: "a/b", query: "q", limit: 99 });
    expect(bad).toMatchObject({ content: [{ type: "text", text: SEED_VALIDATION_ERROR }], isError: true });
    expect(transport.lastResult()).toMatchObject({ isError: true, resultType: "complete" });
    expect((await stats()).runs.search_issues ?? 0).toBe(before);
    expect(textOf(await call("search_issues", { repo: "a/b", query: "bug", limit: 3 }))).toBe("a/b bug 3");
    expect((await stats()).runs.search_issues).toBe(before + 1);
  });

  it("applies defaults and transforms", async () => {
    expect(textOf(await call("transform", { word: "shout", tags: ["x"] }))).toBe(
      '{"word":"SHOUT","times":2,"tags":["x"]}',
    );
  });

  it("sends structuredContent equal to the parsed output, extra fields stripped, plus a JSON text copy", async () => {
    const result = await call("get_price", { sku: "A-1" });
    const value = { sku: "A-1", cents: 1299, currency: "EUR" };
    expect(result.structuredContent).toEqual(value);
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(value) }]);
    expect(transport.lastResult()).not.toHaveProperty("isError");
  });

  it("turns a mismatched output into a tool error naming the field", async () => {
    const result = await call("bad_price");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Tool "bad_price" produced a result that does not match its output schema:\ncents: Invalid input: expected number, received string',
    );
  });

  it("turns a thrown Error into a tool error with its message only", async () => {
    const result = await call("fail", { id: 7 });
    expect(result).toMatchObject({
      content: [{ type: "text", text: "No user with id 7. Call list_users to see valid ids." }],
      isError: true,
    });
  });

  it("turns McpError into a JSON-RPC error the client raises, with code and data", async () => {
    const error = await call("forbidden").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({
      code: -32001,
      message: "Not authorised for this workspace",
      data: { workspace: "acme" },
    });
  });

  it("answers an unknown tool with -32602", async () => {
    const error = await call("no_such_tool").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602 });
  });
});

describe("v2 client over stdio: context and cancellation", () => {
  it("gives the handler the request's _meta envelope and the client's identity from it", async () => {
    const result = await client.callTool({ name: "context", arguments: {}, _meta: { "com.example/trace": "t-2" } });
    const ctx = JSON.parse(textOf(result));
    const info = { name: "v2-peer", version: "2.0.0" };
    expect(ctx).toEqual({
      meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": info,
        "io.modelcontextprotocol/clientCapabilities": { roots: {} },
        "com.example/trace": "t-2",
      },
      requestId: (transport.sent.at(-1) as { id: number }).id,
      protocolVersion: "2026-07-28",
      era: "modern",
      client: { info, capabilities: { roots: {} } },
    });
  });

  it("aborts ctx.signal with the client's reason when the client aborts the call", async () => {
    const controller = new AbortController();
    const pending = client.callTool({ name: "wait_for_cancel" }, { signal: controller.signal });
    expect((await stats()).runs.wait_for_cancel).toBe(1);
    controller.abort("stop it");
    await expect(pending).rejects.toThrow(/stop it/);
    expect((await stats()).aborts).toEqual([{ tool: "wait_for_cancel", reason: "stop it", name: "AbortError" }]);
  });
});

describe("v2 client over stdio: envelope errors", () => {
  it("answers an unsupported protocol version with -32022 and data {supported, requested}", async () => {
    const error = await client
      .callTool({ name: "context", _meta: { "io.modelcontextprotocol/protocolVersion": "2030-01-01" } })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(UnsupportedProtocolVersionError);
    expect(error).toMatchObject({ code: -32022, data: { supported: ["2026-07-28"], requested: "2030-01-01" } });
  });

  it("answers a malformed envelope with -32602, never falling back to the legacy era", async () => {
    const error = await client
      .callTool({ name: "context", _meta: { "io.modelcontextprotocol/clientCapabilities": "none" } })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602 });
    expect((error as Error).message).toContain("io.modelcontextprotocol/clientCapabilities");
  });

  it("keeps serving after the errors", async () => {
    expect((await call("content", { kind: "string" })).content).toEqual(CONTENT_CASES.string);
  });
});
