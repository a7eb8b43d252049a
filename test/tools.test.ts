import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Registry } from "../src/core/registry.js";
import type { Schema } from "../src/core/schema.js";
import { checkToolName, compileTool } from "../src/core/tools.js";
import { audio, embed, image, link, McpError, pico, text } from "../src/index.js";
import type { Peer } from "../src/sessions/peer.js";
import { LegacySession } from "../src/sessions/session.js";
import { serverDispatcher } from "./core-helpers.js";

const run = () => "";

/** The same schema, with spies on its JSON Schema converter. */
function spied<S extends Schema>(schema: S) {
  const standard = schema["~standard"];
  const converter = standard.jsonSchema!;
  const input = vi.fn(converter.input);
  const output = vi.fn(converter.output);
  return { schema: { "~standard": { ...standard, jsonSchema: { input, output } } } as unknown as S, input, output };
}

/** One tool's result, by `server.call`. */
async function callOne(returned: unknown) {
  return pico({ name: "t", version: "1" })
    .tool("t", { run: () => returned })
    .call("t");
}

describe("tool names", () => {
  it("rejects invalid names with the rule they break", () => {
    const server = pico({ name: "t", version: "1" });
    expect(() => server.tool("", { run })).toThrow('A tool name must be a non-empty string; got "".');
    expect(() => server.tool("a".repeat(129), { run })).toThrow(
      `Tool name "${"a".repeat(40)}…" is 129 characters long; the limit is 128.`,
    );
    expect(() => server.tool("search issues", { run })).toThrow(
      'Tool name "search issues" contains " "; use only the letters A-Z and a-z, digits, "_", "." and "-".',
    );
    expect(() => server.tool("a/b", { run })).toThrow(/contains "\/"/);
    expect(() => server.tool("a,b", { run })).toThrow(/contains ","/);
    expect(() => server.tool("café", { run })).toThrow(/contains "é"/);
    expect(() => server.tool("emoji_🙂", { run })).toThrow(/contains "🙂"/);
  });

  it("rejects names that are not strings", () => {
    expect(() => checkToolName(undefined)).toThrow("A tool name must be a non-empty string; got undefined.");
    expect(() => checkToolName(42)).toThrow("A tool name must be a non-empty string; got 42.");
  });

  it("accepts 1 to 128 letters, digits, _, . and -", () => {
    const server = pico({ name: "t", version: "1" });
    for (const name of ["a", "Z", "9", "_", ".", "-", "a".repeat(128), "ok.name-1_x", "getUser", "ADMIN_TOOLS.v2"]) {
      expect(() => server.tool(name, { run }), name).not.toThrow();
    }
  });

  it("rejects a name that is already taken, case-sensitively", () => {
    const server = pico({ name: "t", version: "1" }).tool("get_user", { run });
    expect(() => server.tool("get_user", { run })).toThrow(
      'Tool "get_user" is already registered; tool names must be unique.',
    );
    expect(() => server.tool("Get_User", { run })).not.toThrow();
  });
});

