import type { AuthSettings } from "../auth/settings.js";
import type { HttpHandler } from "./http/handler.js";
import type { HttpOptions, ServeOptions } from "./http/options.js";
import { isLoopbackHost } from "./http/security.js";
import type { WebEndpoint } from "./http/web.js";
import { type Address, FLUSH_MS, type Listening } from "./listening.js";

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
  const { port, host = "127.0.0.1", ...http } = serve;
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

interface BunLike {
  serve(options: { port: number; hostname: string; fetch: (request: Request) => Promise<Response> }): {
    port: number;
    stop(closeActiveConnections?: boolean): Promise<void>;
  };
}

interface DenoLike {
  serve(
    options: { port: number; hostname: string; onListen?: () => void },
    handler: (request: Request) => Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> };
}

/** An endpoint to listen with: its handler, and its Web face, made only for a runtime that serves Web requests. */
interface Listenable {
  readonly handler: HttpHandler;
  web(): Promise<WebEndpoint>;
}

/** Listens with the runtime's own HTTP server: Bun.serve, Deno.serve, or node:http. */
export async function listen(listenable: Listenable, address: Address): Promise<Listening> {
  const { port, host, path } = address;
  const shown = host.includes(":") ? `[${host}]` : host;
  const runtime = globalThis as { Bun?: BunLike; Deno?: DenoLike };
  if (runtime.Bun) {
    const endpoint = await listenable.web();
    const server = runtime.Bun.serve({ port, hostname: host, fetch: endpoint.fetch });
    const url = `http://${shown}:${server.port}${path}`;
    // Before the first request: requests are served once this code has returned to the event loop.
    endpoint.handler.listeningAt(url);
    return {
      url,
      port: server.port,
      close: async () => {
        await endpoint.handler.shutdown();
        // Every request has its answer, but the last ones may still be on their way: stop gracefully
        // first (Bun waits for responses in progress), then cut what is left.
        await Promise.race([server.stop(), new Promise((resolve) => setTimeout(resolve, FLUSH_MS))]);
        await server.stop(true);
      },
    };
  }
  if (runtime.Deno) {
    const endpoint = await listenable.web();
    const server = runtime.Deno.serve({ port, hostname: host, onListen: () => {} }, endpoint.fetch);
    const url = `http://${shown}:${server.addr.port}${path}`;
    endpoint.handler.listeningAt(url);
    return {
      url,
      port: server.addr.port,
      close: async () => {
        await endpoint.handler.shutdown();
        await server.shutdown();
      },
    };
  }
  const { listenNode } = await import("./node-http.js");
  return listenNode(listenable.handler, address);
}
