/**
 * The check of the content blocks a tool returned, loaded with the first result that has any: each
 * field a block has must be what the 2025-11-25 schema says (ContentBlock), or the client refuses the
 * whole result. The official v1 client parses results with zod and throws, so the model would get
 * nothing; a tool error that names the block and the field tells the model what failed, and the
 * author what to fix. The rules are the schema's, as strict as that client reads them. The same
 * fields check what a client sends too: a request's params of the shape its method needs
 * (`invalidParams`, `PROMPT_ARGUMENTS`: middleware/params.ts, prompts/run.ts).
 */
import { BLOCK_FIELDS, type ContentBlock } from "../core/content.js";
import { ErrorCode, McpError } from "../core/errors.js";
import { isObject } from "../core/jsonrpc.js";
import { type CallToolResult, toolError, unsendable } from "../core/tools.js";

/** A field of a block: its name, the test of its value, and what the test asks for, as said to the author. */
export interface Field {
  name: string;
  is: (value: unknown, owner: Record<string, unknown>) => boolean;
  what: string;
  optional?: boolean;
  /** An object's own fields. */
  fields?: Field[];
}

const STRING = "a string";
const BASE64 = "a base64 string";
export const OBJECT = "an object";

export const isString = (value: unknown) => typeof value === "string";
export const isBoolean = (value: unknown) => typeof value === "boolean";

export function required(name: string, is: Field["is"] = isString, what = STRING): Field {
  return { name, is, what };
}

export function optional(name: string, is: Field["is"] = isString, what = STRING): Field {
  return { name, is, what, optional: true };
}

/**
 * Base64 as the WHATWG's forgiving-base64 decode reads it (ASCII whitespace anywhere, padding
 * optional): what `atob`, and so the v1 client, accepts. base64url ("-", "_") is not base64.
 */
function isBase64(value: unknown): boolean {
  if (typeof value !== "string") return false;
  const data = value.replace(/[\t\n\f\r ]/g, "");
  const body = data.length % 4 === 0 ? data.replace(/==?$/, "") : data;
  return body.length % 4 !== 1 && /^[A-Za-z0-9+/]*$/.test(body);
}

/** An ISO 8601 date-time with seconds and an offset, as the v1 client requires of `lastModified`. */
const DATE_TIME =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

function isDateTime(value: unknown): boolean {
  const match = typeof value === "string" ? DATE_TIME.exec(value) : null;
  // A day the month does not have (2026-02-30) is refused as well.
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
}

const ANNOTATIONS: Field[] = [
  optional(
    "audience",
    (roles) => Array.isArray(roles) && roles.every((role) => role === "user" || role === "assistant"),
    'an array of "user" and "assistant"',
  ),
  optional(
    "priority",
    (priority) => typeof priority === "number" && priority >= 0 && priority <= 1,
    "a number from 0 to 1",
  ),
  optional(
    "lastModified",
    isDateTime,
    "an ISO 8601 date-time with seconds and an offset, such as 2025-01-12T15:00:58Z",
  ),
];

/** What every block may have (2025-11-25: annotations and _meta). */
export const COMMON: Field[] = [
  { ...optional("annotations", isObject, OBJECT), fields: ANNOTATIONS },
  optional("_meta", isObject, OBJECT),
];

const ICON: Field[] = [
  required("src"),
  optional("mimeType"),
  optional("sizes", (sizes) => Array.isArray(sizes) && sizes.every(isString), "an array of strings"),
  optional("theme", (theme) => theme === "light" || theme === "dark", '"light" or "dark"'),
];

/** An embedded resource's contents: text, or bytes in base64 (2025-11-25 TextResourceContents, BlobResourceContents). */
const CONTENTS: Field[] = [
  required("uri"),
  optional("mimeType"),
  optional("_meta", isObject, OBJECT),
  required(
    "text",
    (text, contents) => isString(text) || (text === undefined && contents.blob !== undefined),
    "a string (or resource.blob: a base64 string)",
  ),
  optional("blob", isBase64, BASE64),
];

export const ICONS = optional(
  "icons",
  (icons) => Array.isArray(icons) && icons.every((icon) => isObject(icon) && problemOf(icon, ICON, "") === undefined),
  "an array of icons, each { src, mimeType?, sizes?, theme? }",
);

/** A resource as a list names it (2025-11-25 "Resource"), and as a resource_link block does, its type aside. */
export const RESOURCE: Field[] = [
  required("uri"),
  required("name"),
  optional("title"),
  optional("description"),
  optional("mimeType"),
  optional("size", Number.isFinite, "a number"),
  ICONS,
  ...COMMON,
];

/** One of a prompt's arguments as prompts/list names it (2025-11-25 "PromptArgument"). */
const ARGUMENT: Field[] = [
  required("name"),
  optional("title"),
  optional("description"),
  optional("required", isBoolean, "a boolean"),
];

/**
 * prompts/get's arguments: strings only (2025-11-25 and 2026-07-28 `GetPromptRequest`, `{ [key:
 * string]: string }`), whatever a prompt's schema would take; refused before middleware
 * (middleware/params.ts) and by the prompts layer (prompts/run.ts) alike.
 */
export const PROMPT_ARGUMENTS = optional(
  "arguments",
  (values) => isObject(values) && Object.values(values).every(isString),
  "an object of strings",
);

