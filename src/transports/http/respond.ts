import type { ExchangeAuth } from "../../core/caller.js";
import type { RequestContext } from "../../core/context.js";
import type { Answer, Exchange, Inflight } from "../../core/dispatch.js";
import { ErrorCode, messageOf } from "../../core/errors.js";
import { errorResponse, type JsonRpcMessage, type JsonRpcResponse, type RequestId } from "../../core/jsonrpc.js";
import { busy, isUnavailable } from "../../core/refusal.js";
import type { Accepts } from "./accept.js";
import { emptyReply, type HttpReply, type HttpRequest, jsonReply, sseReply, type Watcher } from "./reply.js";
import { type ChunkKind, SseChannel, type SseChannelOptions, type SseStream, type Streams, sseEvent } from "./sse.js";

/** The writing end of the SSE stream of one request. */
export interface ResponseStream {
  readonly channel: SseStream;
  send(message: JsonRpcMessage): void;
  /** Closes the connection but keeps the stream resumable; false where the client could not resume it. */
  detach?(): boolean;
  end(): void;
}

/** Where a legacy session's replies stream: resumable streams that keep event ids. */
export interface StreamOpener {
  /** `request`: the request the stream answers, whose answer another instance gives if this one crashes (docs/scaling.md). */
  openStream(request?: RequestId): ResponseStream;
  /** The session ended (DELETE, eviction): its requests in progress were cancelled with it. */
  readonly ended: boolean;
  /** Its requests in flight, and its way back to the client for questions. */
  readonly connection: Inflight & NonNullable<Exchange["ask"]>;
  /** The headers of its replies (its id). */
  readonly headers: Record<string, string>;
}

/**
 * The reply to one request over HTTP, in the making. The reply is plain JSON unless the handler
 * emits a notification before its result; only then does it become an SSE stream (2026-07-28 §5.2:
 * JSON or SSE, the client handles both). A client that accepts only JSON gets no mid-call
 * notifications. Its state lives in one object, which is the request's exchange too: its steps are
 * methods, and the one callback that travels on its own (`emit`, which a context hands out) is made
 * only where the request can use it: an object and a closure for every step of every request were a
 * measurable share of what a small call allocates.
 */
export class Reply implements Watcher, Exchange {
  /** The HTTP request: a client that goes away cancels it (see `HttpRequest.watch`). */
  readonly #request: HttpRequest;
  #accepts: Accepts;
  /** The endpoint's SSE streams: at `limits.maxSseStreams` a reply is plain JSON, without mid-call notifications. */
  readonly #streams: Streams;
  /**
   * A legacy session: its stream opens when the handler first emits something, and once it is open
   * a dropped connection no longer cancels the request, which the client can resume. Its requests in
   * flight and way back start the request's exchange, with the caller (`request.auth`).
   */
  session: StreamOpener | undefined;
  /**
   * A listen's final result, sent when its caller's token expired (`#expired`). Without it, a plain
   * stream does not end at its token's expiry: it carries one request's answer.
   */
  expired: ((id: RequestId) => JsonRpcResponse) | undefined;
  #stream: ResponseStream | undefined;
  #running: RequestContext | undefined;
  /** Whether the client went away while its request could still be cancelled. */
  #dropped = false;
  /** The reply, once known; and who waits for it when it was not known by the time `run` returned. */
  #settled: HttpReply | undefined;
  #waiting: ((reply: HttpReply) => void) | undefined;
  /**
   * Sends a notification of the request on its stream. Nothing more is sent for a request once the
   * client has cancelled it (2026-07-28 §5.2 "Cancellation"). Set in the constructor, none later: V8
   * may allocate this object straight in the old generation, and a young closure stored into it
   * afterwards kept each request's objects alive through collections (measured: ~5 KB promoted per
   * call, a fifth of the CPU spent in GC).
   */
  readonly emit: ((message: JsonRpcMessage) => void) | undefined;

