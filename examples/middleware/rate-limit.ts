/**
 * A per-caller rate limit: at most `limit` requests per `windowMs` for each caller (the verified
 * caller's subject, else the client's name), counted in a fixed window.
 *
 * What the caller gets when over the limit, and why:
 * - a `tools/call` gets a tool error (`isError: true`). The model reads tool results and can act on
 *   them (wait, then retry, or tell the user); a JSON-RPC error usually stops at the client
 *   application and the model never learns why its call failed (MCP 2025-11-25 "Tools": errors the
 *   model can correct belong in the result).
 * - any other request gets a JSON-RPC error: there is no model in the loop to read a result, and the
 *   client application must not mistake it for an answer. Its code is -32000, a server error code
 *   JSON-RPC 2.0 §5.1 leaves to implementations (MCP claims only -32020 and up), and its `data`
 *   says when to retry, for a client that backs off by itself.
 */
import { McpError, type Middleware } from "picomcp";

export interface RateLimitOptions {
  /** Requests per window and caller. */
  limit: number;
  windowMs: number;
  /** The clock, for tests; default Date.now. */
  now?: () => number;
}

/** The JSON-RPC error code of a refused request. */
export const RATE_LIMITED = -32000;

export function rateLimit({ limit, windowMs, now = Date.now }: RateLimitOptions): Middleware {
  /** Per caller: when the current window started and how many requests it has had. Bounded by the number of callers. */
  const windows = new Map<string, { start: number; count: number }>();
  return ({ method, params, ctx }, next) => {
    const caller = ctx.auth?.subject ?? ctx.client.info?.name ?? "anonymous";
    const at = now();
    let window = windows.get(caller);
    if (!window || at - window.start >= windowMs) {
      window = { start: at, count: 0 };
      windows.set(caller, window);
    }
    if (++window.count <= limit) return next();
    const retryAfterMs = window.start + windowMs - at;
    const wait = `${Math.ceil(retryAfterMs / 1000)} s`;
    const message = `Rate limit reached: at most ${limit} requests every ${windowMs / 1000} s per caller. Wait ${wait}, then retry.`;
    if (method === "tools/call") {
      return {
        content: [{ type: "text", text: `Tool "${params?.name}" was not run. ${message}` }],
        isError: true,
      };
    }
    throw new McpError(RATE_LIMITED, message, { retryAfterMs });
  };
}
