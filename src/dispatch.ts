import { openGate } from "./auth/enforce.js";
import type { ExchangeAuth } from "./auth/settings.js";
import { RequestContext } from "./context.js";
import { ErrorCode } from "./errors.js";
import { openSession, type Session } from "./legacy/session.js";
import { busy, type Limits, type ResolvedLimits, Running, resolveLimits, seconds, shuttingDown } from "./limits.js";
import { METHODS, type Method } from "./methods.js";
import { claimsModern, readEnvelope } from "./protocol/envelope.js";
import {
  errorResponse,
  isRequestId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
  resultResponse,
  thrownResponse,
} from "./protocol/jsonrpc.js";
import { META, type Meta } from "./protocol/types.js";
import { MODERN_VERSIONS } from "./protocol/versions.js";
import type { Registry } from "./registry.js";
import { type Asker, legacyRounds, modernRounds } from "./rounds.js";
import { toolError } from "./tools.js";

/** The side of a connection the dispatcher needs: the legacy session, if a handshake made one. */
export interface Peer {
  session: Session | undefined;
}

/** Requests in flight on one connection, by id, so `notifications/cancelled` can reach them. */
export type Inflight = Map<RequestId, RequestContext>;

/** How one request travels: where its cancellation comes from and where its notifications go. */
export interface Exchange {
  /** The connection's requests in flight (stdio, legacy sessions); cancelled by id. */
  inflight?: Inflight;
  /** Aborts the request (an HTTP request's own signal). */
  signal?: AbortSignal;
  /** Sends a notification tied to this request (progress, log) before its response. */
  emit?: (message: JsonRpcMessage) => void;
  /** Closes the request's SSE stream but keeps it resumable (legacy HTTP sessions, SEP-1699 polling). */
  closeStream?: () => void;
  /** Sends a question to the client as a real request (legacy sessions); absent where there is no way back. */
  ask?: Asker;
  /** The caller's identity and, over HTTP, how to challenge it (see auth/). */
  auth?: ExchangeAuth;
  /** Told the request's context once it runs (an HTTP stream that is dropped cancels it). */
  started?: (ctx: RequestContext) => void;
}

/**
 * The request-scoped core: one decoded message in, one response out, no I/O. The era is read from
 * each message (2026-07-28 §10.3, "concurrent"): a request whose `_meta` names a protocol version is
 * served statelessly under 2026-07-28; anything else belongs to the legacy session of its connection.
 */
export class Dispatcher {
  readonly registry: Registry;
  /**
   * Legacy URL-mode elicitations the client accepted and the server may still report complete,
   * by elicitationId: the way to the one connection that was sent it (2025-11-25 "Elicitation").
   */
  readonly urlElicitations = new Map<string, (message: JsonRpcMessage) => void>();
  readonly #serverInfoMeta: Meta;
  readonly limits: ResolvedLimits;
  /** Every request in progress, for `maxConcurrentRequests`, `handlerTimeoutMs` and shutdown. */
  readonly #running: Running;
  /** The requests in progress that are streams (`subscriptions/listen`): they end with their connection, not after a grace period. */
  readonly streams = new WeakSet<RequestContext>();
  #draining: Promise<void> | undefined;

  constructor(registry: Registry, limits?: Limits) {
    this.registry = registry;
    this.#serverInfoMeta = { [META.serverInfo]: registry.info };
    this.limits = resolveLimits(limits);
    this.#running = new Running(this.limits.handlerTimeoutMs);
  }

  /** True once shutdown has begun: new requests are refused. */
  get closing(): boolean {
    return this.#draining !== undefined;
  }

