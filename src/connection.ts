import type { InputRequest } from "./ask.js";
import type { ExchangeAuth } from "./auth/settings.js";
import type { Dispatcher, Exchange, Inflight, Peer } from "./dispatch.js";
import { ErrorCode } from "./errors.js";
import type { Session } from "./legacy/session.js";
import { claimsModern } from "./protocol/envelope.js";
import {
  classify,
  errorResponse,
  isObject,
  isRequestId,
  type JsonRpcMessage,
  type JsonRpcResponse,
  type RequestId,
} from "./protocol/jsonrpc.js";
import { BATCH_VERSION } from "./protocol/versions.js";

export type Send = (message: JsonRpcMessage | JsonRpcMessage[]) => void;

/**
 * One client connection that carries many messages: a stdio pipe, or a legacy HTTP session.
 * It owns the legacy session (if any), the requests in flight, and the server-initiated
 * notifications of that session.
 */
export class Connection implements Peer {
  session: Session | undefined;
  readonly inflight: Inflight = new Map();
  readonly #dispatcher: Dispatcher;
  readonly #send: Send;
  readonly #unsubscribe: () => void;
  readonly #exchange: Exchange;
  /** The server's own requests to the client (legacy elicitation, sampling, roots) awaiting an answer. */
  readonly #pending = new Map<RequestId, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  /** The URL-mode elicitations of this connection that may still be reported complete, and how. */
  readonly #elicitations = new Map<string, (message: JsonRpcMessage) => void>();
  #nextId = 0;

