import type { ExchangeAuth, Gate, GateSettings, Identity } from "./caller.js";
import { LOG_LEVELS, type LogLevel } from "./envelope.js";
import type { AskOptions, Context, Era, Logger } from "./handler-context.js";
import type { JsonRpcMessage, RequestId } from "./jsonrpc.js";
import { type CarriedAs, Layer } from "./layers.js";
import type { JsonSchema, Schema } from "./schema.js";
import type {
  ClientCapabilities,
  CreateMessageResult,
  ElicitResult,
  Implementation,
  Meta,
  Root,
  SamplingRequest,
  StateKey,
} from "./types.js";

export type { Context, Era, Logger } from "./handler-context.js";

/** The answers of a first run, which has none: shared, never written, so a call that asks nothing makes no map. */
export const NO_ANSWERS: ReadonlyMap<string, unknown> = new Map();

/** What the wait of a first run ends with when the handler stopped at an unanswered question. */
export const STUCK: unique symbol = Symbol("stuck");

/** The longest string progressToken that gets progress, in characters (docs/logging-and-progress.md). */
const MAX_PROGRESS_TOKEN = 256;

/**
 * Asking the client (src/asking/), loaded with a server's first question: the questions handlers ask, which the core
 * calls (and a handler's rounds, which the dispatcher declares and calls); the layer adds what its other parts call
 * (asking/carried.ts: a 2025 connection's requests).
 */
export interface AskingLayer {
  elicit(
    ctx: RequestContext,
    question: { message: string; schema: Schema | JsonSchema; options: AskOptions | undefined },
  ): Promise<ElicitResult<unknown>>;
  elicitUrl(
    ctx: RequestContext,
    question: { message: string; url: string; options: (AskOptions & { elicitationId?: string }) | undefined },
  ): Promise<{ action: "accept" | "decline" | "cancel" }>;
  confirm(ctx: RequestContext, message: string, options?: Pick<AskOptions, "key">): Promise<boolean>;
  sample(ctx: RequestContext, request: SamplingRequest | string, options?: AskOptions): Promise<CreateMessageResult>;
  roots(ctx: RequestContext, options?: AskOptions): Promise<Root[]>;
}

/** How one server keeps its 2026-07-28 round states: their key (`requestStateKey`) and how many used ones it remembers. */
export interface RoundStates {
  readonly stateKey: StateKey | undefined;
  readonly maxUsedStates: number;
}

/** Where the asking layer comes from: wired in by the server (server.ts). */
export const askingLayer = new Layer<AskingLayer>();

export interface RequestInit {
  id: RequestId | undefined;
  meta: Meta | undefined;
  protocolVersion: string;
  era: Era;
  clientInfo?: Implementation | undefined;
  /** Default: none declared. */
  clientCapabilities?: ClientCapabilities | undefined;
  /** `client`, made once by the caller (a legacy session's); otherwise made from the two fields above. */
  client?: Context["client"] | undefined;
  /** The lowest level sent; undefined sends no log messages. */
  logLevel?: LogLevel | undefined;
  session?: CarriedAs<"session"> | undefined;
  /** The caller, when the call says it itself (`server.call`); otherwise the one `via` carries. */
  auth?: Identity | undefined;
}

/** The way to the client a request's context keeps (part of dispatch.ts's Exchange). */
export interface Via {
  /** Sends a notification tied to this request (progress, log) before its response; absent where there is no way back. */
  readonly emit?: ((message: JsonRpcMessage) => void) | undefined;
  /** Closes the request's SSE stream but keeps it resumable, so the client polls for the result (legacy HTTP sessions, SEP-1699); true if it did. */
  readonly closeStream?: (() => boolean) | undefined;
  /** The caller's identity and, over HTTP, how to challenge it (see auth/). */
  readonly auth?: ExchangeAuth | undefined;
}