  /**
   * Graceful shutdown: refuses new requests, ends `subscriptions/listen` streams, lets the requests
   * in progress finish within `limits.shutdownGraceMs`, then answers the rest with an error and
   * aborts their signals. Resolves once every request has been answered.
   */
  drain(): Promise<void> {
    this.#draining ??= (async () => {
      this.registry.emit({ type: "closed" });
      await this.#running.idle(this.limits.shutdownGraceMs);
      this.#running.interruptAll(new DOMException("The server is shutting down", "AbortError"));
      // The interrupted requests answer in the microtasks that follow.
      await this.#running.idle(this.limits.shutdownGraceMs);
    })();
    return this.#draining;
  }

  /** Answers a request; resolves to undefined when it was cancelled, since then nothing may be sent. */
  request(message: JsonRpcRequest, peer: Peer, exchange: Exchange = {}): Promise<JsonRpcResponse | undefined> {
    if (exchange.inflight?.has(message.id)) {
      return Promise.resolve(
        errorResponse(
          message.id,
          ErrorCode.InvalidRequest,
          `Invalid Request: id ${JSON.stringify(message.id)} is already used by a request in progress; give every request a new id`,
        ),
      );
    }
    if (this.#draining) return Promise.resolve(shuttingDown(message.id));
    const meta = message.params?._meta;
    if (claimsModern(meta)) return this.#modern(message, meta, exchange);
    return this.#legacy(message, peer, exchange);
  }

  /**
   * Tells the client that was sent a URL-mode elicitation that its out-of-band step is done
   * (`notifications/elicitation/complete`, 2025-11-25; 2026-07-28 has no such notification).
   * Answers whether a session was waiting for it.
   */
  completeElicitation(elicitationId: string): boolean {
    const send = this.urlElicitations.get(elicitationId);
    if (!send) return false;
    this.urlElicitations.delete(elicitationId);
    send({ jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId } });
    return true;
  }

  notification(message: JsonRpcNotification, peer: Peer, inflight?: Inflight): void {
    const params = message.params;
    if (message.method === "notifications/cancelled") {
      // Unknown, finished or malformed cancellations are ignored, never answered (2025-11-25 "Cancellation").
      const id = params?.requestId;
      if (isRequestId(id)) {
        const reason = typeof params?.reason === "string" ? params.reason : "The client cancelled the request";
        inflight?.get(id)?.cancel(new DOMException(reason, "AbortError"));
      }
    } else if (message.method === "notifications/initialized" && peer.session) {
      peer.session.initialized = true;
    }
  }

  #modern(message: JsonRpcRequest, meta: Meta, exchange: Exchange): Promise<JsonRpcResponse | undefined> {
    const { id } = message;
    const envelope = readEnvelope(meta);
    if (typeof envelope === "string") {
      return Promise.resolve(errorResponse(id, ErrorCode.InvalidParams, `Invalid params: ${envelope}`));
    }
    const requested = envelope.protocolVersion;
    if (!MODERN_VERSIONS.includes(requested)) {
      return Promise.resolve(
        errorResponse(
          id,
          ErrorCode.UnsupportedProtocolVersion,
          `Unsupported protocol version "${requested}"; this server supports ${MODERN_VERSIONS.join(", ")} in _meta (or initialize for 2025-11-25 and older)`,
          { supported: MODERN_VERSIONS, requested },
        ),
      );
    }
    const method = METHODS[message.method];
    if (!method?.modern || !this.#offers(method)) return Promise.resolve(notFound(message, requested));
    const ctx = new RequestContext({
      id,
      meta,
      protocolVersion: requested,
      era: "modern",
      clientInfo: envelope.clientInfo,
      clientCapabilities: envelope.clientCapabilities,
      logLevel: envelope.logLevel,
      auth: exchange.auth?.identity,
    });
    return this.#run(method, message, ctx, exchange, true);
  }

  #legacy(message: JsonRpcRequest, peer: Peer, exchange: Exchange): Promise<JsonRpcResponse | undefined> {
    const { id, method: name } = message;
    if (name === "initialize") return Promise.resolve(this.#initialize(message, peer));
    if (name === "server/discover") {
      return Promise.resolve(
        errorResponse(
          id,
          ErrorCode.InvalidParams,
          `Invalid params: server/discover needs params._meta with "${META.protocolVersion}" and "${META.clientCapabilities}"`,
        ),
      );
    }
    const session = peer.session;
    const method = METHODS[name];
    if (!session && name !== "ping") {
      return Promise.resolve(
        errorResponse(
          id,
          ErrorCode.InvalidRequest,
          `Invalid Request: "${name}" arrived before initialize. Send initialize first, or send 2026-07-28 requests with params._meta["${META.protocolVersion}"].`,
        ),
      );
    }
    if (!method?.legacy || !this.#offers(method)) return Promise.resolve(notFound(message, session?.protocolVersion));
    const ctx = new RequestContext({
      id,
      meta: message.params?._meta as Meta | undefined,
      protocolVersion: session?.protocolVersion ?? "2025-11-25",
      era: "legacy",
      clientInfo: session?.clientInfo,
      clientCapabilities: session?.clientCapabilities ?? {},
      logLevel: session?.logLevel,
      session,
      auth: exchange.auth?.identity,
    });
    return this.#run(method, message, ctx, exchange, false);
  }

  #initialize(message: JsonRpcRequest, peer: Peer): JsonRpcResponse {
    if (peer.session) {
      return errorResponse(
        message.id,
        ErrorCode.InvalidRequest,
        `Invalid Request: this connection is already initialized (protocol ${peer.session.protocolVersion})`,
      );
    }
    let session: Session;
    try {
      session = openSession(message.params);
    } catch (thrown) {
      return thrownResponse(message.id, thrown);
    }
    peer.session = session;
    const result: Record<string, unknown> = {
      protocolVersion: session.protocolVersion,
      capabilities: this.registry.capabilities(),
      serverInfo: this.registry.info,
    };
    if (this.registry.instructions !== undefined) result.instructions = this.registry.instructions;
    return resultResponse(message.id, result);
  }

  /** Whether a method exists in 2026-07-28 and its capability is advertised (HTTP answers 404 otherwise). */
  offersModern(name: string): boolean {
    const method = METHODS[name];
    return method?.modern === true && this.#offers(method);
  }

  #offers(method: Method): boolean {
    return method.capability === undefined || this.registry.capabilities()[method.capability] !== undefined;
  }

  async #run(
    method: Method,
    message: JsonRpcRequest,
    ctx: RequestContext,
    exchange: Exchange,
    modern: boolean,
  ): Promise<JsonRpcResponse | undefined> {
    const { id } = message;
    const { inflight } = exchange;
    // A listen request is a stream, not work: it is bounded by maxSseStreams, never by time or count.
    const bounded = message.method !== "subscriptions/listen";
    if (bounded) {
      const { maxConcurrentRequests, maxConcurrentRequestsPerConnection } = this.limits;
      if (this.#running.size >= maxConcurrentRequests) {
        return busy(id, "maxConcurrentRequests", maxConcurrentRequests, "too many requests in progress on this server");
      }
      if (inflight && inflight.size >= maxConcurrentRequestsPerConnection) {
        return busy(
          id,
          "maxConcurrentRequestsPerConnection",
          maxConcurrentRequestsPerConnection,
          "too many requests in progress on this connection",
        );
      }
    }
    inflight?.set(id, ctx);
    if (!bounded) this.streams.add(ctx);
    exchange.started?.(ctx);
    ctx.follow(exchange.signal);
    ctx.gate = openGate(this.registry.auth, exchange.auth);
    ctx.emit = exchange.emit;
    ctx.closeStream = exchange.closeStream;
    try {
      let result = method.interactive
        ? this.#rounds(method, message, ctx, exchange, modern)
        : method.run(this.registry, message.params, ctx);
      if (result instanceof Promise) {
        if (bounded) this.#running.add(ctx);
        result = await ctx.race(result);
      }
      if (ctx.cancelled) return undefined;
      if (modern) this.#encodeModern(method, result);
      return resultResponse(id, result);
    } catch (thrown) {
      if (ctx.cancelled) return undefined;
      return ctx.interrupted ? this.#interrupted(method, message, ctx, modern) : thrownResponse(id, thrown);
    } finally {
      this.#running.delete(ctx);
      inflight?.delete(id);
      // Nothing about a request may follow its response (2025-11-25 "Progress": MUST stop).
      ctx.emit = undefined;
      ctx.closeStream = undefined;
    }
  }

  /** The answer to a request the server ended early: a tool error for a tool that timed out, -32603 otherwise. */
  #interrupted(method: Method, message: JsonRpcRequest, ctx: RequestContext, modern: boolean): JsonRpcResponse {
    const timedOut = (ctx.signal.reason as Error | undefined)?.name === "TimeoutError";
    const limit = timedOut
      ? `within ${seconds(this.limits.handlerTimeoutMs)} (limits.handlerTimeoutMs)`
      : `within the ${seconds(this.limits.shutdownGraceMs)} grace period of the shutdown (limits.shutdownGraceMs)`;
    if (timedOut && message.method === "tools/call") {
      const result = toolError(
        `Tool ${JSON.stringify(message.params?.name)} did not finish ${limit} and was cancelled.`,
      ) as unknown as Record<string, unknown>;
      if (modern) this.#encodeModern(method, result);
      return resultResponse(message.id, result);
    }
    const what = timedOut ? "Request timed out" : "Server shutting down";
    return errorResponse(
      message.id,
      ErrorCode.InternalError,
      `${what}: "${message.method}" did not finish ${limit} and was cancelled`,
    );
  }

  /** Runs a handler that may ask the client, in the era's way (see rounds.ts). */
  #rounds(method: Method, message: JsonRpcRequest, ctx: RequestContext, exchange: Exchange, modern: boolean) {
    const run = () => method.run(this.registry, message.params, ctx);
    return modern
      ? modernRounds(run, ctx, message.method, message.params, this.registry.sealer)
      : legacyRounds(run, ctx, exchange.ask);
  }

  /** What every 2026-07-28 result carries (§1.3, §3.1, §7); legacy results are left exactly as they were. */
  #encodeModern(method: Method, result: Record<string, unknown>): void {
    result.resultType ??= "complete";
    // Interim input_required results carry no cache hints (§3.3).
    if (method.cacheable && result.resultType === "complete") {
      result.ttlMs ??= 0;
      result.cacheScope ??= "private";
    }
    const meta = result._meta as Meta | undefined;
    result._meta = meta ? { ...this.#serverInfoMeta, ...meta } : this.#serverInfoMeta;
  }
}

function notFound(message: JsonRpcRequest, protocolVersion: string | undefined): JsonRpcResponse {
  const where = protocolVersion ? ` in protocol ${protocolVersion}` : "";
  return errorResponse(
    message.id,
    ErrorCode.MethodNotFound,
    `Method not found: "${message.method}" is not available${where}`,
  );
}
