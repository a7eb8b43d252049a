/**
 * What the fuzz tests throw at a server: JSON-RPC messages of both eras with every field allowed
 * to be wrong, batches, truncated and deeply nested JSON, huge values, arbitrary bytes, invalid
 * UTF-8 and lone surrogates, cut into random chunks with or without a last newline.
 */
import fc from "fast-check";
import { z } from "zod";
import type { Dispatcher } from "../../src/core/dispatch.js";
import { Registry } from "../../src/core/registry.js";
import type { Schema } from "../../src/core/schema.js";
import { compileTool, type ToolConfig } from "../../src/core/tools.js";
import { McpError, pico } from "../../src/index.js";
import type { Limits } from "../../src/limits/options.js";
import { compilePrompt, type PromptConfig } from "../../src/prompts/prompts.js";
import { compileResource, type ResourceConfig } from "../../src/resources/resources.js";
import { addPrompt, addResource, serverDispatcher } from "../core-helpers.js";

/** Runs per property in `npm test`; FUZZ_RUNS=100000 for a long run. */
export const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
/** Each property also stops after this long (the runs done so far count). */
export const TIME_LIMIT_MS = Number(process.env.FUZZ_TIME_MS ?? (process.env.FUZZ_RUNS ? 3_600_000 : 8_000));

export const LIMITS: Limits = { maxMessageBytes: 32 * 1024, handlerTimeoutMs: 2000, shutdownGraceMs: 2000 };

export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

/** Every method name either era knows, plus the ones removed, renamed or made up. */
export const METHODS = [
  "initialize",
  "ping",
  "server/discover",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "subscriptions/listen",
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
  "sampling/createMessage",
  "elicitation/create",
  "tasks/get",
  "unknown/method",
  "",
  "tools/call ",
];

type AnyTool = ToolConfig<Schema | undefined, Schema | undefined>;

const tools: Record<string, AnyTool> = {
  echo: { input: z.object({ s: z.string() }), run: ({ s }: { s: string }) => s } as unknown as AnyTool,
  slow: {
    run: (_args: unknown, ctx: { signal: AbortSignal }) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve("slow done"), 5);
        ctx.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
      }),
  } as unknown as AnyTool,
  throws: {
    run: () => {
      throw new Error("a failure with a stack the client must never see");
    },
  } as unknown as AnyTool,
  typed: {
    input: z.object({ n: z.number().int().max(10), tags: z.array(z.string()).default([]) }),
    output: z.object({ n: z.number() }),
    run: ({ n }: { n: number }) => ({ n }),
  } as unknown as AnyTool,
};

const resource: ResourceConfig<string> = { read: () => "contents" } as unknown as ResourceConfig<string>;
const template: ResourceConfig<string> = {
  read: ({ id }: Record<string, string>) => `item ${id}`,
} as unknown as ResourceConfig<string>;
const prompt = {
  input: z.object({ topic: z.string() }),
  get: ({ topic }: { topic: string }) => `Tell me about ${topic}`,
} as unknown as PromptConfig<Schema | undefined>;

/** A dispatcher with tools, resources and prompts, for serveLines. */
export function fuzzDispatcher(): Dispatcher {
  const registry = new Registry({ name: "fuzz", version: "1" });
  for (const [name, config] of Object.entries(tools)) registry.addTool(compileTool(name, config));
  addResource(registry, compileResource("fuzz://fixed", resource));
  addResource(registry, compileResource("fuzz://items/{id}", template));
  addPrompt(registry, compilePrompt("explain", prompt));
  return serverDispatcher(registry, LIMITS);
}

/** The same server behind `fetch`, with `options` added to pico()'s. */
export function fuzzServer(options: Omit<Parameters<typeof pico>[0], "name"> = {}) {
  let server = pico({ name: "fuzz", version: "1", limits: LIMITS, signals: false, ...options }) as ReturnType<
    typeof pico
  >;
  for (const [name, config] of Object.entries(tools)) server = server.tool(name, config as never) as never;
  return server
    .resource("fuzz://fixed", resource)
    .resource("fuzz://items/{id}", template as never)
    .prompt("explain", prompt as never);
}