describe("tool registration", () => {
  it("needs a run function", () => {
    const server = pico({ name: "t", version: "1" });
    expect(() => server.tool("t", {} as never)).toThrow('Tool "t" needs a run function.');
  });

  it("refuses an option it does not have, so a misspelt input schema never leaves a tool unvalidated", () => {
    const server = pico({ name: "t", version: "1" });
    expect(() => server.tool("t", { inputs: z.object({ a: z.string() }), run } as never)).toThrow(
      new TypeError(
        'Tool "t" has no option "inputs". Its options are title, description, input, output, annotations, icons, _meta, auth, task, run.',
      ),
    );
    // Nothing was registered under the name: the corrected registration takes it.
    expect(() => server.tool("t", { input: z.object({ a: z.string() }), run })).not.toThrow();
  });

  it("rejects icons that are not https: or data: URIs", () => {
    const server = pico({ name: "t", version: "1" });
    expect(() => server.tool("t", { icons: [{ src: "http://example.com/a.png" }], run })).toThrow(
      'Tool "t" has an icon with src "http://example.com/a.png"; icon sources must be https: or data: URIs.',
    );
    server.tool("ok", { icons: [{ src: "https://example.com/a.png", sizes: ["48x48"] }], run });
  });

  // Was: "… has type undefined." for a union, with no word of what to do.
  it("rejects an input schema that does not describe an object, saying how to make it one", () => {
    const server = pico({ name: "t", version: "1" });
    expect(() => server.tool("s", { input: z.string(), run })).toThrow(
      'Tool "s" input must describe an object (tool arguments are named); its JSON Schema has type "string". Make it a field of an object: z.object({ value: … }).',
    );
    const shapes = z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("circle"), r: z.number() }),
      z.object({ kind: z.literal("square"), side: z.number() }),
    ]);
    expect(() => server.tool("u", { input: shapes, run })).toThrow(
      'Tool "u" input must describe an object (tool arguments are named); its JSON Schema has no type (a union, say). Make it a field of an object: z.object({ value: … }).',
    );
    expect(() => server.tool("a", { input: type("string[]"), run })).toThrow(/has type "array"/);
    expect(() => server.tool("v", { input: toStandardJsonSchema(v.number()), run })).toThrow(/has type "number"/);
  });

  // Was: z.object({ value: … }) whatever the library, a call a valibot or ArkType user cannot write.
  it("says how to make a non-object input a field of one in the schema's own library", () => {
    const server = pico({ name: "t", version: "1" });
    const refused = (input: Schema) => () => server.tool("t", { input, run });
    expect(refused(type("string[]"))).toThrow(/\. Make it a field of an object: type\(\{ value: … \}\)\.$/);
    expect(refused(toStandardJsonSchema(v.number()))).toThrow(
      /\. Make it a field of an object: v\.object\(\{ value: … \}\)\.$/,
    );
    // Another library's spelling is not guessed.
    const other: Schema = {
      "~standard": {
        version: 1,
        vendor: "effect",
        validate: (value) => ({ value }),
        jsonSchema: { input: () => ({ type: "string" }), output: () => ({ type: "string" }) },
      },
    };
    expect(refused(other)).toThrow(
      'Tool "t" input must describe an object (tool arguments are named); its JSON Schema has type "string". Make it a field of an object: an object schema with a field holding it.',
    );
  });

  it("rejects a schema that cannot produce JSON Schema, for input and output", () => {
    const server = pico({ name: "t", version: "1" });
    expect(() => server.tool("i", { input: v.object({ a: v.string() }) as Schema, run })).toThrow(
      /^Tool "i" input uses a valibot schema that cannot produce JSON Schema/,
    );
    expect(() => server.tool("o", { output: v.object({ a: v.string() }) as Schema, run })).toThrow(
      /^Tool "o" output uses a valibot schema/,
    );
  });

  it("describes the tool with only the fields it was given", () => {
    expect(compileTool("bare", { run }).descriptor).toEqual({
      name: "bare",
      inputSchema: { type: "object", additionalProperties: false },
    });
    const full = compileTool("search_issues", {
      title: "Search issues",
      description: "Search open GitHub issues in a repository. Use it before filing a new issue.",
      input: z.object({ repo: z.string().describe("owner/name"), limit: z.number().int().max(50).default(10) }),
      output: z.object({ count: z.number() }),
      annotations: { readOnlyHint: true, openWorldHint: true },
      icons: [{ src: "data:image/png;base64,AA==" }],
      _meta: { "com.example/x": true },
      run: () => ({ count: 0 }),
    }).descriptor;
    expect(Object.keys(full)).toEqual([
      "name",
      "title",
      "description",
      "inputSchema",
      "outputSchema",
      "annotations",
      "icons",
      "_meta",
    ]);
    expect(full).toMatchObject({
      title: "Search issues",
      annotations: { readOnlyHint: true, openWorldHint: true },
      icons: [{ src: "data:image/png;base64,AA==" }],
      _meta: { "com.example/x": true },
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        // .describe() reaches the model; a defaulted field is optional for the caller.
        properties: { repo: { type: "string", description: "owner/name" }, limit: { default: 10, maximum: 50 } },
        required: ["repo"],
      },
      outputSchema: { type: "object", properties: { count: { type: "number" } }, required: ["count"] },
    });
  });

  it("converts each schema once, at registration, with the draft 2020-12 target", async () => {
    const input = spied(z.object({ q: z.string() }));
    const output = spied(z.object({ n: z.number() }));
    const registry = new Registry({ name: "t", version: "1" });
    registry.addTool(compileTool("t", { input: input.schema, output: output.schema, run: () => ({ n: 1 }) }));
    expect(input.input).toHaveBeenCalledExactlyOnceWith({ target: "draft-2020-12" });
    expect(output.output).toHaveBeenCalledExactlyOnceWith({ target: "draft-2020-12" });
    expect(input.output).not.toHaveBeenCalled();
    expect(output.input).not.toHaveBeenCalled();

    const dispatcher = serverDispatcher(registry);
    const peer: Peer = { session: new LegacySession("2025-11-25", {}, undefined) };
    for (let id = 1; id <= 3; id++) {
      const list = await dispatcher.answer({ jsonrpc: "2.0", id, method: "tools/list" }, peer);
      expect(list?.result?.tools).toHaveLength(1);
      const call = await dispatcher.answer(
        { jsonrpc: "2.0", id: `c${id}`, method: "tools/call", params: { name: "t", arguments: { q: "x" } } },
        peer,
      );
      expect(call?.result).toEqual({ content: [{ type: "text", text: '{"n":1}' }], structuredContent: { n: 1 } });
    }
    expect(input.input).toHaveBeenCalledTimes(1);
    expect(output.output).toHaveBeenCalledTimes(1);
  });
});

