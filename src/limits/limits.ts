import type { RequestContext } from "../core/context.js";
import type { Admission, Dispatcher, Inflight, Interruption } from "../core/dispatch.js";
import type { JsonRpcRequest, JsonRpcResponse } from "../core/jsonrpc.js";
import { busy, Refusal } from "../core/refusal.js";
import { onWorkers } from "../transports/workers.js";
import type { Limits, ResolvedLimits } from "./options.js";

/** Every limit's default (docs/limits.md). */
export const DEFAULT_LIMITS: ResolvedLimits = {
  maxMessageBytes: 4 * 1024 * 1024,
  maxConcurrentRequests: 1024,
  maxConcurrentRequestsPerConnection: 256,
  handlerTimeoutMs: 300_000,
  maxSseStreams: 1000,
  maxSseBufferBytes: 1024 * 1024,
  maxHistoryBytesPerSession: 8 * 1024 * 1024,
  maxHistoryBytes: 256 * 1024 * 1024,
  shutdownGraceMs: 10_000,
  maxUsedRequestStates: 10_000,
  maxSubscriptionsPerSession: 1000,
  maxSubscriptionBytesPerSession: 65_536,
  maxUrlElicitationsPerSession: 100,
  maxTasks: 1000,
  maxTasksPerCaller: 100,
  // Half of maxTasks, worked out by the tasks layer (tasks/tasks.ts).
  maxAnonymousTasks: undefined,
  headersTimeoutMs: 10_000,
  receiveTimeoutMs: 30_000,
  maxConnections: 10_000,
  // 16 × the HTTP body limit, set by the endpoint (transports/http/handler.ts).
  maxBodyBytesInFlight: undefined,
};

/** Fills in the defaults; a limit that is not a positive safe integer (or Infinity) throws at start-up. */
export function resolveLimits(limits: Limits = {}): ResolvedLimits {
  const resolved = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(limits)) {
    if (!isLimit(key)) {
      throw new TypeError(`Unknown limit "${key}". The limits are ${Object.keys(DEFAULT_LIMITS).join(", ")}.`);
    }
    if (value === undefined) continue;
    const least = key === "shutdownGraceMs" ? 0 : 1;
    // Past 2^53 a number is no count a runtime takes (node:http's server options refuse one, at serve()).
    if (typeof value !== "number" || !(value >= least) || !(Number.isSafeInteger(value) || value === Infinity)) {
      throw new TypeError(
        `limits.${key} must be an integer of at least ${least}, at most 2^53 - 1, or Infinity; got ${String(value)}.`,
      );
    }
    resolved[key] = value;
  }
  return resolved;
}

/** A limit's name; an inherited property such as `toString` is not one. */
function isLimit(key: string): key is keyof Limits {
  return Object.hasOwn(DEFAULT_LIMITS, key);
}

/**
 * A listen request is a stream, not work: never timed, nor counted among the server's requests (over
 * HTTP maxSseStreams bounds it). On a connection (a stdio pipe) it is one of the requests in flight
 * until cancelled, so maxConcurrentRequestsPerConnection bounds it there, as it bounds the others.
 */
const isStream = (message: JsonRpcRequest) => message.method === "subscriptions/listen";

/**
 * The limits layer: what bounds the requests in progress on a server (docs/limits.md). It refuses
 * a request past `maxConcurrentRequests` or `maxConcurrentRequestsPerConnection`, cuts a handler
 * short at `handlerTimeoutMs`, and on shutdown gives the requests in progress `shutdownGraceMs`.
 *
 * Only requests whose handlers answer later are counted and timed: a synchronous one is over at
 * once. One coarse timer serves every deadline, and it runs only while something is in progress: a
 * timer per request is a measurable cost. A deadline fires between the limit and a quarter of it (at
 * most 1 s) later. On Workers a timer ends with the request that set it, so there each request has a
 * timer of its own.
 */
class Bounds implements Admission {
  readonly #limits: ResolvedLimits;
  /** The requests in progress, with the tick each started at. */
  readonly #born = new Map<RequestContext, number>();
  /** Workers: each request's own deadline. */
  readonly #own = new Map<RequestContext, ReturnType<typeof setTimeout>>();
  readonly #period: number;
  readonly #ticks: number;
  #tick = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** Who waits for nothing to be in progress (the shutdown). */
  #idle: (() => void)[] = [];
  /**
   * How an interrupted request is answered (interruptions.ts): loading from the first request that
   * answers later, in the background, so that it is there by the time one is cut short; then loaded.
   */
  #loading: Promise<typeof import("./interruptions.js")> | undefined;
  #said: typeof import("./interruptions.js") | undefined;