const json = fc.jsonValue({ maxDepth: 3 });
/** Ids of every type, and a few that collide on purpose (duplicates, reuse). */
const id = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(1, 2, 3, "a", "b", 0, -1) },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })) },
  { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.double(), fc.boolean(), json) },
);
const version = fc.constantFrom("2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "1999-01-01");
const meta = fc.oneof(
  { weight: 3, arbitrary: fc.constant(MODERN_META) },
  { weight: 2, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        "io.modelcontextprotocol/protocolVersion": fc.oneof(version, json),
        "io.modelcontextprotocol/clientCapabilities": fc.oneof(fc.constant({}), json),
        "io.modelcontextprotocol/clientInfo": fc.oneof(fc.constant({ name: "c", version: "1" }), json),
        "io.modelcontextprotocol/logLevel": fc.oneof(fc.constantFrom("debug", "info", "nope"), json),
        progressToken: fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), json),
      },
      { requiredKeys: [] },
    ),
  },
);
const params = fc.oneof(
  { weight: 1, arbitrary: fc.oneof(fc.constant(undefined), json) },
  {
    weight: 5,
    arbitrary: fc.record(
      {
        name: fc.oneof(fc.constantFrom("echo", "slow", "throws", "typed", "explain", "nope"), json),
        arguments: fc.oneof(
          fc.record(
            { s: fc.oneof(fc.string(), json), n: fc.oneof(fc.integer(), json), topic: fc.string() },
            { requiredKeys: [] },
          ),
          json,
        ),
        uri: fc.oneof(fc.constantFrom("fuzz://fixed", "fuzz://items/7", "fuzz://none"), json),
        protocolVersion: fc.oneof(version, json),
        capabilities: fc.oneof(fc.constant({}), json),
        requestId: id,
        cursor: fc.oneof(fc.string({ maxLength: 6 }), json),
        level: fc.oneof(fc.constantFrom("debug", "error", "loud"), json),
        notifications: fc.oneof(fc.constant({ toolsListChanged: true }), json),
        ref: json,
        argument: json,
        inputResponses: json,
        requestState: fc.oneof(fc.string({ maxLength: 30 }), json),
        _meta: meta,
      },
      { requiredKeys: [] },
    ),
  },
);

/** One JSON-RPC-ish message: mostly well-formed, with any field possibly missing or of the wrong type. */
export const message = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 8, arbitrary: fc.constant("2.0") }, { weight: 1, arbitrary: json }),
    id,
    method: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: json }),
    params,
    result: json,
    error: fc.oneof(fc.record({ code: fc.integer(), message: fc.string() }), json),
  },
  { requiredKeys: [] },
);