  constructor(request: HttpRequest, accepts: Accepts, streams: Streams) {
    this.#request = request;
    this.#streams = streams;
    // No stream can open: a client that takes JSON gets its result without notifications (another
    // waits, see `answer`).
    this.#accepts = accepts.sse && accepts.json && streams.full ? { json: true, sse: false } : accepts;
    this.emit = this.#accepts.sse ? (message) => this.#dropped || this.#streamed(message) : undefined;
  }

  /**
   * Answers the request `run` runs. A request the dispatcher answers synchronously (most tool calls)
   * is replied to synchronously: no promise, no turn of the microtask queue, which over a fast
   * loopback is a measurable share of a call.
   */
  answer(run: (exchange: Exchange) => Answer): HttpReply | Promise<HttpReply> {
    const streams = this.#streams;
    // No stream can open, and the client takes nothing else: it waits (503).
    if (this.#accepts.sse && streams.full) return unavailable(tooManyStreams(streams), this.session?.headers);
    let answer: Answer;
    try {
      answer = run(this);
    } catch (thrown) {
      this.#failed(thrown);
      return this.#settled!;
    }
    if (answer instanceof Promise) {
      answer.then(
        (response) => this.#answered(response),
        (thrown: unknown) => this.#failed(thrown),
      );
    } else this.#answered(answer);
    return this.#settled ?? new Promise((resolve) => (this.#waiting = resolve));
  }

  /** The caller (`Exchange.auth`). */
  get auth(): ExchangeAuth | undefined {
    return this.#request.auth;
  }

  /**
   * A session's requests in flight (`Exchange.inflight`). Questions travel on this request's stream
   * (2025-11-25 §"Sending Messages to the Server": SHOULD), or on the GET stream for a client that
   * accepts no stream here (`Exchange.ask`).
   */
  get inflight(): StreamOpener["connection"] | undefined {
    return this.session?.connection;
  }

  get ask(): StreamOpener["connection"] | undefined {
    return this.session?.connection;
  }

  /** The request runs (`Exchange.started`): from now on its client going away cancels it. */
  started(ctx: RequestContext): void {
    this.#running = ctx;
    this.#request.watch(this);
  }

  /** Closes a session's stream but keeps it resumable (`Via.closeStream`); false where there is none to close. */
  closeStream(): boolean {
    return this.#accepts.sse && this.session ? ((this.#stream ?? this.#start()).detach?.() ?? false) : false;
  }

  /** The client went away (see `HttpRequest.watch`). */
  cancel(reason: unknown): void {
    this.#dropped = true;
    this.#running?.cancel(reason);
  }

  /** The runtime asks for the reply as a stream (see `Watcher.stream`): a plain one, which its connection dropping cancels. */
  stream(): void {
    if (!this.#settled && this.#accepts.sse) this.#start(true);
  }

  #answered(response: JsonRpcResponse | undefined): void {
    const accepts = this.#accepts;
    const session = this.session;
    const headers = session?.headers;
    // Cancelled by the end of its session, not by its client, who waits for it: an answer that says
    // why, where none would leave the client resuming a stream whose session answers 404.
    if (!response && session?.ended && !this.#dropped) response = sessionEnded(this.#running?.requestId);
    // The reply must be a type the client accepts: an SSE-only client gets even a lone result as a stream.
    if (!this.#stream && response && !accepts.json && statusOf(response) === 200 && !isUnavailable(response)) {
      this.#start();
    }
    const stream = this.#stream;
    if (stream) {
      if (response) this.#streamed(response);
      stream.end();
    } else if (response) {
      this.#settle(
        isUnavailable(response) ? unavailable(response, headers) : jsonReply(statusOf(response), response, headers),
      );
    } else if (accepts.sse && !this.#dropped) {
      // Cancelled while the client waits: no response is sent for it (2025-11-25 "Cancellation"),
      // but a POST carrying a request is answered with an event stream or JSON (§"Sending Messages
      // to the Server"): an empty stream ends the exchange. A plain one, with no event id, so the
      // client does not come back to resume it.
      this.#start(true).end();
    } else {
      // The client went away (nobody reads this), or takes only JSON and so cannot be sent nothing.
      this.#settle(emptyReply(202, headers));
    }
  }

  #failed(thrown: unknown): void {
    const error = errorResponse(undefined, ErrorCode.InternalError, `Internal error: ${messageOf(thrown)}`);
    if (this.#stream) this.#stream.end();
    else this.#settle(jsonReply(500, error, this.session?.headers));
  }

  /**
   * Sends a message of this request on its stream, without the raw bearer token (auth/gate.ts cuts
   * it out of a JSON body; a stream's events are cut as they are written, before a session keeps them).
   */
  #streamed(message: JsonRpcMessage): void {
    const redact = this.#request.auth?.redact;
    (this.#stream ?? this.#start()).send(redact ? redact(message) : message);
  }

  #start(plain = false): ResponseStream {
    const session = this.session;
    let stream: ResponseStream;
    if (session && !plain) {
      // The session's stream is resumable: from now on a dropped connection does not cancel the request.
      this.#request.watch(undefined);
      stream = session.openStream(this.#running?.requestId);
    } else {
      // A plain stream dropped for a reader too far behind is a reader gone: the request is cancelled.
      const expired = this.expired;
      stream = plainStream({
        streams: this.#streams,
        onCancel: () => this.#running?.cancel(stoppedReading()),
        // A listen ends with its token; a request's own stream goes on: it was admitted with a token
        // then valid, and its answer is the work it asked for, which a plain stream cannot resume.
        onExpire: expired && (() => this.#expired()),
        // A request's own stream (not a listen's, whose updates a client must not miss) lets its logs and
        // progress go for a reader too far behind, rather than lose its answer with the stream.
        sheds: !expired,
      });
    }
    this.#stream = stream;
    this.#settle(sseReply(stream.channel, session?.headers));
    return stream;
  }

  /**
   * The access token a listen came with expired while its stream was open (auth/expiries.ts; a
   * session's stream ends its connection instead, and the client resumes it with a fresh token):
   * no more notifications go to a caller whose access ended. The listen ends with its final result,
   * which ends a subscription (2026-07-28 "Subscriptions": the client listens again).
   */
  #expired(): void {
    const stream = this.#stream;
    const ctx = this.#running;
    if (!stream || this.#dropped) return;
    this.#dropped = true;
    ctx?.cancel(new DOMException("The access token expired", "AbortError"));
    const id = ctx?.requestId;
    if (id !== undefined && this.expired) stream.send(this.expired(id));
    stream.end();
  }

  #settle(reply: HttpReply): void {
    if (this.#settled) return;
    this.#settled = reply;
    this.#waiting?.(reply);
  }
}

/** The answer to a request of a session that ended while it ran (also given by remote-reader.ts, through shared.ts). */
export function sessionEnded(id: JsonRpcResponse["id"]): JsonRpcResponse {
  return errorResponse(
    id,
    ErrorCode.InvalidRequest,
    "Session ended: the session was closed (deleted, or evicted for a newer one) while this request was in progress, and the request was cancelled; send initialize to start a new session, then send the request again",
  );
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
  return busy(id, "too many event streams are open", { limit: "maxSseStreams", max: streams.max });
}

/** Why a request is cancelled when the reader of its plain stream goes away (or is dropped, too far behind). */
export function stoppedReading(): DOMException {
  return new DOMException("The client stopped reading the stream", "AbortError");
}

/** A stream no client can resume (no event ids): its reader going away is the client leaving. */
export function plainStream(options: SseChannelOptions): ResponseStream {
  const channel = new SseChannel(options);
  const send = (message: JsonRpcMessage) => {
    const event = sseEvent(message);
    if (event !== undefined) channel.write(event, kindOf(message));
  };
  return { channel, send, end: () => channel.close() };
}

/** What a message is to a stream that sheds: its logs and progress may be let go, its answer never. */
function kindOf(message: JsonRpcMessage): ChunkKind {
  if (!("method" in message)) return "answer";
  const { method } = message;
  return method === "notifications/message" || method === "notifications/progress" ? "notice" : undefined;
}