/**
 * One request in flight. Its AbortController is made only when a handler reads `signal` (most never do: a measurable
 * cost per message). Not `implements Context`, which a user's augmented Context (docs/middleware.md) would break.
 */
export class RequestContext {
  readonly meta: Meta | undefined;
  readonly requestId: RequestId | undefined;
  readonly protocolVersion: string;
  readonly era: Era;
  readonly client: Context["client"];
  readonly auth: Identity | undefined;
  /** The server's auth settings and, over HTTP, where challenges go (see auth/enforce.ts). */
  readonly gate: Gate | undefined;
  /** The legacy session the request arrived on, if any (sessions/peer.ts's Session). */
  readonly session: CarriedAs<"session"> | undefined;
  /** How the running handler may ask the client; undefined for handlers that may not (written by the asking layer, asking/carried.ts). */
  asking: CarriedAs<"asking"> | undefined;
  /** True once the request is answered (`finish`): what its handler does after reaches no one. */
  finished = false;
  /** The questions of the current run, made by its first question (see ask.ts). */
  round: CarriedAs<"round"> | undefined;
  /** The way to the client; gone once the request is answered, since nothing about it may follow its response. */
  #via: Via | undefined;
  readonly #logLevel: number;
  #logger: Logger | undefined;
  #lastProgress = -Infinity;
  #controller: AbortController | undefined;
  /** How the request ended before its handler did, if it did: the client cancelled it, or the server cut it short. */
  #ended: "cancelled" | "interrupted" | undefined;
  #reason: unknown;
  /** Ends the wait in `race` early (cancellation, timeout, shutdown). */
  #stop: ((reason: unknown) => void) | undefined;

  /** `settings`: the server's auth settings, which the request's gate holds. */
  constructor(init: RequestInit, via?: Via, settings?: GateSettings) {
    this.requestId = init.id;
    this.meta = init.meta;
    this.protocolVersion = init.protocolVersion;
    this.era = init.era;
    this.client = init.client ?? { info: init.clientInfo, capabilities: init.clientCapabilities ?? {} };
    this.session = init.session;
    this.auth = init.auth ?? via?.auth?.identity;
    this.gate = openGate(settings, via?.auth);
    this.#via = via;
    this.#logLevel = init.logLevel === undefined ? LOG_LEVELS.length : LOG_LEVELS.indexOf(init.logLevel);
  }

