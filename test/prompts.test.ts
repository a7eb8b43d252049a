import { type } from "arktype";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Registry } from "../src/core/registry.js";
import type { Schema } from "../src/index.js";
import { assistant, embed, image, McpError, pico, text, user } from "../src/index.js";
import { compilePrompt, type PromptConfig } from "../src/prompts/prompts.js";
import { addPrompt, core, SERVER_INFO, SERVER_INFO_META } from "./core-helpers.js";

const PNG_BASE64 = "iVBORw0KGgo=";

/** A typed prompt config, widened for the tables below. */
function prompt<I extends Schema | undefined = undefined>(config: PromptConfig<I>): PromptConfig<Schema | undefined> {
  return config as unknown as PromptConfig<Schema | undefined>;
}

function registryWith(prompts: Record<string, PromptConfig<Schema | undefined>>, pageSize?: number): Registry {
  const registry = new Registry({ ...SERVER_INFO, pageSize });
  for (const [name, config] of Object.entries(prompts)) addPrompt(registry, compilePrompt(name, config));
  return registry;
}

const codeReview = prompt({
  title: "Code review",
  description: "Review a piece of code.",
  input: z.object({
    language: z.string().describe("The language the code is in"),
    code: z.string().min(1).meta({ title: "Code" }).describe("The code to review"),
    focus: z.string().optional(),
    strict: z
      .string()
      .default("no")
      .transform((value) => value === "yes"),
  }),
  get: ({ language, code, focus, strict }) => [
    user(`Review this ${language} code${focus ? `, looking at ${focus}` : ""}${strict ? ", strictly" : ""}:\n${code}`),
    assistant("I will review it."),
  ],
});

describe("compilePrompt", () => {
  it("describes a prompt and its arguments, read off the input schema", () => {
    const compiled = compilePrompt("code_review", {
      ...codeReview,
      icons: [{ src: "https://example.com/review.png" }],
      _meta: { "com.example/team": "dx" },
    });
    expect(compiled.descriptor).toEqual({
      name: "code_review",
      title: "Code review",
      description: "Review a piece of code.",
      arguments: [
        { name: "language", description: "The language the code is in", required: true },
        { name: "code", title: "Code", description: "The code to review", required: true },
        { name: "focus", required: false },
        // A default makes an argument optional for the caller.
        { name: "strict", required: false },
      ],
      icons: [{ src: "https://example.com/review.png" }],
      _meta: { "com.example/team": "dx" },
    });
  });

  it("describes a prompt without input with its name only", () => {
    expect(compilePrompt("hello", { get: () => "Hi" }).descriptor).toEqual({ name: "hello" });
  });

  it("reads arguments from any Standard JSON Schema library", () => {
    const compiled = compilePrompt("ark", { input: type({ topic: "string", "tone?": "string" }), get: () => "" });
    expect(compiled.descriptor.arguments).toEqual([
      { name: "topic", required: true },
      { name: "tone", required: false },
    ]);
  });

  it.each<[string, string, object, string]>([
    ["an empty name", "", { get: () => "" }, "A prompt name must be a non-empty string."],
    ["no get function", "p", {}, 'Prompt "p" needs a get function.'],
    [
      "an option it does not have",
      "p",
      { arguments: [], get: () => "" },
      'Prompt "p" has no option "arguments". Its options are title, description, input, icons, _meta, complete, auth, get.',
    ],
    [
      "an input that is not an object",
      "p",
      { input: z.string(), get: () => "" },
      'Prompt "p" input must describe an object of string arguments.',
    ],
    [
      "a completer for an argument it does not have",
      "p",
      { input: z.object({ language: z.string(), code: z.string() }), complete: { lang: () => [] }, get: () => "" },
      'Prompt "p" has a completer for "lang", which is not one of its arguments (language, code).',
    ],
    [
      "a completer without input",
      "p",
      { complete: { language: () => [] }, get: () => "" },
      'Prompt "p" has a completer for "language", which is not one of its arguments (none).',
    ],
    [
      "a completer that is not a function",
      "p",
      { input: z.object({ language: z.string() }), complete: { language: ["Go", "Java"] }, get: () => "" },
      'Prompt "p" complete.language must be a function (value, context) => string[]; it is a value of type object.',
    ],
    [
      "a complete that is not an object",
      "p",
      { input: z.object({ language: z.string() }), complete: () => ["Go"], get: () => "" },
      'Prompt "p" complete must be an object: a completer function per name, among its arguments (language).',
    ],
    [
      "a title that is not a string",
      "p",
      { title: 5, get: () => "" },
      'Prompt "p" needs title to be a string, or left out.',
    ],
    [
      "a _meta that is not an object",
      "p",
      { _meta: "team: dx", get: () => "" },
      'Prompt "p" needs _meta to be an object, or left out.',
    ],
  ])("throws a TypeError at registration for %s", (_label, name, config, message) => {
    expect(() => compilePrompt(name, config as PromptConfig<Schema | undefined>)).toThrow(new TypeError(message));
  });

  it("refuses a second prompt with the same name, and a bad icon: when the server gets ready, then at the call", async () => {
    const taken = new TypeError('Prompt "p" is already registered; prompt names must be unique.');
    const server = pico(SERVER_INFO)
      .prompt("p", { get: () => "" })
      .prompt("p", { get: () => "" });
    await expect(server.ready()).rejects.toThrow(taken);
    await expect(server.call("nothing" as never, undefined as never)).rejects.toThrow(taken);
    const ready = pico(SERVER_INFO).prompt("p", { get: () => "" });
    await ready.ready();
    expect(() => ready.prompt("p", { get: () => "" })).toThrow(taken);
    expect(() => ready.prompt("q", { icons: [{ src: "ftp://x" }], get: () => "" })).toThrow(TypeError);
    await expect(
      pico(SERVER_INFO)
        .prompt("q", { icons: [{ src: "ftp://x" }], get: () => "" })
        .ready(),
    ).rejects.toThrow(TypeError);
  });
});

