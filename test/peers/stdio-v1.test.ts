/**
 * The official v1 client (@modelcontextprotocol/sdk, legacy era: initialize + session) drives the
 * fixture server as a child process over stdio.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
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

const PAGE_SIZE = 5;

let client: Client;
let transport: StdioClientTransport;
let stderr = "";
const listChanged: unknown[] = [];

beforeAll(async () => {
  transport = new StdioClientTransport(fixture({ PICO_PAGE_SIZE: String(PAGE_SIZE) }));
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  client = new Client(
    { name: "v1-peer", version: "1.0.0" },
    { capabilities: { roots: { listChanged: true }, experimental: { "com.example/x": {} } } },
  );
  client.setNotificationHandler(ToolListChangedNotificationSchema, (notification) => {
    listChanged.push(notification);
  });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
});

const call = (name: string, args?: Record<string, unknown>) => client.callTool({ name, arguments: args });

/** What the fixture's `stats` tool reports: runs per tool and the cancellations its handlers saw. */
async function stats(): Promise<{ runs: Record<string, number>; aborts: { reason: string; name: string }[] }> {
  const result = await call("stats");
  return JSON.parse((result.content as { text: string }[])[0]!.text);
}

describe("v1 client over stdio: handshake", () => {
  it("initializes and sees the server's identity, capabilities and instructions", () => {
    expect(client.getServerVersion()).toEqual({ name: "fixture", version: "1.2.3", title: "Peer fixture" });
    expect(client.getServerCapabilities()).toEqual(CAPABILITIES);
    expect(client.getInstructions()).toBe("Test only.");
  });

  it("answers ping with an empty result", async () => {
    expect(await client.ping()).toEqual({});
  });
});

describe("v1 client over stdio: tools/list", () => {
  it("pages through every tool in registration order with opaque cursors", async () => {
    const names: string[] = [];
    const pageLengths: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      names.push(...page.tools.map((tool) => tool.name));
      pageLengths.push(page.tools.length);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(names).toEqual(TOOL_NAMES);
    expect(pageLengths).toEqual([5, 5, 2]);
  });

  it("describes a tool with every field: title, description, 2020-12 input schema, annotations, icons, _meta", async () => {
    const { tools } = await client.listTools({});
    expect(tools[0]).toEqual(SEARCH_ISSUES);
    expect(tools.find((tool) => tool.name === "get_price")?.outputSchema).toEqual(GET_PRICE_OUTPUT_SCHEMA);
    // A tool without an input schema takes no arguments.
    expect(tools.find((tool) => tool.name === "bad_price")?.inputSchema).toEqual({
      type: "object",
      additionalProperties: false,
    });
  });

  it("rejects a cursor it did not issue with -32602", async () => {
    await expect(client.listTools({ cursor: "not-a-cursor" })).rejects.toMatchObject({ code: -32602 });
  });
});

