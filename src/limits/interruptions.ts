/**
 * How a request the limits ended early is answered (limits.ts's `Bounds.interrupted`): loaded with
 * the first one, so a server whose requests all finish in time never loads these words.
 */
import type { Interruption } from "../core/dispatch.js";
import { ErrorCode } from "../core/errors.js";
import { errorResponse, isObject, type JsonRpcRequest } from "../core/jsonrpc.js";
import type { Refusal } from "../core/refusal.js";
import type { ResolvedLimits } from "./options.js";

/**
 * What an interruption is said from: the server's limits, and the class of a refusal, handed over by
 * limits.ts (whose chunk carries core/refusal.ts) so that this module's chunk does not split it off.
 */
export interface Saying {
  limits: ResolvedLimits;
  Refusal: typeof Refusal;
}

/** The answer to `message`, ended early for `reason`: its handler timed out, or the shutdown's grace period ended. */
export function interruption({ limits, Refusal }: Saying, message: JsonRpcRequest, reason: unknown): Interruption {
  const { handlerTimeoutMs, shutdownGraceMs } = limits;
  const timedOut = isObject(reason) && reason.name === "TimeoutError";
  const limit = timedOut
    ? `within ${seconds(handlerTimeoutMs)} (limits.handlerTimeoutMs)`
    : `within the ${seconds(shutdownGraceMs)} grace period of the shutdown (limits.shutdownGraceMs)`;
  if (timedOut && message.method === "tools/call") {
    return { toolError: `Tool ${JSON.stringify(message.params?.name)} did not finish ${limit} and was cancelled.` };
  }
  const what = `"${message.method}" did not finish ${limit} and was cancelled`;
  // Cut short by the shutdown, the request is refused as new ones are (HTTP: 503, try again elsewhere).
  if (!timedOut) return new Refusal(message.id, `Server shutting down: ${what}`);
  return errorResponse(message.id, ErrorCode.InternalError, `Request timed out: ${what}`);
}

/** "300 s", "0.05 s": durations as clients read them. */
function seconds(ms: number): string {
  return `${ms / 1000} s`;
}