describe("return values", () => {
  it("sends a string as one text block", async () => {
    expect(await callOne("hello")).toEqual({ content: [{ type: "text", text: "hello" }] });
    expect(await callOne("")).toEqual({ content: [{ type: "text", text: "" }] });
  });

  it("sends each helper's block as the only block", async () => {
    const blocks = [
      text("Here is the chart:"),
      image(new Uint8Array([137, 80, 78, 71]), "image/png"),
      audio("UklGRg==", "audio/wav"),
      link("file:///reports/q3.csv", "q3.csv", { mimeType: "text/csv" }),
      embed("file:///a.txt", "a"),
      embed("file:///a.bin", new Uint8Array([1, 2, 3])),
    ];
    for (const block of blocks) expect(await callOne(block)).toEqual({ content: [block] });
  });

  it("sends an array of blocks as the content, in order", async () => {
    const result = await callOne([
      text("Here is the chart:"),
      image(new Uint8Array([1, 2, 3]), "image/png"),
      link("file:///reports/q3.csv", "q3.csv", { mimeType: "text/csv" }),
    ]);
    expect(result).toEqual({
      content: [
        { type: "text", text: "Here is the chart:" },
        { type: "image", data: "AQID", mimeType: "image/png" },
        { type: "resource_link", uri: "file:///reports/q3.csv", name: "q3.csv", mimeType: "text/csv" },
      ],
    });
  });

  it("sends any other value as compact JSON text", async () => {
    expect(await callOne({ id: 7, tags: ["a", "b"], nested: { ok: true } })).toEqual({
      content: [{ type: "text", text: '{"id":7,"tags":["a","b"],"nested":{"ok":true}}' }],
    });
    expect(await callOne(42)).toEqual({ content: [{ type: "text", text: "42" }] });
    expect(await callOne(false)).toEqual({ content: [{ type: "text", text: "false" }] });
    expect(await callOne(["a", "b"])).toEqual({ content: [{ type: "text", text: '["a","b"]' }] });
    // An array that is not all blocks is a value, not content.
    expect(await callOne([text("a"), "b"])).toEqual({
      content: [{ type: "text", text: '[{"type":"text","text":"a"},"b"]' }],
    });
    expect(await callOne(new Date("2026-07-28T00:00:00Z"))).toEqual({
      content: [{ type: "text", text: '"2026-07-28T00:00:00.000Z"' }],
    });
  });

  it("sends an object that only has a block's type as JSON text, not as a block a client would refuse", async () => {
    // Database rows with a `type` column: not content blocks, since each lacks its type's field
    // (2025-11-25 schema: text's text, image's and audio's data, resource_link's uri, resource's object).
    const rows = [
      { id: 7, type: "text", title: "Q3" },
      { id: 8, type: "image", url: "https://example.com/q3.png" },
      { id: 9, type: "audio", file: "q3.wav" },
      { id: 10, type: "resource_link", uri: "file:///q3.csv" },
      { id: 11, type: "resource", resource: "file:///q3.csv" },
    ];
    for (const row of rows) {
      expect(await callOne(row)).toEqual({ content: [{ type: "text", text: JSON.stringify(row) }] });
    }
    expect(await callOne(rows)).toEqual({ content: [{ type: "text", text: JSON.stringify(rows) }] });
  });

  it("answers a tool error naming the first block a client would refuse, and what it needs", async () => {
    const problems: [unknown, string][] = [
      [{ type: "text", text: 1 }, "content[0] (text) needs text: a string"],
      [{ type: "text", text: undefined }, "content[0] (text) needs text: a string"],
      [{ type: "image", data: "AA==", mimeType: 1 }, "content[0] (image) needs mimeType: a string"],
      // base64url is not base64, and nor is a length no bytes encode to.
      [audio("QQ-_", "audio/wav"), "content[0] (audio) needs data: a base64 string"],
      [audio("AAAAA", "audio/wav"), "content[0] (audio) needs data: a base64 string"],
      [
        { type: "resource", resource: { uri: "x:y", blob: "%%" } },
        "content[0] (resource) needs resource.blob to be a base64 string, or left out",
      ],
      [
        { type: "resource", resource: { uri: "x:y", text: "a", _meta: [] } },
        "content[0] (resource) needs resource._meta to be an object, or left out",
      ],
      [
        text("a", { annotations: { audience: ["system"] } } as never),
        'content[0] (text) needs annotations.audience to be an array of "user" and "assistant", or left out',
      ],
      [
        text("a", { annotations: { lastModified: "2026-02-30T00:00:00Z" } }),
        "content[0] (text) needs annotations.lastModified to be an ISO 8601 date-time with seconds and an offset, such as 2025-01-12T15:00:58Z, or left out",
      ],
      [text("a", { _meta: null } as never), "content[0] (text) needs _meta to be an object, or left out"],
      [
        link("x:y", "y", { icons: [{ src: 1 }] } as never),
        "content[0] (resource_link) needs icons to be an array of icons, each { src, mimeType?, sizes?, theme? }, or left out",
      ],
      [link("x:y", "y", { size: Number.NaN }), "content[0] (resource_link) needs size to be a number, or left out"],
      // In an array of blocks, an object with only a block's type is a block without its fields.
      [[text("a"), { id: 7, type: "text", title: "Q3" }], "content[1] (text) needs text: a string"],
      [
        [text("a"), { type: "image", data: 1, mimeType: "image/png" }, { type: "text" }],
        "content[1] (image) needs data: a base64 string",
      ],
    ];
    for (const [returned, problem] of problems) {
      expect(await callOne(returned)).toEqual({
        content: [{ type: "text", text: `Tool "t" returned a content block that is not valid: ${problem}` }],
        isError: true,
      });
    }
  });

  it("answers a block whose getter throws as a value that cannot be sent", async () => {
    const block = {
      type: "text",
      get text(): string {
        throw new Error("no such column");
      },
    };
    expect(await callOne([block])).toEqual({
      content: [{ type: "text", text: 'Tool "t" returned a value that cannot be sent as JSON: no such column' }],
      isError: true,
    });
  });

  it("sends nothing for null and undefined, and [] for an empty array", async () => {
    expect(await callOne(null)).toEqual({ content: [] });
    expect(await callOne(undefined)).toEqual({ content: [] });
    expect(await callOne([])).toEqual({ content: [{ type: "text", text: "[]" }] });
  });

  it("awaits a returned promise", async () => {
    const server = pico({ name: "t", version: "1" }).tool("t", { run: async () => ({ a: 1 }) });
    expect(await server.call("t")).toEqual({ content: [{ type: "text", text: '{"a":1}' }] });
  });

  it("awaits a thenable that is not a Promise (a query builder), as `await` would", async () => {
    // biome-ignore lint/suspicious/noThenProperty: a thenable is what this test returns.
    const rows = { then: (resolve: (rows: unknown) => void) => resolve([{ id: 1 }]) };
    expect(await callOne(rows)).toEqual({ content: [{ type: "text", text: '[{"id":1}]' }] });
    // biome-ignore lint/suspicious/noThenProperty: a thenable is what this test returns.
    const failing = { then: (_: unknown, reject: (thrown: unknown) => void) => reject(new Error("no such table")) };
    expect(await callOne(failing)).toEqual({ content: [{ type: "text", text: "no such table" }], isError: true });
  });

  it("turns a value that cannot be sent as JSON into a tool error", async () => {
    expect(await callOne({ big: 10n })).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "t" returned a value that cannot be sent as JSON: Do not know how to serialize a BigInt',
        },
      ],
      isError: true,
    });
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const result = await callOne(circular);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({
      text: expect.stringMatching(/^Tool "t" returned a value that cannot be sent as JSON: .*circular/i),
    });
  });

  it("never sends a function's source or a symbol as text", async () => {
    const secret = () => "sk-secret";
    expect(await callOne(secret)).toEqual({
      content: [{ type: "text", text: 'Tool "t" returned a function, which cannot be sent as JSON.' }],
      isError: true,
    });
    expect(await callOne(Symbol("s"))).toEqual({
      content: [{ type: "text", text: 'Tool "t" returned a symbol, which cannot be sent as JSON.' }],
      isError: true,
    });
  });
});

