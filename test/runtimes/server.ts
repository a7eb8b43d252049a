/**
 * The server of the runtime smoke tests: the same file on Node, Bun, Deno and workerd. Run with
 * PICO_PORT set (0: any free port), it serves Streamable HTTP on 127.0.0.1 and prints its URL as
 * one JSON line; its default export is the Web handler for workerd and `deno serve`.
 */
import { z } from "zod";
import type { RequestContext } from "../../src/core/context.js";
import { pico, type ServerOptions } from "../../src/index.js";

interface Runtimes {
  Bun?: { version: string };
  Deno?: { version: { deno: string }; env: { get(name: string): string | undefined } };
  process?: { version: string; env: Record<string, string | undefined> };
  navigator?: { userAgent?: string };
}

const runtimes = globalThis as Runtimes;

/** The runtime this code runs on, with its version: the tests check that it is the one they started. */
function runtime(): string {
  if (runtimes.Bun) return `bun ${runtimes.Bun.version}`;
  if (runtimes.Deno) return `deno ${runtimes.Deno.version.deno}`;
  if (runtimes.navigator?.userAgent === "Cloudflare-Workers") return "workerd";
  return `node ${runtimes.process?.version.slice(1)}`;
}

/** The smoke server, with the options a test asks for (the Durable Object test turns sessions on). */
export function smokeServer(options: Pick<ServerOptions, "http" | "limits"> = {}) {
  return pico({ name: "runtime-smoke", version: "1.0.0", ...options }).tool("greet", {
    description: "Greets someone and says where it runs; reports progress first when the client asks for it.",
    input: z.object({ name: z.string().min(1) }),
    run: ({ name }, ctx) => {
      const progressToken = ctx.meta?.progressToken;
      if (progressToken !== undefined) {
        // A notification before the result turns the reply into an SSE stream on every runtime.
        (ctx as RequestContext).emit?.({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken, progress: 1, total: 1 },
        });
      }
      return `Hello, ${name}, from ${runtime()}`;
    },
  });
}

const server = smokeServer();
export default server;

const port = runtimes.Deno ? runtimes.Deno.env.get("PICO_PORT") : runtimes.process?.env.PICO_PORT;
if (port) {
  const listening = await server.serve({ port: Number(port) });
  console.log(JSON.stringify({ url: listening.url }));
}
