import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Context } from "../src/core/context.js";
import { Dispatcher, type Exchange, type Inflight } from "../src/core/dispatch.js";
import { McpError } from "../src/core/errors.js";
import type { JsonRpcRequest } from "../src/core/jsonrpc.js";
import { Registry } from "../src/core/registry.js";
import type { Schema } from "../src/core/schema.js";
import { compileTool, type ToolConfig } from "../src/core/tools.js";
import { resolveLimits } from "../src/limits/limits.js";
import type { ServerOptions } from "../src/server.js";
import type { Peer } from "../src/sessions/peer.js";
import { serverDispatcher } from "./core-helpers.js";

type AnyToolConfig = ToolConfig<Schema | undefined, Schema | undefined>;

/** A typed tool config, widened for the table `setup` takes. */
function tool<I extends Schema | undefined = undefined, O extends Schema | undefined = undefined>(
  config: ToolConfig<I, O>,
): AnyToolConfig {
  return config as unknown as AnyToolConfig;
}

const INFO = { name: "github", version: "1.0.0" };
const SERVER_INFO_META = { "io.modelcontextprotocol/serverInfo": INFO };

function setup(
  tools: Record<string, AnyToolConfig> = { echo: { run: () => "echo" } },
  options: Partial<ServerOptions> = {},
) {
  const registry = new Registry({ ...INFO, ...options });
  for (const [name, config] of Object.entries(tools)) registry.addTool(compileTool(name, config));
  const dispatcher = serverDispatcher(registry);
  const peer: Peer = { session: undefined };
  const send = async (message: unknown, exchange?: Exchange) =>
    dispatcher.answer(message as JsonRpcRequest, peer, exchange);
  return { registry, dispatcher, peer, send };
}

/** Sets up a server with a legacy session already negotiated. */
async function legacy(...args: Parameters<typeof setup>) {
  const it = setup(...args);
  await it.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25" } });
  return it;
}

/** The 2026-07-28 per-request envelope (§1.1). */
function envelope(extra: Record<string, unknown> = {}) {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    ...extra,
  };
}

function error(id: number | string | undefined, code: number, message: string | RegExp) {
  return {
    jsonrpc: "2.0",
    ...(id === undefined ? {} : { id }),
    error: typeof message === "string" ? { code, message } : { code, message: expect.stringMatching(message) },
  };
}

