import { RequestContext, type RequestInit, type RoundStates, STUCK, type Via } from "./context.js";
import { claimsModern, readEnvelope } from "./envelope.js";
import { ErrorCode, isThrown, Unavailable } from "./errors.js";
import {
  errorResponse,
  failure,
  isObject,
  isRequestId,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  nullPrototype,
  type RequestId,
  resultResponse,
  thrownResponse,
} from "./jsonrpc.js";
import type { CarriedAs } from "./layers.js";
import { METHODS } from "./methods.js";
import { Refusal, shuttingDown } from "./refusal.js";
import type { Method, Registry } from "./registry.js";
import { quoted, shown } from "./safe.js";
import { toolError } from "./tools.js";
import { META, type Meta, type ServerCapabilities } from "./types.js";
import { MODERN_VERSIONS } from "./versions.js";
import type { Wrapping } from "./wrapping.js";

/**
 * The capability that gates a family of methods (2025-11-25 "Capabilities"), by the start of their
 * names: what a method whose layer never loaded belongs to. No prototype: a client names the method.
 */
const FAMILIES = nullPrototype<keyof ServerCapabilities>({
  tools: "tools",
  resources: "resources",
  prompts: "prompts",
  completion: "completions",
});

/** The side of a connection the dispatcher hands the 2025 era (sessions/peer.ts's Peer). */
type Peer = CarriedAs<"peer">;

/**
 * The 2025 era as the legacy sessions layer serves it (src/sessions/legacy.ts): the dispatcher hands
 * it every request and notification without a protocol version in `_meta`, and it routes them to
 * `run` within their connection's session.
 */
export interface LegacyEra {
  answer(message: JsonRpcRequest, peer: Peer, exchange: Exchange): Answer;
  notified(message: JsonRpcNotification, peer: Peer): void;
}

/**
 * What bounds the requests in progress: the limits layer (src/limits/), which the server installs.
 * It may refuse a request before it runs, counts and times the ones whose handlers answer later,
 * and says how to answer one it ended early.
 */
export interface Admission {
  /** The refusal of a request that may not start now (a cap is reached); undefined admits it. */
  admit(message: JsonRpcRequest, inflight: Inflight | undefined): JsonRpcResponse | undefined;
  /** The request's handler answers later: from now on it counts, and has a deadline. */
  started(message: JsonRpcRequest, ctx: RequestContext): void;
  ended(ctx: RequestContext): void;
  /** Shutdown: the requests in progress get a grace period, then are interrupted; resolves once all are answered. */
  drain(): Promise<void>;
  /**
   * The answer to a request ended early (`ctx.interrupt`), for `reason`: its words may load first;
   * undefined if they could not, and the request is answered with `reason` itself.
   */
  interrupted(message: JsonRpcRequest, reason: unknown): Interruption | Promise<Interruption | undefined>;
}

/** How a request ended early is answered: a tool call with a tool error, anything else with an error response. */
export type Interruption = { readonly toolError: string } | JsonRpcResponse;

/**
 * How a handler that may ask the client runs (tools/call, prompts/get, resources/read): the asking
 * layer's front (src/asking/front.ts), which the server installs. Without it such a handler runs as
 * any other, and a question it asks fails.
 */
export interface Interaction {
  /**
   * Runs the handler: a first run, or a 2026-07-28 retry that goes straight to its rounds. `chained`:
   * at the end of a middleware chain, where a first run that stops at a question goes on in its
   * rounds within the chain, so middleware sees the request's final result.
   */
  run(call: Call, chained: boolean): Result | Promise<Result>;
  /** Goes on in the era's rounds from a first run that stopped at a question nobody has answered yet. */
  resume(call: Call): Promise<Result>;
}

/** A request its era has routed: the method that serves it, and what its context is made from. */
export interface Routed {
  readonly message: JsonRpcRequest;
  readonly method: Method;
  readonly init: RequestInit;
}

type Result = Record<string, unknown>;

