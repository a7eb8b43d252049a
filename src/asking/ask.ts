import { ErrorCode, McpError, messageOf } from "../core/errors.js";
import type { AskOptions, Context } from "../core/handler-context.js";
import { isObject } from "../core/jsonrpc.js";
import { type JsonSchema, type Schema, toJsonSchema, validate } from "../core/schema.js";
import type {
  ClientCapabilities,
  CreateMessageResult,
  ElicitResult,
  InputRequest,
  Root,
  SamplingRequest,
} from "../core/types.js";
import { onWorkers } from "../transports/workers.js";
import type { Round as AskedRound, Asking } from "./carried.js";

/**
 * Asking the client: elicitation, sampling and roots, one API for both eras. A handler that asks
 * something not yet answered stops there; the round ends, the question travels (an `input_required`
 * result in 2026-07-28, a real request over the session before), and the handler runs again from
 * the top with the answer known. So code before a question runs once per round: keep side effects
 * after the questions.
 */

/**
 * What asking reads and writes of the request context (context.ts's RequestContext, whose
 * `ctx.elicit`, `ctx.sample` and `ctx.roots` call these), declared here so that this module, loaded
 * by the request context on first use, does not import it back.
 */
export interface AskingContext extends Pick<Context, "era" | "protocolVersion" | "client" | "elicitUrl"> {
  readonly asking: Asking | undefined;
  /** The request was answered: a question now (from a timer the handler left behind) reaches no one. */
  readonly finished?: boolean;
  round: AskedRound | undefined;
  stuck(): void;
}

/**
 * Why a legacy request without a way back to its client (stateless HTTP) cannot ask it anything. On
 * Workers, sessions are off by default because they cannot work in a plain Worker (transports/http/
 * endpoint.ts): turning them on is not the way there, a Durable Object is.
 */
const NO_WAY_BACK = `This request cannot ask the client for input: it came over stateless HTTP, which has no way back to the client. ${
  onWorkers
    ? "On Cloudflare Workers, 2025 clients are served without sessions, since a Worker's isolates share no memory: serve sessions from a Durable Object (picomcp's docs/http.md, \"Cloudflare Workers\"), or use the 2026-07-28 protocol."
    : "Use a session (the default), or the 2026-07-28 protocol."
}`;

/** Why a key holds no usable answer: the client refused, failed, or never answered. */
export class AskFailure {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

/** The questions of one run of a handler, and the answers known when it started. */
export class Round implements AskedRound {
  readonly #answers: ReadonlyMap<string, unknown>;
  /** Answers sent before being asked (`Asking.offered`): taken only by a question asked `upFront`. */
  readonly #offered: ReadonlyMap<string, unknown> | undefined;
  /** Called once the handler has asked something unanswered and had a turn to ask more. */
  readonly #onStuck: () => void;
  // Most runs ask nothing: these are made on first use, not for every tool call.
  #asked: Map<string, InputRequest> | undefined;
  #used: Map<string, unknown> | undefined;
  #counts: Map<string, number> | undefined;
  #seen: Set<string> | undefined;
  /** The keys of the questions asked `upFront` in this run. */
  #upFront: Set<string> | undefined;
  #stuck = false;

  constructor(asking: Pick<Asking, "answers" | "offered">, onStuck: () => void) {
    this.#answers = asking.answers;
    this.#offered = asking.offered;
    this.#onStuck = onStuck;
  }

  /** The questions asked and not answered yet, by key, in the order asked. */
  get asked(): Map<string, InputRequest> {
    this.#asked ??= new Map();
    return this.#asked;
  }

  /** The answers this run read, by key: all a later round needs to carry. */
  get used(): Map<string, unknown> {
    this.#used ??= new Map();
    return this.#used;
  }

