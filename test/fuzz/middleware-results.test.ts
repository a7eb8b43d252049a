/**
 * Property-based fuzzing of what a middleware returns for a built-in method (docs/middleware.md: such
 * a result is checked as its handler's is). Whatever it returns, near the method's shape or far from
 * it, the request is answered once: with the result, which the official clients' own schemas then
 * accept (v1's zod schemas for a 2025-11-25 session, v2's spec schemas for a 2026-07-28 request), or
 * -32603 saying the result is malformed. Never a result a client refuses. A 2026-07-28 result that is
 * not complete (input_required, task) is not checked, as docs/middleware.md says; a 2025 client's
 * result has no resultType, and a { task } only answers a call that asked for one. FUZZ_RUNS sets the runs.
 */
import { specTypeSchemas } from "@modelcontextprotocol/client";
import {
  CallToolResultSchema,
  CompleteResultSchema,
  GetPromptResultSchema,
  ListPromptsResultSchema,
  ListResourcesResultSchema,
  ListResourceTemplatesResultSchema,
  ListToolsResultSchema,
  ReadResourceResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { ErrorCode, pico } from "../../src/index.js";
import { initialize, inSession, modern } from "../http-helpers.js";
import { RUNS, TIME_LIMIT_MS } from "./inputs.js";

/** What the middleware returns next: set by each run. */
let returned: unknown;

const server = pico({ name: "fuzz-middleware", version: "1" })
  .tool("t", { run: () => "from the handler" })
  .prompt("p", { get: () => "from the handler" })
  .resource("fuzz://r", { read: () => "from the handler" })
  .resource("fuzz://items/{id}", { read: ({ id }) => `item ${id}`, complete: { id: () => ["1"] } })
  .use(function fuzzed() {
    return returned as never;
  });

type Checked = { safeParse(value: unknown): { success: boolean; error?: unknown } };
type Spec = keyof typeof specTypeSchemas;

/** Each method the middleware answers: its params, and the schema each official client reads its result with. */
const METHODS: Record<string, { params: Record<string, unknown>; v1: Checked; v2: Spec }> = {
  "tools/call": { params: { name: "t", arguments: {} }, v1: CallToolResultSchema, v2: "CallToolResult" },
  "prompts/get": { params: { name: "p" }, v1: GetPromptResultSchema, v2: "GetPromptResult" },
  "resources/read": { params: { uri: "fuzz://r" }, v1: ReadResourceResultSchema, v2: "ReadResourceResult" },
  "completion/complete": {
    params: { ref: { type: "ref/resource", uri: "fuzz://items/{id}" }, argument: { name: "id", value: "" } },
    v1: CompleteResultSchema,
    v2: "CompleteResult",
  },
  "tools/list": { params: {}, v1: ListToolsResultSchema, v2: "ListToolsResult" },
  "prompts/list": { params: {}, v1: ListPromptsResultSchema, v2: "ListPromptsResult" },
  "resources/list": { params: {}, v1: ListResourcesResultSchema, v2: "ListResourcesResult" },
  "resources/templates/list": {
    params: {},
    v1: ListResourceTemplatesResultSchema,
    v2: "ListResourceTemplatesResult",
  },
};

const json = fc.jsonValue({ maxDepth: 2 });
/** Mostly what a field should be, sometimes anything. */
const or = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 5, arbitrary: good }, { weight: 1, arbitrary: json as fc.Arbitrary<unknown> });
const some = <T>(record: Record<string, fc.Arbitrary<T>>) => fc.record(record, { requiredKeys: [] });