describe("input validation", () => {
  const searchIssues = z.object({
    repo: z.string().describe("owner/name"),
    query: z.string(),
    limit: z.number().int().max(50).default(10),
  });

  it("validates arguments in the seed's form and never calls run on failure", async () => {
    let calls = 0;
    const server = pico({ name: "t", version: "1" }).tool("search_issues", {
      input: searchIssues,
      run: ({ limit }) => {
        calls++;
        return `limit=${limit}`;
      },
    });
    const bad = await server.call("search_issues", { repo: "a/b", query: "q", limit: 99 });
    expect(bad).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "search_issues":\nlimit: Too big: expected number to be <=50',
        },
      ],
      isError: true,
    });
    expect(calls).toBe(0);
    const good = await server.call("search_issues", { repo: "a/b", query: "q" });
    expect(good).toEqual({ content: [{ type: "text", text: "limit=10" }] });
    expect(calls).toBe(1);
  });

  it("lists every issue on its own line", async () => {
    const server = pico({ name: "t", version: "1" }).tool("search_issues", { input: searchIssues, run });
    const result = await server.call("search_issues", { repo: 1, limit: 2.5 } as never);
    expect(result.content).toEqual([
      {
        type: "text",
        text: [
          'Invalid arguments for tool "search_issues":',
          "repo: Invalid input: expected string, received number",
          "query: Invalid input: expected string, received undefined",
          "limit: Invalid input: expected int, received number",
        ].join("\n"),
      },
    ]);
  });

  it("lists the first 20 issues and counts the rest, so one long wrong array cannot make a reply of millions of lines", async () => {
    // Before: 1,900,000 wrong items (a 3.8 MB message, under maxMessageBytes) made a 118 MB tool error.
    const server = pico({ name: "t", version: "1" }).tool("tag", {
      input: z.object({ tags: z.array(z.string()) }),
      run,
    });
    const result = await server.call("tag", { tags: Array(1000).fill(7) } as never);
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: [
            'Invalid arguments for tool "tag":',
            ...Array.from({ length: 20 }, (_, i) => `tags.${i}: Invalid input: expected string, received number`),
            "…and 980 more",
          ].join("\n"),
        },
      ],
      isError: true,
    });
    // 20 issues are listed whole, with no count after them.
    const twenty = await server.call("tag", { tags: Array(20).fill(7) } as never);
    expect((twenty.content[0] as { text: string }).text.split("\n")).toHaveLength(21);
  });

  it("validates missing arguments as an empty object", async () => {
    const server = pico({ name: "t", version: "1" }).tool("t", { input: z.object({ q: z.string() }), run });
    expect(await server.call("t", undefined as never)).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "t":\nq: Invalid input: expected string, received undefined',
        },
      ],
      isError: true,
    });
  });

  it("joins nested paths with dots", async () => {
    const server = pico({ name: "t", version: "1" }).tool("create_user", {
      input: z.object({ user: z.object({ emails: z.array(z.object({ address: z.email() })) }) }),
      run,
    });
    const result = await server.call("create_user", { user: { emails: [{ address: "a@b.co" }, { address: "x" }] } });
    expect(result.content[0]).toEqual({
      type: "text",
      text: 'Invalid arguments for tool "create_user":\nuser.emails.1.address: Invalid email address',
    });
  });

  it("gives a problem with the arguments as a whole as its message alone, with zod and ArkType", async () => {
    const server = pico({ name: "t", version: "1" })
      .tool("strict", { input: z.strictObject({ a: z.string() }), run })
      .tool("range", {
        input: type({ from: "number", to: "number" }).narrow(
          (o, ctx) => o.from <= o.to || ctx.reject({ message: "from must not be after to" }),
        ),
        run,
      });
    expect((await server.call("strict", { a: "x", extra: 1 } as never)).content).toEqual([
      { type: "text", text: 'Invalid arguments for tool "strict":\nUnrecognized key: "extra"' },
    ]);
    expect((await server.call("range", { from: 5, to: 1 })).content).toEqual([
      { type: "text", text: 'Invalid arguments for tool "range":\nfrom must not be after to' },
    ]);
  });

  it("passes run the parsed value: defaults and transforms applied, unknown keys stripped", async () => {
    const seen = vi.fn();
    const server = pico({ name: "t", version: "1" }).tool("t", {
      input: z.object({
        query: z.string().trim(),
        limit: z.number().default(10),
        tags: z.string().transform((s) => s.split(",")),
      }),
      run: (args) => {
        seen(args);
        return typeof args.limit;
      },
    });
    expect(await server.call("t", { query: "  x  ", tags: "a,b", extra: 1 } as never)).toEqual({
      content: [{ type: "text", text: "number" }],
    });
    expect(seen).toHaveBeenCalledExactlyOnceWith({ query: "x", limit: 10, tags: ["a", "b"] });
  });

  it("awaits asynchronous validators", async () => {
    const seen = vi.fn();
    const server = pico({ name: "t", version: "1" }).tool("t", {
      input: z.object({
        id: z.string().refine(async (id) => id.startsWith("u_"), "Unknown user id; ids start with u_"),
      }),
      run: ({ id }) => {
        seen(id);
        return id;
      },
    });
    expect(await server.call("t", { id: "u_1" })).toEqual({ content: [{ type: "text", text: "u_1" }] });
    expect(await server.call("t", { id: "x" })).toEqual({
      content: [{ type: "text", text: 'Invalid arguments for tool "t":\nid: Unknown user id; ids start with u_' }],
      isError: true,
    });
    expect(seen).toHaveBeenCalledExactlyOnceWith("u_1");
  });

  it("works with ArkType, without saying the path twice", async () => {
    const seen = vi.fn();
    const server = pico({ name: "t", version: "1" }).tool("search_issues", {
      input: type({ repo: "string", filter: { "limit?": "number <= 50" }, page: "string.numeric.parse" }),
      run: (args) => {
        seen(args);
        return "ok";
      },
    });
    const bad = await server.call("search_issues", { repo: "a/b", filter: { limit: 99 }, page: "1" });
    expect(bad).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "search_issues":\nfilter.limit: must be at most 50 (was 99)',
        },
      ],
      isError: true,
    });
    expect(await server.call("search_issues", { repo: "a/b", filter: {}, page: "2" })).toEqual({
      content: [{ type: "text", text: "ok" }],
    });
    expect(seen).toHaveBeenCalledExactlyOnceWith({ repo: "a/b", filter: {}, page: 2 });
  });

  it("works with Valibot through toStandardJsonSchema", async () => {
    const seen = vi.fn();
    const input = toStandardJsonSchema(
      v.object({
        repo: v.pipe(v.string(), v.description("owner/name")),
        limit: v.optional(v.pipe(v.number(), v.integer(), v.maxValue(50)), 10),
      }),
    );
    const server = pico({ name: "t", version: "1" }).tool("search_issues", {
      input,
      run: (args) => {
        seen(args);
        return "ok";
      },
    });
    expect(await server.call("search_issues", { repo: "a/b", limit: 99 })).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "search_issues":\nlimit: Invalid value: Expected <=50 but received 99',
        },
      ],
      isError: true,
    });
    expect(await server.call("search_issues", { repo: "a/b" })).toEqual({ content: [{ type: "text", text: "ok" }] });
    expect(seen).toHaveBeenCalledExactlyOnceWith({ repo: "a/b", limit: 10 });
    expect(compileTool("v", { input, run }).descriptor.inputSchema).toMatchObject({
      type: "object",
      properties: { repo: { type: "string", description: "owner/name" }, limit: { default: 10 } },
      required: ["repo"],
    });
  });
});

