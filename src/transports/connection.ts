import type { Asker, ConnectionQuestions } from "../asking/carried.js";
import type { ExchangeAuth } from "../core/caller.js";
import { askingLayer, type RequestContext } from "../core/context.js";
import type { Answer, Dispatcher, Exchange, Inflight } from "../core/dispatch.js";
import { classify, type JsonRpcMessage, type JsonRpcResponse, type RequestId } from "../core/jsonrpc.js";
import type { RegistryEvent } from "../core/registry.js";
import type { InputRequest } from "../core/types.js";
import type { Holder, Peer, Session } from "../sessions/peer.js";

/** The capability of each list whose change a legacy session may be told of (2025-11-25 "listChanged"). */
const LISTS = {
  "tools/list_changed": "tools",
  "prompts/list_changed": "prompts",
  "resources/list_changed": "resources",
} as const;

/**
 * Where a connection's messages go: the transport under it. An object, not a function, so that an HTTP
 * session is its own (HttpSession.deliver) and an idle one keeps no closure of it (96 B of heap each).
 */
export interface Transport {
  /**
   * Hands a message to the transport now: what `send` calls once nothing held comes before it.
   * `request`: the request a response answers, as read (stdio writes it after that request's progress).
   */
  deliver(message: JsonRpcMessage | JsonRpcMessage[], request?: unknown): void;
  /**
   * The caller every request of the connection comes from, where the transport has one (stdio: an
   * identity from the environment). An HTTP session has none: each request comes with its POST's.
   */
  readonly auth?: ExchangeAuth | undefined;
  /**
   * A request of the connection that was in flight is over (answered, failed or cancelled): an HTTP
   * session counts its idleness from then, not from when the request came (HttpSession.requestDone).
   */
  requestDone?(): void;
}

/**
 * An empty map of requests in flight, left by the connection whose last request ended, for the next
 * connection whose request waits (`Connection.set`): no idle connection keeps one, and a client that
 * awaits each call before the next makes no map per call.
 */
let spare: Map<RequestId, RequestContext> | undefined;

/**
 * One client connection that carries many messages: a stdio pipe, or a legacy HTTP session.
 * It owns the legacy session (if any), the requests in flight, and the server-initiated
 * notifications of that session. An idle connection holds little: its map of requests in flight is
 * kept only while one is, and its questions to the client and their code are made on first use.
 * It is its requests' Inflight and Asker itself, so that none of its requests makes an object or a
 * closure that it keeps (an idle session that had served requests kept 280 B more than one that had not).
 */
export class Connection implements Peer, Inflight, Asker {
  session: Session | undefined;
  readonly dispatcher: Dispatcher;
  readonly #transport: Transport;
  readonly #unsubscribe: (() => void) | undefined;
  /** The requests in flight, by id: made by the first that waits, dropped once none does (`set`, `delete`). */
  #inflight: Map<RequestId, RequestContext> | undefined;
  #exchange: Exchange | undefined;
  /** The server's own requests to the client (legacy elicitation, sampling, roots), made by the first one. */
  #questions: ConnectionQuestions | undefined;
  /** What is held back behind read checks, in order (`#tell`): made by the first check that waits (`notify`). */
  #held: Holder | undefined;

  /**
   * `routed`: the owner hands registry events to `notify` itself (an HTTP session store does it
   * for all its sessions with one subscription); otherwise the connection subscribes on its own.
   */
  constructor(dispatcher: Dispatcher, transport: Transport, routed = false) {
    this.dispatcher = dispatcher;
    this.#transport = transport;
    if (!routed) this.#unsubscribe = dispatcher.registry.subscribe((event) => this.notify(event));
  }

  // Inflight: the dispatcher's bookkeeping of this connection's requests (core/dispatch.ts), which the
  // limits count and cancellations look in. Reading it makes no map.

  /** How many of its requests are in flight. */
  get size(): number {
    return this.#inflight?.size ?? 0;
  }

