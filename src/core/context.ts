import type { Asking, Round } from "../asking/ask.js";
import type { Asker, AskingConnection, Questions } from "../asking/questions.js";
import type { Gate, Identity } from "./caller.js";
import { LOG_LEVELS, type LogLevel } from "./envelope.js";
import type { AskOptions, Context, Era, Logger } from "./handler-context.js";
import type { JsonRpcMessage, RequestId } from "./jsonrpc.js";
import { Layer } from "./layers.js";
import type { JsonSchema, Schema } from "./schema.js";
import type { Session } from "./session.js";
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

export type { Asking } from "../asking/ask.js";
export type { Cancellable, Context, Era, Logger } from "./handler-context.js";

/** The answers of a first run, which has none: shared, never written, so a call that asks nothing makes no map. */
export const NO_ANSWERS: ReadonlyMap<string, unknown> = new Map();

/** Why a legacy request without a way back to its client cannot ask it anything. */
export const NO_WAY_BACK =
  "This request cannot ask the client for input: it came over stateless HTTP, which has no way back to the client. Use a session (the default), or the 2026-07-28 protocol.";

/** What the wait of a first run ends with when the handler stopped at an unanswered question. */
export const STUCK: unique symbol = Symbol("stuck");

type Result = Record<string, unknown>;

/**
 * Asking the client (asking.ts): the questions handlers ask, the rounds of a handler that asked,
 * and a 2025 connection's requests to its client. Loaded with the first question a server asks.
 */
export interface AskingLayer {
  elicit(
    ctx: RequestContext,
    message: string,
    schema: Schema | JsonSchema,
    options?: AskOptions,
  ): Promise<ElicitResult<unknown>>;
  elicitUrl(
    ctx: RequestContext,
    message: string,
    url: string,
    options?: AskOptions & { elicitationId?: string },
  ): Promise<{ action: "accept" | "decline" | "cancel" }>;
  confirm(ctx: RequestContext, message: string, options?: AskOptions): Promise<boolean>;
  sample(ctx: RequestContext, request: SamplingRequest | string, options?: AskOptions): Promise<CreateMessageResult>;
  roots(ctx: RequestContext, options?: AskOptions): Promise<Root[]>;
  /** Runs a handler that asked in its era's rounds (rounds.ts). */
  rounds(request: RoundsRequest): Promise<Result>;
  /** The requests a 2025 connection sends its client, made by its first question. */
  readonly Questions: new (
    connection: AskingConnection,
  ) => Questions;
}

/** One request whose handler asks the client, as the round runner takes it. */
export interface RoundsRequest {
  readonly run: () => Result | Promise<Result>;
  readonly ctx: RequestContext;
  readonly method: string;
  readonly params: Result | undefined;
  /** 2026-07-28: the rounds travel in `requestState`; 2025: the questions go to the client with `ask`. */
  readonly modern: boolean;
  /** How a 2025 request asks its client; undefined where there is no way back (stateless HTTP). */
  readonly ask: Asker | undefined;
  /** The server the sealed states belong to, and their key (`requestStateKey`). */
  readonly keeper: object;
  readonly stateKey: StateKey | undefined;
  readonly maxUsedStates: number;
  /** The round a first run stopped at, when there was one. */
  readonly first: Round | undefined;
}

/** Where the asking layer comes from: wired in by the server (server.ts). */
export const askingLayer = new Layer<AskingLayer>();

export interface RequestInit {
  id: RequestId | undefined;
  meta: Meta | undefined;
  protocolVersion: string;
  era: Era;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities;
  /** `client`, made once by the caller (a legacy session's); otherwise made from the two fields above. */
  client?: Context["client"] | undefined;
  /** The lowest level sent; undefined sends no log messages. */
  logLevel?: LogLevel | undefined;
  session?: Session | undefined;
  auth?: Identity | undefined;
}

/**
 * One request in flight. The AbortController is made only when a handler reads `signal`:
 * most calls never do, and building one per message is a measurable cost.
 */