  progress(progress: number, total?: number, message?: string): void {
    // Progress goes only to a caller that asked with a token, and MUST increase (2025-11-25 "Progress"); a cancelled
    // request is no longer active, so it gets none. A token is a string or an integer: another value (an object, 1.5,
    // an integer too large to read exactly, as with ids) asked for nothing, and echoing it would name no request. Nor
    // did a string over MAX_PROGRESS_TOKEN: each report echoes the token, a megabyte per report for one of a megabyte,
    // and progress is the receiver's to send or not (MAY). Progress and total are numbers: JSON writes Infinity and
    // NaN as null, which no client reads, and after a progress of Infinity nothing larger could be reported.
    const progressToken = this.meta?.progressToken;
    const asked =
      typeof progressToken === "string"
        ? progressToken.length <= MAX_PROGRESS_TOKEN
        : Number.isSafeInteger(progressToken);
    if (!this.emit || this.#ended || !asked || !(progress > this.#lastProgress && progress < Infinity)) return;
    this.#lastProgress = progress;
    const params: Record<string, unknown> = { progressToken, progress };
    if (Number.isFinite(total)) params.total = total;
    if (message !== undefined) params.message = message;
    this.emit({ jsonrpc: "2.0", method: "notifications/progress", params });
  }

  // The asking layer loads with the first question a server's handlers ask.
  elicit(message: string, schema: Schema | JsonSchema, options?: AskOptions): Promise<ElicitResult<never>> {
    // `never`: the content's type is the schema's, which the public Context's signature infers.
    return askingLayer.use((ask) => ask.elicit(this, { message, schema, options })) as Promise<ElicitResult<never>>;
  }

  elicitUrl(
    message: string,
    url: string,
    options?: AskOptions & { elicitationId?: string },
  ): Promise<{ action: "accept" | "decline" | "cancel" }> {
    return askingLayer.use((ask) => ask.elicitUrl(this, { message, url, options }));
  }

  confirm(message: string, options?: Pick<AskOptions, "key">): Promise<boolean> {
    return askingLayer.use((ask) => ask.confirm(this, message, options));
  }

  sample(request: SamplingRequest | string, options?: AskOptions): Promise<CreateMessageResult> {
    return askingLayer.use((ask) => ask.sample(this, request, options));
  }

  roots(options?: AskOptions): Promise<Root[]> {
    return askingLayer.use((ask) => ask.roots(this, options));
  }

  /** Where notifications about this request go; undefined once it is answered (2025-11-25 "Progress": MUST stop). */
  get emit(): ((message: JsonRpcMessage) => void) | undefined {
    return this.#via?.emit;
  }

  closeStream(): boolean {
    return this.#via?.closeStream?.() ?? false;
  }

  /** The request is answered: it sends nothing more, and its handler may ask nothing more. */
  finish(): void {
    this.#via = undefined;
    this.asking = undefined;
    this.finished = true;
  }

  get log(): Logger {
    // Object.fromEntries types its keys as string: the entries are one per level, as Logger has.
    this.#logger ??= Object.fromEntries(
      LOG_LEVELS.map((level, rank) => [
        level,
        (data: unknown, logger?: string) => {
          if (!this.emit || this.#ended || rank < this.#logLevel) return;
          // data is required (2025-11-25 and 2026-07-28 schema, LoggingMessageNotification), and JSON has no undefined.
          const params: Record<string, unknown> = { level, data: data ?? null };
          if (logger !== undefined) params.logger = logger;
          this.emit({ jsonrpc: "2.0", method: "notifications/message", params });
        },
      ]),
    ) as Logger;
    return this.#logger;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#ended) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** True once cancelled: the transport then sends nothing more for this request. */
  get cancelled(): boolean {
    return this.#ended === "cancelled";
  }

  cancel(reason: unknown): void {
    this.#end("cancelled", reason);
  }

  /** True once the server ended the request early (handler timeout, shutdown): it is answered with an error. */
  get interrupted(): boolean {
    return this.#ended === "interrupted";
  }

  /** Ends the request now: the handler's signal aborts with `reason`, and it is answered with an error at once, not when (if ever) the handler settles. */
  interrupt(reason: unknown): void {
    this.#end("interrupted", reason);
  }

  /** The first end wins: the handler's signal aborts, and its wait in `race` rejects, with `reason`. */
  #end(how: "cancelled" | "interrupted", reason: unknown): void {
    if (this.#ended) return;
    this.#ended = how;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#stop?.(reason);
  }

  /** The run stopped at a question nobody has answered yet: the wait in `race` ends with STUCK. */
  stuck(): void {
    this.#stop?.(STUCK);
  }

  /** Waits for the handler's work, unless the request is cancelled or interrupted first. */
  race<T>(work: Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      this.#stop = reject;
      work.then(resolve, reject);
      if (this.#ended) reject(this.#reason);
    });
  }

  /** Follows an outside signal (an HTTP request's, or one given to `server.call`). */
  follow(signal: AbortSignal | undefined): void {
    if (!signal) return;
    if (signal.aborted) this.cancel(signal.reason);
    else signal.addEventListener("abort", () => this.cancel(signal.reason), { once: true });
  }
}

/** The gate of one request: the server's settings, and what the transport says about challenges. */
function openGate(settings: GateSettings | undefined, auth: ExchangeAuth | undefined): Gate | undefined {
  if (!auth) return settings?.gate;
  return {
    settings,
    metadataUrl: auth.metadataUrl ?? settings?.metadataUrl,
    challenge: auth.challenge,
    environment: auth.environment,
  };
}