  constructor(limits: ResolvedLimits) {
    this.#limits = limits;
    const timeoutMs = limits.handlerTimeoutMs;
    this.#period = Math.max(1, Math.min(1000, Math.floor(timeoutMs / 4)));
    this.#ticks = Math.ceil(timeoutMs / this.#period) + 1;
  }

  admit(message: JsonRpcRequest, inflight: Inflight | undefined): JsonRpcResponse | undefined {
    const { maxConcurrentRequests, maxConcurrentRequestsPerConnection } = this.#limits;
    if (!isStream(message) && this.#born.size >= maxConcurrentRequests) {
      return busy(message.id, "too many requests in progress on this server", {
        limit: "maxConcurrentRequests",
        max: maxConcurrentRequests,
      });
    }
    if (inflight && inflight.size >= maxConcurrentRequestsPerConnection) {
      return busy(message.id, "too many requests in progress on this connection", {
        limit: "maxConcurrentRequestsPerConnection",
        max: maxConcurrentRequestsPerConnection,
      });
    }
    return undefined;
  }

  started(message: JsonRpcRequest, ctx: RequestContext): void {
    if (isStream(message)) return;
    this.#words();
    this.#born.set(ctx, this.#tick);
    const timeoutMs = this.#limits.handlerTimeoutMs;
    if (!Number.isFinite(timeoutMs)) return;
    if (onWorkers) {
      this.#own.set(
        ctx,
        setTimeout(() => ctx.interrupt(this.#expired()), timeoutMs),
      );
    } else if (this.#timer === undefined) {
      const timer = setInterval(() => this.#sweep(), this.#period);
      // Deadlines never keep a process alive on their own (Node, Bun; Deno's timer is a number, without unref).
      timer.unref?.();
      this.#timer = timer;
    }
  }

  ended(ctx: RequestContext): void {
    const own = this.#own.get(ctx);
    if (own !== undefined) {
      clearTimeout(own);
      this.#own.delete(ctx);
    }
    if (this.#born.delete(ctx) && this.#born.size === 0) for (const wake of this.#idle.splice(0)) wake();
  }

  async drain(): Promise<void> {
    // Nothing in progress, nothing to wait for: the shutdown's code is loaded only for a server busy then.
    if (this.#born.size === 0) return;
    const words = await this.#words().catch(() => undefined);
    if (words) return words.drained({ born: this.#born, idle: this.#idle }, this.#limits.shutdownGraceMs);
    // Its module could not load (#words said why): no grace period, but every request is answered now
    // (interrupted), and the shutdown goes on.
    for (const ctx of this.#born.keys()) ctx.interrupt(new DOMException("The server is shutting down", "AbortError"));
  }

  interrupted(message: JsonRpcRequest, reason: unknown): Interruption | Promise<Interruption | undefined> {
    const said = this.#said;
    const saying = { limits: this.#limits, Refusal };
    if (said) return said.interruption(saying, message, reason);
    // Its module could not load: undefined, and the dispatcher answers with the reason as it is.
    return this.#words().then(
      (loaded) => loaded.interruption(saying, message, reason),
      () => undefined,
    );
  }

  #words(): Promise<typeof import("./interruptions.js")> {
    if (!this.#loading) {
      this.#loading = import("./interruptions.js").then((loaded) => (this.#said = loaded));
      // Loaded in the background: a failure (the package replaced on disk while the server runs, so
      // that its chunk is gone) is said once here, not as an unhandled rejection; `interrupted` and
      // `drain` answer without it.
      this.#loading.catch((thrown: unknown) => console.error("picomcp: limits:", thrown));
    }
    return this.#loading;
  }

  #sweep(): void {
    this.#tick++;
    if (this.#born.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    for (const [ctx, born] of this.#born) if (this.#tick - born >= this.#ticks) ctx.interrupt(this.#expired());
  }

  #expired(): DOMException {
    return new DOMException(
      `The handler did not finish within ${this.#limits.handlerTimeoutMs / 1000} s (limits.handlerTimeoutMs)`,
      "TimeoutError",
    );
  }
}

/** Installs the limits on a dispatcher: the server does, so that every server has them (safe defaults). */
export function installLimits(dispatcher: Dispatcher): void {
  dispatcher.admission = new Bounds(dispatcher.limits);
}
