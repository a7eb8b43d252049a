import { ErrorCode, McpError } from "../core/errors.js";

/**
 * The error for a request that would take a client past `limits.maxSubscriptionsPerSession`: -32602,
 * since it is the request that asks too much (a retry of it fails the same way), not a busy server
 * (a 503 to retry). `what` says what the client holds or asks for; the error says how to do with less.
 */
export function tooManySubscriptions(what: string, max: number): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `Too many subscriptions: ${what}, and the most is ${max} (limits.maxSubscriptionsPerSession = ${max}). Subscribe to a parent URI instead, which covers the resources under it, or unsubscribe from those you no longer need first.`,
    { limit: "maxSubscriptionsPerSession", max },
  );
}
