/**
 * A running HTTP server, as `serve({ port })` answers it on every runtime (Bun, Deno, node:http).
 * Its own module, so that node.ts, loaded by listen.ts, does not import listen.ts back.
 */
export interface Listening {
  /** The endpoint URL clients connect to. */
  readonly url: string;
  readonly port: number;
  /**
   * Shuts down gracefully: new requests get 503, requests in progress have `limits.shutdownGraceMs`
   * to finish (the rest are answered with an error), then sessions, streams and the listener close.
   */
  close(): Promise<void>;
}

/** Where `serve({ port })` listens: the port (0 for any free one), the host, and the endpoint's path. */
export interface Address {
  readonly port: number;
  readonly host: string;
  readonly path: string;
}

/** A runtime's listener, bound: the port it listens on, and how it stops once the endpoint has shut down. */
export interface Bound {
  readonly port: number;
  /** Closes the listener and its connections: by then every request has its answer (see `Listening.close`). */
  stop(): Promise<void>;
}

/** How long `close()` waits for the last answers to reach their sockets before it closes them. */
export const FLUSH_MS = 1000;
