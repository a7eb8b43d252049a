import { RequestContext } from "./context.js";
import { ErrorCode } from "./errors.js";
import { openSession, type Session } from "./legacy/session.js";
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
}

/**
 * The request-scoped core: one decoded message in, one response out, no I/O. The era is read from
 * each message (2026-07-28 §10.3, "concurrent"): a request whose `_meta` names a protocol version is
 * served statelessly under 2026-07-28; anything else belongs to the legacy session of its connection.
 */
export class Dispatcher {
  readonly registry: Registry;
  readonly #serverInfoMeta: Meta;

  constructor(registry: Registry) {
    this.registry = registry;
    this.#serverInfoMeta = { [META.serverInfo]: registry.info };
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
    const meta = message.params?._meta;
    if (claimsModern(meta)) return this.#modern(message, meta, exchange);
    return this.#legacy(message, peer, exchange);
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
    inflight?.set(id, ctx);
    ctx.follow(exchange.signal);
    ctx.emit = exchange.emit;
    ctx.closeStream = exchange.closeStream;
    try {
      let result = method.interactive
        ? this.#rounds(method, message, ctx, exchange, modern)
        : method.run(this.registry, message.params, ctx);
      if (result instanceof Promise) result = await result;
      if (ctx.cancelled) return undefined;
      if (modern) this.#encodeModern(method, result);
      return resultResponse(id, result);
    } catch (thrown) {
      return ctx.cancelled ? undefined : thrownResponse(id, thrown);
    } finally {
      inflight?.delete(id);
      // Nothing about a request may follow its response (2025-11-25 "Progress": MUST stop).
      ctx.emit = undefined;
      ctx.closeStream = undefined;
    }
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
