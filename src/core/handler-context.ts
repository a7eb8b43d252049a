/**
 * The context a handler receives (`ctx`), as a type: what resources, prompts and sessions name
 * without depending on the request context's code (context.ts's RequestContext, which loads the
 * asking code on first use), so that they stay out of its import cycle (issue 14).
 */
import type { Identity } from "./caller.js";
import type { LogLevel } from "./envelope.js";
import type { RequestId } from "./jsonrpc.js";
import type { JsonSchema, Schema, StandardSchemaV1 } from "./schema.js";
import type {
  ClientCapabilities,
  CreateMessageResult,
  ElicitResult,
  Implementation,
  Meta,
  Root,
  SamplingRequest,
} from "./types.js";

/** Which protocol family a request came in on; `local` is an in-process `server.call`. */
export type Era = "modern" | "legacy" | "local";

/** What every handler receives as its second argument, the same in both protocol eras. */
export interface Context {
  /** Aborts when the client cancels the request (or drops its HTTP connection). Pass it on to fetch and friends. */
  readonly signal: AbortSignal;
  /** The request's `_meta`, as the client sent it. */
  readonly meta: Meta | undefined;
  /** The JSON-RPC id of the request; undefined for in-process calls. */
  readonly requestId: RequestId | undefined;
  /** The protocol revision this request is served under. */
  readonly protocolVersion: string;
  readonly era: Era;
  /** The client's self-description and declared capabilities (per request in 2026-07-28, per session before). */
  readonly client: { readonly info: Implementation | undefined; readonly capabilities: ClientCapabilities };
  /**
   * The verified caller: from the request's bearer token over HTTP, the `auth.stdio` hook over stdio,
   * or `server.call`'s `auth` option. Undefined for anonymous callers. It never holds the raw token.
   */
  readonly auth: Identity | undefined;
  /**
   * Reports progress to the caller, if it asked for it with a progress token; a no-op otherwise.
   * Values must increase: one that does not is dropped. Nothing is sent once the request is answered.
   */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * Log messages for the client (`notifications/message`), at or above the level the client chose:
   * `logging/setLevel` for 2025 sessions (info until then), the request's `_meta` log level in
   * 2026-07-28 (none without one). Never put secrets or personal data in them.
   */
  readonly log: Logger;
  /**
   * Asks the user for values (form-mode elicitation). The accepted content is validated with the
   * schema and typed from it. The handler re-runs from the top once the answer arrives, in both
   * eras: keep side effects after the questions.
   */
  elicit<S extends Schema>(
    message: string,
    schema: S,
    options?: AskOptions,
  ): Promise<ElicitResult<StandardSchemaV1.InferOutput<S>>>;
  elicit(message: string, schema: JsonSchema, options?: AskOptions): Promise<ElicitResult<Record<string, unknown>>>;
  /** Sends the user to a URL (sign-in, payment) out of band (URL-mode elicitation). */
  elicitUrl(
    message: string,
    url: string,
    options?: AskOptions & { elicitationId?: string },
  ): Promise<{ action: "accept" | "decline" | "cancel" }>;
  /**
   * Asks the user to confirm a consequential action: true only if they accepted and confirmed.
   * Always asked, never taken up front (no `upFront`): the user must see it.
   */
  confirm(message: string, options?: Pick<AskOptions, "key">): Promise<boolean>;
  /** Asks the client's model for a completion (sampling). */
  sample(request: SamplingRequest | string, options?: AskOptions): Promise<CreateMessageResult>;
  /** The client's workspace roots. */
  roots(options?: AskOptions): Promise<Root[]>;
  /**
   * Ends the SSE stream carrying this request's response while the request keeps running: the
   * client reconnects after the stream's `retry` delay with `Last-Event-ID` and receives the rest,
   * the result included (2025-11-25 "Resumability and Redelivery", SEP-1699 polling). For long calls
   * behind proxies that cut idle connections. True if the stream was closed; false, doing nothing,
   * where the response has no resumable stream (stdio, 2026-07-28 requests, stateless HTTP, sessions
   * older than 2025-11-25, a client that accepts only JSON).
   */
  closeStream(): boolean;
}

/** One method per syslog severity (RFC 5424), as MCP logging uses them. */
export type Logger = { readonly [Level in LogLevel]: (data: unknown, logger?: string) => void };

export interface AskOptions {
  /** Names the question; answers are matched by key across rounds. Default: its kind and call order. */
  key?: string;
  /**
   * Takes an answer the client sent before being asked: a 2026-07-28 request's `inputResponses`
   * under this question's key, without the `requestState` of a round that asked it, saves the
   * round trip. Default false: such answers are ignored and the question is asked, so that a client
   * cannot skip a question (a confirmation) by answering it up front. Give the question a `key`
   * clients can know. 2025 sessions always ask.
   */
  upFront?: boolean;
}
