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
 *   client application must not mistake it for an answer. Its code is 429, as HTTP's Too Many
 *   Requests: JSON-RPC 2.0 §5.1 leaves every code outside -32768…-32000 to the application, while
 *   MCP 2026-07-28 reserves -32020…-32099 and asks new servers not to use -32000…-32019. Its `data`
 *   says when to retry, for a client that backs off by itself.
 *
 * The caller's name comes from the client (2026-07-28 clients declare it on every request), so the
 * table of windows is bounded: it holds at most `maxCallers`, and past that the caller whose window
 * is oldest is forgotten (it starts a new window: under a flood of names, the limit weakens rather
 * than the memory growing). A name longer than `MAX_NAME` characters counts as "anonymous": a
 * client may send a name of megabytes on each request, and the table would keep each one.
 */
import { McpError, type Middleware } from "picomcp";

export interface RateLimitOptions {
  /** Requests per window and caller. */
  limit: number;
  windowMs: number;
  /** Callers whose windows are remembered at once; default 10,000. */
  maxCallers?: number;
  /** The clock, for tests; default Date.now. */
  now?: () => number;
}

/** The JSON-RPC error code of a refused request. */
export const RATE_LIMITED = 429;

/** The longest client name a window is kept under; a longer one shares the anonymous window. */
export const MAX_NAME = 128;

export function rateLimit({ limit, windowMs, maxCallers = 10_000, now = Date.now }: RateLimitOptions): Middleware {
  /**
   * Per caller: when the current window started and how many requests it has had. In the order the
   * windows started (a new window is deleted and set again), so the first entry is the oldest.
   */
  const windows = new Map<string, { start: number; count: number }>();
  return ({ method, params, ctx }, next) => {
    const named = ctx.client.info?.name;
    const caller = ctx.auth?.subject ?? (named !== undefined && named.length <= MAX_NAME ? named : "anonymous");
    const at = now();
    let window = windows.get(caller);
    if (!window || at - window.start >= windowMs) {
      windows.delete(caller);
      // Room for the new window: the oldest goes, ended or not.
      for (const oldest of windows.keys()) {
        if (windows.size < maxCallers) break;
        windows.delete(oldest);
      }
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
