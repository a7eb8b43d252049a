import {
  askingLayer,
  NO_ANSWERS,
  RequestContext,
  type RequestInit,
  type RoundStates,
  STUCK,
  type Via,
} from "./context.js";
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
import { TASKS, toolError } from "./tools.js";
import { META, type Meta, type Result, type ServerCapabilities } from "./types.js";
import { MODERN_VERSIONS } from "./versions.js";
import type { Chain } from "./wrapping.js";

/** The capability gating each family of methods (2025-11-25 "Capabilities"), for one whose layer never loaded. No prototype: a client names it. */
const FAMILIES = nullPrototype<keyof ServerCapabilities>({
  tools: "tools",
  resources: "resources",
  prompts: "prompts",
  completion: "completions",
});

/**
 * What a 2026-07-28 request for a method that revision removed is told, after "is not available in
 * protocol 2026-07-28": what replaced it, or what to do instead (2026-07-28 §8 "Removed"; SEP-2663 for
 * the tasks methods). It holds whatever the server offers. No prototype: a client names the method.
 */
const REMOVED_IN_MODERN = nullPrototype<string>({
  initialize: `, which has no handshake: send params._meta with "${META.protocolVersion}" and "${META.clientCapabilities}" in every request, and call server/discover to learn what this server offers`,
  ping: ": call server/discover to check that the server answers",
  "logging/setLevel": `: send the log level in each request's params._meta["${META.logLevel}"]`,
  "resources/subscribe":
    ", which replaced it with subscriptions/listen: call that with params.notifications.resourceSubscriptions, the URIs to follow",
  "resources/unsubscribe": ": close the subscriptions/listen stream that follows the URI",
  "tasks/result": ": tasks/get answers a finished task with its result",
  "tasks/list": ": keep the taskId of each task tools/call creates, and call tasks/get with it",
});

/** The side of a connection the dispatcher hands the 2025 era (sessions/peer.ts's Peer). */
type Peer = CarriedAs<"peer">;

/** The 2025 era (src/sessions/legacy.ts): gets every message without a protocol version in `_meta`, and runs it within its connection's session. */
export interface LegacyEra {
  answer(message: JsonRpcRequest, peer: Peer, exchange: Exchange): Answer;
  notified(message: JsonRpcNotification, peer: Peer): void;
}

/** The limits layer (src/limits/): refuses a request before it runs, counts and times those answered later, and says how to answer one it ended early. */
export interface Admission {
  /** The refusal of a request that may not start now (a cap is reached); undefined admits it. */
  admit(message: JsonRpcRequest, inflight: Inflight | undefined): JsonRpcResponse | undefined;
  /** The request's handler answers later: from now on it counts, and has a deadline. */
  started(message: JsonRpcRequest, ctx: RequestContext): void;
  ended(ctx: RequestContext): void;
  /**
   * Shutdown: the requests in progress (or `calls`, a layer's: `server.call`'s) get a grace period,
   * then are interrupted; resolves once all are answered.
   */
  drain(calls?: CarriedAs<"inProgress">): Promise<void>;
  /** The answer to a request ended early (`ctx.interrupt`) for `reason`; undefined if its words could not load (then `reason` answers it). */
  interrupted(message: JsonRpcRequest, reason: unknown): Interruption | Promise<Interruption | undefined>;
}

/** How a request ended early is answered: a tool call with a tool error, anything else with an error response. */
export type Interruption = { readonly toolError: string } | JsonRpcResponse;

/** What `server.use` installed, as the dispatcher runs requests through it (middleware/plugin.ts). */
export interface Wrapping {
  /** The request context's class, with what plug-ins added to `ctx`. */
  readonly Context: typeof RequestContext;
  /** The middleware chain of `method`, undefined when no middleware applies to it. */
  chain(method: string): Chain | undefined;
  /** The first run of a handler that may ask, at the end of its chain, where one that stops at a question goes on in its rounds. */
  firstRun(call: Call, dispatcher: Pick<Dispatcher, "registry" | "rounds">): Promise<Result>;
}

/** A request its era has routed: the method that serves it, and what its context is made from. */
export interface Routed {
  readonly message: JsonRpcRequest;
  readonly method: Method;
  readonly init: RequestInit;
}

/** A response, now or later; undefined for a request that was cancelled (nothing may be sent for it). */
export type Answer = JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined>;

/** A connection's requests in flight, by id, for `notifications/cancelled`: a Map, or a connection that keeps one only meanwhile. */
export interface Inflight {
  readonly size: number;
  has(id: RequestId): boolean;
  get(id: RequestId): RequestContext | undefined;
  set(id: RequestId, ctx: RequestContext): void;
  delete(id: RequestId): boolean;
}

/** How one request travels, set by the transport: where its cancellation comes from; its context keeps the way back (`Via`). */
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

/**
 * How the first run of a handler that may ask may do so (the asking layer's Asking; 2026-07-28 §3.3, 2025-11-25
 * "Elicitation"): with no answers yet, its first question loads the asking layer, and one nobody has answered ends
 * the run (`ctx.stuck`), its rounds taking over (`#await`). Shared, never written: a call that asks nothing makes no object.
 */
const FIRST_RUN: CarriedAs<"asking"> = { answers: NO_ANSWERS };
/** A first run without a way back to the client (2025 stateless HTTP): its question fails at once, saying why. */
const NO_WAY_BACK_RUN: CarriedAs<"asking"> = { answers: NO_ANSWERS, unreachable: true };

/** What `#answered` gets for a handler that threw. */
const FAILED: unique symbol = Symbol("failed");

