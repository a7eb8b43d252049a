import { ErrorCode } from "./errors.js";
import type { JsonRpcResponse, RequestId } from "./jsonrpc.js";
import type { CarriedAs } from "./layers.js";

/**
 * The answer to a request the server turns away for now: it is busy (a limit is reached) or shutting
 * down. HTTP sends it with 503 and Retry-After, so that clients and load balancers try again; it is
 * known by its class (`isUnavailable`), never by its text, and it serialises as the plain error
 * response it is. The code is -32603: JSON-RPC leaves -32000…-32099 to implementations, but
 * 2026-07-28 reserves -32020…-32099 and asks new servers not to use -32000…-32019, so a busy server
 * is an internal condition, named in the message (and, for a limit, in `data`).
 */
export class Refusal implements JsonRpcResponse {
  // Declared, and set in the constructor in the order of errorResponse's keys: the bytes are the same.
  readonly jsonrpc = "2.0";
  declare readonly id?: RequestId;
  declare readonly error: { code: number; message: string; data?: unknown };

  constructor(id: RequestId | undefined, message: string, data?: unknown) {
    // The id is omitted, not null, when it could not be read.
    if (id !== undefined) this.id = id;
    const code = ErrorCode.InternalError;
    this.error = data === undefined ? { code, message } : { code, message, data };
  }
}

/** Which limit a busy server reached, and its value: the `data` of its refusal. */
export interface Reached {
  /** A key of the server's limits (limits/options.ts's `Limits`). */
  readonly limit: keyof CarriedAs<"limits">;
  readonly max: number;
}

/** A request refused because a limit is reached: `what` it means, and the limit and its value, in the message and in `data`. */
export function busy(id: RequestId | undefined, what: string, reached: Reached): JsonRpcResponse {
  return new Refusal(
    id,
    `Server busy: ${what} (limits.${reached.limit} = ${reached.max}); retry after a request in progress has been answered`,
    reached,
  );
}

export function shuttingDown(id: RequestId | undefined): JsonRpcResponse {
  return new Refusal(
    id,
    "Server shutting down: it accepts no new requests; send this one again in a moment, to another instance of the server or to this one once restarted",
  );
}

/** True for a `Refusal` (busy, shutting down), which HTTP sends with status 503; whatever else says so in its text is not. */
export function isUnavailable(response: JsonRpcResponse): response is Refusal {
  return response instanceof Refusal;
}
