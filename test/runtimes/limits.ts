/**
 * The smoke server (server.ts) with small limits, for the limit tests on Bun and Deno: bodies of
 * 1000 bytes at most, 2000 bytes of them read at once, each to arrive within half a second; 64 KiB
 * waiting for an event stream's reader; a resource, and a tool that announces updates of it, more than that
 * at once, to the subscriptions/listen streams that watch it. It serves
 * on 127.0.0.1, port LIMITS_PORT (PICO_PORT would have server.ts serve too), and prints its URL as
 * one JSON line.
 */
import { smokeServer } from "./server.js";

interface Runtimes {
  Deno?: { env: { get(name: string): string | undefined } };
  process?: { env: Record<string, string | undefined> };
}

/**
 * How many updates `flood` announces of a resource with a URI of 600 characters (about 750 bytes an
 * event, so that the listen request naming it fits the 1000-byte body limit): 18 MiB, 280 times the
 * stream's limit, more than the sockets between server and client take.
 */
const FLOOD = 24_576;
/** The resource `flood` announces updates of; the test's listen stream subscribes to it. */
const NOTE = `notes://${"x".repeat(600)}`;

const runtimes = globalThis as Runtimes;
const server = smokeServer({
  http: { maxBodyBytes: 1000 },
  limits: { maxBodyBytesInFlight: 2000, receiveTimeoutMs: 500, maxSseBufferBytes: 64 * 1024 },
}).resource("notes://{id}", { read: ({ id }) => id });
server.tool("flood", {
  description: "Announces updates of a resource with a long URI, 100 a turn, and says on stderr once all are sent.",
  run: async () => {
    for (let sent = 0; sent < FLOOD; sent++) {
      server.resourceUpdated(NOTE);
      if (sent % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    console.error("flood: all sent");
    return "flooded";
  },
});
const port = runtimes.Deno ? runtimes.Deno.env.get("LIMITS_PORT") : runtimes.process?.env.LIMITS_PORT;
const listening = await server.serve({ port: Number(port) });
console.log(JSON.stringify({ url: listening.url }));