describe("output schema", () => {
  const price = z.object({ sku: z.string(), cents: z.number().int(), currency: z.literal("EUR") });

  it("sends the parsed value as structuredContent, with a JSON text copy, and strips unknown fields", async () => {
    const server = pico({ name: "t", version: "1" }).tool("get_price", {
      input: z.object({ sku: z.string() }),
      output: price,
      run: async ({ sku }) => ({ sku, cents: 1250, currency: "EUR" as const, internalCost: 800 }),
    });
    expect(await server.call("get_price", { sku: "A1" })).toEqual({
      content: [{ type: "text", text: '{"sku":"A1","cents":1250,"currency":"EUR"}' }],
      structuredContent: { sku: "A1", cents: 1250, currency: "EUR" },
    });
  });

  it("announces the schema as outputSchema", () => {
    expect(
      compileTool("get_price", { output: price, run: () => ({ sku: "", cents: 0, currency: "EUR" }) }).descriptor,
    ).toMatchObject({
      outputSchema: {
        type: "object",
        properties: { sku: { type: "string" }, cents: { type: "integer" }, currency: { const: "EUR" } },
        required: ["sku", "cents", "currency"],
      },
    });
  });

  it("turns a value that does not match into a tool error naming the field", async () => {
    const server = pico({ name: "t", version: "1" }).tool("get_price", {
      output: price,
      run: () => ({ sku: "A1", cents: 12.5, currency: "USD" }) as never,
    });
    expect(await server.call("get_price")).toEqual({
      content: [
        {
          type: "text",
          text: [
            'Tool "get_price" produced a result that does not match its output schema:',
            "cents: Invalid input: expected int, received number",
            'currency: Invalid input: expected "EUR"',
          ].join("\n"),
        },
      ],
      isError: true,
    });
  });

  it("applies output defaults and transforms", async () => {
    const server = pico({ name: "t", version: "1" }).tool("t", {
      output: z.object({ at: z.string().overwrite((s) => s.toUpperCase()), n: z.number().default(0) }),
      run: () => ({ at: "now" }),
    });
    expect(await server.call("t")).toEqual({
      content: [{ type: "text", text: '{"at":"NOW","n":0}' }],
      structuredContent: { at: "NOW", n: 0 },
    });
  });

  it("works with ArkType and Valibot output schemas", async () => {
    const server = pico({ name: "t", version: "1" })
      .tool("ark", { output: type({ n: "number" }), run: () => ({ n: "x" }) as never })
      .tool("vali", {
        output: toStandardJsonSchema(v.object({ n: v.number() })),
        run: () => ({ n: 2, hidden: true }) as never,
      });
    expect(await server.call("ark")).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "ark" produced a result that does not match its output schema:\nn: must be a number (was a string)',
        },
      ],
      isError: true,
    });
    expect(await server.call("vali")).toEqual({
      content: [{ type: "text", text: '{"n":2}' }],
      structuredContent: { n: 2 },
    });
  });

  it("turns a parsed value that cannot be sent as JSON into a tool error", async () => {
    const server = pico({ name: "t", version: "1" }).tool("t", {
      output: z.object({ n: z.any() }),
      run: () => ({ n: 1n }),
    });
    expect(await server.call("t")).toEqual({
      content: [
        {
          type: "text",
          text: 'Tool "t" returned a value that cannot be sent as JSON: Do not know how to serialize a BigInt',
        },
      ],
      isError: true,
    });
  });

  it("says an output schema that throws (or rejects) failed to check the result, not that it cannot be sent", async () => {
    // A refine with a bug, and an asynchronous check that rejects: the value is fine; the check of it
    // failed. (Not zod's async refine: zod runs a refine once synchronously first, and leaves the
    // promise that rejects there unhandled, its own doing, not the server's.)
    const cents = z.object({ cents: z.number() });
    const rejecting: typeof cents = Object.create(cents, {
      "~standard": {
        value: { ...cents["~standard"], validate: () => Promise.reject(new Error("rates table is not loaded")) },
      },
    });
    for (const output of [
      cents.refine(() => {
        throw new Error("rates table is not loaded");
      }),
      rejecting,
    ]) {
      const server = pico({ name: "t", version: "1" }).tool("t", { output, run: () => ({ cents: 1 }) });
      expect(await server.call("t")).toEqual({
        content: [
          {
            type: "text",
            text: 'Tool "t" failed while checking its result against its output schema: rates table is not loaded',
          },
        ],
        isError: true,
      });
    }
  });

  it("does not check output when run throws: the error is the result", async () => {
    const server = pico({ name: "t", version: "1" }).tool("t", {
      output: price,
      run: () => {
        throw new Error("Price service is down; try again in a minute.");
      },
    });
    expect(await server.call("t")).toEqual({
      content: [{ type: "text", text: "Price service is down; try again in a minute." }],
      isError: true,
    });
  });
});

