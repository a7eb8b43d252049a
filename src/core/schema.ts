import { messageOf } from "./errors.js";
import { isObject } from "./jsonrpc.js";
import { shown } from "./safe.js";

/**
 * The Standard Schema (https://standardschema.dev) and Standard JSON Schema interfaces, declared here so picomcp
 * depends on no package: zod 4, ArkType and Valibot (through @valibot/to-json-schema) implement both.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    readonly jsonSchema?: JsonSchemaConverter;
  }
  type Result<Output> =
    | { readonly value: Output; readonly issues?: undefined }
    | { readonly issues: ReadonlyArray<Issue> };
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
  }
  type InferInput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["input"];
  type InferOutput<S extends StandardSchemaV1> = NonNullable<S["~standard"]["types"]>["output"];
}

export interface JsonSchemaConverter {
  readonly input: (options: { readonly target: string }) => Record<string, unknown>;
  readonly output: (options: { readonly target: string }) => Record<string, unknown>;
}

/** A schema picomcp can both validate with and advertise as JSON Schema. */
export type Schema<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output>;

export type JsonSchema = Record<string, unknown>;

/** MCP's default JSON Schema dialect since 2025-11-25 (SEP-1613). */
const TARGET = "draft-2020-12";

/**
 * Converts a schema to JSON Schema once, at registration. `side` picks what the client sends
 * (`input`: defaults make fields optional) or what the server returns (`output`).
 */
export function toJsonSchema(schema: Schema, side: "input" | "output", what: string): JsonSchema {
  const converter = schema["~standard"]?.jsonSchema;
  if (!converter) {
    const vendor = schema["~standard"]?.vendor;
    const use =
      "Use a library that implements the Standard JSON Schema interface (zod 4, ArkType, or Valibot wrapped with toStandardJsonSchema from @valibot/to-json-schema).";
    if (vendor) throw new TypeError(`${what} uses a ${vendor} schema that cannot produce JSON Schema. ${use}`);
    // The official SDK takes an object of fields (`{ city: z.string() }`): code moved from it passes one.
    const fields = Object.values(schema);
    if (fields.length > 0 && fields.every((field) => field instanceof Object && "~standard" in field)) {
      throw new TypeError(
        `${what} is an object of fields, not a schema: make it one, such as z.object({ city: z.string() }).`,
      );
    }
    throw new TypeError(`${what} is not a schema. ${use}`);
  }
  let json: JsonSchema;
  try {
    json = converter[side]({ target: TARGET });
  } catch (thrown) {
    // The library's own refusal (zod: "Date cannot be represented in JSON Schema"), said of this schema.
    throw new TypeError(
      `${what} cannot be written as JSON Schema: ${messageOf(thrown)}. Use types JSON has (no dates, bigints or transforms).`,
      { cause: thrown },
    );
  }
  return withoutSafeIntegerBounds(json);
}

/**
 * Drops the bounds an integer gets only for being a safe one (zod's `.int()` writes `minimum: -9007199254740991,
 * maximum: 9007199254740991`): they constrain nothing a model would send, and cost their tokens on every `tools/list`.
 * Validation still refuses what they would.
 */
function withoutSafeIntegerBounds(node: JsonSchema): JsonSchema {
  if (node.type === "integer") {
    if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum;
    if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum;
  }
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) {
      for (const each of value) if (isObject(each)) withoutSafeIntegerBounds(each);
    } else if (isObject(value)) withoutSafeIntegerBounds(value);
  }
  return node;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; issues: string };

/**
 * Validates a value, and on failure lists one `path: message` line per issue. Synchronous schemas
 * give a synchronous answer: a promise per call would cost a tick on every tool call.
 */
export function validate<T>(schema: Schema<unknown, T>, value: unknown): Validation<T> | Promise<Validation<T>> {
  // Read once: zod's `~standard` is a getter, and this runs on every tool call.
  const standard = schema["~standard"];
  const result = standard.validate(value);
  return result instanceof Promise
    ? result.then((done) => toValidation(done, standard))
    : toValidation(result, standard);
}

function toValidation<T>(result: StandardSchemaV1.Result<T>, standard: StandardSchemaV1.Props): Validation<T> {
  if (result.issues) return { ok: false, issues: formatIssues(result.issues, standard.vendor) };
  return { ok: true, value: result.value };
}

/**
 * The most issues a message lists; the rest are counted. A model corrects its call from the first few, and a long
 * array of wrong items (millions under maxMessageBytes) would otherwise make a reply of as many lines, hundreds of MB.
 */
const LISTED = 20;

/** The issues of a schema of this vendor (its `~standard.vendor`), one `path: message` line each. */
function formatIssues(issues: ReadonlyArray<StandardSchemaV1.Issue>, vendor: string): string {
  const pathInMessage = vendor === "arktype";
  const lines = issues.slice(0, LISTED).map((issue) => formatIssue(issue, pathInMessage));
  if (issues.length > LISTED) lines.push(`…and ${issues.length - LISTED} more`);
  return lines.join("\n");
}

/**
 * The most characters of an issue's message shown. The message is the library's (or a refine's, long on purpose),
 * but libraries quote the client's keys and values in it (zod's "Unrecognized keys"), and a key may be as long as a
 * message: each is cut, as is the path.
 */
const MESSAGE_SHOWN = 1000;

function formatIssue(issue: StandardSchemaV1.Issue, pathInMessage: boolean): string {
  // Array.from, not path.map: ArkType's path is an Array subclass, and its map() turns an empty path
  // into [0], a field that is not there.
  const path = Array.from(issue.path ?? [], (segment) =>
    String(typeof segment === "object" ? segment.key : segment),
  ).join(".");
  if (!path) return shown(issue.message, MESSAGE_SHOWN);
  // ArkType starts its messages with the path, indexes in brackets (`items[0].id must be…`): do not say it twice.
  // Only ArkType's: a zod or Valibot message is the library's words or the author's own sentence, whose subject may be
  // the field ("to must not be before from"), and is sent as written.
  const said = pathInMessage
    ? [path, path.replace(/\.(\d+)(?=\.|$)/g, "[$1]")].find((form) => issue.message.startsWith(`${form} `))
    : undefined;
  return `${shown(path)}: ${shown(said ? issue.message.slice(said.length + 1) : issue.message, MESSAGE_SHOWN)}`;
}
