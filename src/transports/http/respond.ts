import type { RequestContext } from "../../context.js";
import type { Exchange } from "../../dispatch.js";
import { ErrorCode, messageOf } from "../../errors.js";
import { busy, isUnavailable } from "../../limits.js";
import { errorResponse, type JsonRpcMessage, type JsonRpcResponse } from "../../protocol/jsonrpc.js";
import { emptyReply, type HttpReply, jsonReply, SSE_HEADERS } from "./reply.js";
import { SseChannel, type Streams, sseEvent } from "./sse.js";

/** What the client's `Accept` header lets the server answer with. */
export interface Accepts {
  json: boolean;
  sse: boolean;
}

/** The writing end of the SSE stream of one request. */
export interface ResponseStream {
  readonly channel: SseChannel;
  send(message: JsonRpcMessage): void;
  detach?(): void;
  end(): void;
}

export interface RespondOptions {
  accepts: Accepts;
  /** Cancels the request; a transport aborts it when the client goes away. */
  signal: AbortSignal | undefined;
  /** Opens the stream when the handler first emits something (a session stream keeps event ids). */
  open?: (onCancel: () => void) => ResponseStream;
  headers?: Record<string, string>;
  /** The endpoint's SSE streams: at `limits.maxSseStreams` a reply is plain JSON, without mid-call notifications. */
  streams?: Streams;
}

/**
 * Answers one request over HTTP. The reply is plain JSON unless the handler emits a notification
 * before its result; only then does it become an SSE stream (2026-07-28 §5.2: JSON or SSE, the
 * client handles both). A client that accepts only JSON gets no mid-call notifications.
 */
export function respond(
  run: (exchange: Exchange) => Promise<JsonRpcResponse | undefined>,
  options: RespondOptions,
): Promise<HttpReply> {
  const { headers, streams } = options;
  let { accepts } = options;
  if (accepts.sse && streams?.full) {
    // No stream can open: a client that takes JSON gets its result without notifications, another waits.
    if (!accepts.json) return Promise.resolve(unavailable(tooManyStreams(streams), headers));
    accepts = { json: true, sse: false };
  }
  return new Promise((resolve) => {
    let stream: ResponseStream | undefined;
    let running: RequestContext | undefined;
    const start = () => {
      // A plain stream dropped for a reader too far behind is a reader gone: the request is cancelled.
      stream = options.open
        ? options.open(() => {})
        : plainStream(streams, () =>
            running?.cancel(new DOMException("The client stopped reading the stream", "AbortError")),
          );
      resolve({ status: 200, headers: headers ? { ...SSE_HEADERS, ...headers } : SSE_HEADERS, stream: stream.channel });
      return stream;
    };
    const exchange: Exchange = { signal: options.signal, started: (ctx) => (running = ctx) };
    if (accepts.sse) {
      // Nothing more is sent for a request once the client has cancelled it (2026-07-28 §5.2 "Cancellation").
      exchange.emit = (message) => options.signal?.aborted || (stream ?? start()).send(message);
      if (options.open) exchange.closeStream = () => (stream ?? start()).detach?.();
    }
    run(exchange).then(
      (response) => {
        // The reply must be a type the client accepts: an SSE-only client gets even a lone result as a stream.
        if (!stream && response && !accepts.json && statusOf(response) === 200 && !isUnavailable(response)) start();
        if (stream) {
          if (response) stream.send(response);
          stream.end();
        } else if (response) {
          resolve(
            isUnavailable(response) ? unavailable(response, headers) : jsonReply(statusOf(response), response, headers),
          );
        } else {
          // Cancelled: no response may be sent for it; the exchange just ends.
          resolve(emptyReply(202, headers));
        }
      },
      (thrown) => {
        const error = errorResponse(undefined, ErrorCode.InternalError, `Internal error: ${messageOf(thrown)}`);
        if (stream) stream.end();
        else resolve(jsonReply(500, error, headers));
      },
    );
  });
}

/** A missing client capability is a 400 wherever it arises (2026-07-28 §5.2); other handler errors travel in-band. */
function statusOf(response: JsonRpcResponse): number {
  return response.error?.code === ErrorCode.MissingRequiredClientCapability ? 400 : 200;
}

/** 503 with Retry-After: a busy or closing server, for load balancers and clients to try again. */
export function unavailable(response: JsonRpcResponse, headers?: Record<string, string>): HttpReply {
  return jsonReply(503, response, { ...headers, "retry-after": "1" });
}

export function tooManyStreams(streams: Streams, id?: JsonRpcResponse["id"]): JsonRpcResponse {
  return busy(id, "maxSseStreams", streams.max, "too many event streams are open");
}

function plainStream(streams: Streams | undefined, onDrop: () => void): ResponseStream {
  const channel = new SseChannel(onDrop, streams);
  return { channel, send: (message) => channel.write(sseEvent(message)), end: () => channel.close() };
}

/** Reads `Accept`; a missing header or a wildcard accepts both forms. */
export function accepts(header: string | null): Accepts {
  if (header === null) return { json: true, sse: true };
  const value = header.toLowerCase();
  const any = value.includes("*/*");
  return { json: any || value.includes("application/json"), sse: any || value.includes("text/event-stream") };
}