describe("v1 client over stdio: tools/call", () => {
  it.each(Object.entries(CONTENT_CASES))("turns a %s return value into content", async (kind, content) => {
    const result = await call("content", { kind });
    expect(result).toEqual({ content });
  });

  it("validates before run: the seed's exact error, and run is not called", async () => {
    const before = (await stats()).runs.search_issues ?? 0;
    const bad = await call("search_issues", { repo: "a/b", query: "q", limit: 99 });
    expect(bad).toEqual({ content: [{ type: "text", text: SEED_VALIDATION_ERROR }], isError: true });
    expect((await stats()).runs.search_issues ?? 0).toBe(before);

    const good = await call("search_issues", { repo: "a/b", query: "bug" });
    expect(good).toEqual({ content: [{ type: "text", text: "a/b bug 10" }] });
    expect((await stats()).runs.search_issues).toBe(before + 1);
  });

  it("names every failing field, one line each", async () => {
    const result = await call("search_issues", { repo: 7, limit: 1.5 });
    expect(result.isError).toBe(true);
    const lines = (result.content as { text: string }[])[0]!.text.split("\n");
    expect(lines[0]).toBe('Invalid arguments for tool "search_issues":');
    expect(lines.slice(1).map((line) => line.split(":")[0])).toEqual(["repo", "query", "limit"]);
  });

  it("applies defaults and transforms: run sees the parsed value", async () => {
    const result = await call("transform", { word: "shout" });
    expect(result).toEqual({ content: [{ type: "text", text: '{"word":"SHOUT","times":2,"tags":[]}' }] });
  });

  it("sends structuredContent equal to the parsed output, extra fields stripped, plus a JSON text copy", async () => {
    const result = await call("get_price", { sku: "A-1" });
    const value = { sku: "A-1", cents: 1299, currency: "EUR" };
    expect(result).toEqual({ content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value });
  });

  it("turns an output that does not match its schema into a tool error naming the field", async () => {
    const result = await call("bad_price");
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "bad_price" produced a result that does not match its output schema:\ncents: Invalid input: expected number, received string',
        },
      ],
      isError: true,
    });
  });

  it("turns a thrown Error into a tool error with its message and no stack", async () => {
    const result = await call("fail", { id: 7 });
    expect(result).toEqual({
      content: [{ type: "text", text: "No user with id 7. Call list_users to see valid ids." }],
      isError: true,
    });
  });

  it("turns McpError into a JSON-RPC error with its code and data", async () => {
    const error = await call("forbidden").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32001, data: { workspace: "acme" } });
    expect((error as Error).message).toContain("Not authorised for this workspace");
  });

  it("answers an unknown tool with -32602", async () => {
    const error = await call("no_such_tool").catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32602 });
    expect((error as Error).message).toContain('Unknown tool "no_such_tool"');
  });

  it("keeps console.log off stdout: the tool answers and the log line is on stderr", async () => {
    expect(await call("chatty")).toEqual({ content: [{ type: "text", text: "logged" }] });
    // stderr is a separate pipe, so its bytes may arrive after the response: wait for them.
    await expect.poll(() => stderr, { timeout: 5000 }).toContain("chatty: this line is a log, not protocol");
  });
});

describe("v1 client over stdio: context and cancellation", () => {
  it("gives the handler the request's _meta, id, version and the client's info and capabilities", async () => {
    const result = await client.callTool({
      name: "context",
      arguments: {},
      _meta: { "com.example/trace": "t-1" },
    });
    const ctx = JSON.parse((result.content as { text: string }[])[0]!.text);
    expect(ctx).toEqual({
      meta: { "com.example/trace": "t-1" },
      requestId: expect.any(Number),
      protocolVersion: "2025-11-25",
      era: "legacy",
      client: {
        info: { name: "v1-peer", version: "1.0.0" },
        capabilities: { roots: { listChanged: true }, experimental: { "com.example/x": {} } },
      },
    });
  });

  it("aborts ctx.signal with the client's reason when the client aborts the call", async () => {
    const controller = new AbortController();
    const pending = client.callTool({ name: "wait_for_cancel" }, undefined, { signal: controller.signal });
    // Requests are served in order, so once stats answers, wait_for_cancel is running.
    expect((await stats()).runs.wait_for_cancel).toBe(1);
    controller.abort("user pressed stop");
    await expect(pending).rejects.toThrow(/user pressed stop/);
    // The cancel notification went out before this request, on the same pipe.
    expect((await stats()).aborts).toEqual([
      { tool: "wait_for_cancel", reason: "user pressed stop", name: "AbortError" },
    ]);
  });
});

describe("v1 client over stdio: list changes", () => {
  it("receives notifications/tools/list_changed when a tool is added at run time, then can call it", async () => {
    expect(listChanged).toEqual([]);
    expect(await call("add_tool", { name: "late_tool" })).toEqual({
      content: [{ type: "text", text: "added late_tool" }],
    });
    await expect.poll(() => listChanged).toEqual([{ method: "notifications/tools/list_changed" }]);
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(names).toEqual([...TOOL_NAMES, "late_tool"]);
    expect(await call("late_tool")).toEqual({ content: [{ type: "text", text: "hello from late_tool" }] });
  });
});
