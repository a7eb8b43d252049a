import type { AuthSettings } from "../auth/settings.js";
import type { HttpHandler } from "./http/handler.js";
import type { HttpOptions, ServeOptions } from "./http/options.js";
import { isLoopbackHost } from "./http/security.js";
import type { WebEndpoint } from "./http/web.js";
import type { Address, Listening } from "./listening.js";

export type { Listening } from "./listening.js";

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** What `serve({ port })` takes of its server: its HTTP settings and auth, and its endpoint made with the settings it serves with. */
export interface Serving {
  readonly options: HttpOptions;
  /** Undefined for a server without auth (its settings never loaded). */
  readonly auth: AuthSettings | undefined;
  /** The endpoint's handler, made with `options` (node:http serves it straight from Node's objects). */
  endpoint(options: HttpOptions): Promise<HttpHandler>;
  /** Its Web face, for Bun.serve and Deno.serve, once `endpoint` has made it. */
  web(): Promise<WebEndpoint>;
}

/**
 * `serve({ port })`: the endpoint on the runtime's own listener, on 127.0.0.1 unless `host` says
 * otherwise. A loopback listener accepts only loopback Host headers (DNS rebinding protection).
 */
export async function listenFor(serve: ServeOptions, server: Serving): Promise<Listening> {
  const { port: given, host = "127.0.0.1", ...http } = serve;
  const port = portOf(given);
  const path = http.path ?? "/mcp";
  const loopback = isLoopbackHost(host);
  // Tokens must be issued for the URL clients use (RFC 8707): on loopback it is the listen
  // address; elsewhere (a proxy, a public name) only the operator knows it, and Host is the client's.
  if (server.auth?.verify && server.auth.resource === undefined && !loopback) {
    throw new TypeError(
      `auth.resource is needed to serve on "${host}", which is not loopback: set it to the URL clients connect to, such as "https://mcp.example.com/mcp".`,
    );
  }
  const base = server.options;
  const allowedHosts = http.allowedHosts ?? base.allowedHosts ?? (loopback ? [...LOOPBACK_HOSTS] : undefined);
  const handler = await server.endpoint({ ...base, ...http, path, allowedHosts });
  return listen({ handler, web: server.web }, { port, host, path });
}

/**
 * The port to listen on: an integer from 0 to 65535, or its digits (what `process.env.PORT` holds).
 * Each runtime reads anything else its own way: Node takes a missing port for 0 (any free one) and a
 * word for the name of a pipe, Bun a missing one for 3000, Deno for 8000.
 */
function portOf(port: unknown): number {
  const number = typeof port === "string" && /^\d{1,5}$/.test(port) ? Number(port) : port;
  if (typeof number === "number" && Number.isInteger(number) && number >= 0 && number <= 65535) return number;
  throw new TypeError(
    `serve({ port }) takes a port from 0 to 65535 (0: any free one); got ${typeof port === "string" ? JSON.stringify(port) : String(port)}.`,
  );
}

/** An endpoint to listen with: its handler, and its Web face, made only for a runtime that serves Web requests. */
interface Listenable {
  readonly handler: HttpHandler;
  web(): Promise<WebEndpoint>;
}

/**
 * Listens with the runtime's own HTTP server: Bun.serve or Deno.serve (listen-web.ts), or node:http
 * (node-http.ts), each loaded only on its runtime.
 */
export async function listen(listenable: Listenable, address: Address): Promise<Listening> {
  const { handler } = listenable;
  const bound =
    "Bun" in globalThis || "Deno" in globalThis
      ? (await import("./listen-web.js")).listenWeb(await listenable.web(), address)
      : await (await import("./node-http.js")).listenNode(handler, address);
  const { host, path } = address;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${bound.port}${path}`;
  // Before the first request: the listener serves none until this code has returned to the event loop.
  handler.listeningAt(url);
  return {
    url,
    port: bound.port,
    // Graceful: requests in progress have limits.shutdownGraceMs to finish, then every session and
    // stream ends; then the listener stops, with its connections.
    close: async () => {
      await handler.shutdown();
      await bound.stop();
    },
  };
}
