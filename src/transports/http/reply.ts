import type { ExchangeAuth } from "../../core/caller.js";
import { ErrorCode } from "../../core/errors.js";
import { errorResponse, type JsonRpcResponse, serialize } from "../../core/jsonrpc.js";
import { shown } from "../../core/safe.js";
import type { SseStream } from "./sse.js";

/** What the runtime-neutral HTTP layer answers; adapters turn it into a Web Response or a Node reply. */
export type HttpReply =
  | { status: number; headers: Record<string, string>; body?: string }
  | { status: number; headers: Record<string, string>; stream: SseStream };

/** The parts of an incoming HTTP request the MCP endpoint reads. */
export interface HttpRequest {
  readonly method: string;
  /** The URL path, without the query string. */
  readonly path: string;
  /** The absolute URL, where the runtime knows it (auth reads the origin and the query). */
  readonly url?: string;
  /** Set once the bearer token was checked: who the caller is, for the core. */
  auth?: ExchangeAuth | undefined;
  header(name: string): string | null;
  /**
   * The body as text, at most `limit` bytes; rejects with BodyTooLarge beyond that. While it is read
   * it holds its bytes of `budget`; it rejects with BodiesBusy where the budget has no room for them.
   * A runtime whose listener does not bound how long a body takes (Web requests: Bun, Deno, Workers)
   * rejects with BodyRefused once it is still arriving `receiveMs` after the call. Every runtime
   * rejects with BodyRefused a body that is not UTF-8 (utf8-body.ts). Each rejects, never throws:
   * the handler answers a body it could not read in one place.
   */
  text(limit: number, budget: BodyBudget, receiveMs: number): Promise<string>;
  /**
   * Has `target.cancel(reason)` called when the client goes away before its reply is done (at once
   * if it already has); undefined stops that. One target at a time. This costs a runtime nothing
   * until it is called, unlike an AbortSignal per request. A runtime that tells of a client leaving
   * only through a streamed body (Deno, see web.ts) calls `target.stream()` instead.
   */
  watch(target: Watcher | undefined): void;
}

/** Something a transport can cancel when its client goes away (a request's context). */
export interface Cancellable {
  cancel(reason: unknown): void;
}

/** The reply in the making that `HttpRequest.watch` reports to. */
export interface Watcher extends Cancellable {
  /**
   * Makes the reply an event stream now, where the client takes one and it is not one yet; a stream
   * made so is cancelled with its connection, even in a session. Nothing otherwise.
   */
  stream(): void;
}

export class BodyTooLarge extends Error {}

/**
 * A body the runtime's adapter refused, with the answer to send: one that is not UTF-8 (utf8-body.ts),
 * or the Web one's body still arriving `limits.receiveTimeoutMs` after its headers (web.ts).
 */
export class BodyRefused extends Error {
  readonly reply: HttpReply;

  constructor(reply: HttpReply) {
    super();
    this.reply = reply;
  }
}

/** The bytes of request bodies being read at once are at `limits.maxBodyBytesInFlight`: this one is not read. */
export class BodiesBusy extends Error {}

/** The bytes of request bodies being read at once across the endpoint (`limits.maxBodyBytesInFlight`). */
export class BodyBudget {
  readonly max: number;
  #free: number;

  constructor(max: number) {
    this.max = max;
    this.#free = max;
  }

  /** The bytes not held. */
  get free(): number {
    return this.#free;
  }

  /** Holds `bytes` more; false, holding nothing, where that would pass the limit. */
  hold(bytes: number): boolean {
    if (bytes > this.#free) return false;
    this.#free -= bytes;
    return true;
  }

  release(bytes: number): void {
    this.#free += bytes;
  }
}

/**
 * What one body being read holds of the budget: the bytes of it that have arrived, until it is read
 * whole or given up (`release`). Its declared Content-Length holds nothing: a promise to send costs
 * the client nothing, so a few connections that promise bodies and send none would otherwise lock
 * every other POST out for as long as Node keeps them (requestTimeout, 300 s).
 */
export class BodyHold {
  readonly #budget: BodyBudget;
  readonly #limit: number;
  #held = 0;

