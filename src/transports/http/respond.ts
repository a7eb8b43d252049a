import type { Exchange } from "../../dispatch.js";
import { ErrorCode } from "../../errors.js";
import { errorResponse, type JsonRpcMessage, type JsonRpcResponse } from "../../protocol/jsonrpc.js";
import { emptyReply, type HttpReply, jsonReply, SSE_HEADERS } from "./reply.js";
import { SseChannel, sseEvent } from "./sse.js";

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
  return new Promise((resolve) => {
    const { accepts, headers } = options;
    let stream: ResponseStream | undefined;
    const start = () => {
      stream = options.open ? options.open(() => {}) : plainStream();
      resolve({ status: 200, headers: headers ? { ...SSE_HEADERS, ...headers } : SSE_HEADERS, stream: stream.channel });
      return stream;
    };
    const exchange: Exchange = { signal: options.signal };
    if (accepts.sse) {
      // Nothing more is sent for a request once the client has cancelled it (2026-07-28 §5.2 "Cancellation").
      exchange.emit = (message) => options.signal?.aborted || (stream ?? start()).send(message);
      if (options.open) exchange.closeStream = () => (stream ?? start()).detach?.();
    }
    run(exchange).then(
      (response) => {
        // The reply must be a type the client accepts: an SSE-only client gets even a lone result as a stream.
        if (!stream && response && !accepts.json && statusOf(response) === 200) start();
        if (stream) {
          if (response) stream.send(response);
          stream.end();
        } else if (response) {
          resolve(jsonReply(statusOf(response), response, headers));
        } else {
          // Cancelled: no response may be sent for it; the exchange just ends.
          resolve(emptyReply(202, headers));
        }
      },
      (thrown) => {
        const error = errorResponse(undefined, ErrorCode.InternalError, `Internal error: ${String(thrown)}`);
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

function plainStream(): ResponseStream {
  const channel = new SseChannel();
  return { channel, send: (message) => channel.write(sseEvent(message)), end: () => channel.close() };
}

/** Reads `Accept`; a missing header or a wildcard accepts both forms. */
export function accepts(header: string | null): Accepts {
  if (header === null) return { json: true, sse: true };
  const value = header.toLowerCase();
  const any = value.includes("*/*");
  return { json: any || value.includes("application/json"), sse: any || value.includes("text/event-stream") };
}