const text = fc.string({ maxLength: 6 });
const base64 = fc.constantFrom("aGk=", "aGk", "", "a-_b", "!!", "aGk=\n");
const annotations = some({
  audience: or(fc.array(fc.constantFrom("user", "assistant", "system"), { maxLength: 2 })),
  priority: or(fc.double({ min: -1, max: 2, noNaN: true })),
  lastModified: or(fc.constantFrom("2025-01-12T15:00:58Z", "2026-02-30T00:00:00Z", "yesterday")),
});
const contents = some({ uri: or(text), text: or(text), blob: or(base64), mimeType: or(text), _meta: or(fc.object()) });
const icon = some({
  src: or(text),
  mimeType: or(text),
  sizes: or(fc.array(text)),
  theme: or(fc.constantFrom("light")),
});
const common = { annotations: or(annotations), _meta: or(fc.object({ maxDepth: 1 })) };
const block = fc.oneof(
  some({ type: fc.constant("text"), text: or(text), ...common }),
  some({ type: fc.constantFrom("image", "audio"), data: or(base64), mimeType: or(text), ...common }),
  some({ type: fc.constant("resource"), resource: or(contents), ...common }),
  some({
    type: fc.constant("resource_link"),
    uri: or(text),
    name: or(text),
    size: or(fc.integer()),
    icons: or(fc.array(icon, { maxLength: 2 })),
    ...common,
  }),
  some({ type: or(fc.constantFrom("video", "text")) }),
);
const entry = some({
  name: or(text),
  title: or(text),
  description: or(text),
  uri: or(text),
  uriTemplate: or(text),
  mimeType: or(text),
  inputSchema: or(fc.constantFrom({ type: "object" }, { type: "string" }, {})),
  outputSchema: or(fc.constantFrom({ type: "object" }, {})),
  arguments: or(fc.array(some({ name: or(text), required: or(fc.boolean()) }), { maxLength: 2 })),
  icons: or(fc.array(icon, { maxLength: 2 })),
  annotations: or(some({ readOnlyHint: or(fc.boolean()), title: or(text) })),
  _meta: or(fc.object({ maxDepth: 1 })),
});
const list = (key: string) =>
  some({ [key]: or(fc.array(entry, { maxLength: 3 })), nextCursor: or(text), _meta: or(fc.object({ maxDepth: 1 })) });

/** Near each method's shape, with any field missing or wrong. */
const results: Record<string, fc.Arbitrary<unknown>> = {
  "tools/call": some({
    content: or(fc.array(block, { maxLength: 3 })),
    isError: or(fc.boolean()),
    structuredContent: or(fc.object({ maxDepth: 1 })),
    _meta: or(fc.object({ maxDepth: 1 })),
    resultType: or(fc.constantFrom("complete", "input_required", "task")),
    task: or(fc.record({ taskId: text, status: fc.constantFrom("working", "completed") })),
  }),
  "prompts/get": some({
    description: or(text),
    messages: or(fc.array(some({ role: or(fc.constantFrom("user", "assistant", "system")), content: block }))),
    _meta: or(fc.object({ maxDepth: 1 })),
  }),
  "resources/read": some({ contents: or(fc.array(contents, { maxLength: 3 })), _meta: or(fc.object()) }),
  "completion/complete": some({
    completion: or(
      some({
        values: or(fc.array(or(text), { maxLength: 3 })),
        total: or(fc.oneof(fc.integer(), fc.double())),
        hasMore: or(fc.boolean()),
      }),
    ),
  }),
  "tools/list": list("tools"),
  "prompts/list": list("prompts"),
  "resources/list": list("resources"),
  "resources/templates/list": list("resourceTemplates"),
};

const counts = { runs: 0, sent: 0, refused: 0 };
afterAll(() => {
  console.log(`[fuzz] middleware results: ${counts.runs} runs, ${counts.sent} sent, ${counts.refused} refused -32603`);
});

const run = fc
  .constantFrom(...Object.keys(METHODS))
  .chain((method) => fc.record({ method: fc.constant(method), result: results[method]!, era: fc.boolean() }));

describe("fuzz: a middleware's result for a built-in method", () => {
  it(
    "is sent only as a result the official clients accept, or answered -32603",
    async () => {
      const session = await initialize(server);
      await fc.assert(
        fc.asyncProperty(run, async ({ method, result, era }) => {
          counts.runs++;
          returned = result;
          const { params, v1, v2 } = METHODS[method]!;
          const response = await server.fetch(
            era
              ? modern(method, params, {}, { id: "fuzzed" })
              : inSession(session, { jsonrpc: "2.0", id: "fuzzed", method, params }),
          );
          const answer = (await response.json()) as { id: unknown; result?: unknown; error?: { code: number } };
          expect(answer.id).toBe("fuzzed");
          if (answer.error) {
            counts.refused++;
            expect(answer.error.code, JSON.stringify(answer.error)).toBe(ErrorCode.InternalError);
            return;
          }
          counts.sent++;
          // A 2026-07-28 result that is not complete (input_required, task) is not checked (docs/middleware.md).
          const resultType = (answer.result as { resultType?: unknown }).resultType;
          if (era && resultType !== "complete") return;
          const issues = era
            ? (await specTypeSchemas[v2]["~standard"].validate(answer.result)).issues
            : v1.safeParse(answer.result).error;
          expect(issues, `${era ? "v2" : "v1"} refuses ${JSON.stringify(answer.result)}`).toBeUndefined();
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
      );
      await server.close();
    },
    TIME_LIMIT_MS + 30_000,
  );
});