/**
 * The request-scoped core: one decoded message in, one response out, no I/O. The era is read from each message
 * (2026-07-28 §10.3, "concurrent"): a `_meta` naming a protocol version is served statelessly under 2026-07-28,
 * anything else by the legacy session of its connection (`legacy`). A request is routed, admitted (`admission`), run
 * (through the middleware chain, and the era's rounds when its handler asks) and encoded for its era.
 */
export class Dispatcher {
  readonly registry: Registry;
  /** Legacy URL-mode elicitations the server may still report complete, by elicitationId (2025-11-25 "Elicitation"; asking/questions.ts). */
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
  /** What layers must finish before the shutdown is over (the tasks layer records its runs as failed, for the next instance). */
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
   * Graceful shutdown: refuses new requests, ends `subscriptions/listen` streams once they sent what they hold, lets
   * the requests in progress finish, each within `limits.shutdownGraceMs`, then answers the rest with an error and
   * aborts their signals. Resolves once all are answered and the layers' `finishing` work is done.
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

  /** Answers a request: synchronously when its handler does (no promise for most tool calls); undefined once cancelled (nothing may be sent). */
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

  /** The refusal of a request whose id is in use, or of any once shutting down; a transport that routes requests itself asks before `run`. */
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

  /** Runs a routed request: the 2025 era's layer's, or the HTTP endpoint's 2026-07-28 requests whose envelope it read. */
  run({ message, method, init }: Routed, exchange: Exchange): Answer {
    // The context is the core's class, or the one plug-ins extended (plugin.ts).
    const ctx = new (this.plugins?.Context ?? RequestContext)(init, exchange, this.registry.auth);
    return this.#run({ message, method, ctx, exchange });
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
   * -32601, saying why and what to do: the server runs no tasks, for a `tasks/*` method (in either era); 2026-07-28
   * removed the method, on every server (§8 "Removed", with what replaced it); the server lacks the capability that
   * gates the method (2025-11-25 "Capabilities": a client uses only what was advertised); or the protocol has no such
   * method (one that never existed neither).
   */
  notFound(message: JsonRpcRequest, protocolVersion: string | undefined): JsonRpcResponse {
    const name = message.method;
    const method = this.method(name);
    // The name's part before its "/"; a name without one has no family ("toolsX" is no tools method).
    const family = name.slice(0, Math.max(0, name.indexOf("/")));
    // A method whose layer never loaded (prompts/list on a server without prompts) is known by its family.
    const capability = method?.capability ?? FAMILIES[family];
    // 2026-07-28 removed some methods from every server: that, not what this one offers, is the reason.
    const removed = protocolVersion && MODERN_VERSIONS.includes(protocolVersion) ? REMOVED_IN_MODERN[name] : undefined;
    const why =
      // The tasks layer installs the tasks methods with the first task tool: without it, no era's tasks are served.
      // Its tasks/get tells, not this method: "tasks/gett" on a server that runs tasks is only not available.
      family === "tasks" && !this.method("tasks/get")
        ? ` because this server runs no tasks (no ${TASKS} extension, no capabilities.tasks): call its tools with tools/call, whose answer carries the result`
        : removed !== undefined
          ? ` in protocol ${protocolVersion}${removed}`
          : capability && !this.registry.offers(capability)
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
      const plugins = this.plugins;
      const chain = plugins?.chain(message.method);
      result = chain
        ? chain({ method: message.method, params: message.params, ctx }, () => this.#handle(call, plugins))
        : this.#handle(call);
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

  /** Runs the method's handler; `chained`: the plug-ins whose middleware chain it ends, if it ends one. */
  #handle(call: Call, chained?: Wrapping): Result | Promise<Result> {
    const { method, message, ctx } = call;
    const params = message.params;
    // A handler that may ask the client (tools/call, prompts/get, resources/read).
    if (method.interactive) {
      const modern = ctx.era === "modern";
      // A 2026-07-28 retry of a round carries its state or answers (§3.3): it goes on in its rounds at once.
      if (modern && (params?.requestState !== undefined || params?.inputResponses !== undefined))
        return this.rounds(call);
      // A 2025 request asks within itself, when it has a way back to its client.
      if (!modern && !call.exchange.ask) ctx.asking = NO_WAY_BACK_RUN;
      else if (chained) return chained.firstRun(call, this);
      else ctx.asking = FIRST_RUN;
    }
    return method.run(this.registry, params, ctx);
  }

  /**
   * Runs a request whose handler asks in its era's rounds (the asking layer's rounds.ts): a 2026-07-28 retry, which
   * loads the layer if no question has yet, or a first run that stopped at a question, which loaded it.
   */
  rounds(call: Call): Promise<Result> {
    return askingLayer.use((asking) => asking.rounds(call, this));
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
        if (thrown !== STUCK) throw thrown;
        // The handler asked what nobody has answered yet: the era's rounds take over from here.
        result = await ctx.race(this.rounds(call));
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
   * A result's response. What every 2026-07-28 result carries (§1.3, §3.1, §7) goes on a copy: the result may be a
   * middleware's, kept to answer again (a legacy client then gets it as it was), or frozen. A legacy result is left as
   * it is.
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

/** What the dispatcher calls of the asking layer besides the questions the request context asks (context.ts). */
declare module "./context.js" {
  interface AskingLayer {
    /** Runs a request whose handler asked (or a 2026-07-28 retry) in its era's rounds (asking/rounds.ts's runRounds). */
    rounds(call: Call, dispatcher: Pick<Dispatcher, "registry" | "states">): Promise<Result>;
  }
}
