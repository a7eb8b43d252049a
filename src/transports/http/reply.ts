import type { ExchangeAuth } from "../../auth/settings.js";
import type { Cancellable } from "../../context.js";
import { type JsonRpcResponse, serialize } from "../../protocol/jsonrpc.js";
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
  /** The body as text, at most `limit` bytes; rejects with BodyTooLarge beyond that. */
  text(limit: number): Promise<string>;
  /**
   * Has `target.cancel(reason)` called when the client goes away before its reply is done (at once
   * if it already has); undefined stops that. One target at a time. This costs a runtime nothing
   * until it is called, unlike an AbortSignal per request.
   */
  watch(target: Cancellable | undefined): void;
}

export class BodyTooLarge extends Error {
  override name = "BodyTooLarge";
}

const JSON_HEADERS = { "content-type": "application/json" };

export function jsonReply(
  status: number,
  message: JsonRpcResponse | JsonRpcResponse[],
  headers?: Record<string, string>,
): HttpReply {
  return { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS, body: serialize(message) };
}

export function emptyReply(status: number, headers: Record<string, string> = {}): HttpReply {
  return { status, headers };
}

export const SSE_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  // Stops reverse proxies from buffering the stream (2026-07-28 §5.2).
  "x-accel-buffering": "no",
};