describe("user() and assistant()", () => {
  it("wrap text in a text block and keep other blocks as they are", () => {
    expect(user("Hello")).toEqual({ role: "user", content: { type: "text", text: "Hello" } });
    expect(assistant("Sure")).toEqual({ role: "assistant", content: { type: "text", text: "Sure" } });
    const picture = image(PNG_BASE64, "image/png");
    expect(user(picture)).toEqual({ role: "user", content: picture });
    const note = embed("docs://note", "a note", { mimeType: "text/plain" });
    expect(assistant(note)).toEqual({ role: "assistant", content: note });
  });
});

describe("prompts/get", () => {
  const registry = () =>
    registryWith({
      text: prompt({ get: () => "Summarise the conversation." }),
      block: prompt({ get: () => text("A block", { annotations: { priority: 1 } }) }),
      message: prompt({ get: () => assistant("Just one assistant message") }),
      mixed: prompt({
        get: async () => ["First", image(PNG_BASE64, "image/png"), assistant("Seen it.")],
      }),
      described: prompt({
        get: () => ({ description: "Built for you", messages: [user("Hi"), assistant("Hello")] }),
      }),
      code_review: codeReview,
      failing: prompt({
        input: z.object({ kind: z.string() }),
        get: ({ kind }) => {
          if (kind === "mcp") throw new McpError(-32001, "Not authorised");
          throw new Error("template missing");
        },
      }),
    });

  it.each([
    [
      "a string, as one user message",
      "text",
      [{ role: "user", content: { type: "text", text: "Summarise the conversation." } }],
    ],
    [
      "a content block, as one user message",
      "block",
      [{ role: "user", content: { type: "text", text: "A block", annotations: { priority: 1 } } }],
    ],
    [
      "a message, as it is",
      "message",
      [{ role: "assistant", content: { type: "text", text: "Just one assistant message" } }],
    ],
    [
      "an array mixing the three, in order",
      "mixed",
      [
        { role: "user", content: { type: "text", text: "First" } },
        { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
        { role: "assistant", content: { type: "text", text: "Seen it." } },
      ],
    ],
  ])("turns %s", async (_label, name, messages) => {
    const { legacy } = await core(registry());
    expect((await legacy("prompts/get", { name }))?.result).toEqual({ messages });
  });

  it("keeps the description of a full result", async () => {
    const { legacy } = await core(registry());
    expect((await legacy("prompts/get", { name: "described" }))?.result).toEqual({
      description: "Built for you",
      messages: [
        { role: "user", content: { type: "text", text: "Hi" } },
        { role: "assistant", content: { type: "text", text: "Hello" } },
      ],
    });
  });

  it("gives get the parsed arguments, defaults and transforms applied", async () => {
    const { legacy } = await core(registry());
    const result = await legacy("prompts/get", {
      name: "code_review",
      arguments: { language: "Go", code: "x := 1", strict: "yes" },
    });
    expect(result?.result).toEqual({
      messages: [
        { role: "user", content: { type: "text", text: "Review this Go code, strictly:\nx := 1" } },
        { role: "assistant", content: { type: "text", text: "I will review it." } },
      ],
    });
  });

  it("answers invalid arguments with -32602 naming each field, and does not call get", async () => {
    let calls = 0;
    const { legacy } = await core(
      registryWith({
        counted: prompt({
          input: z.object({ language: z.string(), code: z.string().min(1) }),
          get: () => {
            calls++;
            return "";
          },
        }),
      }),
    );
    expect((await legacy("prompts/get", { name: "counted", arguments: { code: "" } }))?.error).toEqual({
      code: -32602,
      message:
        'Invalid arguments for prompt "counted":\nlanguage: Invalid input: expected string, received undefined\ncode: Too small: expected string to have >=1 characters',
    });
    expect((await legacy("prompts/get", { name: "counted" }))?.error?.message).toContain(
      "language: Invalid input: expected string, received undefined",
    );
    expect(calls).toBe(0);
  });

  it("answers an unknown prompt, a name that is not a string (one nested 100,000 arrays deep too) and non-object arguments with -32602", async () => {
    const { legacy } = await core(registry());
    expect((await legacy("prompts/get", { name: "nope" }))?.error).toEqual({
      code: -32602,
      message: 'Unknown prompt "nope". Call prompts/list to see the available prompts.',
    });
    expect((await legacy("prompts/get", {}))?.error).toEqual({
      code: -32602,
      message: "prompts/get needs params.name: the name of a prompt from prompts/list",
    });
    // Was: -32603 "Internal error: Maximum call stack size exceeded", quoting the name back with JSON.stringify.
    let nested: unknown = [];
    for (let i = 0; i < 100_000; i++) nested = [nested];
    expect((await legacy("prompts/get", { name: nested }))?.error).toEqual({
      code: -32602,
      message: "prompts/get needs params.name: the name of a prompt from prompts/list",
    });
    expect((await legacy("prompts/get", { name: "text", arguments: ["a"] }))?.error).toEqual({
      code: -32602,
      message: "Invalid params: prompts/get needs params.arguments to be an object of strings, or left out",
    });
  });

  it("turns a thrown McpError into its error, and another error into -32603", async () => {
    const { legacy } = await core(registry());
    expect((await legacy("prompts/get", { name: "failing", arguments: { kind: "mcp" } }))?.error).toEqual({
      code: -32001,
      message: "Not authorised",
    });
    expect((await legacy("prompts/get", { name: "failing", arguments: { kind: "x" } }))?.error).toEqual({
      code: -32603,
      message: "Internal error: template missing",
    });
  });

  it("marks a modern result complete, without cache hints (prompts/get is not cacheable)", async () => {
    const { modern } = await core(registry());
    expect((await modern("prompts/get", { name: "text" }))?.result).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "Summarise the conversation." } }],
      resultType: "complete",
      _meta: SERVER_INFO_META,
    });
  });
});

describe("prompts/list", () => {
  it("lists prompts in registration order, paged", async () => {
    const names = ["b", "a", "d", "c", "e"];
    const { legacy } = await core(
      registryWith(Object.fromEntries(names.map((name) => [name, prompt({ get: () => "" })])), 2),
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = (await legacy("prompts/list", cursor ? { cursor } : {}))?.result as {
        prompts: { name: string }[];
        nextCursor?: string;
      };
      seen.push(...page.prompts.map((each) => each.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(names);
    expect(pages).toBe(3);
  });

  it("is cacheable in 2026-07-28, and -32601 on a server without prompts", async () => {
    const { modern } = await core(registryWith({ p: prompt({ get: () => "" }) }));
    expect((await modern("prompts/list"))?.result).toEqual({
      prompts: [{ name: "p" }],
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      _meta: SERVER_INFO_META,
    });
    const none = await core(new Registry(SERVER_INFO));
    expect((await none.legacy("prompts/list"))?.error).toMatchObject({ code: -32601 });
  });
});
