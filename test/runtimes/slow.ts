/**
 * A server whose tools outlast the second after which picomcp answers a Deno request as a stream
 * (web.ts, DENO_STREAM_AFTER_MS). Run with PICO_PORT set (on Deno or Bun), it serves on 127.0.0.1
 * and prints its URL as one JSON line; its default export is for `deno serve`. It writes what its
 * tools see to stderr. It runs two requests at most (limits.maxConcurrentRequests): a client that
 * leaves must free its requests' slots for the next ones.
 */
import { z } from "zod";
import { pico } from "../../src/index.js";

interface Runtimes {
  Deno?: { env: { get(name: string): string | undefined } };
  process?: { env: Record<string, string | undefined> };
}

/** How long `hang` waits for its signal before it gives up: a guard, so that no run outlives its test. */
const HANG_LIMIT_MS = 30_000;

const server = pico({ name: "slow", version: "1.0.0", limits: { maxConcurrentRequests: 2 } })
  .tool("slow", {
    description: "Answers after 1.5 s, past the second after which a Deno request streams.",
    run: () => new Promise<string>((resolve) => setTimeout(() => resolve("done after 1.5 s"), 1500)),
  })
  .tool("hang", {
    description: "Runs until its signal aborts, and says so on stderr (with the tag it was called with).",
    input: z.object({ tag: z.string() }),
    run: ({ tag }, { signal }) => {
      console.error(`hang ${tag}: started`);
      return new Promise<string>((resolve, reject) => {
        const limit = setTimeout(() => resolve(`not aborted within ${HANG_LIMIT_MS} ms`), HANG_LIMIT_MS);
        signal.addEventListener("abort", () => {
          clearTimeout(limit);
          console.error(`hang ${tag}: aborted`);
          reject(signal.reason);
        });
      });
    },
  });

export default server;

const runtimes = globalThis as Runtimes;
const port = runtimes.Deno ? runtimes.Deno.env.get("PICO_PORT") : runtimes.process?.env.PICO_PORT;
if (port) {
  const listening = await server.serve({ port: Number(port) });
  console.log(JSON.stringify({ url: listening.url }));
}