/** A response, now or later; undefined for a request that was cancelled (nothing may be sent for it). */
export type Answer = JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined>;

/**
 * Requests in flight on one connection, by id, so `notifications/cancelled` can reach them: a Map is
 * one; a connection (transports/connection.ts) is one that keeps a Map only while a request is in flight.
 */
export interface Inflight {
  readonly size: number;
  has(id: RequestId): boolean;
  get(id: RequestId): RequestContext | undefined;
  set(id: RequestId, ctx: RequestContext): void;
  delete(id: RequestId): boolean;
}

/**
 * How one request travels: where its cancellation comes from and where its notifications go, set by
 * the transport; its context keeps the way to the client (`Via`).
 */
export interface Exchange extends Via {
  /** The connection's requests in flight (stdio, legacy sessions); cancelled by id. */
  inflight?: Inflight;
  /** Aborts the request (an outside signal; HTTP transports cancel the context they are `started` with instead). */
  signal?: AbortSignal;
  /** Sends a question to the client as a real request (legacy sessions); absent where there is no way back. */
  ask?: CarriedAs<"asker">;
  /** Told the request's context once it runs (an HTTP stream that is dropped cancels it). */
  started?: (ctx: RequestContext) => void;
}

/** One request on its way from routing to its response (its era is `ctx.era`). */
export interface Call {
  readonly message: JsonRpcRequest;
  readonly method: Method;
  readonly ctx: RequestContext;
  readonly exchange: Exchange;
}

/** What `#answered` gets for a handler that threw. */
const FAILED: unique symbol = Symbol("failed");

/**
 * The request-scoped core: one decoded message in, one response out, no I/O. The era is read from
 * each message (2026-07-28 §10.3, "concurrent"): a request whose `_meta` names a protocol version is
 * served statelessly under 2026-07-28; anything else belongs to the legacy session of its connection,
 * which the legacy sessions layer (`legacy`, src/sessions/) serves. A request is routed (era, method),
 * admitted (`admission`, the limits layer), run (through the middleware chain and the era's rounds
 * when its handler asks) and encoded for its era.
 */
export class Dispatcher {
  readonly registry: Registry;
  /**
   * Legacy URL-mode elicitations the server may still report complete, by elicitationId: the way to the
   * one connection that was sent it (2025-11-25 "Elicitation"; asking/questions.ts).
   */
  readonly urlElicitations = new Map<string, () => void>();
  readonly #serverInfoMeta: Meta;
  /** The server's 2026-07-28 round states (see rounds.ts), shared by the layers that check a retry's requestState. */
  readonly states: RoundStates;
  /** The limits, as the limits layer resolved them (limits/options.ts); the core reads `maxUsedRequestStates` only. */
  readonly limits: CarriedAs<"limits">;
  /** The requests in progress that are streams (`subscriptions/listen`): they end with their connection, not after a grace period. */
  readonly streams = new WeakSet<RequestContext>();
  #draining: Promise<void> | undefined;
  /** What `server.use` installed (middleware/plugin.ts); undefined until then, so a server without it runs as before. */
  plugins: Wrapping | undefined;
  /** The 2025 era (src/sessions/), installed by the server; without it only 2026-07-28 requests are served. */
  legacy: LegacyEra | undefined;
  /** The limits (src/limits/), installed by the server; without them nothing is capped or timed. */
  admission: Admission | undefined;
  /** Asking the client (src/asking/front.ts), installed by the server; without it handlers cannot ask. */
  interaction: Interaction | undefined;
  /**
   * What layers must finish before the shutdown is over: the tasks layer records its runs as failed,
   * in a shared store the next instance reads as soon as this one exits.
   */
  readonly finishing: (() => Promise<unknown>)[] = [];

