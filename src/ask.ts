import type { RequestContext } from "./context.js";
import { ErrorCode, McpError } from "./errors.js";
import { isObject } from "./protocol/jsonrpc.js";
import type { ClientCapabilities } from "./protocol/types.js";
import { type JsonSchema, type Schema, type StandardSchemaV1, toJsonSchema, validate } from "./schema.js";

/**
 * Asking the client: elicitation, sampling and roots, one API for both eras. A handler that asks
 * something not yet answered stops there; the round ends, the question travels (an `input_required`
 * result in 2026-07-28, a real request over the session before), and the handler runs again from
 * the top with the answer known. So code before a question runs once per round: keep side effects
 * after the questions.
 */

/** One embedded request of an `input_required` result, or one server-to-client request. */
export interface InputRequest {
  method: "elicitation/create" | "sampling/createMessage" | "roots/list";
  params?: Record<string, unknown>;
}

export type ElicitResult<T> = { action: "accept"; content: T } | { action: "decline" } | { action: "cancel" };

export interface SamplingMessage {
  role: "user" | "assistant";
  content: unknown;
}

export interface SamplingRequest {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  includeContext?: "none" | "thisServer" | "allServers";
  /** Tools the client's model may call (needs the client's `sampling.tools` capability). */
  tools?: Record<string, unknown>[];
  toolChoice?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface CreateMessageResult {
  role: "assistant";
  content: unknown;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

export interface Root {
  uri: string;
  name?: string;
}

export interface AskOptions {
  /** Names the question; answers are matched by key across rounds. Default: its kind and call order. */
  key?: string;
}

/** Why a key holds no usable answer: the client refused, failed, or never answered. */
export class AskFailure {
  readonly message: string;
  constructor(message: string) {
    this.message = message;
  }
}

/** The questions of one run of a handler, and the answers known when it started. */
export class Round {
  readonly asked = new Map<string, InputRequest>();
  /** Settles once the handler has asked something unanswered and had a turn to ask more. */
  readonly stuck: Promise<void>;
  readonly #answers: Map<string, unknown>;
  readonly #counts = new Map<string, number>();
  #release: (() => void) | undefined;

  constructor(answers: Map<string, unknown>) {
    this.#answers = answers;
    this.stuck = new Promise((resolve) => {
      this.#release = resolve;
    });
  }

  /** The answer to a question, or (for one not answered yet) a promise that never settles: the round ends instead. */
  ask(kind: string, options: AskOptions | undefined, request: InputRequest): Promise<unknown> {
    const count = (this.#counts.get(kind) ?? 0) + 1;
    this.#counts.set(kind, count);
    const key = options?.key ?? `${kind}-${count}`;
    if (this.#answers.has(key)) {
      const answer = this.#answers.get(key);
      return answer instanceof AskFailure ? Promise.reject(new Error(answer.message)) : Promise.resolve(answer);
    }
    if (this.asked.has(key)) throw new TypeError(`Two questions use the key "${key}"; give each its own key.`);
    this.asked.set(key, request);
    const release = this.#release;
    if (release) {
      this.#release = undefined;
      // A macrotask later, so that questions asked together (Promise.all) travel in one round.
      setTimeout(release, 0);
    }
    return new Promise(() => {});
  }
}

/** Form-mode elicitation: a message and a flat schema; the accepted content is validated and typed. */
export async function elicit(
  ctx: RequestContext,
  message: string,
  schema: Schema | JsonSchema,
  options?: AskOptions,
): Promise<ElicitResult<unknown>> {
  requireCapability(ctx, "elicitation", formAllowed(ctx.client.capabilities));
  const standard = "~standard" in schema ? (schema as Schema) : undefined;
  const requestedSchema = standard ? toJsonSchema(standard, "input", "An elicitation schema") : (schema as JsonSchema);
  const answer = await round(ctx).ask("elicitation", options, {
    method: "elicitation/create",
    params: { mode: "form", message, requestedSchema: withoutDialect(requestedSchema) },
  });
  const result = elicitResult(answer, options);
  if (result.action !== "accept" || !standard) return result;
  let checked = validate(standard as StandardSchemaV1<unknown, unknown>, result.content);
  if (checked instanceof Promise) checked = await checked;
  if (!checked.ok)
    throw new McpError(
      ErrorCode.InvalidParams,
      `The answer to "${message}" does not match its schema:\n${checked.issues}`,
    );
  return { action: "accept", content: checked.value };
}

/** URL-mode elicitation: sends the user to a URL (sign-in, payment) and reports whether they went. */
export async function elicitUrl(
  ctx: RequestContext,
  message: string,
  url: string,
  options?: AskOptions & { elicitationId?: string },
): Promise<{ action: "accept" | "decline" | "cancel" }> {
  requireCapability(ctx, "elicitation", isObject(ctx.client.capabilities.elicitation?.url), {
    elicitation: { url: {} },
  });
  const params: Record<string, unknown> = { mode: "url", message, url };
  // The id and the completion notification exist only before 2026-07-28 (§3.3).
  if (ctx.era !== "modern") params.elicitationId = options?.elicitationId ?? crypto.randomUUID();
  const result = elicitResult(
    await round(ctx).ask("elicitation", options, { method: "elicitation/create", params }),
    options,
  );
  return { action: result.action };
}

const CONFIRM_SCHEMA = {
  type: "object",
  properties: { confirm: { type: "boolean", title: "Confirm", description: "Check to go ahead", default: false } },
  required: ["confirm"],
};

/** Asks the user to confirm a consequential action; true only when they accepted and confirmed. */
export async function confirm(ctx: RequestContext, message: string, options?: AskOptions): Promise<boolean> {
  const result = await elicit(ctx, message, CONFIRM_SCHEMA, { key: options?.key ?? "confirm" });
  return result.action === "accept" && isObject(result.content) && result.content.confirm === true;
}

/** Asks the client's model for a completion (sampling). A string is one user message. */
export async function sample(
  ctx: RequestContext,
  request: SamplingRequest | string,
  options?: AskOptions,
): Promise<CreateMessageResult> {
  const params: SamplingRequest =
    typeof request === "string"
      ? { messages: [{ role: "user", content: { type: "text", text: request } }], maxTokens: 1000 }
      : request;
  const sampling = ctx.client.capabilities.sampling;
  requireCapability(ctx, "sampling", isObject(sampling));
  // Tool-enabled sampling needs sampling.tools (2025-11-25 "Sampling"): MUST.
  if (params.tools || params.toolChoice)
    requireCapability(ctx, "sampling.tools", isObject(sampling?.tools), { sampling: { tools: {} } });
  const answer = await round(ctx).ask("sampling", options, {
    method: "sampling/createMessage",
    params: params as unknown as Record<string, unknown>,
  });
  if (!isObject(answer) || typeof answer.role !== "string" || answer.content === undefined) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `The answer to sampling request "${options?.key ?? "sampling"}" is not a CreateMessageResult`,
    );
  }
  return answer as CreateMessageResult;
}

/** The client's workspace roots. */
export async function roots(ctx: RequestContext, options?: AskOptions): Promise<Root[]> {
  requireCapability(ctx, "roots", isObject(ctx.client.capabilities.roots));
  const answer = await round(ctx).ask("roots", options, { method: "roots/list" });
  if (!isObject(answer) || !Array.isArray(answer.roots)) {
    throw new McpError(ErrorCode.InvalidParams, "The answer to roots/list is not a ListRootsResult ({ roots: [...] })");
  }
  return answer.roots as Root[];
}

function round(ctx: RequestContext) {
  if (!ctx.round) {
    throw new Error("The client can be asked only from tools/call, prompts/get and resources/read handlers.");
  }
  return ctx.round;
}

/** A bare `elicitation: {}` means form mode only (2025-11-25 "Elicitation"). */
function formAllowed(capabilities: ClientCapabilities): boolean {
  const elicitation = capabilities.elicitation;
  return isObject(elicitation) && (isObject(elicitation.form) || !isObject(elicitation.url));
}

/**
 * Never ask what the client did not declare. In 2026-07-28 that is -32021 naming what is missing
 * (§3.3); before, a tool error the model can explain. In-process calls answer what they like.
 */
function requireCapability(ctx: RequestContext, name: string, declared: boolean, required?: ClientCapabilities): void {
  if (declared || ctx.era === "local") return;
  if (ctx.era === "modern") {
    throw new McpError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${name}`, {
      requiredCapabilities: required ?? { [name]: {} },
    });
  }
  throw new Error(`This client did not declare the "${name}" capability, so the server cannot ask it for input.`);
}

function elicitResult(answer: unknown, options: AskOptions | undefined): ElicitResult<unknown> {
  if (!isObject(answer) || !["accept", "decline", "cancel"].includes(answer.action as string)) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `The answer to elicitation "${options?.key ?? "elicitation"}" must be { action: "accept" | "decline" | "cancel" }`,
    );
  }
  if (answer.action !== "accept") return { action: answer.action as "decline" | "cancel" };
  return { action: "accept", content: answer.content ?? {} };
}

/** Elicitation schemas are flat objects of primitives; the dialect marker is noise to clients. */
function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _, ...rest } = schema;
  return rest;
}
