/**
 * The shapes of the built-in methods' complete results, as a middleware or plug-in may return them
 * (middleware/chain.ts): checked by the rules a handler's own results pass (content/check.ts), list
 * entries as registration checks them, since the official clients refuse or misread anything else.
 * Its own module, so that a server with resources or prompts and no middleware does not load it.
 */
import { isObject } from "../core/jsonrpc.js";
import {
  blockProblem,
  COMMON,
  contentsProblem,
  type Field,
  ICONS,
  isBoolean,
  isString,
  messageProblem,
  OBJECT,
  optional,
  PROMPT,
  problemOf,
  RESOURCE,
  required,
} from "./check.js";

/** The request whose result a middleware returned, as the check of that result reads it. */
export interface CheckedRequest {
  readonly method: string;
  readonly params?: Record<string, unknown> | undefined;
  readonly ctx: { readonly era: string };
}

/** A resource template as resources/templates/list names it (2025-11-25 "ResourceTemplate"). */
const TEMPLATE: Field[] = [
  required("uriTemplate"),
  required("name"),
  optional("title"),
  optional("description"),
  optional("mimeType"),
  ICONS,
  ...COMMON,
];

/** A tool's inputSchema or outputSchema (2025-11-25 "Tool"): a JSON Schema of an object. */
const OBJECT_SCHEMA: Field[] = [
  required("type", (type) => type === "object", '"object"'),
  optional(
    "properties",
    (properties) => isObject(properties) && Object.values(properties).every(isObject),
    "an object of schemas",
  ),
  optional("required", (names) => Array.isArray(names) && names.every(isString), "an array of strings"),
];

const hint = (name: string) => optional(name, isBoolean, "a boolean");

/** A tool as tools/list names it (2025-11-25 "Tool", ToolAnnotations, ToolExecution). */
const TOOL: Field[] = [
  required("name"),
  optional("title"),
  optional("description"),
  { ...required("inputSchema", isObject, OBJECT), fields: OBJECT_SCHEMA },
  { ...optional("outputSchema", isObject, OBJECT), fields: OBJECT_SCHEMA },
  {
    ...optional("annotations", isObject, OBJECT),
    fields: [optional("title"), ...["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"].map(hint)],
  },
  {
    ...optional("execution", isObject, OBJECT),
    fields: [
      optional(
        "taskSupport",
        (support) => support === "required" || support === "optional" || support === "forbidden",
        '"required", "optional" or "forbidden"',
      ),
    ],
  },
  ICONS,
  optional("_meta", isObject, OBJECT),
];

/** What an item of a result's list needs, said with its place (`messages[1]`); undefined for a valid one. */
type ItemProblem = (item: unknown, place: string) => string | undefined;

/** A complete result of a built-in method: its shape as said to the author, its fields, and its list's items. */
interface ResultShape {
  shape: string;
  fields: Field[];
  items?: [key: string, problem: ItemProblem];
}

const CURSOR = optional("nextCursor");
const META = optional("_meta", isObject, OBJECT);

function placed(place: string, problem: string | undefined): string | undefined {
  return problem === undefined ? undefined : `${place} ${problem}`;
}

/** A list result (`tools/list`, …): its key an array, each item with `fields`. */
function listShape(key: string, what: string, fields: Field[]): ResultShape {
  return {
    shape: `{ ${key}: [${what}], nextCursor? }`,
    fields: [required(key, Array.isArray, `an array of ${what}`), CURSOR, META],
    items: [
      key,
      (item, place) => (isObject(item) ? placed(place, problemOf(item, fields, "")) : `${place} is not an object`),
    ],
  };
}

/**
 * The built-in methods' complete results (2025-11-25 and 2026-07-28 schemas), by the checks their
 * handlers' results pass (a tool's blocks, a prompt's messages, a resource's contents, list entries
 * as registration checks them): what a middleware returns is checked by them too (middleware/chain.ts),
 * since the official clients refuse or misread anything else.
 */
const RESULTS: ReadonlyMap<string, ResultShape> = new Map([
  [
    "tools/call",
    {
      shape: "{ content: [content blocks], structuredContent?, isError? }",
      fields: [
        required("content", Array.isArray, "an array of content blocks"),
        optional("structuredContent", isObject, OBJECT),
        optional("isError", isBoolean, "a boolean"),
        META,
      ],
      items: ["content", blockProblem],
    },
  ],
  [
    "prompts/get",
    {
      shape: '{ description?, messages: [{ role: "user" | "assistant", content: a content block }] }',
      fields: [optional("description"), required("messages", Array.isArray, "an array of messages"), META],
      items: ["messages", (message, place) => placed(`${place},`, messageProblem(message))],
    },
  ],
  [
    "resources/read",
    {
      shape: "{ contents: [{ uri, text | blob, mimeType? }] }",
      fields: [required("contents", Array.isArray, "an array of contents items"), META],
      items: [
        "contents",
        (item, place) => (isObject(item) ? placed(place, contentsProblem(item)) : `${place} is not an object`),
      ],
    },
  ],
  [
    "completion/complete",
    {
      shape: "{ completion: { values: [strings], total?, hasMore? } }",
      fields: [
        {
          ...required("completion", isObject, OBJECT),
          fields: [
            // 2025-11-25 "CompleteResult": values MUST NOT exceed 100 items.
            required(
              "values",
              (values) => Array.isArray(values) && values.length <= 100 && values.every(isString),
              "an array of at most 100 strings",
            ),
            optional("total", Number.isSafeInteger, "an integer"),
            optional("hasMore", isBoolean, "a boolean"),
          ],
        },
        META,
      ],
    },
  ],
  ["tools/list", listShape("tools", "tools", TOOL)],
  ["resources/list", listShape("resources", "resources", RESOURCE)],
  ["resources/templates/list", listShape("resourceTemplates", "resource templates", TEMPLATE)],
  ["prompts/list", listShape("prompts", "prompts", PROMPT)],
]);

/**
 * Whether `result` is the request's final answer, not 2026-07-28's `input_required` or task result, nor
 * 2025-11-25's `{ task }` answering a call that asked for a task with its `task` parameter ("Tasks").
 */
export function isComplete({ params, ctx }: CheckedRequest, result: Record<string, unknown>): boolean {
  // 2025 has no resultType: a 2025 client reads any result of tools/call as a CallToolResult, and a
  // { task } as the answer only to a call that asked for one.
  const incomplete = ctx.era !== "legacy" && (result.resultType ?? "complete") !== "complete";
  return !incomplete && !(isObject(params?.task) && "task" in result);
}

/**
 * What is wrong with a result of a built-in method that a middleware returned for `request`, with the
 * shape expected; undefined for a well-formed one, and for a result that is not complete (2026-07-28's
 * `input_required` and task results, where the request is not a 2025 one; 2025-11-25's `{ task }`,
 * the answer to a call that asked for a task with its `task` parameter, "Tasks"), or of another method.
 */
export function resultProblem(request: CheckedRequest, result: Record<string, unknown>): string | undefined {
  const expected = RESULTS.get(request.method);
  if (!expected || !isComplete(request, result)) return undefined;
  const { method } = request;
  let problem = problemOf(result, expected.fields, "");
  const [key = "", itemProblem] = expected.items ?? [];
  const items = result[key];
  if (problem === undefined && itemProblem && Array.isArray(items)) {
    for (let index = 0; index < items.length && problem === undefined; index++) {
      problem = itemProblem(items[index], `${key}[${index}]`);
    }
  }
  return problem === undefined ? undefined : `${problem}; a ${method} result is ${expected.shape}`;
}