  /** `limits`: as the limits layer resolved them (`resolveLimits`). */
  constructor(registry: Registry, limits: CarriedAs<"limits">) {
    this.registry = registry;
    this.#serverInfoMeta = { [META.serverInfo]: registry.info };
    this.limits = limits;
    registry.limits = limits;
    this.states = { stateKey: registry.stateKey, maxUsedStates: limits.maxUsedRequestStates };
  }

  /** True once shutdown has begun: new requests are refused. */
  get closing(): boolean {
    return this.#draining !== undefined;
  }

  /**
   * Graceful shutdown: refuses new requests, ends `subscriptions/listen` streams (each once it has
   * sent what it holds, within `limits.shutdownGraceMs`), lets the requests in progress finish within
   * `limits.shutdownGraceMs`, then answers the rest with an error and aborts their signals. Resolves
   * once every request and stream has been answered and the layers' `finishing` work is done.
   */
  drain(): Promise<void> {
    this.#draining ??= (async () => {
      // A listen stream first sends what it holds behind a read check, within the grace (listen.ts).
      const ending: Promise<unknown>[] = [];
      this.registry.emit({ type: "closed", ending });
      await Promise.all([this.admission?.drain(), ...ending, ...this.finishing.map((finish) => finish())]);
    })();
    return this.#draining;
  }

  /**
   * Answers a request: synchronously when its handler answers synchronously (most tool calls), so
   * that no promise is made for those; undefined when it was cancelled, since then nothing may be sent.
   */
  answer(message: JsonRpcRequest, peer: Peer, exchange: Exchange = {}): Answer {
    const meta = message.params?._meta;
    if (!claimsModern(meta)) return this.answerLegacy(message, peer, exchange);
    return this.refused(message, exchange) ?? this.#modern(message, meta, exchange);
  }

  /** Answers a request a transport has read as legacy (no version in its `_meta`), as `answer` does. */
  answerLegacy(message: JsonRpcRequest, peer: Peer, exchange: Exchange = {}): Answer {
    // Without the 2025 era's layer, its requests are methods this server does not have.
    const refused = this.refused(message, exchange);
    if (refused) return refused;
    return this.legacy ? this.legacy.answer(message, peer, exchange) : this.notFound(message, undefined);
  }

  /**
   * The answer to a request the server takes no more of: an id in use, or a server shutting down.
   * A transport that routes a request itself (the HTTP endpoint's 2026-07-28 requests) asks it before `run`.
   */
  refused(message: JsonRpcRequest, exchange: Exchange): JsonRpcResponse | undefined {
    if (exchange.inflight?.has(message.id)) {
      return errorResponse(
        message.id,
        ErrorCode.InvalidRequest,
        `Invalid Request: id ${quoted(message.id)} is already used by a request in progress; give every request a new id`,
      );
    }
    return this.#draining ? shuttingDown(message.id) : undefined;
  }

  notification(message: JsonRpcNotification, peer: Peer, inflight?: Inflight): void {
    const params = message.params;
    if (message.method === "notifications/cancelled") {
      // Unknown, finished or malformed cancellations are ignored, never answered (2025-11-25 "Cancellation").
      const id = params?.requestId;
      if (isRequestId(id)) {
        const reason = typeof params?.reason === "string" ? params.reason : "The client cancelled the request";
        inflight?.get(id)?.cancel(new DOMException(reason, "AbortError"));
        // The client is done with it: its slot and its id are free now, not once its handler settles
        // (the next line, read in the same turn, may take them).
        inflight?.delete(id);
      }
    } else this.legacy?.notified(message, peer);
  }

  #modern(message: JsonRpcRequest, meta: Meta, exchange: Exchange): Answer {
    const envelope = readEnvelope(message.id, meta);
    if (typeof envelope === "string") {
      return errorResponse(message.id, ErrorCode.InvalidParams, `Invalid params: ${envelope}`);
    }
    const requested = envelope.protocolVersion;
    if (!MODERN_VERSIONS.includes(requested)) return unsupportedVersion(message.id, requested);
    const method = this.modernMethod(message.method);
    if (!method) return this.notFound(message, requested);
    // The envelope is the client's per request (§1.1): its version, capabilities, info and log level, read
    // as its context's init.
    return this.run({ message, method, init: envelope }, exchange);
  }

  /**
   * Runs a request its era has routed: the 2025 era's layer calls this for each of its requests, and
   * the HTTP endpoint for the 2026-07-28 requests whose envelope it read from the headers.
   */
  run({ message, method, init }: Routed, exchange: Exchange): Answer {
    return this.#run({ message, method, ctx: this.#context(init, exchange), exchange });
  }

  /** A request's context: the core's, or the class plug-ins extended (plugin.ts). */
  #context(init: RequestInit, exchange: Exchange): RequestContext {
    return new (this.plugins?.Context ?? RequestContext)(init, exchange, this.registry.auth);
  }

  /** The method of this name: the core's, or one a layer or plug-in installed. */
  method(name: string): Method | undefined {
    return METHODS[name] ?? this.registry.methods[name];
  }

  /** The method of this name if it exists in 2026-07-28 and its capability is advertised (HTTP answers 404 otherwise). */
  modernMethod(name: string): Method | undefined {
    const method = this.method(name);
    return method?.modern && this.offers(method) ? method : undefined;
  }

  /**
   * -32601 for a request this server has no method for in its protocol, saying why: the server lacks
   * the capability that gates it (2025-11-25 "Capabilities": a client uses only what was advertised),
   * or the protocol has no such method (2026-07-28 §8 "Removed"; one that never existed neither).
   */
  notFound(message: JsonRpcRequest, protocolVersion: string | undefined): JsonRpcResponse {
    const name = message.method;
    // A method whose layer never loaded (prompts/list on a server without prompts) is known by its family.
    const capability = this.method(name)?.capability ?? FAMILIES[name.slice(0, name.indexOf("/"))];
    const why =
      capability && !this.registry.offers(capability)
        ? ` because this server has no ${capability}; call only the methods of the capabilities it advertises`
        : protocolVersion
          ? ` in protocol ${protocolVersion}`
          : "";
    return errorResponse(
      message.id,
      ErrorCode.MethodNotFound,
      `Method not found: "${shown(name)}" is not available${why}`,
    );
  }

  /** Whether the server advertises the capability that gates this method (-32601 otherwise). */
  offers(method: Method): boolean {
    return method.capability === undefined || this.registry.offers(method.capability);
  }

  #run(call: Call): Answer {
    const { message, ctx, exchange } = call;
    const { id } = message;
    const { inflight } = exchange;
    const refused = this.admission?.admit(message, inflight);
    if (refused) return refused;
    if (message.method === "subscriptions/listen") this.streams.add(ctx);
    exchange.started?.(ctx);
    ctx.follow(exchange.signal);
    let result: Result | Promise<Result>;
    try {
      const chain = this.plugins?.chain(message.method);
      result = chain
        ? chain({ method: message.method, params: message.params, ctx }, () => this.#handle(call, true))
        : this.#handle(call, false);
    } catch (thrown) {
      return this.#answered(call, FAILED, thrown);
    }
    // A handler that answers synchronously is answered at once: no promise, no deadline to track, and
    // nothing can cancel it meanwhile, so it never enters the connection's requests in flight (a
    // long-lived map, written on every call otherwise).
    if (!(result instanceof Promise)) return this.#answered(call, result);
    inflight?.set(id, ctx);
    this.admission?.started(message, ctx);
    return this.#await(call, result);
  }

  /** Runs the method's handler, through the asking front for one that may ask; `chained`: at the end of a middleware chain. */
  #handle(call: Call, chained: boolean): Result | Promise<Result> {
    const { method, message, ctx } = call;
    if (method.interactive && this.interaction) return this.interaction.run(call, chained);
    return method.run(this.registry, message.params, ctx);
  }

  /** A handler that answers later: the wait ends early if the request is cancelled, times out or the server shuts down. */
  async #await(call: Call, work: Promise<Result>): Promise<JsonRpcResponse | undefined> {
    const ctx = call.ctx;
    let result: Result | typeof FAILED;
    let error: unknown;
    try {
      try {
        result = await ctx.race(work);
      } catch (thrown) {
        if (thrown !== STUCK || !this.interaction) throw thrown;
        // The handler asked what nobody has answered yet: the era's rounds take over from here.
        result = await ctx.race(this.interaction.resume(call));
      }
    } catch (thrown) {
      result = FAILED;
      error = thrown;
    }
    this.admission?.ended(ctx);
    return this.#answered(call, result, error);
  }

  /** The response to a request whose handler returned `result` or threw `thrown`; then the request is over. */
  #answered(call: Call, result: Result | typeof FAILED, thrown?: unknown): Answer {
    const { ctx } = call;
    const { id } = call.message;
    try {
      if (result === FAILED) throw thrown;
      if (ctx.cancelled) return undefined;
      return this.#result(call, result);
    } catch (thrown) {
      if (ctx.cancelled) return undefined;
      if (ctx.interrupted) return this.#interrupted(call);
      // A server that cannot serve it for now says so as a busy one does: the client tries again. The
      // check must not throw (a thrown Proxy's trap), or the request would go unanswered.
      return isThrown(thrown, Unavailable)
        ? new Refusal(id, thrown.message)
        : thrownResponse(id, thrown, ctx.era === "modern");
    } finally {
      // A cancelled request left already, and its id may be another's now.
      const inflight = call.exchange.inflight;
      if (inflight?.get(id) === ctx) inflight.delete(id);
      // Nothing about a request may follow its response (2025-11-25 "Progress": MUST stop).
      ctx.finish();
    }
  }

  /** The answer to a request the server ended early, as the limits say (a timed-out tool: a tool error). */
  async #interrupted(call: Call): Promise<JsonRpcResponse> {
    const { message, ctx } = call;
    const answer = await this.admission?.interrupted(message, ctx.signal.reason);
    if (!answer) return thrownResponse(message.id, ctx.signal.reason);
    return "toolError" in answer ? this.#result(call, toolError(answer.toolError)) : answer;
  }

  /**
   * A result's response. What every 2026-07-28 result carries is added to a copy of it (§1.3, §3.1,
   * §7): the result may be a middleware's, kept to answer again (a legacy client then gets it as it
   * was) or frozen. A legacy result is left exactly as it was.
   */
  #result({ message, method, ctx }: Call, result: Result): JsonRpcResponse {
    if (ctx.era !== "modern") return resultResponse(message.id, result);
    const meta = result._meta;
    // One object literal, the defaults first and the result's own fields over them: a copy made with
    // `{ ...result }` and then grown field by field cost a tool call twice the CPU of the rest of it.
    // Interim input_required results carry no cache hints (§3.3).
    const modern: Result =
      method.cacheable && (result.resultType ?? "complete") === "complete"
        ? { resultType: "complete", ttlMs: 0, cacheScope: "private", ...result }
        : { resultType: "complete", ...result };
    // A field present but unset (a middleware's `resultType: undefined`) is a default all the same.
    modern.resultType ??= "complete";
    modern._meta = isObject(meta) ? { ...this.#serverInfoMeta, ...meta } : this.#serverInfoMeta;
    return resultResponse(message.id, modern);
  }
}

/** The answer to a 2026-07-28 request whose `_meta` names a protocol version this server does not serve. */
export function unsupportedVersion(id: RequestId, requested: string): JsonRpcResponse {
  return failure(id, {
    code: ErrorCode.UnsupportedProtocolVersion,
    message: `Unsupported protocol version "${shown(requested)}"; this server supports ${MODERN_VERSIONS.join(", ")} in _meta (or initialize for 2025-11-25 and older)`,
    data: { supported: MODERN_VERSIONS, requested },
  });
}
