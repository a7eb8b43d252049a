import type { WebEndpoint } from "./http/web.js";
import { FLUSH_MS, type Listening } from "./listening.js";

export { isLoopbackHost } from "./http/security.js";
export type { Listening } from "./listening.js";

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

/** Listens with the runtime's own HTTP server: Bun.serve, Deno.serve, or node:http. */
export async function listen(endpoint: WebEndpoint, port: number, host: string, path: string): Promise<Listening> {
  const shown = host.includes(":") ? `[${host}]` : host;
  const runtime = globalThis as { Bun?: BunLike; Deno?: DenoLike };
  if (runtime.Bun) {
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
  const { listenNode } = await import("./node.js");
  return listenNode(endpoint.handler, port, host, path);
}
