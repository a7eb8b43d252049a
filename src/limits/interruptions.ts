/**
 * How requests the limits end early are ended and answered (limits.ts's `installLimits`): the
 * shutdown of a server with requests in progress, and the answer to one cut short. Loaded with the
 * first request that answers later, so a server whose requests all answer at once never loads it.
 */
import type { RequestContext } from "../core/context.js";
import type { Interruption } from "../core/dispatch.js";
import { ErrorCode } from "../core/errors.js";
import { errorResponse, isObject, type JsonRpcRequest } from "../core/jsonrpc.js";
import type { Refusal } from "../core/refusal.js";
import type { ResolvedLimits } from "./options.js";

/**
 * What a shutdown waits for, then interrupts: the requests in progress on a server (the limits
 * layer's, with the tick each started at) or its in-process calls (local.ts's); its limits; and who
 * waits for none to be (the end of the last one wakes them).
 */
export interface InProgress {
  readonly limits: ResolvedLimits;
  readonly born: Map<RequestContext, unknown>;
  readonly idle: (() => void)[];
  /** Set when the shutdown interrupted them at once, without a grace period: this module could not load (limits.ts's `drain`). */
  graceless?: true;
  /**
   * The answer to `what` (a request's method, quoted, or a server.call) that the shutdown cancelled as `how` says,
   * by default at once (limits.ts's `cancelledByShutdown`, handed over so that it is written once).
   */
  readonly cancelled: (what: string, how?: string) => string;
}

declare module "../core/layers.js" {
  interface Carried {
    /** What `Admission.drain` shuts down besides the requests in progress (local.ts's calls). */
    inProgress: InProgress;
  }
}

/**
 * What the limits layer (limits.ts) hands over, made once per server: its requests in progress, and
 * the class of a refusal, from limits.ts (whose chunk carries core/refusal.ts) so that this module's
 * chunk does not split it off.
 */
export interface Bounded extends InProgress {
  readonly Refusal: typeof Refusal;
}

/** The answer to `message`, ended early for `reason`: its handler timed out, or the shutdown's grace period ended. */
export function interruption(
  { limits, Refusal, cancelled }: Bounded,
  message: JsonRpcRequest,
  reason: unknown,
): Interruption {
  const { handlerTimeoutMs, shutdownGraceMs } = limits;
  const timedOut = isObject(reason) && reason.name === "TimeoutError";
  const limit = timedOut
    ? `within ${seconds(handlerTimeoutMs)} (limits.handlerTimeoutMs)`
    : `within the ${seconds(shutdownGraceMs)} grace period of the shutdown (limits.shutdownGraceMs)`;
  if (timedOut && message.method === "tools/call") {
    return { toolError: `Tool ${JSON.stringify(message.params?.name)} did not finish ${limit} and was cancelled.` };
  }
  const ended = `did not finish ${limit} and was cancelled`;
  // Cut short by the shutdown, the request is refused as new ones are (HTTP: 503, try again elsewhere).
  if (!timedOut) return new Refusal(message.id, cancelled(`"${message.method}"`, ended));
  return errorResponse(message.id, ErrorCode.InternalError, `Request timed out: "${message.method}" ${ended}`);
}

/**
 * The shutdown (limits.ts's `drain`): the requests or calls in progress get `limits.shutdownGraceMs` to
 * finish, then are interrupted, and it resolves once they have answered, or after the grace period again.
 */
export async function drained(inProgress: InProgress): Promise<void> {
  await settled(inProgress);
  for (const ctx of [...inProgress.born.keys()]) {
    ctx.interrupt(new DOMException("The server is shutting down", "AbortError"));
  }
  // The interrupted requests answer in the microtasks that follow.
  await settled(inProgress);
}

/** Resolves once nothing is in progress, or when the shutdown's grace period is over. */
function settled({ born, idle, limits }: InProgress): Promise<void> {
  if (born.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    // A delay past the longest a timer takes (2^31 - 1 ms, 24 days; Infinity) would fire at once.
    const timer = setTimeout(done, Math.min(limits.shutdownGraceMs, 2 ** 31 - 1));
    function done() {
      clearTimeout(timer);
      resolve();
    }
    idle.push(done);
  });
}

/** "300 s", "0.05 s": durations as clients read them. */
function seconds(ms: number): string {
  return `${ms / 1000} s`;
}