const deep = fc
  .integer({ min: 100, max: 20_000 })
  .chain((depth) =>
    fc.constantFrom(
      "[".repeat(depth) + "]".repeat(depth),
      `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
      `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"echo","arguments":{"s":${"[".repeat(depth)}${"]".repeat(depth)}}}}`,
      `{"jsonrpc":"2.0","id":"deep2","method":"tools/call","params":{"name":"typed","arguments":${'{"n":'.repeat(depth)}1${"}".repeat(depth)}}}`,
      "[".repeat(depth),
    ),
  );

const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text);

/** One line's worth of input: bytes, or a string when it must carry what UTF-8 cannot (lone surrogates). */
export type Line = Uint8Array | string;

export const line: fc.Arbitrary<Line> = fc.oneof(
  { weight: 10, arbitrary: message.map((value) => bytes(JSON.stringify(value))) },
  { weight: 2, arbitrary: fc.array(message, { maxLength: 5 }).map((batch) => bytes(JSON.stringify(batch))) },
  {
    weight: 2,
    arbitrary: fc.tuple(message, fc.double({ min: 0, max: 1, noNaN: true })).map(([value, cut]) => {
      const text = JSON.stringify(value);
      return bytes(text.slice(0, Math.floor(text.length * cut)));
    }),
  },
  { weight: 1, arbitrary: deep.map(bytes) },
  {
    weight: 1,
    // Huge: around and past maxMessageBytes (32 KiB).
    arbitrary: fc.integer({ min: 20_000, max: 120_000 }).map((size) =>
      bytes(
        JSON.stringify({
          jsonrpc: "2.0",
          id: `huge-${size}`,
          method: "tools/call",
          params: { name: "echo", arguments: { s: "h".repeat(size) }, _meta: MODERN_META },
        }),
      ),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.uint8Array({ maxLength: 200 }).map((data) => data.map((byte) => (byte === 10 ? 32 : byte))),
  },
  {
    weight: 1,
    // Invalid UTF-8 inside an otherwise valid request: overlong, truncated and stray continuation bytes
    // (refused with -32700, without the id it names).
    arbitrary: fc.constantFrom([0xc0, 0xaf], [0xe2, 0x82], [0x80], [0xff, 0xfe], [0xed, 0xa0, 0x80]).map((bad) => {
      const [head, tail] = [
        '{"jsonrpc":"2.0","id":"utf","method":"tools/call","params":{"name":"echo","arguments":{"s":"',
        '"},"_meta":{}}}',
      ];
      return new Uint8Array([...bytes(head), ...bad, ...bytes(tail)]);
    }),
  },
  {
    weight: 1,
    // Lone surrogates, escaped in JSON and raw in a string chunk.
    arbitrary: fc.constantFrom(
      `{"jsonrpc":"2.0","id":"sur","method":"tools/call","params":{"name":"echo","arguments":{"s":"\\ud800x\\udfff"},"_meta":${JSON.stringify(MODERN_META)}}}`,
      `{"jsonrpc":"2.0","id":"\\udc00","method":"ping"}`,
      `{"jsonrpc":"2.0","id":"raw","method":"tools/call","params":{"name":"echo","arguments":{"s":"\ud800"},"_meta":${JSON.stringify(MODERN_META)}}}`,
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom("", "   ", "\r", "null", "[]", "{}", "1", '"x"', "true", "[1,2]") },
);

/** A run of lines, how they are cut into chunks, and whether the last newline is missing. */
export const stream = fc.record({
  lines: fc.array(line, { minLength: 1, maxLength: 12 }),
  cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 6 }),
  crlf: fc.boolean(),
  lastNewline: fc.boolean(),
});

/** The lines joined and cut into chunks: strings stay strings (to carry raw lone surrogates), bytes stay bytes. */
export function chunks(input: { lines: Line[]; cuts: number[]; crlf: boolean; lastNewline: boolean }): Line[] {
  const newline = input.crlf ? "\r\n" : "\n";
  const parts: Line[] = [];
  input.lines.forEach((each, index) => {
    const end = index < input.lines.length - 1 || input.lastNewline ? newline : "";
    if (typeof each === "string") parts.push(each + end);
    else {
      const joined = new Uint8Array([...each, ...bytes(end)]);
      const points = [...new Set(input.cuts.map((cut) => Math.floor(cut * joined.length)))].sort((a, b) => a - b);
      let start = 0;
      for (const point of [...points, joined.length]) {
        if (point > start) parts.push(joined.subarray(start, point));
        start = Math.max(start, point);
      }
    }
  });
  return parts;
}

/** Lines whose bytes are not all UTF-8 are refused without an id (-32700), as if not JSON. */
const decoder = new TextDecoder("utf-8", { fatal: true });
/** An id the server answers under: a string or a safe integer (larger integers are refused, never rounded). */
const isRequestId = (value: unknown) => typeof value === "string" || Number.isSafeInteger(value);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The oracle: how many responses each id must get, at least and at most. A single JSON object with
 * a readable id is a request (answered exactly once, with a result or an error) unless it is a
 * response (no method, a result or an error) or a `notifications/cancelled` in the same input names
 * its id; an accepted `subscriptions/listen` ends with the input, unanswered.
 */
export function expectedAnswers(lines: Line[]): Map<unknown, [min: number, max: number]> {
  const values: unknown[] = [];
  for (const each of lines) {
    try {
      values.push(JSON.parse(typeof each === "string" ? each : decoder.decode(each)));
    } catch {}
  }
  const cancelled = new Set<unknown>();
  for (const value of values.flat()) {
    if (isObject(value) && value.method === "notifications/cancelled" && isObject(value.params)) {
      cancelled.add(value.params.requestId);
    }
  }
  const expected = new Map<unknown, [min: number, max: number]>();
  for (const value of values) {
    if (!isObject(value) || !isRequestId(value.id) || cancelled.has(value.id)) continue;
    if (value.jsonrpc === "2.0" && value.method === undefined && ("result" in value || "error" in value)) continue;
    const [min, max] = expected.get(value.id) ?? [0, 0];
    // A listen stream that was accepted ends silently with the input (cancelled); a refused one is answered.
    expected.set(value.id, [min + (value.method === "subscriptions/listen" ? 0 : 1), max + 1]);
  }
  return expected;
}

/**
 * The fuzz server with every layer a request can reach: tools that ask the client, a task tool, middleware around every method and
 * one tool's calls, and a plug-in; with 2025 sessions or without (stateless HTTP).
 */
export function layeredServer(sessions: boolean) {
  return fuzzServer({ askTimeoutMs: 5000, http: { sessions } })
    .tool("ask", {
      input: z.object({ s: z.string().optional() }),
      run: async (_, ctx) => {
        const answer = await ctx.elicit("Your name?", z.object({ name: z.string() }));
        return answer.action;
      },
    })
    .tool("later", { task: "optional", run: async () => "done later" })
    .use(async (_, next) => next())
    .use(async ({ method, params }, next) => {
      const args = params?.arguments as { s?: unknown } | undefined;
      if (method === "tools/call" && params?.name === "echo" && args?.s === "refuse") {
        throw new McpError(-32001, "refused by middleware");
      }
      const result = await next();
      return method === "tools/call" ? { ...result, _meta: { "fuzz.example/wrapped": true } } : result;
    })
    .use({
      name: "fuzz.example/counter",
      use: (_call, next) => next(),
    });
}