export class RequestContext implements Context {
  readonly meta: Meta | undefined;
  readonly requestId: RequestId | undefined;
  readonly protocolVersion: string;
  readonly era: Era;
  readonly client: Context["client"];
  readonly auth: Identity | undefined;
  /** The server's auth settings and, over HTTP, where challenges go (see auth/enforce.ts). */
  gate: Gate | undefined;
  /** Where notifications about this request go (set by the transport); silent once cancelled or answered. */
  emit: ((message: JsonRpcMessage) => void) | undefined;
  /** Set by HTTP sessions: ends the request's SSE stream now, so the client polls for the result (SEP-1699). */
  streamCloser: (() => boolean) | undefined;
  /** The legacy session the request arrived on, if any. */
  readonly session: Session | undefined;
  /** How the running handler may ask the client; undefined for handlers that may not. */
  asking: Asking | undefined;
  /** The questions of the current run, made by its first question (see ask.ts). */
  round: Round | undefined;
  readonly #logLevel: number;
  #logger: Logger | undefined;
  #lastProgress = Number.NEGATIVE_INFINITY;
  #controller: AbortController | undefined;
  #cancelled = false;
  #interrupted = false;
  #reason: unknown;
  /** Ends the wait in `race` early (cancellation, timeout, shutdown). */
  #stop: ((reason: unknown) => void) | undefined;

  constructor(init: RequestInit) {
    this.requestId = init.id;
    this.meta = init.meta;
    this.protocolVersion = init.protocolVersion;
    this.era = init.era;
    this.client = init.client ?? { info: init.clientInfo, capabilities: init.clientCapabilities };
    this.session = init.session;
    this.auth = init.auth;
    this.#logLevel = init.logLevel === undefined ? LOG_LEVELS.length : LOG_LEVELS.indexOf(init.logLevel);
  }

  progress(progress: number, total?: number, message?: string): void {
    // Progress goes only to a caller that asked with a token, and MUST increase (2025-11-25 "Progress");
    // a cancelled request is no longer active, so it gets none.
    const progressToken = this.meta?.progressToken;
    if (!this.emit || this.#cancelled || progressToken === undefined || !(progress > this.#lastProgress)) return;
    this.#lastProgress = progress;
    const params: Record<string, unknown> = { progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.emit({ jsonrpc: "2.0", method: "notifications/progress", params });
  }

  // The asking layer loads with the first question a server's handlers ask.
  elicit(message: string, schema: Schema | JsonSchema, options?: AskOptions): Promise<ElicitResult<never>> {
    return askingLayer.use((ask) => ask.elicit(this, message, schema, options)) as Promise<ElicitResult<never>>;
  }

  elicitUrl(
    message: string,
    url: string,
    options?: AskOptions & { elicitationId?: string },
  ): Promise<{ action: "accept" | "decline" | "cancel" }> {
    return askingLayer.use((ask) => ask.elicitUrl(this, message, url, options));
  }

  confirm(message: string, options?: AskOptions): Promise<boolean> {
    return askingLayer.use((ask) => ask.confirm(this, message, options));
  }

  sample(request: SamplingRequest | string, options?: AskOptions): Promise<CreateMessageResult> {
    return askingLayer.use((ask) => ask.sample(this, request, options));
  }

  roots(options?: AskOptions): Promise<Root[]> {
    return askingLayer.use((ask) => ask.roots(this, options));
  }

  closeStream(): boolean {
    return this.streamCloser?.() ?? false;
  }

  get log(): Logger {
    this.#logger ??= Object.fromEntries(
      LOG_LEVELS.map((level, rank) => [
        level,
        (data: unknown, logger?: string) => {
          if (!this.emit || this.#cancelled || rank < this.#logLevel) return;
          const params: Record<string, unknown> = { level, data };
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
      if (this.#cancelled || this.#interrupted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** True once cancelled: the transport then sends nothing more for this request. */
  get cancelled(): boolean {
    return this.#cancelled;
  }

  cancel(reason: unknown): void {
    if (this.#cancelled || this.#interrupted) return;
    this.#cancelled = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#stop?.(reason);
  }

  /** True once the server ended the request early (handler timeout, shutdown): it is answered with an error. */
  get interrupted(): boolean {
    return this.#interrupted;
  }

  /**
   * Ends the request now: the handler's signal aborts with `reason`, and the request is answered
   * at once with an error, rather than when (if ever) the handler settles.
   */
  interrupt(reason: unknown): void {
    if (this.#cancelled || this.#interrupted) return;
    this.#interrupted = true;
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
      if (this.#cancelled || this.#interrupted) reject(this.#reason);
    });
  }

  /** Follows an outside signal (an HTTP request's, or one given to `server.call`). */
  follow(signal: AbortSignal | undefined): void {
    if (!signal) return;
    if (signal.aborted) this.cancel(signal.reason);
    else signal.addEventListener("abort", () => this.cancel(signal.reason), { once: true });
  }
}
