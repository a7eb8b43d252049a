import type { Access, AnyAccess, Gate } from "./caller.js";
import { type ContentBlock, checkIcons, checkOptions, contentOf, type Icon } from "./content.js";
import type { Context, Era, RequestContext } from "./context.js";
import { ErrorCode, isMcpError, McpError } from "./errors.js";
import { isObject } from "./jsonrpc.js";
import { Layer } from "./layers.js";
import { safeMessage } from "./safe.js";
import {
  type JsonSchema,
  type Schema,
  type StandardSchemaV1,
  toJsonSchema,
  type Validation,
  validate,
} from "./schema.js";
import type { MaybePromise } from "./types.js";

/** Hints about a tool's behaviour (2025-11-25 ToolAnnotations). Clients treat them as untrusted hints. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A type, not an interface, so that it is a result like any other (a `Record<string, unknown>`) without a cast. */
export type CallToolResult<Structured = unknown> = {
  content: ContentBlock[];
  structuredContent?: Structured;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

/** The arguments `run` receives: the schema's parsed output, defaults and transforms applied. */
export type ToolArgs<I> = I extends Schema ? StandardSchemaV1.InferOutput<I> : Record<string, never>;
/** The arguments a caller passes: the schema's input, where defaulted fields are optional. */
export type ToolCallArgs<I> = I extends Schema ? StandardSchemaV1.InferInput<I> : Record<string, never> | undefined;
/** What `run` may return: with an `output` schema, a value of that schema; otherwise anything natural. */
export type ToolReturn<O> = O extends Schema ? StandardSchemaV1.InferInput<O> : unknown;

export interface ToolConfig<I extends Schema | undefined, O extends Schema | undefined> {
  /** A short, human-readable name for the tool. */
  title?: string;
  /** What the tool does and when a model should call it. */
  description?: string;
  /** Arguments schema; must describe an object. Validated before `run`. */
  input?: I;
  /** Result schema: advertised as `outputSchema`, checked at run time, sent as `structuredContent`. */
  output?: O;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /**
   * What the caller needs: `"public"`, `"signed-in"`, `{ scopes, roles, allow }` or a check on the
   * identity and the validated arguments. Enforced before `run`, which never runs for a refused call.
   * Default: the server's `auth.default` (signed in, once the server has `auth`; public otherwise).
   */
  auth?: Access<ToolArgs<I>>;
  /**
   * Whether the tool may run as a task (the 2026-07-28 Tasks extension, `io.modelcontextprotocol/tasks`):
   * `"optional"` answers a client that declares the extension with a task and runs `run` in the
   * background, others as usual; `"required"` refuses other clients with -32021. See docs/tasks.md.
   */
  task?: TaskSupport | TaskSettings;
  run: ToolRun<I, O>;
}

/**
 * The 2026-07-28 Tasks extension's identifier (SEP-2663): under `capabilities.extensions` (both sides),
 * in -32021's data, and in what a `tasks/*` request to a server without task tools is told (dispatch.ts).
 */
export const TASKS = "io.modelcontextprotocol/tasks";

/** The extension's `taskSupport` values a tool can opt in with ("forbidden" is the default: leave `task` out). */
export type TaskSupport = "optional" | "required";

/** A tool's task settings, beyond whether it supports tasks. */
export interface TaskSettings {
  support: TaskSupport;
  /** How long a finished task stays readable (`ttlMs`). Default: 1 hour. */
  ttlMs?: number;
  /** How often clients should poll (`pollIntervalMs`). Default: 1 s. */
  pollIntervalMs?: number;
  /**
   * Ask first, then run as a task: the questions `run` asks before its first retry are asked in the
   * `tools/call` request itself (multi round-trip), and the retry that answers them starts the task
   * (SEP-2663 "SHOULD resolve all MRTR exchanges synchronously before responding with a CreateTaskResult").
   */
  askFirst?: boolean;
}

/**
 * `run`'s type. It is a conditional type on purpose: TypeScript then instantiates it with the `output`
 * schema inferred from the same call, so a returned `{ currency: "EUR" }` keeps its literal type and
 * checks against `z.literal("EUR")` instead of widening to `string`.
 */
export type ToolRun<I, O> = O extends unknown
  ? (args: ToolArgs<I>, ctx: Context) => MaybePromise<ToolReturn<O>>
  : never;

/** A tool as `tools/list` lists it (the `Tool` of the 2025-11-25 and 2026-07-28 schemas). */
export interface ToolDescriptor {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /** The OAuth schemes a call needs (OpenAI Apps SDK), which the auth settings add. */
  securitySchemes?: unknown[];
}

/** A registered tool: its `tools/list` entry is built once, here, never per request. */
export interface Tool {
  readonly name: string;
  readonly descriptor: ToolDescriptor;
  readonly input: Schema | undefined;
  readonly output: Schema | undefined;
  readonly auth: AnyAccess | undefined;
  /** Its `task` setting as given (the tasks layer reads and checks it), undefined for a tool that never runs as a task. */
  readonly task: TaskSupport | TaskSettings | undefined;
  readonly run: (args: unknown, ctx: Context) => unknown;
}

/** Checking callers against `auth` rules (auth/enforce.ts): loaded with the first call a rule applies to. */
export interface EnforceLayer {
  /** A tool call under its `auth` rule: the caller checked before validation, its `allow` check after. */
  callChecked(tool: Tool, args: unknown, ctx: RequestContext): Promise<CallToolResult>;
  /**
   * The refusal of a caller the tool's `auth` rule does not admit, as `callChecked` answers it
   * (before anything else runs); undefined admits them. For a call that does not run at once (a task).
   */
  refusedCall(tool: Tool, ctx: RequestContext): CallToolResult | undefined;
  /** Whether a list shows a registration with this rule to the caller (`hideUnauthorized`). */
  shows(ctx: RequestContext, declared: AnyAccess | undefined): boolean;
}

/** Where the caller checks come from: wired in by the server (server.ts). */
export const enforceLayer = new Layer<EnforceLayer>();

/** The check of the content blocks a tool returned (content/check.ts). */
export interface ContentCheck {
  /** The result that sends these blocks, or a tool error naming the first that a client would refuse. */
  checkedContent(blocks: unknown[], toolName: string): CallToolResult;
}

export const contentCheck = new Layer<ContentCheck>();

/** The check of a result against its tool's output schema (content/output.ts). */
export interface OutputCheck {
  /** The result that sends the parsed value, or a tool error saying why it cannot be sent. */
  checkedOutput(
    of: { tool: Tool; output: Schema },
    returned: unknown,
    ctx: RequestContext,
  ): CallToolResult | Promise<CallToolResult>;
}

export const outputCheck = new Layer<OutputCheck>();

const NO_ARGUMENTS: JsonSchema = { type: "object", additionalProperties: false };

/**
 * What a registration needs from this request's caller: what it declared, or the server's default.
 * `"public"` needs no checks, so the code that checks callers is not even loaded for it.
 */
export function accessOf(ctx: { readonly gate: Gate | undefined }, declared: AnyAccess | undefined): AnyAccess {
  const settings = ctx.gate?.settings;
  return settings ? settings.accessOf(declared) : (declared ?? "public");
}

/** Checks a tool name against the rules of 2025-11-25 (SEP-986) and says which one it breaks. */
export function checkToolName(name: unknown): asserts name is string {
  if (typeof name !== "string" || name.length === 0) {
    throw new TypeError(`A tool name must be a non-empty string; got ${JSON.stringify(name) ?? String(name)}.`);
  }
  if (name.length > 128) {
    throw new TypeError(`Tool name "${name.slice(0, 40)}…" is ${name.length} characters long; the limit is 128.`);
  }
  // `\w` is [A-Za-z0-9_] (2025-11-25 "Tool names": ASCII letters), which the message says, since "é" is a letter too;
  // `u` reads a character outside the BMP (an emoji) whole.
  const bad = /[^\w.-]/u.exec(name);
  if (bad) {
    throw new TypeError(
      `Tool name "${name}" contains ${JSON.stringify(bad[0])}; use only the letters A-Z and a-z, digits, "_", "." and "-".`,
    );
  }
}

export function compileTool(name: string, config: ToolConfig<Schema | undefined, Schema | undefined>): Tool {
  checkToolName(name);
  const owner = `Tool "${name}"`;
  if (typeof config?.run !== "function") throw new TypeError(`${owner} needs a run function.`);
  checkOptions(config, TOOL_OPTIONS, owner);
  const { title, description, input, output, annotations, icons, _meta } = config;
  checkIcons(icons, owner);
  const descriptor: ToolDescriptor = {
    name,
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
    inputSchema: input ? objectSchema(input, owner) : NO_ARGUMENTS,
  };
  if (output) descriptor.outputSchema = toJsonSchema(output, "output", `${owner} output`);
  if (annotations !== undefined) descriptor.annotations = annotations;
  if (icons !== undefined) descriptor.icons = icons;
  if (_meta !== undefined) descriptor._meta = _meta;
  return {
    name,
    descriptor,
    input,
    output,
    auth: config.auth,
    task: config.task,
    // The one cast of a registration: run receives what the input schema validated, which its type names.
    run: config.run as Tool["run"],
  };
}

/** What a tool's config may hold (ToolConfig), each key once. */
const TOOL_OPTIONS: Record<keyof ToolConfig<undefined, undefined>, 0> = {
  title: 0,
  description: 0,
  input: 0,
  output: 0,
  annotations: 0,
  icons: 0,
  _meta: 0,
  auth: 0,
  task: 0,
  run: 0,
};

function objectSchema(schema: Schema, owner: string): JsonSchema {
  const json = toJsonSchema(schema, "input", `${owner} input`);
  if (json.type !== "object") {
    // The object as the schema's own library writes it (its Standard Schema vendor); another's is not guessed.
    const vendor = schema["~standard"].vendor;
    const wrapped =
      vendor === "zod" ? "z.object" : vendor === "valibot" ? "v.object" : vendor === "arktype" ? "type" : undefined;
    throw new TypeError(
      `${owner} input must describe an object (tool arguments are named); its JSON Schema has ${json.type === undefined ? "no type (a union, say)" : `type ${JSON.stringify(json.type)}`}. Make it a field of an object: ${wrapped ? `${wrapped}({ value: … })` : "an object schema with a field holding it"}.`,
    );
  }
  return json;
}

/**
 * Runs a tool: the caller authorized (before validation: a refused caller learns nothing of the arguments), arguments
 * validated, `run` called, its return value made a result. Failures the model can act on become `isError` results;
 * only `McpError` escapes, as a JSON-RPC error. A public tool whose schemas and `run` are synchronous needs no promise.
 */
export function callTool(tool: Tool, args: unknown, ctx: RequestContext): CallToolResult | Promise<CallToolResult> {
  // The code that checks callers loads with the first tool that needs it.
  if (accessOf(ctx, tool.auth) !== "public") return enforceLayer.use((enforce) => enforce.callChecked(tool, args, ctx));
  const named = namedArguments(args);
  if (!tool.input) return runTool(tool, {}, ctx);
  let checked: Validation<unknown> | Promise<Validation<unknown>>;
  try {
    checked = validate(tool.input, named ?? {});
  } catch (thrown) {
    return uncheckedArguments(tool, thrown);
  }
  return checked instanceof Promise
    ? checked.then(
        (done) => validated(tool, done, ctx),
        (thrown: unknown) => uncheckedArguments(tool, thrown),
      )
    : validated(tool, checked, ctx);
}

/**
 * A call whose arguments the input schema could not check (a refine with a bug, a getter of `server.call`'s
 * arguments): said as a throw of `run`'s is, where "Invalid arguments" would send the model after right arguments.
 */
export function uncheckedArguments(tool: Tool, thrown: unknown): CallToolResult {
  return failed(thrown, `Tool "${tool.name}" failed while checking its arguments against its input schema: `);
}

/**
 * A call's `params.arguments`: an object of named arguments, or none. Checked after the caller, so
 * that a tool `hideUnauthorized` hides answers a malformed call as a tool that does not exist would.
 */
export function namedArguments(args: unknown): Record<string, unknown> | undefined {
  if (args === undefined || args === null || isObject(args)) return args ?? undefined;
  throw new McpError(ErrorCode.InvalidParams, "tools/call params.arguments must be an object of named arguments");
}

function validated(
  tool: Tool,
  checked: Validation<unknown>,
  ctx: RequestContext,
): CallToolResult | Promise<CallToolResult> {
  if (!checked.ok) return invalidArguments(tool, checked.issues);
  return runTool(tool, checked.value, ctx);
}

/** The seed's form of a call whose arguments its schema refused: the tool's name, then each issue. */
export function invalidArguments(tool: Tool, issues: string): CallToolResult {
  return toolError(`Invalid arguments for tool "${tool.name}":\n${issues}`);
}

export function runTool(tool: Tool, value: unknown, ctx: RequestContext): CallToolResult | Promise<CallToolResult> {
  let returned: unknown;
  try {
    returned = tool.run(value, ctx);
    // A Promise, or another thenable (a query builder: Knex, a mongoose Query), is what `await` would
    // wait for, not a value (as JSON a thenable is "{}", or the builder's insides). A Proxy can throw
    // even here, from its `has` or `get` trap: that is a throw of `run`'s.
    if (isThenable(returned)) return Promise.resolve(returned).then((done) => finish(tool, done, ctx), failed);
  } catch (thrown) {
    return failed(thrown);
  }
  return finish(tool, returned, ctx);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && "then" in value && typeof value.then === "function";
}

/** A tool that threw: a tool error with a safe message after `said`, unless it threw an McpError, which is the request's error. */
function failed(thrown: unknown, said = ""): CallToolResult {
  if (isMcpError(thrown)) throw thrown;
  return toolError(said + safeMessage(thrown));
}

/**
 * What `run` returned as a result. Reading it runs user code (getters, a Proxy's traps, a schema's checks): what that
 * throws is the value's fault, a tool error as a throw of `run`'s is, never the request's error with the raw message.
 */
function finish(tool: Tool, returned: unknown, ctx: RequestContext): CallToolResult | Promise<CallToolResult> {
  const { output } = tool;
  if (output) return outputCheck.use((check) => check.checkedOutput({ tool, output }, returned, ctx));
  try {
    return toResult(returned, tool.name);
  } catch (thrown) {
    return unsendable(tool.name, thrown);
  }
}

/**
 * Whether a client of this era is sent the tool's `outputSchema` and `structuredContent`. Before 2026-07-28 both are
 * objects (2025-11-25 "Output Schema"), and the official 2025 clients refuse a whole `tools/list` with another schema:
 * a 2025 client then gets neither, only the JSON text copy, which every era reads.
 */
export function sendsStructured(descriptor: ToolDescriptor, era: Era): boolean {
  return era !== "legacy" || descriptor.outputSchema?.type === "object";
}

/** A tool's `tools/list` entry as a client of this era may be sent it (see sendsStructured). */
export function describeTool(descriptor: ToolDescriptor, era: Era): ToolDescriptor {
  if (sendsStructured(descriptor, era)) return descriptor;
  const { outputSchema: _, ...rest } = descriptor;
  return rest;
}

export function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/**
 * Text, blocks, nothing, or any other value as JSON text. Blocks are checked first: a client that finds one malformed
 * refuses the whole result (the official SDKs parse results with their schemas), so the model would get nothing.
 */
function toResult(value: unknown, toolName: string): CallToolResult | Promise<CallToolResult> {
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  const blocks = contentOf(value);
  return blocks ? contentCheck.use((check) => check.checkedContent(blocks, toolName)) : jsonResult(value, toolName);
}

/** What reading or serializing a returned value threw, cleaned as a thrown error's message is (see safe.ts). */
export function unsendable(toolName: string, thrown: unknown): CallToolResult {
  return toolError(`Tool "${toolName}" returned a value that cannot be sent as JSON: ${safeMessage(thrown)}`);
}

/** A value as compact JSON text, or a tool error when it cannot be sent as JSON (a BigInt, a cycle). */
export function jsonResult(value: unknown, toolName: string): CallToolResult {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (thrown) {
    return unsendable(toolName, thrown);
  }
  // Functions and symbols stringify to undefined; sending String(value) would leak a function's source.
  if (json === undefined)
    return toolError(`Tool "${toolName}" returned a ${typeof value}, which cannot be sent as JSON.`);
  return { content: [{ type: "text", text: json }] };
}
