import type { RequestContext } from "../core/context.js";
import type { Dispatcher } from "../core/dispatch.js";
import type { JsonRpcRequest } from "../core/jsonrpc.js";
import { busy, Refusal } from "../core/refusal.js";
import { onWorkers } from "../transports/workers.js";
import type { Bounded } from "./interruptions.js";
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
 * The answer to `what` (a request's method, quoted, or a `server.call`) that the shutdown cancelled as `how`
 * says: its grace period ended (interruptions.ts, local.ts), or by default none could be given, its module
 * gone. One message for every transport and server.call, handed to them in `InProgress.cancelled`: here, the
 * case its module could not load still has it, and the chunks that use it do not split it off. The handler did
 * not finish, so it may have done part of its work; sent again, the request reaches a server that runs: another
 * instance behind the same address (HTTP answers with 503, which clients and load balancers retry elsewhere),
 * or this one restarted.
 */
export function cancelledByShutdown(
  what: string,
  how = "was cancelled at once, without its grace period (picomcp could not load limits/interruptions; the error is logged)",
): string {
  return `Server shutting down: ${what} ${how}, perhaps partly done; send it again in a moment: another instance of the server, or this one once restarted, will answer it`;
}

/** How requests the limits end early are answered (interruptions.ts). */
type Words = typeof import("./interruptions.js");

/**
 * The words, loading from the first request that answers later, in the background, so that they are
 * there by the time one is cut short; then loaded. One module for every server of the process.
 */
let loading: Promise<Words> | undefined;
let said: Words | undefined;

function words(): Promise<Words> {
  if (!loading) {
    loading = import("./interruptions.js").then((loaded) => (said = loaded));
    // Loaded in the background: a failure (the package replaced on disk while the server runs, so
    // that its chunk is gone) is said once here, not as an unhandled rejection; `interrupted` and
    // `drain` answer without it.
    loading.catch((thrown: unknown) => console.error("picomcp: limits:", thrown));
  }
  return loading;
}

/**
 * Installs the limits on a dispatcher, the limits layer: what bounds the requests in progress on a
 * server (docs/limits.md). The server installs it, so that every server has them (safe defaults). It
 * refuses a request past `maxConcurrentRequests` or `maxConcurrentRequestsPerConnection`, cuts a
 * handler short at `handlerTimeoutMs`, and on shutdown gives the requests in progress `shutdownGraceMs`.
 *
 * Only requests whose handlers answer later are counted and timed: a synchronous one is over at
 * once. One coarse timer serves every deadline, and it runs only while something is in progress: a
 * timer per request is a measurable cost. A deadline fires between the limit and a quarter of it (at
 * most 1 s) later. On Workers a timer ends with the request that set it, so there each request has a
 * timer of its own.
 */
export function installLimits(dispatcher: Dispatcher): void {
  const limits = dispatcher.limits;
  const { handlerTimeoutMs } = limits;
  const period = Math.max(1, Math.min(1000, Math.floor(handlerTimeoutMs / 4)));
  const ticks = Math.ceil(handlerTimeoutMs / period) + 1;
  /** The requests in progress, with the tick each started at. */
  const born = new Map<RequestContext, number>();
  /** Workers: each request's own deadline. */
  const own = new Map<RequestContext, ReturnType<typeof setTimeout>>();
  /** Who waits for nothing to be in progress (the shutdown). */
  const idle: (() => void)[] = [];
  const bounded: Bounded = { limits, Refusal, born, idle, cancelled: cancelledByShutdown };
  let tick = 0;
  let timer: ReturnType<typeof setInterval> | undefined;

  const expired = () =>
    new DOMException(
      `The handler did not finish within ${handlerTimeoutMs / 1000} s (limits.handlerTimeoutMs)`,
      "TimeoutError",
    );
  const sweep = () => {
    tick++;
    if (born.size === 0) {
      clearInterval(timer);
      timer = undefined;
      return;
    }
    for (const [ctx, started] of born) if (tick - started >= ticks) ctx.interrupt(expired());
  };
  /** A request refused at a cap on the requests in progress here (`where`: this server, or this connection). */
  const refused = (
    message: JsonRpcRequest,
    where: string,
    limit: "maxConcurrentRequests" | "maxConcurrentRequestsPerConnection",
  ) => busy(message.id, `too many requests in progress on this ${where}`, { limit, max: limits[limit] });

  dispatcher.admission = {
    admit(message, inflight) {
      if (!isStream(message) && born.size >= limits.maxConcurrentRequests) {
        return refused(message, "server", "maxConcurrentRequests");
      }
      if (inflight && inflight.size >= limits.maxConcurrentRequestsPerConnection) {
        return refused(message, "connection", "maxConcurrentRequestsPerConnection");
      }
      return undefined;
    },

    started(message, ctx) {
      if (isStream(message)) return;
      words();
      born.set(ctx, tick);
      if (!Number.isFinite(handlerTimeoutMs)) return;
      if (onWorkers) {
        own.set(
          ctx,
          setTimeout(() => ctx.interrupt(expired()), handlerTimeoutMs),
        );
      } else if (timer === undefined) {
        timer = setInterval(sweep, period);
        // Deadlines never keep a process alive on their own (Node, Bun; Deno's timer is a number, without unref).
        timer.unref?.();
      }
    },

    ended(ctx) {
      if (onWorkers) {
        clearTimeout(own.get(ctx));
        own.delete(ctx);
      }
      if (born.delete(ctx) && born.size === 0) for (const wake of idle.splice(0)) wake();
    },

    async drain(inProgress = bounded) {
      // Nothing in progress, nothing to wait for: the shutdown's code is loaded only for a server busy then.
      if (inProgress.born.size === 0) return;
      const loaded = await words().catch(() => undefined);
      if (loaded) return loaded.drained(inProgress);
      // Its module could not load (words said why): no grace period, but every request (or call) is
      // answered now (interrupted), and the shutdown goes on.
      inProgress.graceless = true;
      for (const ctx of inProgress.born.keys()) {
        ctx.interrupt(new DOMException("The server is shutting down", "AbortError"));
      }
    },

    interrupted(message, reason) {
      if (said) return said.interruption(bounded, message, reason);
      // Its module could not load: a request the shutdown cut off is refused all the same, saying what to do;
      // another is answered with its reason as it is (undefined).
      return words().then(
        (loaded) => loaded.interruption(bounded, message, reason),
        () => (bounded.graceless ? new Refusal(message.id, cancelledByShutdown(`"${message.method}"`)) : undefined),
      );
    },
  };
}