/** A promise plus the function that settles it, to hold a tool open. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe("legacy era: initialize", () => {
  it("answers with the negotiated version, capabilities, serverInfo and instructions", async () => {
    const { send, peer } = setup(
      { echo: { run: () => "" } },
      { title: "GitHub", instructions: "Search before filing." },
    );
    const response = await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { roots: { listChanged: true } },
        clientInfo: { name: "claude", version: "1.2" },
      },
    });
    expect(response).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: "2025-11-25",
        capabilities: expect.objectContaining({ tools: { listChanged: true } }),
        serverInfo: { name: "github", version: "1.0.0", title: "GitHub" },
        instructions: "Search before filing.",
      },
    });
    expect(peer.session).toMatchObject({
      protocolVersion: "2025-11-25",
      client: { capabilities: { roots: { listChanged: true } }, info: { name: "claude", version: "1.2" } },
      initialized: false,
    });
  });

  it("echoes every version it serves and counter-offers the newest otherwise", async () => {
    for (const [asked, answered] of [
      ["2025-11-25", "2025-11-25"],
      ["2025-06-18", "2025-06-18"],
      ["2025-03-26", "2025-03-26"],
      ["2024-11-05", "2024-11-05"],
      ["2024-10-07", "2025-11-25"],
      ["2026-07-28", "2025-11-25"],
      ["next", "2025-11-25"],
    ]) {
      const { send } = setup();
      const response = await send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: asked } });
      expect(response?.result?.protocolVersion, asked).toBe(answered);
    }
  });

  it("rejects malformed initialize params with -32602 and opens no session", async () => {
    const cases: [unknown, string][] = [
      [undefined, 'initialize needs params.protocolVersion (a string such as "2025-11-25")'],
      [{ protocolVersion: 20251125 }, 'initialize needs params.protocolVersion (a string such as "2025-11-25")'],
      [{ protocolVersion: "2025-11-25", capabilities: [] }, "initialize params.capabilities must be an object"],
      [
        { protocolVersion: "2025-11-25", clientInfo: { name: "x" } },
        'initialize params.clientInfo must have string "name" and "version"',
      ],
    ];
    for (const [params, message] of cases) {
      const { send, peer } = setup();
      expect(await send({ jsonrpc: "2.0", id: 3, method: "initialize", params })).toEqual(error(3, -32602, message));
      expect(peer.session).toBeUndefined();
    }
  });

  it("rejects a second initialize with -32600 and keeps the first session", async () => {
    const { send, peer } = await legacy();
    const first = peer.session;
    expect(
      await send({ jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: "2025-06-18" } }),
    ).toEqual(error(2, -32600, "Invalid Request: this connection is already initialized (protocol 2025-11-25)"));
    expect(peer.session).toBe(first);
  });

  it("advertises no tools capability when there are no tools", async () => {
    const { send } = setup({});
    const response = await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25" },
    });
    expect(response?.result?.capabilities).not.toHaveProperty("tools");
  });

  it("marks the session initialized on notifications/initialized", async () => {
    const { dispatcher, peer } = await legacy();
    expect(peer.session?.initialized).toBe(false);
    dispatcher.notification({ jsonrpc: "2.0", method: "notifications/initialized" }, peer);
    expect(peer.session?.initialized).toBe(true);
  });

  it("ignores notifications/initialized before initialize", () => {
    const { dispatcher, peer } = setup();
    dispatcher.notification({ jsonrpc: "2.0", method: "notifications/initialized" }, peer);
    expect(peer.session).toBeUndefined();
  });
});

describe("legacy era: requests", () => {
  it("refuses requests before initialize, except ping", async () => {
    const { send } = setup();
    expect(await send({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toEqual(
      error(
        1,
        -32600,
        'Invalid Request: "tools/list" arrived before initialize. Send initialize first, or send 2026-07-28 requests with params._meta["io.modelcontextprotocol/protocolVersion"].',
      ),
    );
    expect(await send({ jsonrpc: "2.0", id: 2, method: "ping" })).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });

  it("answers ping with exactly {}", async () => {
    const { send } = await legacy();
    expect(await send({ jsonrpc: "2.0", id: "p", method: "ping", params: { _meta: { progressToken: 1 } } })).toEqual({
      jsonrpc: "2.0",
      id: "p",
      result: {},
    });
  });

  it("lists tools in registration order, with no 2026 fields", async () => {
    const { send } = await legacy({
      b: { description: "B", run: () => "" },
      a: { input: z.object({ q: z.string() }), run: () => "" },
    });
    expect(await send({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        tools: [
          { name: "b", description: "B", inputSchema: { type: "object", additionalProperties: false } },
          {
            name: "a",
            inputSchema: {
              $schema: "https://json-schema.org/draft/2020-12/schema",
              type: "object",
              properties: { q: { type: "string" } },
              required: ["q"],
            },
          },
        ],
      },
    });
  });

  it("calls tools and leaves the result untouched", async () => {
    const { send } = await legacy({
      greet: tool({ input: z.object({ who: z.string() }), run: ({ who }) => `hi ${who}` }),
    });
    const response = await send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "greet", arguments: { who: "ada" } },
    });
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hi ada" }] } });
  });

  it("serves the handler in the legacy era with the session's client", async () => {
    let seen: Context | undefined;
    const { send } = setup({
      probe: {
        run: (_args, ctx) => {
          seen = ctx;
          return "";
        },
      },
    });
    await send({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: { sampling: {} },
        clientInfo: { name: "c", version: "2" },
      },
    });
    await send({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "probe", _meta: { progressToken: "tok" } },
    });
    expect(seen).toMatchObject({
      era: "legacy",
      protocolVersion: "2025-06-18",
      requestId: 9,
      meta: { progressToken: "tok" },
      client: { info: { name: "c", version: "2" }, capabilities: { sampling: {} } },
    });
  });

  it("answers unknown methods with -32601", async () => {
    const { send } = await legacy();
    expect(await send({ jsonrpc: "2.0", id: 1, method: "tools/destroy" })).toEqual(
      error(1, -32601, 'Method not found: "tools/destroy" is not available in protocol 2025-11-25'),
    );
    expect(await send({ jsonrpc: "2.0", id: 2, method: "__proto__" })).toEqual(
      error(2, -32601, 'Method not found: "__proto__" is not available in protocol 2025-11-25'),
    );
    expect(await send({ jsonrpc: "2.0", id: 3, method: "toString" })).toMatchObject({ error: { code: -32601 } });
  });

  it("answers server/discover without an envelope with -32602", async () => {
    const { send } = setup();
    expect(await send({ jsonrpc: "2.0", id: 1, method: "server/discover" })).toEqual(
      error(
        1,
        -32602,
        'Invalid params: server/discover needs params._meta with "io.modelcontextprotocol/protocolVersion" and "io.modelcontextprotocol/clientCapabilities"',
      ),
    );
  });

  it("gates tool methods on the tools capability, saying the server has no tools", async () => {
    const { send } = await legacy({});
    expect(await send({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toEqual(
      error(
        1,
        -32601,
        'Method not found: "tools/list" is not available because this server has no tools; call only the methods of the capabilities it advertises',
      ),
    );
    expect(await send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "x" } })).toMatchObject({
      error: { code: -32601 },
    });
  });
});

describe("tools/call errors", () => {
  it("answers an unknown tool with -32602", async () => {
    const { send } = await legacy();
    expect(await send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "nope" } })).toEqual(
      error(1, -32602, 'Unknown tool "nope". Call tools/list to see the available tools.'),
    );
  });

  it("answers a missing name or non-object arguments with -32602", async () => {
    const { send } = await legacy();
    expect(await send({ jsonrpc: "2.0", id: 1, method: "tools/call" })).toEqual(
      error(1, -32602, "tools/call needs params.name: the name of a tool from tools/list"),
    );
    expect(await send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: 3 } })).toMatchObject({
      error: { code: -32602 },
    });
    for (const args of [[1], "x", 5]) {
      expect(
        await send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: args } }),
      ).toEqual(error(3, -32602, "tools/call params.arguments must be an object of named arguments"));
    }
  });

  it("treats absent or null arguments as {}", async () => {
    const { send } = await legacy({
      t: tool({ input: z.object({ n: z.number().default(1) }), run: ({ n }) => `n=${n}` }),
    });
    for (const params of [{ name: "t" }, { name: "t", arguments: null }]) {
      expect(await send({ jsonrpc: "2.0", id: 1, method: "tools/call", params })).toEqual({
        jsonrpc: "2.0",
        id: 1,
        result: { content: [{ type: "text", text: "n=1" }] },
      });
    }
  });

  it("sends validation failures as tool results, not protocol errors", async () => {
    const { send } = await legacy({
      search_issues: { input: z.object({ limit: z.number().int().max(50).default(10) }), run: () => "" },
    });
    const response = await send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search_issues", arguments: { limit: 99 } },
    });
    expect(response).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        content: [
          {
            type: "text",
            text: 'Invalid arguments for tool "search_issues":\nlimit: Too big: expected number to be <=50',
          },
        ],
        isError: true,
      },
    });
  });

  it("turns McpError into a JSON-RPC error with its code, message and data", async () => {
    const { send } = await legacy({
      admin: {
        run: async () => {
          throw new McpError(-32001, "Not authorised for this workspace", { workspace: "w1" });
        },
      },
    });
    expect(await send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "admin" } })).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: { code: -32001, message: "Not authorised for this workspace", data: { workspace: "w1" } },
    });
  });

  it("turns a validator that throws into a tool error saying the check failed, without calling run", async () => {
    let runs = 0;
    const broken: Schema = {
      "~standard": {
        version: 1,
        vendor: "mock",
        validate: () => {
          throw new Error("validator exploded");
        },
        jsonSchema: { input: () => ({ type: "object" }), output: () => ({ type: "object" }) },
      },
    };
    const { send } = await legacy({ t: { input: broken, run: () => String(++runs) } });
    expect(await send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t" } })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        content: [
          {
            type: "text",
            text: 'Tool "t" failed while checking its arguments against its input schema: validator exploded',
          },
        ],
        isError: true,
      },
    });
    expect(runs).toBe(0);
  });
});

describe("pagination", () => {
  const five = Object.fromEntries(["a", "b", "c", "d", "e"].map((name) => [name, { run: () => "" }]));
  const names = (response: unknown) =>
    ((response as { result: { tools: { name: string }[] } }).result.tools ?? []).map((tool) => tool.name);

  it("returns everything on one page without a pageSize", async () => {
    const { send } = await legacy(five);
    const response = await send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(names(response)).toEqual(["a", "b", "c", "d", "e"]);
    expect(response?.result).not.toHaveProperty("nextCursor");
  });

  it("pages through the list with nextCursor until it is absent", async () => {
    const { send } = await legacy(five, { pageSize: 2 });
    const pages: string[][] = [];
    let cursor: unknown;
    let id = 1;
    do {
      const response = await send({
        jsonrpc: "2.0",
        id: id++,
        method: "tools/list",
        params: cursor === undefined ? {} : { cursor },
      });
      pages.push(names(response));
      cursor = response?.result?.nextCursor;
      if (cursor !== undefined) expect(cursor).toBeTypeOf("string");
    } while (cursor !== undefined);
    expect(pages).toEqual([["a", "b"], ["c", "d"], ["e"]]);
  });

  it("gives the same page for the same cursor", async () => {
    const { send } = await legacy(five, { pageSize: 2 });
    const first = await send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const cursor = first?.result?.nextCursor;
    const again = await send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { cursor } });
    const twice = await send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { cursor } });
    expect(names(again)).toEqual(["c", "d"]);
    expect(twice?.result).toEqual(again?.result);
  });

  it("rejects invalid cursors with -32602", async () => {
    const { send } = await legacy(five, { pageSize: 2 });
    for (const cursor of ["not base64!", "", btoa("-1"), btoa("6"), btoa("1.5"), btoa("two"), 2, null, {}]) {
      expect(await send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor } }), String(cursor)).toEqual(
        error(1, -32602, "Invalid cursor for tools: list again without a cursor to start over"),
      );
    }
  });

  it("pages modern lists too, each page with its cache fields", async () => {
    const { send } = setup(five, { pageSize: 3 });
    const first = await send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } });
    expect(names(first)).toEqual(["a", "b", "c"]);
    const second = await send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
      params: { cursor: first?.result?.nextCursor, _meta: envelope() },
    });
    expect(names(second)).toEqual(["d", "e"]);
    for (const page of [first, second]) expect(page?.result).toMatchObject({ ttlMs: 0, cacheScope: "private" });
  });
});

describe("modern era", () => {
  it("answers server/discover with versions, capabilities, instructions, cache hints and serverInfo", async () => {
    const { send } = setup({ echo: { run: () => "" } }, { instructions: "Search before filing." });
    expect(await send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: envelope() } })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        supportedVersions: ["2026-07-28"],
        capabilities: expect.objectContaining({ tools: { listChanged: true } }),
        instructions: "Search before filing.",
        resultType: "complete",
        ttlMs: 0,
        cacheScope: "private",
        _meta: SERVER_INFO_META,
      },
    });
  });

  it("leaves instructions out of server/discover when there are none", async () => {
    const { send } = setup({});
    expect(await send({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: envelope() } })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        supportedVersions: ["2026-07-28"],
        capabilities: expect.not.objectContaining({ tools: expect.anything() }),
        resultType: "complete",
        ttlMs: 0,
        cacheScope: "private",
        _meta: SERVER_INFO_META,
      },
    });
  });

  it("answers an McpError code 2026-07-28 forbids with the one it allows: -32002 as -32602, an undefined -32020…-32099 code as -32603", async () => {
    // basic/index "Error Codes": -32002 and -32042 MUST NOT be emitted, nor any code of the
    // reserved -32020…-32099 the spec does not define; a legacy session keeps the code as thrown.
    const thrown = (code: number) =>
      tool({
        run: () => {
          throw new McpError(code, "Resource x://a not found", { uri: "x://a" });
        },
      });
    const tools = { gone: thrown(-32002), url: thrown(-32042), unknown: thrown(-32099), known: thrown(-32021) };
    const modern = setup(tools);
    const call = (send: typeof modern.send, id: number, name: string, _meta?: Record<string, unknown>) =>
      send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, ...(_meta && { _meta }) } });
    const data = { uri: "x://a" };
    const expected = { gone: -32602, url: -32603, unknown: -32603, known: -32021 };
    for (const [name, code] of Object.entries(expected)) {
      expect(await call(modern.send, 1, name, envelope())).toEqual({
        jsonrpc: "2.0",
        id: 1,
        error: { code, message: "Resource x://a not found", data },
      });
    }
    const { send } = await legacy(tools);
    for (const [name, code] of Object.entries({ gone: -32002, url: -32042, unknown: -32099 })) {
      expect(await call(send, 2, name)).toMatchObject({ error: { code, data } });
    }
  });

  it("serves tools/list and tools/call statelessly, with resultType and serverInfo", async () => {
    const { send, peer } = setup({ echo: { run: () => "echo" } });
    expect(await send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        tools: [{ name: "echo", inputSchema: { type: "object", additionalProperties: false } }],
        resultType: "complete",
        ttlMs: 0,
        cacheScope: "private",
        _meta: SERVER_INFO_META,
      },
    });
    // tools/call is not a cacheable result (2026-07-28 §7).
    expect(
      await send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", _meta: envelope() } }),
    ).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: "echo" }], resultType: "complete", _meta: SERVER_INFO_META },
    });
    expect(peer.session).toBeUndefined();
  });

  it("marks tool errors complete too", async () => {
    const { send } = setup({
      fail: {
        run: () => {
          throw new Error("nope");
        },
      },
    });
    expect(
      await send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "fail", _meta: envelope() } }),
    ).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        content: [{ type: "text", text: "nope" }],
        isError: true,
        resultType: "complete",
        _meta: SERVER_INFO_META,
      },
    });
  });

  it("gives the handler the envelope's client, version and meta", async () => {
    let seen: Context | undefined;
    const { send } = setup({
      probe: {
        run: (_args, ctx) => {
          seen = ctx;
          return "";
        },
      },
    });
    const meta = envelope({
      "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
      "io.modelcontextprotocol/clientInfo": { name: "codex", version: "0.9" },
      progressToken: 5,
    });
    await send({ jsonrpc: "2.0", id: "m1", method: "tools/call", params: { name: "probe", _meta: meta } });
    expect(seen).toMatchObject({
      era: "modern",
      protocolVersion: "2026-07-28",
      requestId: "m1",
      meta,
      client: { info: { name: "codex", version: "0.9" }, capabilities: { elicitation: { form: {} } } },
    });
  });

  it("serves modern requests on a connection that also has a legacy session", async () => {
    const { send } = await legacy();
    const response = await send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } });
    expect(response?.result).toMatchObject({ resultType: "complete" });
    const old = await send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(old?.result).not.toHaveProperty("resultType");
    expect(old?.result).not.toHaveProperty("_meta");
  });

  it("rejects a malformed envelope with -32602, never falling back to the legacy era", async () => {
    const { send } = await legacy();
    const P = "io.modelcontextprotocol/protocolVersion";
    const C = "io.modelcontextprotocol/clientCapabilities";
    const cases: [Record<string, unknown>, string][] = [
      [{ [P]: 20260728, [C]: {} }, `_meta["${P}"] must be a string`],
      [{ [P]: null, [C]: {} }, `_meta["${P}"] must be a string`],
      [
        { [P]: "2026-07-28" },
        `_meta["${C}"] is required: an object of the capabilities this client declares ({} for none)`,
      ],
      [
        { [P]: "2026-07-28", [C]: "all" },
        `_meta["${C}"] is required: an object of the capabilities this client declares ({} for none)`,
      ],
      [
        envelope({ "io.modelcontextprotocol/clientInfo": { name: "x" } }),
        `_meta["io.modelcontextprotocol/clientInfo"] must be an object with string "name" and "version"`,
      ],
      [
        envelope({ "io.modelcontextprotocol/logLevel": "loud" }),
        `_meta["io.modelcontextprotocol/logLevel"] must be one of debug, info, notice, warning, error, critical, alert, emergency`,
      ],
    ];
    for (const [meta, message] of cases) {
      for (const method of ["tools/list", "server/discover", "ping"]) {
        expect(await send({ jsonrpc: "2.0", id: 5, method, params: { _meta: meta } })).toEqual(
          error(5, -32602, `Invalid params: ${message}`),
        );
      }
    }
  });

  it("serves a request without clientInfo, and with a valid logLevel", async () => {
    const { send } = setup();
    for (const meta of [envelope(), envelope({ "io.modelcontextprotocol/logLevel": "warning" })]) {
      expect(await send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } })).toMatchObject({
        result: { resultType: "complete" },
      });
    }
  });

  it("lets a handler ask the client with nothing installed for it: its question loads the asking layer, whose rounds the retry goes on in", async () => {
    // A bare dispatcher, as the core is before any layer is installed: asking the client is not one of them.
    const registry = new Registry(INFO);
    const greet = tool({
      run: async (_args, ctx) => {
        const answer = await ctx.elicit("Your name?", { type: "object", properties: { name: { type: "string" } } });
        return `Hello ${answer.action === "accept" ? answer.content.name : "nobody"}`;
      },
    });
    registry.addTool(compileTool("greet", greet));
    const dispatcher = new Dispatcher(registry, resolveLimits(undefined));
    const peer: Peer = { session: undefined };
    const _meta = envelope({ "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } });
    const call = (params: Record<string, unknown>) =>
      dispatcher.answer(
        { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "greet", _meta, ...params } },
        peer,
      );
    const asked = await call({});
    expect(asked).toMatchObject({
      result: { resultType: "input_required", inputRequests: { "elicitation-1": { method: "elicitation/create" } } },
    });
    const requestState = asked && "result" in asked ? asked.result?.requestState : undefined;
    const inputResponses = { "elicitation-1": { action: "accept", content: { name: "Ada" } } };
    expect(await call({ requestState, inputResponses })).toMatchObject({
      result: { content: [{ type: "text", text: "Hello Ada" }], resultType: "complete" },
    });
  });

  it("rejects versions it does not serve with -32022 and data.supported/requested", async () => {
    const { send } = setup();
    for (const requested of ["2025-11-25", "2027-01-01", "v999.0.0"]) {
      const meta = envelope({ "io.modelcontextprotocol/protocolVersion": requested });
      expect(await send({ jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: meta } })).toEqual({
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: -32022,
          message: `Unsupported protocol version "${requested}"; this server supports 2026-07-28 in _meta (or initialize for 2025-11-25 and older)`,
          data: { supported: ["2026-07-28"], requested },
        },
      });
    }
  });

  it("checks the envelope before the version", async () => {
    const { send } = setup();
    const meta = { "io.modelcontextprotocol/protocolVersion": "2027-01-01" };
    expect(await send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } })).toMatchObject({
      error: { code: -32602 },
    });
  });

  it("answers methods removed in 2026-07-28 with -32601, saying what to use instead", async () => {
    const { send, peer } = setup();
    for (const method of ["initialize", "ping", "logging/setLevel"]) {
      const params =
        method === "initialize" ? { protocolVersion: "2025-11-25", _meta: envelope() } : { _meta: envelope() };
      expect(await send({ jsonrpc: "2.0", id: 1, method, params })).toMatchObject({
        error: {
          code: -32601,
          message: expect.stringMatching(
            new RegExp(`^Method not found: "${method}" is not available in protocol 2026-07-28[,:] \\w`),
          ),
        },
      });
    }
    // Without resources (their layer not loaded) too, the reason given is the protocol's, with what replaced them
    // (was: "because this server has no resources", as if another server had them; test/peers/removed-methods.test.ts).
    for (const method of ["resources/subscribe", "resources/unsubscribe"]) {
      expect(await send({ jsonrpc: "2.0", id: 1, method, params: { _meta: envelope() } })).toMatchObject({
        error: {
          code: -32601,
          message: expect.stringMatching(/is not available in protocol 2026-07-28[,:] .*subscriptions\/listen/),
        },
      });
    }
    // An initialize that carries a valid modern envelope opens no session.
    expect(peer.session).toBeUndefined();
  });

  it("answers tools methods with -32601 and advertises no tools capability when there are no tools", async () => {
    const { send } = setup({});
    for (const method of ["tools/list", "tools/call"]) {
      expect(await send({ jsonrpc: "2.0", id: 1, method, params: { name: "x", _meta: envelope() } })).toEqual(
        error(
          1,
          -32601,
          `Method not found: "${method}" is not available because this server has no tools; call only the methods of the capabilities it advertises`,
        ),
      );
    }
  });

  it('answers a method without a "/" as unknown, not as a family\'s method the server lacks', async () => {
    const { send } = setup({});
    // "toolsX" is no tools method: cutting the name at a "/" it does not have once read it as "tools".
    for (const method of ["toolsX", "promptsX"]) {
      expect(await send({ jsonrpc: "2.0", id: 1, method, params: { _meta: envelope() } })).toEqual(
        error(1, -32601, `Method not found: "${method}" is not available in protocol 2026-07-28`),
      );
    }
  });

  it("turns McpError into a JSON-RPC error, without _meta", async () => {
    const { send } = setup({
      admin: {
        run: () => {
          throw new McpError(-32001, "Not authorised for this workspace");
        },
      },
    });
    expect(
      await send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "admin", _meta: envelope() } }),
    ).toEqual(error(1, -32001, "Not authorised for this workspace"));
  });
});

describe("cancellation", () => {
  /** A server whose `slow` tool waits for `release`, recording its context. */
  function slowServer() {
    const held = gate();
    const started = gate();
    let ctx: Context | undefined;
    const it = setup({
      slow: {
        run: async (_args, context) => {
          ctx = context;
          started.open();
          await held.opened;
          return "done";
        },
      },
    });
    return { ...it, release: held.open, started: started.opened, ctx: () => ctx! };
  }

  it("sends no response for a cancelled request and aborts its signal with the reason", async () => {
    const { send, dispatcher, peer, release, started, ctx } = slowServer();
    const inflight: Inflight = new Map();
    const pending = send(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", _meta: envelope() } },
      { inflight },
    );
    await started;
    const signal = ctx().signal;
    expect(inflight.has(1)).toBe(true);
    dispatcher.notification(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "User pressed stop" } },
      peer,
      inflight,
    );
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(DOMException);
    expect(signal.reason).toMatchObject({ name: "AbortError", message: "User pressed stop" });
    release();
    expect(await pending).toBeUndefined();
    expect(inflight.size).toBe(0);
  });

  it("hands an already aborted signal to a handler that reads it after the cancel", async () => {
    const { send, dispatcher, peer, release, started, ctx } = slowServer();
    const inflight: Inflight = new Map();
    const pending = send(
      { jsonrpc: "2.0", id: "x", method: "tools/call", params: { name: "slow", _meta: envelope() } },
      {
        inflight,
      },
    );
    await started;
    dispatcher.notification(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "x" } },
      peer,
      inflight,
    );
    expect(ctx().signal.aborted).toBe(true);
    expect(ctx().signal.reason).toMatchObject({ name: "AbortError", message: "The client cancelled the request" });
    release();
    expect(await pending).toBeUndefined();
  });

  it("sends nothing either when the cancelled handler throws", async () => {
    const inflight: Inflight = new Map();
    const started = gate();
    const { send, dispatcher, peer } = setup({
      t: {
        run: (_args, ctx) =>
          new Promise((_resolve, reject) => {
            started.open();
            ctx.signal.addEventListener("abort", () => reject(new McpError(-32001, "aborted")));
          }),
      },
    });
    const pending = send(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", _meta: envelope() } },
      {
        inflight,
      },
    );
    await started.opened;
    dispatcher.notification(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      peer,
      inflight,
    );
    expect(await pending).toBeUndefined();
  });

  it("ignores cancellations for unknown, finished or malformed ids", async () => {
    const { send, dispatcher, peer, release, started, ctx } = slowServer();
    const inflight: Inflight = new Map();
    const pending = send(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", _meta: envelope() } },
      {
        inflight,
      },
    );
    await started;
    for (const params of [
      { requestId: 2 },
      { requestId: "1" },
      { requestId: null },
      { requestId: 1.5 },
      {},
      undefined,
    ]) {
      dispatcher.notification({ jsonrpc: "2.0", method: "notifications/cancelled", params }, peer, inflight);
    }
    expect(ctx().signal.aborted).toBe(false);
    release();
    expect(await pending).toMatchObject({ id: 1, result: { content: [{ type: "text", text: "done" }] } });
    // Late: the request has finished, so this is ignored.
    dispatcher.notification(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
      peer,
      inflight,
    );
    expect(ctx().signal.aborted).toBe(false);
  });

  it("follows an exchange's own signal (a dropped HTTP request)", async () => {
    const { send, release, started, ctx } = slowServer();
    const controller = new AbortController();
    const pending = send(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", _meta: envelope() } },
      { signal: controller.signal },
    );
    await started;
    controller.abort("client went away");
    expect(ctx().signal.reason).toBe("client went away");
    release();
    expect(await pending).toBeUndefined();
  });

  it("rejects a request whose id is already in flight with -32600, and still answers the first", async () => {
    const { send, release, started } = slowServer();
    const inflight: Inflight = new Map();
    const first = send(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", _meta: envelope() } },
      {
        inflight,
      },
    );
    await started;
    expect(
      await send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } }, { inflight }),
    ).toEqual(
      error(1, -32600, "Invalid Request: id 1 is already used by a request in progress; give every request a new id"),
    );
    release();
    expect(await first).toMatchObject({ id: 1, result: { content: [{ type: "text", text: "done" }] } });
    // Once answered, the id may be used again.
    expect(
      await send({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope() } }, { inflight }),
    ).toMatchObject({
      result: { resultType: "complete" },
    });
  });
});