  has(id: RequestId): boolean {
    return this.#inflight?.has(id) ?? false;
  }

  get(id: RequestId): RequestContext | undefined {
    return this.#inflight?.get(id);
  }

  /** A request whose handler answers later is in flight (the dispatcher's `#run`). */
  set(id: RequestId, ctx: RequestContext): void {
    if (!this.#inflight) {
      this.#inflight = spare ?? new Map();
      spare = undefined;
    }
    this.#inflight.set(id, ctx);
  }

  /** A request is over, or cancelled; the last one leaves the map for the next connection that needs one. */
  delete(id: RequestId): boolean {
    const inflight = this.#inflight;
    if (!inflight?.delete(id)) return false;
    if (inflight.size === 0) {
      this.#inflight = undefined;
      spare = inflight;
    }
    this.#transport.requestDone?.();
    return true;
  }

  /** The ids of the requests in flight, read at once (the map goes to another connection once it empties). */
  running(): Iterable<RequestId> {
    return this.#inflight?.keys() ?? [];
  }

  /**
   * Tells the client about a registry change. Unsolicited notifications belong to legacy sessions
   * only (modern clients use subscriptions/listen), and nothing but logging goes out before
   * notifications/initialized (2025-11-25 "Lifecycle").
   */
  notify(event: RegistryEvent): void {
    const session = this.session;
    if (!session?.initialized || event.type === "closed") return;
    const method = `notifications/${event.type}`;
    if (event.type !== "resources/updated") {
      // Only for the lists its initialize advertised with listChanged (sessions/peer.ts's `Session.advertised`).
      const advertised = session.advertised;
      if (!advertised || advertised[LISTS[event.type]]?.listChanged) this.send({ jsonrpc: "2.0", method });
    } else if (session.subscriptions?.watches(event.uri)) {
      const check = session.readCheck;
      const allowed = check?.allows(event.uri) ?? true;
      if (check && allowed instanceof Promise)
        this.#held ??= check.hold(
          (message, request) => this.#transport.deliver(message, request),
          this.dispatcher.limits.maxSseBufferBytes,
        );
      this.#tell({ jsonrpc: "2.0", method, params: { uri: event.uri } }, allowed);
    }
  }

  /**
   * Sends a message to the client: a response, a request's log or progress, a question, a change
   * notification. A stdio pipe or a session's GET stream is one stream, read in order: what is sent
   * after an update whose read check still waits goes out after that update (see `#tell`), and then
   * the promise resolves once it has gone. `request`: the request a response answers, as read (`Transport.deliver`).
   */
  send(message: JsonRpcMessage | JsonRpcMessage[], request?: unknown): Promise<void> | undefined {
    return this.#tell(message, true, request);
  }

  /**
   * Sends `message` if `allowed`, after every message held before it: now (undefined) when nothing
   * is held and `allowed` is known, otherwise once it has gone (the promise resolves). A check that
   * waits (its code loading on first use, an asynchronous `allow`) holds back whatever is sent after
   * it, of every kind: the spec asks no order across kinds, but the client reads a stream in the order
   * it was written (see HeldMessages, which also bounds what is held: no check waited for longer than
   * 10 s, no more than `limits.maxSseBufferBytes` of notifications). Nothing waits past the
   * connection's close (`close`).
   */
  #tell(
    message: JsonRpcMessage | JsonRpcMessage[],
    allowed: boolean | Promise<boolean>,
    request?: unknown,
  ): Promise<void> | undefined {
    if (this.#held) return this.#held.send(message, allowed, request);
    // A check that waits made the holder (`notify`): only a read check's answer can be a promise.
    if (allowed === true) this.#transport.deliver(message, request);
    return undefined;
  }

  /** How many messages wait behind a read check (`#tell`): stdio reads no more requests past a connection's worth. */
  get holding(): number {
    return this.#held?.length ?? 0;
  }

  /** Resolves once the messages held now have gone or been dropped (see `#tell`); undefined when none is held. */
  sent(): Promise<void> | undefined {
    return this.#held?.sent();
  }

  /** How this connection's requests travel: the same for all of them, made once (a stdio pipe's, an HTTP batch's without a caller). */
  get #requestExchange(): Exchange {
    this.#exchange ??= { inflight: this, emit: (message) => this.send(message), ask: this, auth: this.#transport.auth };
    return this.#exchange;
  }

  /**
   * Handles one parsed JSON value, a message or a batch, and sends its answer if it has one: at once
   * when the answer is ready (most tool calls) and nothing is held (`#tell`), otherwise when it can
   * be, and then the promise resolves.
   */
  receive(value: unknown): Promise<void> | undefined {
    // A batch (2025-03-26 only) loads its code, which a server whose clients never batch never needs.
    if (Array.isArray(value)) return import("./batch.js").then((batch) => batch.receiveBatch(this, value));
    const answer = this.answer(value);
    if (answer instanceof Promise) return answer.then((response) => response && this.send(response, value));
    return answer ? this.send(answer, value) : undefined;
  }

  /**
   * The answer to one message, or undefined for notifications, responses and cancelled requests.
   * `exchange`: how a request travels, where it is not the connection's (an HTTP batch: its POST's caller).
   */
  answer(value: unknown, exchange: Exchange = this.#requestExchange): Answer {
    const inbound = classify(value);
    switch (inbound.kind) {
      case "request":
        return this.dispatcher.answer(inbound.message, this, exchange);
      case "notification":
        this.dispatcher.notification(inbound.message, this, this);
        return undefined;
      case "invalid":
        return inbound.error;
      case "response":
        this.settle(inbound.message);
        return undefined;
    }
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
    via: (message: JsonRpcMessage) => void = (message) => this.send(message),
  ): Promise<unknown> {
    return askingLayer.use((code) => {
      this.#questions ??= new code.Questions(this);
      return this.#questions.ask(request, signal, via);
    });
  }

  /** Routes the client's answer to the request of ours that awaits it; unknown ids are ignored. */
  settle(response: JsonRpcResponse): void {
    this.#questions?.settle(response);
  }

  /** The ids of this connection's requests to its client that await an answer. */
  asked(): RequestId[] {
    return this.#questions?.asked() ?? [];
  }

  /** Cancels the streams of this connection (`subscriptions/listen`): nothing more is sent on them. */
  endStreams(reason: unknown): void {
    // A server shutting down ends them itself, with their final result (2026-07-28 §4: SHOULD, before closing).
    if (!this.dispatcher.closing)
      for (const ctx of this.#requests()) if (this.dispatcher.streams.has(ctx)) ctx.cancel(reason);
  }

  /** Ends every request in progress now, each answered with an error (handler timeout, shutdown). */
  interrupt(reason: unknown): void {
    for (const ctx of this.#requests()) ctx.interrupt(reason);
  }

  /**
   * Stops list_changed delivery and cancels what is still running. What is held behind a read check
   * that has not answered goes now (responses, logs), and the updates whose checks still wait are
   * dropped: the connection's end does not wait for them (stdio's shutdown waits for them first,
   * within its bound).
   */
  close(reason = "The connection closed"): void {
    // Its tasks' holds go with it (tasks/holds.ts): the server's Tasks would keep them until their TTLs.
    this.session?.tasks?.end();
    this.#held?.release(true);
    this.#unsubscribe?.();
    this.#questions?.close(reason);
    for (const ctx of this.#requests()) ctx.cancel(new DOMException(reason, "AbortError"));
  }

  /** The requests in progress, a copy: the map goes to another connection once the last of them ends (`delete`). */
  #requests(): RequestContext[] {
    return [...(this.#inflight?.values() ?? [])];
  }
}