  constructor(dispatcher: Dispatcher, send: Send) {
    this.#dispatcher = dispatcher;
    this.#send = send;
    this.#exchange = { inflight: this.inflight, emit: send, ask: (request, signal) => this.ask(request, signal) };
    // Unsolicited notifications belong to legacy sessions only; modern clients use subscriptions/listen.
    // Nothing but logging before notifications/initialized (2025-11-25 "Lifecycle").
    this.#unsubscribe = dispatcher.registry.subscribe((event) => {
      const session = this.session;
      if (!session?.initialized || event.type === "closed") return;
      if (event.type !== "resources/updated") send({ jsonrpc: "2.0", method: `notifications/${event.type}` });
      else if (session.watches(event.uri)) {
        send({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: event.uri } });
      }
    });
  }

  /** The caller every request of this connection comes from (stdio: an identity from the environment). */
  set auth(auth: ExchangeAuth | undefined) {
    this.#exchange.auth = auth;
  }

  /** Handles one parsed JSON value, a message or a batch, and sends its answer if it has one. */
  async receive(value: unknown): Promise<void> {
    if (Array.isArray(value)) return this.#batch(value);
    const response = await this.answer(value);
    if (response) this.#send(response);
  }

  /** The answer to one message, or undefined for notifications, responses and cancelled requests. */
  answer(value: unknown): Promise<JsonRpcResponse | undefined> | JsonRpcResponse | undefined {
    const inbound = classify(value);
    switch (inbound.kind) {
      case "request":
        return this.#dispatcher.request(inbound.message, this, this.#exchange);
      case "notification":
        this.#dispatcher.notification(inbound.message, this, this.inflight);
        return undefined;
      case "invalid":
        return inbound.error;
      case "response":
        this.settle(inbound.message);
        return undefined;
    }
  }

  /** Batches exist only under 2025-03-26, and never contain initialize (2025-03-26 "Base protocol"). */
  async #batch(values: unknown[]): Promise<void> {
    if (this.session?.protocolVersion !== BATCH_VERSION || values.length === 0) {
      const why = values.length === 0 ? "an empty batch" : `batches are only allowed under protocol ${BATCH_VERSION}`;
      this.#send(
        errorResponse(undefined, ErrorCode.InvalidRequest, `Invalid Request: ${why}; send one message at a time`),
      );
      return;
    }
    const answers = await Promise.all(values.map((value) => this.answerInBatch(value)));
    const responses = answers.filter((answer) => answer !== undefined);
    if (responses.length > 0) this.#send(responses);
  }

  /**
   * One element of a 2025-03-26 batch. Neither initialize nor a 2026-07-28 message may be in one
   * (2026-07-28 has no batches): such a request gets -32600, and its id when it is readable
   * (JSON-RPC 2.0 §5); such a notification is ignored.
   */
  answerInBatch(value: unknown): Promise<JsonRpcResponse | undefined> | JsonRpcResponse | undefined {
    if (!isObject(value)) return this.answer(value);
    const modern = isObject(value.params) && claimsModern(value.params._meta);
    if (value.method !== "initialize" && !modern) return this.answer(value);
    const id = isRequestId(value.id) ? value.id : undefined;
    if (modern && id === undefined) return undefined;
    return errorResponse(
      id,
      ErrorCode.InvalidRequest,
      modern
        ? "Invalid Request: 2026-07-28 requests cannot be part of a batch; send each one on its own"
        : "Invalid Request: initialize must not be part of a batch",
    );
  }

  /**
   * Sends a request to the client and resolves with its result (2025-11-25 "Sampling",
   * "Elicitation", "Roots"), over `via` (the stream of the request that asks) or the connection.
   * It gives up after the server's ask timeout, or when `signal` aborts, and then tells the client
   * with `notifications/cancelled` (2025-11-25 "Timeouts": SHOULD).
   */
  ask(
    request: InputRequest,
    signal?: AbortSignal,
    via: (message: JsonRpcMessage) => void = this.#send,
  ): Promise<unknown> {
    const id = `picomcp-${++this.#nextId}`;
    const timeout = this.#dispatcher.registry.askTimeoutMs;
    const elicitationId = request.params?.mode === "url" ? request.params.elicitationId : undefined;
    if (typeof elicitationId === "string") this.#awaitCompletion(elicitationId);
    return new Promise((resolve, reject) => {
      const give = (why: string) => {
        if (!this.#pending.delete(id)) return;
        clearTimeout(timer);
        via({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: why } });
        reject(new Error(why));
      };
      const timer = setTimeout(
        () => give(`The client did not answer ${request.method} within ${timeout / 1000} s.`),
        timeout,
      );
      signal?.addEventListener("abort", () => give("The request that asked was cancelled."), { once: true });
      this.#pending.set(id, {
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      const message: JsonRpcMessage = { jsonrpc: "2.0", id, method: request.method };
      if (request.params) (message as { params?: unknown }).params = request.params;
      via(message);
    }).then(
      (result) => {
        // Only an accepted URL elicitation goes on out of band: nothing will complete the others.
        if (typeof elicitationId === "string" && !(isObject(result) && result.action === "accept"))
          this.#forget(elicitationId);
        return result;
      },
      (error: unknown) => {
        if (typeof elicitationId === "string") this.#forget(elicitationId);
        throw error;
      },
    );
  }

  /** Routes the client's answer to the request of ours that awaits it; unknown ids are ignored. */
  settle(response: JsonRpcResponse): void {
    const id = response.id;
    const pending = id === undefined ? undefined : this.#pending.get(id);
    if (!pending || id === undefined) return;
    this.#pending.delete(id);
    if (response.error)
      pending.reject(new Error(`The client refused: ${response.error.message} (${response.error.code})`));
    else pending.resolve(response.result);
  }

  /** Lets `server.completeElicitation(elicitationId)` reach this connection (2025-11-25 "Elicitation"). */
  #awaitCompletion(elicitationId: string): void {
    const complete = (message: JsonRpcMessage) => {
      this.#elicitations.delete(elicitationId);
      this.#send(message);
    };
    this.#elicitations.set(elicitationId, complete);
    this.#dispatcher.urlElicitations.set(elicitationId, complete);
  }

  #forget(elicitationId: string): void {
    const complete = this.#elicitations.get(elicitationId);
    this.#elicitations.delete(elicitationId);
    if (complete && this.#dispatcher.urlElicitations.get(elicitationId) === complete)
      this.#dispatcher.urlElicitations.delete(elicitationId);
  }

  /** Cancels the streams of this connection (`subscriptions/listen`): nothing more is sent on them. */
  endStreams(reason: unknown): void {
    // A server shutting down ends them itself, with their final result (2026-07-28 §4: SHOULD, before closing).
    if (this.#dispatcher.closing) return;
    for (const ctx of [...this.inflight.values()]) if (this.#dispatcher.streams.has(ctx)) ctx.cancel(reason);
  }

  /** Ends every request in progress now, each answered with an error (handler timeout, shutdown). */
  interrupt(reason: unknown): void {
    for (const ctx of [...this.inflight.values()]) ctx.interrupt(reason);
  }

  /** Stops list_changed delivery and cancels what is still running. */
  close(reason = "The connection closed"): void {
    this.#unsubscribe();
    for (const elicitationId of [...this.#elicitations.keys()]) this.#forget(elicitationId);
    for (const pending of this.#pending.values()) pending.reject(new Error(reason));
    this.#pending.clear();
    for (const ctx of this.inflight.values()) ctx.cancel(new DOMException(reason, "AbortError"));
  }
}
