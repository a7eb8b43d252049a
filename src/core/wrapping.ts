import type { Context } from "./handler-context.js";
import type { MaybePromise, Params, Result } from "./types.js";

/**
 * What the core knows of middleware: the shape of a method's chain and what the middleware layer
 * (src/middleware/, loaded with a server's first `use`) hands the dispatcher (dispatch.ts's Wrapping). The types
 * users write middleware with are the layer's (middleware/middleware.ts).
 */

/** One request as the chain carries it: its method, its params as sent, and its context. */
export interface ChainCall {
  readonly method: string;
  readonly params: Params;
  readonly ctx: Context;
}

/** A method's chain as composed: the request and the handler at its end in, the result out. */
export type Chain = (call: ChainCall, handler: () => MaybePromise<Result>) => Promise<Result>;
