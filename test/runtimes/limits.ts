/**
 * The smoke server (server.ts) with small limits, for the limit tests on Bun and Deno: bodies of
 * 1000 bytes at most, 2000 bytes of them read at once, each to arrive within half a second; 64 KiB
 * waiting for an event stream's reader; and a tool that sends its stream more than that at once. It serves
 * on 127.0.0.1, port LIMITS_PORT (PICO_PORT would have server.ts serve too), and prints its URL as
 * one JSON line.
 */
import { smokeServer } from "./server.js";

interface Runtimes {
  Deno?: { env: { get(name: string): string | undefined } };
  process?: { env: Record<string, string | undefined> };
}

/** How many 1 KiB progress notifications `flood` sends at most: 16 MiB, 256 times the stream's limit. */
const FLOOD = 16_384;

const runtimes = globalThis as Runtimes;
const server = smokeServer({
  http: { maxBodyBytes: 1000 },
  limits: { maxBodyBytesInFlight: 2000, receiveTimeoutMs: 500, maxSseBufferBytes: 64 * 1024 },
}).tool("flood", {
  description: "Reports progress with 1 KiB messages, 100 a turn, until cancelled, and says on stderr whether it was.",
  run: async (_args, ctx) => {
    for (let sent = 0; sent < FLOOD && !ctx.signal.aborted; sent++) {
      ctx.progress(sent, FLOOD, "x".repeat(1024));
      if (sent % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    console.error(ctx.signal.aborted ? "flood: cancelled" : "flood: all sent");
    return "flooded";
  },
});
const port = runtimes.Deno ? runtimes.Deno.env.get("LIMITS_PORT") : runtimes.process?.env.LIMITS_PORT;
const listening = await server.serve({ port: Number(port) });
console.log(JSON.stringify({ url: listening.url }));
