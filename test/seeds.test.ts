/**
 * The user's seed pages (/work/shared/seeds: the French and Italian "Tools" pages, the same page in two
 * languages) hold exactly: each code sample, as the page writes it (test/fixtures/seeds-server.ts),
 * served over stdio to the official v1 client (2025-11-25, initialize) and v2 client (2026-07-28,
 * `_meta` envelope), gives what the page says, down to the text the model reads.
 */
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

  it("sends the helpers' blocks: text, image from a Uint8Array, link with its mimeType, audio", async () => {
    expect(await call("chart")).toEqual({
      content: [
        { type: "text", text: "Here is the chart:" },
        { type: "image", data: PNG_BASE64, mimeType: "image/png" },
        { type: "resource_link", uri: "file:///reports/q3.csv", name: "q3.csv", mimeType: "text/csv" },
      ],
    });
    expect(await call("clip")).toEqual({ content: [{ type: "audio", data: "UklGRg==", mimeType: "audio/wav" }] });
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

  it("aborts the signal run passes to fetch when the client cancels, and the call gets no result", async () => {
    const controller = new AbortController();
    const pending = peer.call("fetch_page", { url: "https://example.com/slow" }, controller.signal);
    // Requests are served in order: once seen answers, fetch_page's fetch is waiting.
    expect((await seen()).urls.at(-1)).toBe("https://example.com/slow");
    controller.abort("the user pressed stop");
    await expect(pending).rejects.toThrow(/the user pressed stop/);
    expect((await seen()).aborts.at(-1)).toBe("the user pressed stop");
  });

  it("gives run the request's _meta as ctx.meta", async () => {
    const sent = { "com.example/trace": "t-1", progressToken: "p-1" };
    const { meta } = JSON.parse(((await peer.meta(sent)).content as { text: string }[])[0]!.text);
    // A 2026-07-28 client also sends its envelope there (docs/tools.md, "The request context").
    expect(meta).toEqual(modern ? expect.objectContaining(sent) : sent);
  });
});