  /** The key of the next question of a kind: the one given, else the kind and its call order ("elicitation-2"). */
  key(kind: string, options: AskOptions | undefined): string {
    this.#counts ??= new Map();
    this.#seen ??= new Set();
    const count = (this.#counts.get(kind) ?? 0) + 1;
    this.#counts.set(kind, count);
    const key = options?.key ?? `${kind}-${count}`;
    // One key, one question: a second use would silently get the first question's answer.
    if (this.#seen.has(key)) throw new TypeError(`Two questions use the key "${key}"; give each its own key.`);
    this.#seen.add(key);
    if (options?.upFront) {
      this.#upFront ??= new Set();
      this.#upFront.add(key);
    }
    return key;
  }

  /** The answer to a question, or (for one not answered yet) a promise that never settles: the round ends instead. */
  ask(key: string, request: InputRequest): Promise<unknown> {
    // An answer the rounds vouch for comes first; one sent unasked counts only for an `upFront` question.
    const answers = !this.#answers.has(key) && this.#upFront?.has(key) && this.#offered ? this.#offered : this.#answers;
    if (answers.has(key)) {
      const answer = answers.get(key);
      this.used.set(key, answer);
      return answer instanceof AskFailure ? Promise.reject(new Error(answer.message)) : Promise.resolve(answer);
    }
    // A question JSON cannot carry never reaches the client (each transport drops a request it cannot
    // write): the handler would wait out askTimeoutMs (2025), or its whole request fail (2026). It fails here.
    let asked: InputRequest;
    try {
      asked = asSent(request);
    } catch (thrown) {
      return Promise.reject(
        new TypeError(
          `The question "${key}" (${request.method}) cannot be sent to the client: its params are not JSON (${messageOf(thrown)}). Ask with JSON values only: no BigInt, no cycle.`,
        ),
      );
    }
    this.asked.set(key, asked);
    if (!this.#stuck) {
      this.#stuck = true;
      // A macrotask later, so that questions asked together (Promise.all) travel in one round.
      setTimeout(this.#onStuck, 0);
    }
    return new Promise(() => {});
  }
}

/**
 * The question as JSON carries it at the moment it is asked; throws where JSON cannot (a BigInt, a
 * cycle, nesting too deep). It travels later (a macrotask on, with the round, or in a task's record):
 * a copy, so that what the handler changes after asking (a BigInt default set on the schema it
 * passed) is not what is sent, nor what a shared task store fails to write.
 */
function asSent(request: InputRequest): InputRequest {
  if (request.params === undefined) return request;
  return { method: request.method, params: JSON.parse(JSON.stringify(request.params)) };
}

/** What a handler asks with `ctx.elicit`: a message, and a flat schema of what to answer. */
export interface FormQuestion {
  readonly message: string;
  readonly schema: Schema | JsonSchema;
  readonly options?: AskOptions | undefined;
}

/** What a handler asks with `ctx.elicitUrl`: a message, and the URL to send the user to. */
export interface UrlQuestion {
  readonly message: string;
  readonly url: string;
  readonly options?: (AskOptions & { elicitationId?: string }) | undefined;
}

/** Form-mode elicitation: a message and a flat schema; the accepted content is validated and typed. */
export function elicit(ctx: AskingContext, question: FormQuestion): Promise<ElicitResult<unknown>> {
  return form(ctx, "elicitation", question);
}

/**
 * Asks the user to confirm a consequential action; true only when they accepted and confirmed. Only
 * its key is taken from the options: a confirmation is never taken up front, even from untyped code.
 */
export async function confirm(
  ctx: AskingContext,
  message: string,
  options?: Pick<AskOptions, "key">,
): Promise<boolean> {
  const result = await form(ctx, "confirm", { message, schema: CONFIRM_SCHEMA, options: { key: options?.key } });
  return result.action === "accept" && isObject(result.content) && result.content.confirm === true;
}

const CONFIRM_SCHEMA = {
  type: "object",
  properties: { confirm: { type: "boolean", title: "Confirm", description: "Check to go ahead", default: false } },
  required: ["confirm"],
};

async function form(
  ctx: AskingContext,
  kind: string,
  { message, schema, options }: FormQuestion,
): Promise<ElicitResult<unknown>> {
  const round = reachable(ctx);
  const { elicitation } = ctx.client.capabilities;
  // A client that elicits, but only by URL, lacks form mode in particular: name that, not the
  // elicitation it did declare (2025-11-25 "Elicitation": `form` and `url` are declared apart).
  if (!formAllowed(elicitation)) {
    if (isObject(elicitation)) missingCapability(ctx, "elicitation.form", FORM);
    else missingCapability(ctx, "elicitation");
  }
  const key = round.key(kind, options);
  const [standard, requestedSchema] = isStandard(schema)
    ? [schema, jsonSchemaOf(schema)]
    : [undefined, checkFlat(schema)];
  // `mode` exists since 2025-11-25; older sessions get the 2025-06-18 shape, which clients read as form mode.
  const params: Record<string, unknown> = before(ctx, URL_MODE_VERSION)
    ? { message, requestedSchema }
    : { mode: "form", message, requestedSchema };
  const result = elicitResult(ctx, await round.ask(key, { method: "elicitation/create", params }), key);
  if (result.action !== "accept") return result;
  if (!isObject(result.content))
    throw badAnswer(ctx, `The answer to elicitation "${key}" has content that is not an object`);
  if (!standard) return result;
  let checked = validate(standard, result.content);
  if (checked instanceof Promise) checked = await checked;
  if (!checked.ok) throw badAnswer(ctx, `The answer to "${message}" does not match its schema:\n${checked.issues}`);
  return { action: "accept", content: checked.value };
}

/**
 * URL-mode elicitation: sends the user to a URL (sign-in, payment) out of band and reports whether
 * they agreed to go; the interaction itself is the server's to track.
 */
export async function elicitUrl(
  ctx: AskingContext,
  { message, url, options }: UrlQuestion,
): Promise<{ action: "accept" | "decline" | "cancel" }> {
  const round = reachable(ctx);
  if (!isObject(ctx.client.capabilities.elicitation?.url)) {
    missingCapability(ctx, "elicitation.url", { elicitation: { url: {} } });
  }
  // The url MUST be a valid URL (2025-11-25 "Elicitation"): a mistake here is the server's, not the user's.
  if (!URL.canParse(url)) throw new TypeError(`ctx.elicitUrl needs an absolute URL; got ${JSON.stringify(url)}.`);
  const key = round.key("elicitation", options);
  const params: Record<string, unknown> = { mode: "url", message, url };
  // The id and the completion notification exist only before 2026-07-28 (§3.3).
  if (ctx.era !== "modern") params.elicitationId = options?.elicitationId ?? crypto.randomUUID();
  const result = elicitResult(ctx, await round.ask(key, { method: "elicitation/create", params }), key);
  return { action: result.action };
}

/** Asks the client's model for a completion (sampling). A string is one user message. */
export async function sample(
  ctx: AskingContext,
  request: SamplingRequest | string,
  options?: AskOptions,
): Promise<CreateMessageResult> {
  const round = reachable(ctx);
  const params: SamplingRequest =
    typeof request === "string"
      ? { messages: [{ role: "user", content: { type: "text", text: request } }], maxTokens: 1000 }
      : request;
  const sampling = ctx.client.capabilities.sampling;
  if (!isObject(sampling)) missingCapability(ctx, "sampling");
  // Tool-enabled sampling needs sampling.tools (2025-11-25 "Sampling"): MUST.
  if ((params.tools || params.toolChoice) && !isObject(sampling?.tools))
    missingCapability(ctx, "sampling.tools", { sampling: { tools: {} } });
  // Context from other servers or this one only for clients that offer it (SHOULD NOT otherwise).
  if (params.includeContext && params.includeContext !== "none" && !isObject(sampling?.context))
    missingCapability(ctx, "sampling.context", { sampling: { context: {} } });
  const key = round.key("sampling", options);
  const answer = await round.ask(key, {
    method: "sampling/createMessage",
    params: { ...params },
  });
  if (!isObject(answer) || typeof answer.role !== "string" || answer.content === undefined) {
    throw badAnswer(ctx, `The answer to sampling request "${key}" is not a CreateMessageResult`);
  }
  // The rest of the result (the model's name, the stop reason) is the client's word, passed on unchecked.
  return answer as CreateMessageResult;
}

/** The client's workspace roots. */
export async function roots(ctx: AskingContext, options?: AskOptions): Promise<Root[]> {
  const round = reachable(ctx);
  if (!isObject(ctx.client.capabilities.roots)) missingCapability(ctx, "roots");
  const key = round.key("roots", options);
  const answer = await round.ask(key, { method: "roots/list" });
  const shape = `The answer to roots/list "${key}" is not a ListRootsResult ({ roots: [{ uri, name? }] })`;
  if (!isObject(answer) || !Array.isArray(answer.roots)) throw badAnswer(ctx, shape);
  // Each root is an object with a uri string and maybe a name string (2025-11-25 "Roots"), as Root[] says:
  // a handler reading root.uri must not meet null or a number. Its URI is for the handler to judge.
  const roots: unknown[] = answer.roots;
  if (roots.every(isRoot)) return roots;
  const index = roots.findIndex((root) => !isRoot(root));
  throw badAnswer(ctx, `${shape}: root ${index} is not { uri: string, name?: string }`);
}

/** One root as 2025-11-25 "Roots" shapes it: `{ uri: string, name?: string }`. */
function isRoot(root: unknown): root is Root {
  return isObject(root) && typeof root.uri === "string" && (root.name === undefined || typeof root.name === "string");
}

/** The round of the running handler (made by its first question), when someone can answer its questions. */
function reachable(ctx: AskingContext): Round {
  const asking = ctx.asking;
  if (!asking) {
    throw new Error(
      ctx.finished
        ? "The request this handler served has ended (it was answered or cancelled), so its client can no longer be asked: ask before the handler returns, and await each question."
        : "The client can be asked only from tools/call, prompts/get and resources/read handlers.",
    );
  }
  if (asking.unreachable) throw new Error(asking.unreachable === true ? NO_WAY_BACK : asking.unreachable);
  if (ctx.round instanceof Round) return ctx.round;
  const round = new Round(asking, asking.stuck ?? (() => ctx.stuck()));
  ctx.round = round;
  return round;
}

/** Whether a run ended at a round of questions rather than with its result. */
export function isRound(value: unknown): value is AskedRound {
  return value instanceof Round;
}

/** URL mode, the `mode` field and tool-enabled sampling came with 2025-11-25. */
const URL_MODE_VERSION = "2025-11-25";

/** Whether a legacy session negotiated a revision older than `version`. */
function before(ctx: AskingContext, version: string): boolean {
  return ctx.era === "legacy" && ctx.protocolVersion < version;
}

const FORM = { elicitation: { form: {} } };

/** A bare `elicitation: {}` means form mode only (2025-11-25 "Elicitation"). */
function formAllowed(elicitation: ClientCapabilities["elicitation"]): boolean {
  return isObject(elicitation) && (isObject(elicitation.form) || !isObject(elicitation.url));
}

/**
 * Never ask what the client did not declare: called when it did not declare `name`. In 2026-07-28
 * that is -32021 naming what is missing (§3.3); before, a tool error the model can explain.
 * In-process calls answer what they like, so it returns for them.
 */
function missingCapability(ctx: AskingContext, name: string, required?: ClientCapabilities): void {
  if (ctx.era === "local") return;
  if (ctx.era === "modern") {
    throw new McpError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${name}`, {
      requiredCapabilities: required ?? { [name]: {} },
    });
  }
  throw new Error(`This client did not declare the "${name}" capability, so the server cannot ask it for input.`);
}

/**
 * An answer of the wrong shape. In 2026-07-28 it arrived in the retried request's params (-32602);
 * before, the client answered our request badly, which is the tool's failure to report, not the call's.
 */
function badAnswer(ctx: AskingContext, message: string): Error {
  return ctx.era === "modern"
    ? new McpError(ErrorCode.InvalidParams, `Invalid params: ${message}`)
    : new Error(message);
}

function elicitResult(ctx: AskingContext, answer: unknown, key: string): ElicitResult<unknown> {
  if (!isObject(answer) || (answer.action !== "accept" && answer.action !== "decline" && answer.action !== "cancel")) {
    throw badAnswer(ctx, `The answer to elicitation "${key}" must be { action: "accept" | "decline" | "cancel" }`);
  }
  if (answer.action !== "accept") return { action: answer.action };
  return { action: "accept", content: answer.content ?? {} };
}

/** A Standard Schema, rather than a JSON Schema (which has no `~standard`). */
function isStandard(schema: Schema | JsonSchema): schema is Schema {
  return "~standard" in schema;
}

/**
 * One field of a form (2025-11-25 PrimitiveSchemaDefinition): a primitive, or an array only as a
 * multi-select enum, UntitledMultiSelectEnumSchema (items with an enum) or TitledMultiSelectEnumSchema
 * (items with an anyOf of { const, title }); an array of objects or of free strings is none of them.
 */
function isFormField(property: unknown): boolean {
  if (!isObject(property)) return false;
  if (PRIMITIVES.includes(property.type)) return true;
  const items = property.items;
  return (
    property.type === "array" &&
    isObject(items) &&
    (Array.isArray(items.enum) ||
      (Array.isArray(items.anyOf) && items.anyOf.every((option) => isObject(option) && "const" in option)))
  );
}

/** Converted once per schema, as tool schemas are; the dialect marker is noise to clients (flat objects only). */
const converted = new WeakMap<Schema, JsonSchema>();

function jsonSchemaOf(schema: Schema): JsonSchema {
  let json = converted.get(schema);
  if (!json) {
    const { $schema: _, ...rest } = toJsonSchema(schema, "input", "An elicitation schema");
    json = checkFlat(rest);
    converted.set(schema, json);
  }
  return json;
}

const PRIMITIVES: readonly unknown[] = ["string", "number", "integer", "boolean"];

const ALLOWED =
  "a string, number, integer, boolean, enum or multi-select array (an array whose items have an enum, or an anyOf of { const, title })";

/**
 * Forms are flat (2025-11-25 "Elicitation": requestedSchema): an object whose properties are
 * strings, numbers, integers, booleans, enums or multi-select arrays. Anything else the client
 * would refuse; say so at the question, where the fix is.
 */
function checkFlat(schema: JsonSchema): JsonSchema {
  const properties = schema.properties;
  const wrong =
    schema.type !== "object"
      ? "it is not an object schema"
      : isObject(properties)
        ? Object.entries(properties).find(([, property]) => !isFormField(property))?.[0]
        : undefined;
  if (wrong !== undefined) {
    const what = schema.type === "object" ? `property "${wrong}" is not ${ALLOWED}` : wrong;
    throw new TypeError(`An elicitation form must be a flat object of simple values, but ${what}.`);
  }
  return schema;
}