describe("errors thrown by run", () => {
  async function thrown(value: unknown, async = false) {
    const server = pico({ name: "t", version: "1" }).tool("t", {
      run: async
        ? async () => {
            throw value;
          }
        : () => {
            throw value;
          },
    });
    return server.call("t");
  }

  it("turn an Error into a tool error with its message and no stack", async () => {
    for (const async of [false, true]) {
      const result = await thrown(new Error("No user with id 7. Call list_users to see valid ids."), async);
      expect(result).toEqual({
        content: [{ type: "text", text: "No user with id 7. Call list_users to see valid ids." }],
        isError: true,
      });
      expect(JSON.stringify(result)).not.toMatch(/\bat |tools\.test/);
    }
  });

  it("use the error's name when it has no message", async () => {
    expect((await thrown(new TypeError())).content).toEqual([{ type: "text", text: "TypeError" }]);
  });

  it("turn values that are not errors into readable messages", async () => {
    expect((await thrown("plain string")).content).toEqual([{ type: "text", text: "plain string" }]);
    expect((await thrown({ code: "E42" })).content).toEqual([{ type: "text", text: '{"code":"E42"}' }]);
    expect((await thrown(42, true)).content).toEqual([{ type: "text", text: "42" }]);
    expect((await thrown(undefined)).content).toEqual([{ type: "text", text: "undefined" }]);
    expect((await thrown(10n)).content).toEqual([{ type: "text", text: "10" }]);
    for (const value of ["x", {}, 0, null]) expect((await thrown(value)).isError).toBe(true);
  });

  it("never send a thrown function's source, as a returned one's is never sent", async () => {
    const apiKey = "sk-live-0123456789";
    const callback = () => fetch("https://api.example.com", { headers: { authorization: apiKey } });
    expect(await thrown(callback)).toEqual({ content: [{ type: "text", text: "function" }], isError: true });
    expect((await thrown(Symbol("s"))).content).toEqual([{ type: "text", text: "symbol" }]);
  });

  it("refuse an McpError whose code is not an integer (JSON-RPC 2.0 §5.1): run's throw is then a tool error that says so", async () => {
    const problems: [unknown, string][] = [
      [1.5, "number 1.5"],
      [Number.NaN, "number NaN"],
      ["x", "string x"],
    ];
    for (const [code, got] of problems) {
      expect(() => new McpError(code as never, "Not authorised")).toThrow(
        new TypeError(`McpError needs an integer code; got ${got}.`),
      );
    }
    const server = pico({ name: "t", version: "1" }).tool("t", {
      run: () => {
        throw new McpError(-32001.5, "Not authorised for this workspace");
      },
    });
    expect(await server.call("t")).toEqual({
      content: [{ type: "text", text: "McpError needs an integer code; got number -32001.5." }],
      isError: true,
    });
  });

  it("let McpError through: server.call rejects with it", async () => {
    for (const async of [false, true]) {
      const error = new McpError(-32001, "Not authorised for this workspace", { workspace: "w1" });
      await expect(thrown(error, async)).rejects.toBe(error);
    }
  });
});
