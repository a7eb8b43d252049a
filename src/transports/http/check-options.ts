import type { HttpOptions } from "./options.js";

/**
 * Checks the numbers and the lists among the HTTP options as the endpoint is made (`serve()`, or the first request
 * of `server.fetch` and `server.node`), where the other HTTP options are checked: one out of range
 * throws a TypeError that names it and what it may be. A zero would not show at start-up:
 * `sessions.idleTimeoutMs: 0` forgets every session before its next request (each answers 404),
 * `maxSessions: 0` evicts one with each initialize, `maxBodyBytes: 0` refuses every body with 413.
 * Each is finite: shared sessions hand the session options to Redis as integers (`PX`, the history's
 * bounds), and `retryMs` is sent in each stream's `retry` field, which is digits (WHATWG HTML
 * "Server-sent events"), and may be 0 (reconnect at once).
 */
export function checkHttpOptions(options: HttpOptions): void {
  const sessions = typeof options.sessions === "object" ? options.sessions : undefined;
  for (const [name, value, least] of [
    ["maxBodyBytes", options.maxBodyBytes, 1],
    ["sessions.idleTimeoutMs", sessions?.idleTimeoutMs, 1],
    ["sessions.maxSessions", sessions?.maxSessions, 1],
    ["sessions.eventHistory", sessions?.eventHistory, 1],
    ["sessions.retryMs", sessions?.retryMs, 0],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= least)) {
      throw new TypeError(`The HTTP option ${name} must be an integer of at least ${least}; got ${String(value)}.`);
    }
  }
  // A string where a list goes, as plain JavaScript allows: the Host and Origin checks would fail on it
  // with words of their own ("allowedHosts?.map is not a function"), and CORS would take its characters
  // for origins, refusing every page.
  const cors = typeof options.cors === "object" ? options.cors : undefined;
  for (const [name, value, example, required] of [
    ["allowedHosts", options.allowedHosts, "mcp.example.com", false],
    ["allowedOrigins", options.allowedOrigins, "https://app.example.com", false],
    ["cors.origins", cors?.origins, "https://app.example.com", cors !== undefined],
  ] as const) {
    if (
      (value !== undefined || required) &&
      !(Array.isArray(value) && value.every((entry) => typeof entry === "string"))
    ) {
      throw new TypeError(
        `The HTTP option ${name} must be a list of strings, such as ["${example}"]; got ${JSON.stringify(value) ?? String(value)}.`,
      );
    }
  }
}
