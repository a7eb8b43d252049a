/**
 * The user's seed pages (/work/shared/seeds: the French and Italian "Tools" pages, the same page in two
 * languages) hold exactly: each code sample, as the page writes it (test/fixtures/seeds-server.ts),
 * served over stdio to the official v1 client (2025-11-25, initialize) and v2 client (2026-07-28,
 * `_meta` envelope), gives what the page says, down to the text the model reads. What a client
 * library hides is read on the wire (a cancelled request's missing response, McpError's own message),
 * and the registration rules ("Configuration") in-process, where they throw.
 */
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { Child, call, killChildren, MODERN_META } from "./hardening-helpers.js";
import { tsxProgram } from "./peers/fixture.js";

const SERVER = tsxProgram("test/fixtures/seeds-server.ts");

/** What both clients do here: list, call (with a signal), and the result as the client read it. */
interface Peer {
  list(): Promise<{ tools: Record<string, unknown>[] }>;
  call(name: string, args?: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>>;
  meta(meta: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

async function v1(): Promise<Peer> {
  const client = new ClientV1({ name: "seeds-v1", version: "1.0.0" });
  await client.connect(new StdioV1(SERVER));
  return {
    list: () => client.listTools(),
    call: (name, args, signal) => client.callTool({ name, arguments: args }, undefined, { signal }),
    meta: (_meta) => client.callTool({ name: "meta", _meta }),
    close: () => client.close(),
  };
}

async function v2(): Promise<Peer> {
  const client = new ClientV2({ name: "seeds-v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StdioV2(SERVER));
  return {
    list: () => client.listTools(),
    call: (name, args, signal) => client.callTool({ name, arguments: args }, { signal }),
    meta: (_meta) => client.callTool({ name: "meta", _meta }),
    close: () => client.close(),
  };
}

const PNG_BASE64 = Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString("base64");

describe.each([
  { era: "2025-11-25 (official v1 client)", connect: v1, modern: false },
  { era: "2026-07-28 (official v2 client)", connect: v2, modern: true },
])("the seed Tools page, $era", ({ connect, modern }) => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await connect();
  });
  afterAll(() => peer?.close());

  /** A result as the page shows it: what every 2026-07-28 result carries besides (§1.3) is checked apart. */
  const call = async (name: string, args?: Record<string, unknown>) => {
    const result = await peer.call(name, args);
    if (!modern) return result;
    // The v2 client takes resultType in; the server's identity stays in _meta.
    const { _meta, ...page } = result;
    expect(_meta).toEqual({ "io.modelcontextprotocol/serverInfo": { name: "seeds", version: "1.0.0" } });
    return page;
  };
  const seen = async (): Promise<{ urls: string[]; aborts: string[] }> =>
    JSON.parse(((await call("seen")).content as { text: string }[])[0]!.text);

  it("lists search_issues as registered: title, description, .describe() in the JSON Schema, annotations", async () => {
    const { tools } = await peer.list();
    expect(tools.find((tool) => tool.name === "search_issues")).toEqual({
      name: "search_issues",
      title: "Search issues",
      description: "Search open GitHub issues in a repository. Use it before filing a new issue.",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: {
          repo: { type: "string", description: "owner/name" },
          query: { type: "string" },
          limit: { type: "integer", maximum: 50, default: 10 },
        },
        required: ["repo", "query"],
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    });
  });

  it("validates before run: limit's default applies, and 99 is the page's exact tool error, run not called", async () => {
    const before = (await seen()).urls.length;
    expect(await call("search_issues", { repo: "octo/app", query: "crash", limit: 99 })).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "search_issues":\nlimit: Too big: expected number to be <=50',
        },
      ],
      isError: true,
    });
    expect((await seen()).urls.length).toBe(before);
    expect(await call("search_issues", { repo: "octo/app", query: "crash" })).toEqual({
      content: [
        {
          type: "text",
          text: "Crash on start — https://github.com/octo/app/issues/1\nTypo in README — https://github.com/octo/app/issues/2",
        },
      ],
    });
    // limit is always a number in run: the default, 10.
    expect((await seen()).urls.at(-1)).toBe(
      "https://api.github.com/search/issues?q=crash%20repo%3Aocto%2Fapp&per_page=10",
    );
  });

  it("names each field at fault on a line of its own, a required field left out too, run not called", async () => {
    const before = (await seen()).urls.length;
    expect(await call("search_issues", { limit: 99 })).toEqual({
      content: [
        {
          type: "text",
          text: [
            'Invalid arguments for tool "search_issues":',
            "repo: Invalid input: expected string, received undefined",
            "query: Invalid input: expected string, received undefined",
            "limit: Too big: expected number to be <=50",
          ].join("\n"),
        },
      ],
      isError: true,
    });
    expect((await seen()).urls.length).toBe(before);
  });

  it("applies the schema's transforms before run, and advertises the schema's input side", async () => {
    const { tools } = await peer.list();
    expect(tools.find((tool) => tool.name === "tags")?.inputSchema).toMatchObject({
      properties: { tags: { type: "string" } },
      required: ["tags"],
    });
    expect(await call("tags", { tags: "bug,ui" })).toEqual({
      content: [{ type: "text", text: '{"tags":["bug","ui"],"isArray":true}' }],
    });
  });

  it("sends the helpers' blocks: text, image from a Uint8Array, link with its mimeType, audio", async () => {
    expect(await call("chart")).toEqual({
      content: [
        { type: "text", text: "Here is the chart:" },
        { type: "image", data: PNG_BASE64, mimeType: "image/png" },
        { type: "resource_link", uri: "file:///reports/q3.csv", name: "q3.csv", mimeType: "text/csv" },
      ],
    });
    expect(await call("clip")).toEqual({ content: [{ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }] });
    // "Uint8Array or base64 string": a string is sent as it is.
    expect(await call("photo")).toEqual({ content: [{ type: "image", data: "iVBORw==", mimeType: "image/png" }] });
  });

  it("announces get_price's output schema, sends structuredContent with its JSON text copy, and a mismatch as a tool error", async () => {
    const { tools } = await peer.list();
    expect(tools.find((tool) => tool.name === "get_price")?.outputSchema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { sku: { type: "string" }, cents: { type: "integer" }, currency: { type: "string", const: "EUR" } },
      required: ["sku", "cents", "currency"],
      additionalProperties: false,
    });
    const price = { sku: "A-100", cents: 1999, currency: "EUR" };
    expect(await call("get_price", { sku: "A-100" })).toEqual({
      content: [{ type: "text", text: JSON.stringify(price) }],
      structuredContent: price,
    });
    expect(await call("get_price", { sku: "B-200" })).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "get_price" produced a result that does not match its output schema:\ncents: Invalid input: expected int, received number',
        },
      ],
      isError: true,
    });
  });

  it("turns the thrown Error into a tool error the model reads, and McpError into a JSON-RPC error", async () => {
    expect(await call("get_user", { id: 42 })).toEqual({
      content: [{ type: "text", text: "No user with id 42. Call list_users to see valid ids." }],
      isError: true,
    });
    expect(await call("get_user", { id: 1 })).toEqual({ content: [{ type: "text", text: '{"id":1,"name":"Ada"}' }] });
    await expect(call("workspace")).rejects.toMatchObject({
      code: -32001,
      message: expect.stringContaining("Not authorised for this workspace"),
    });
  });

  it("sends a message written for the model whole, its indented lines that start with 'at' included", async () => {
    expect(await call("book_room")).toEqual({
      content: [
        {
          type: "text",
          text: "No room is free:\n  at 10:00 room B is taken\n  at least 6 seats are needed, and room C has 4\nCall list_slots for free times.",
        },
      ],
      isError: true,
    });
  });

  it("aborts the signal run passes to fetch when the client cancels, and the call gets no result", async () => {
    const controller = new AbortController();
    const pending = peer.call("fetch_page", { url: "https://example.com/slow" }, controller.signal);
    // Requests are served in order: once seen answers, fetch_page's fetch is waiting.
    expect((await seen()).urls.at(-1)).toBe("https://example.com/slow");
    controller.abort("the user pressed stop");
    await expect(pending).rejects.toThrow(/the user pressed stop/);
    expect((await seen()).aborts.at(-1)).toBe("the user pressed stop");
  });

  it("puts .describe() of every field in the JSON Schema the model sees: optional, defaulted, nested, array items", async () => {
    const { tools } = await peer.list();
    expect(tools.find((tool) => tool.name === "described")?.inputSchema).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        status: { type: "string", enum: ["open", "closed"], description: "Which issues; all when left out" },
        limit: { type: "integer", maximum: 50, default: 10, description: "At most this many" },
        filter: {
          type: "object",
          description: "What the issues must match",
          properties: {
            labels: {
              type: "array",
              description: "Labels they all have",
              items: { type: "string", description: "A label's name" },
            },
          },
          required: ["labels"],
        },
      },
      required: ["filter"],
    });
  });

  it("leaves ctx.meta undefined when the request has no _meta ('s'il y en a un')", async () => {
    const { meta } = JSON.parse(((await call("meta")).content as { text: string }[])[0]!.text);
    if (!modern) expect(meta).toBeNull();
    // A 2026-07-28 request always carries its envelope in _meta, and nothing else here.
    else for (const key of Object.keys(meta)) expect(key).toMatch(/^io\.modelcontextprotocol\//);
  });

  it("gives run the request's _meta as ctx.meta", async () => {
    const sent = { "com.example/trace": "t-1", progressToken: "p-1" };
    const { meta } = JSON.parse(((await peer.meta(sent)).content as { text: string }[])[0]!.text);
    // A 2026-07-28 client also sends its envelope there (docs/tools.md, "The request context").
    expect(meta).toEqual(modern ? expect.objectContaining(sent) : sent);
  });
});

