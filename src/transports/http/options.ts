import type { SharedState } from "../../state/state.js";

/**
 * What `serve({ port })`, `server.fetch` and `server.node` accept for the Streamable HTTP endpoint
 * (docs/http.md). Declared apart from the endpoint's code so that the server's options can name them
 * without depending on the transport (issue 14: no import cycle).
 */

export interface HttpOptions extends SecurityOptions {
  /** The endpoint path (e.g. "/mcp"); other paths answer 404. Default: every path is the endpoint. */
  path?: string;
  /** Largest request body accepted, in bytes; larger ones get 413. Default: `limits.maxMessageBytes` (4 MiB). */
  maxBodyBytes?: number;
  /**
   * Legacy (2025-11-25 and older) clients: stateful sessions with `Mcp-Session-Id` (the default,
   * needed for server-to-client requests and the GET stream), or `false` to serve each legacy
   * request on its own (the default on Cloudflare Workers, see docs/http.md). 2026-07-28 requests
   * are always stateless.
   */
  sessions?: boolean | SessionOptions;
  /**
   * CORS for clients that run in a web page: `true` lets a page from any origin call the endpoint,
   * `{ origins }` only pages from those origins (and from `allowedOrigins`). Default: off, and a
   * preflight `OPTIONS` answers 405.
   */
  cors?: boolean | CorsOptions;
  /**
   * Set from `pico({ state })`: 2025-11-25 sessions and their event history shared by every
   * instance of the server (docs/scaling.md).
   */
  state?: SharedState | undefined;
}

export interface SecurityOptions {
  /**
   * Host header values accepted (`"example.com"` matches any port, `"example.com:8443"` one; an IP
   * address matches in any spelling, and a loopback address stands for every loopback address).
   * `serve()` on a loopback address defaults this to the loopback names, against DNS rebinding.
   */
  allowedHosts?: string[];
  /**
   * Origins accepted when a browser sends `Origin` (`"*"`: any); the server's own origin is always
   * accepted, and so are the origins of the `cors` option.
   */
  allowedOrigins?: string[];
}

export interface SessionOptions {
  /** A session unused for this long is forgotten; its id then answers 404. Default: 30 minutes. */
  idleTimeoutMs?: number;
  /** At most this many sessions; past it the least recently used one is evicted. Default: 1000. */
  maxSessions?: number;
  /** Server-sent events kept per session for `Last-Event-ID` resumption (and at most `limits.maxHistoryBytesPerSession` bytes of them). Default: 100. */
  eventHistory?: number;
  /** The reconnection delay sent in each stream's `retry` field (SEP-1699). Default: 1000 ms. */
  retryMs?: number;
}

/** Cross-origin access for clients that run in a web page. */
export interface CorsOptions {
  /** The origins whose pages may call the endpoint, such as "https://app.example.com". */
  origins: string[];
}

/** Where and how `serve()` listens for Streamable HTTP. */
export interface ServeOptions extends HttpOptions {
  /** 0 to 65535 (0: any free one), or its digits as `process.env.PORT` holds them; anything else throws at `serve()`. */
  port: number | string;
  /** Interface to bind; default "127.0.0.1". Bind to a public address only behind authentication. */
  host?: string;
}
