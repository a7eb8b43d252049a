import type { WebEndpoint } from "./http/web.js";
import { type Address, type Bound, FLUSH_MS } from "./listening.js";

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

/**
 * `serve({ port })` on Bun or Deno: the endpoint's Web face on `Bun.serve` or `Deno.serve`. Its own
 * module, as node:http's listener is (node-http.ts): each runtime loads only its own.
 */
export function listenWeb(endpoint: WebEndpoint, { port, host }: Address): Bound {
  const runtime = globalThis as { Bun?: BunLike; Deno?: DenoLike };
  if (runtime.Bun) {
    const server = runtime.Bun.serve({ port, hostname: host, fetch: endpoint.fetch });
    return {
      port: server.port,
      stop: async () => {
        // Every request has its answer, but the last ones may still be on their way: stop gracefully
        // first (Bun waits for responses in progress), then cut what is left.
        await Promise.race([server.stop(), new Promise((resolve) => setTimeout(resolve, FLUSH_MS))]);
        await server.stop(true);
      },
    };
  }
  // Deno prints a line of its own when it listens, unless told what to do instead.
  const server = runtime.Deno!.serve({ port, hostname: host, onListen: () => {} }, endpoint.fetch);
  return { port: server.addr.port, stop: () => server.shutdown() };
}