describe("the seed Tools page on the wire (stdio, as a client reads each line)", () => {
  afterAll(killChildren);

  it.each([
    { era: "2025-11-25", modern: false },
    { era: "2026-07-28", modern: true },
  ])(
    "sends no response for a cancelled request, only the abort, $era ('picomcp n'envoie aucune réponse')",
    async ({ modern }) => {
      const child = new Child({}, "test/fixtures/seeds-server.ts");
      if (!modern) await child.initialize();
      child.send(call("page", "fetch_page", { url: "https://example.com/slow" }, modern));
      // Requests are served in order: once seen answers, fetch_page's fetch is waiting.
      child.send(call("before", "seen", {}, modern));
      await child.response("before");
      child.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "page", reason: "stop" } });
      child.send(call("after", "seen", {}, modern));
      const after = (await child.response("after")).result as { content: { text: string }[] };
      expect(JSON.parse(after.content[0]!.text).aborts).toEqual(["stop"]);
      // A ping answered after the abort: everything the server wrote for "page" would have come by now.
      child.send({ jsonrpc: "2.0", id: "ping", method: "ping", ...(modern ? { params: { _meta: MODERN_META } } : {}) });
      await child.response("ping");
      expect(child.messages().filter((message) => message.id === "page")).toEqual([]);
    },
  );

  it.each([
    { era: "2025-11-25", modern: false },
    { era: "2026-07-28", modern: true },
  ])("sends McpError as that JSON-RPC error, code and message as thrown, $era", async ({ modern }) => {
    const child = new Child({}, "test/fixtures/seeds-server.ts");
    if (!modern) await child.initialize();
    child.send(call("denied", "workspace", {}, modern));
    expect((await child.response("denied")).error).toEqual({
      code: -32001,
      message: "Not authorised for this workspace",
    });
  });
});

