/**
 * Whether this code runs on Cloudflare Workers (workerd), which names itself in
 * `navigator.userAgent` (Workers docs, "Web standards"). Workers end a request's timers with the
 * request and cancel a request that waits on another request's promise as hung, so what outlives
 * one request is done differently there.
 */
export const onWorkers: boolean =
  (globalThis as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === "Cloudflare-Workers";