  constructor(budget: BodyBudget, limit: number) {
    this.#budget = budget;
    this.#limit = limit;
  }

  /**
   * The body declares `size` bytes, before its first byte: the error that refuses it, if any. One that
   * could not fit in what is free now is refused at once, rather than once it has sent most of it.
   */
  declare(size: number): BodyTooLarge | BodiesBusy | undefined {
    if (size > this.#limit) return new BodyTooLarge();
    return size > this.#budget.free ? new BodiesBusy() : undefined;
  }

  /** The body has `size` bytes that arrived: the error that refuses it, if any. */
  reach(size: number): BodyTooLarge | BodiesBusy | undefined {
    if (size > this.#limit) return new BodyTooLarge();
    if (size <= this.#held) return undefined;
    if (!this.#budget.hold(size - this.#held)) return new BodiesBusy();
    this.#held = size;
    return undefined;
  }

  release(): void {
    this.#budget.release(this.#held);
    this.#held = 0;
  }
}

/** The headers of a JSON reply that has no others: one object for all (node-http.ts writes them out without reading it). */
export const JSON_HEADERS = { "content-type": "application/json" };

export function jsonReply(
  status: number,
  message: JsonRpcResponse | JsonRpcResponse[],
  headers?: Record<string, string>,
): HttpReply {
  return { status, headers: headers ? withJson(headers) : JSON_HEADERS, body: serialize(message) };
}

/**
 * JSON_HEADERS, then `headers`, in a new object: JSON_HEADERS spelled out as a literal, then the
 * others copied one by one, which costs half what Object.assign of the two does (two copies of
 * properties), and a spread of them ten times as much, on every reply of a session (measured, Node 20).
 */
function withJson(headers: Record<string, string>): Record<string, string> {
  const all: Record<string, string> = { "content-type": "application/json" };
  for (const name in headers) all[name] = headers[name]!;
  return all;
}

/**
 * An Invalid Request error reply to a request whose id is unknown or that has none: refused on its
 * headers (a GET, a DELETE, a Host or Origin), or a body that is not one request.
 */
export function errorReply(status: number, message: string, headers?: Record<string, string>): HttpReply {
  return jsonReply(status, errorResponse(undefined, ErrorCode.InvalidRequest, message), headers);
}

/**
 * The 404 of a resume that cannot be served (2025-11-25 "Resumability and Redelivery"): the id, which
 * the client may send at any length, is quoted cut (core/safe.ts's shown).
 */
export function noStreamToResume(lastEventId: string): HttpReply {
  return errorReply(404, `Not found: no stream to resume for Last-Event-ID "${shown(lastEventId)}"`);
}

export function emptyReply(status: number, headers: Record<string, string> = {}): HttpReply {
  return { status, headers };
}

const SSE_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  // Stops reverse proxies from buffering the stream (2026-07-28 §5.2).
  "x-accel-buffering": "no",
};

/**
 * How often an event stream sends a keep-alive comment, the official SDK's interval: a comment line,
 * which SSE readers skip (WHATWG HTML §9.2.6), keeps proxies from cutting a quiet stream (2026-07-28
 * §4 encourages them for quiet periods), and a write to a connection that died without closing
 * fails in time, which ends the stream and frees its `maxSseStreams` slot.
 */
export const KEEP_ALIVE_MS = 15_000;
export const KEEP_ALIVE = ": keep-alive\n\n";

/** A 200 whose body is an event stream; `headers` beside the SSE ones (a session's id). */
export function sseReply(stream: SseStream, headers?: Record<string, string>): HttpReply {
  // Object.assign, not a spread of two objects (see jsonReply).
  return { status: 200, headers: headers ? Object.assign({}, SSE_HEADERS, headers) : SSE_HEADERS, stream };
}