describe("the seed Tools page's registration rules ('Configuration')", () => {
  const run = () => "ok";

  it("takes names of 1 to 128 letters, digits, _, . and -", async () => {
    const longest: string = "x".repeat(128);
    const server = pico({ name: "names" })
      .tool("a", { run })
      .tool("Z9", { run })
      .tool("github.search-issues_v2", { run })
      .tool(longest, { run });
    for (const name of ["a", "Z9", "github.search-issues_v2", longest]) {
      expect(await server.call(name, {}), name).toEqual({ content: [{ type: "text", text: "ok" }] });
    }
  });

  it("throws at once, at server.tool(), for an invalid name or one already taken", () => {
    const ONLY = 'use only the letters A-Z and a-z, digits, "_", "." and "-".';
    const server = pico({ name: "names" }).tool("search_issues", { run });
    for (const [name, message] of [
      ["", 'A tool name must be a non-empty string; got "".'],
      ["x".repeat(129), `Tool name "${"x".repeat(40)}…" is 129 characters long; the limit is 128.`],
      ["search issues", `Tool name "search issues" contains " "; ${ONLY}`],
      ["search/issues", `Tool name "search/issues" contains "/"; ${ONLY}`],
      // "des lettres" are A-Z and a-z (MCP 2025-11-25, "Tool names"): the message says so, since "é" is a letter too.
      ["météo", `Tool name "météo" contains "é"; ${ONLY}`],
      ["search_issues", 'Tool "search_issues" is already registered; tool names must be unique.'],
    ]) {
      expect(() => server.tool(name!, { run }), name).toThrow(new TypeError(message));
    }
  });
});