/** -32602 for a request whose params are not of its method's shape: `problem` says which, and what it must be. */
export function invalidParams(method: string, problem: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid params: ${method} ${problem}`);
}

/** A prompt as prompts/list names it (2025-11-25 "Prompt"). */
export const PROMPT: Field[] = [
  required("name"),
  optional("title"),
  optional("description"),
  optional(
    "arguments",
    (list) =>
      Array.isArray(list) && list.every((each) => isObject(each) && problemOf(each, ARGUMENT, "") === undefined),
    "an array of arguments, each { name, title?, description?, required?: a boolean }",
  ),
  ICONS,
  optional("_meta", isObject, OBJECT),
];

const BLOCKS: ReadonlyMap<unknown, Field[]> = new Map([
  ["text", [required("text"), ...COMMON]],
  ["image", [required("data", isBase64, BASE64), required("mimeType"), ...COMMON]],
  ["audio", [required("data", isBase64, BASE64), required("mimeType"), ...COMMON]],
  ["resource_link", RESOURCE],
  ["resource", [{ ...required("resource", isObject, OBJECT), fields: CONTENTS }, ...COMMON]],
]);

/** What the first field that fails its test needs, with its path from the block (`annotations.priority`). */
export function problemOf(owner: Record<string, unknown>, fields: Field[], path: string): string | undefined {
  for (const field of fields) {
    const value = owner[field.name];
    const at = path + field.name;
    if (value === undefined && field.optional) continue;
    if (!field.is(value, owner)) {
      return field.optional ? `needs ${at} to be ${field.what}, or left out` : `needs ${at}: ${field.what}`;
    }
    const inner = field.fields && isObject(value) ? problemOf(value, field.fields, `${at}.`) : undefined;
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/**
 * What is wrong with a block, said with its place (`content[1]` in a tool's result, `content` in a
 * prompt's message) and its type; undefined for a valid block.
 */
export function blockProblem(block: unknown, place: string): string | undefined {
  // contentOf (core/content.ts) gives only objects with a block's type: this guards the types.
  if (!isObject(block)) return `${place} is not an object`;
  const fields = BLOCKS.get(block.type);
  const found = fields ? problemOf(block, fields, "") : "has no block type";
  return found === undefined ? undefined : `${place} (${String(block.type)}) ${found}`;
}

/**
 * What a resource's contents item (resources/read, 2025-11-25 TextResourceContents and
 * BlobResourceContents) needs, by the rules of an embedded resource's; undefined for a valid item.
 * Its uri and its text or blob strings are checked first (resources/run.ts), so what is said here is
 * of a field's value: a blob not base64, a mimeType not a string.
 */
export function contentsProblem(item: Record<string, unknown>): string | undefined {
  return problemOf(item, CONTENTS, "");
}

/**
 * What an entry a resource template's `list` returned (resources/list, 2025-11-25 "Resource") needs:
 * a string uri and name, and each other field as a resource_link block has it; undefined for a valid one.
 */
export function resourceProblem(entry: unknown): string | undefined {
  return isObject(entry) ? problemOf(entry, RESOURCE, "") : "is not an object";
}

/** What a prompt's list entry needs (prompts/list, 2025-11-25 "Prompt"); undefined for a valid one. */
export function promptProblem(entry: Record<string, unknown>): string | undefined {
  return problemOf(entry, PROMPT, "");
}

/** The result that sends `blocks`, or a tool error naming the first that a client would refuse. */
export function checkedContent(blocks: unknown[], toolName: string): CallToolResult {
  let problem: string | undefined;
  const isValid = (block: unknown, index: number): block is ContentBlock => {
    problem = blockProblem(block, `content[${index}]`);
    return problem === undefined;
  };
  // Reading a block runs user code (a getter, a Proxy's trap): what it throws is the value's fault.
  try {
    if (blocks.every(isValid)) return { content: blocks };
  } catch (thrown) {
    return unsendable(toolName, thrown);
  }
  return toolError(`Tool "${toolName}" returned a content block that is not valid: ${problem}`);
}

/**
 * Whether a prompt's message content is a block (prompts/run.ts): its type and its type's fields,
 * strings (a resource's an object). An object with only a block's `type` (a database row with a
 * `type` column) is not one.
 */
export function isContentBlock(value: unknown): value is ContentBlock {
  return (
    isObject(value) &&
    // A resource is an object: `typeof null` is "object" too, and `{ resource: null }` is no block.
    BLOCK_FIELDS.get(value.type)?.every((field) =>
      field === "resource" ? isObject(value[field]) : typeof value[field] === "string",
    ) === true
  );
}

/**
 * 2025-11-25 "PromptMessage": a role the protocol has (user or assistant, never system) and one
 * content block, each of whose fields is what the schema says: the official clients refuse the
 * whole result for one bad field (image data not base64, a priority past 1), so the author is told
 * which (prompts/run.ts, and a middleware's prompts/get result). A getter that throws is left to the
 * response's writer, which answers that the messages cannot be sent as JSON, with the message cleaned.
 */
export function messageProblem(value: unknown): string | undefined {
  try {
    if (!isObject(value) || (value.role !== "user" && value.role !== "assistant") || !isContentBlock(value.content)) {
      return 'which is not { role: "user" | "assistant", content: a content block }';
    }
    const problem = blockProblem(value.content, "content");
    return problem === undefined ? undefined : `whose ${problem}`;
  } catch {
    return undefined;
  }
}
