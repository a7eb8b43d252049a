/**
 * The smoke server (server.ts) with small body limits, for the body tests on Bun and Deno: bodies of
 * 1000 bytes at most, 2000 bytes of them read at once, each to arrive within half a second. It
 * serves on 127.0.0.1, port BODIES_PORT (PICO_PORT would have server.ts serve too), and prints its
 * URL as one JSON line.
 */
import { smokeServer } from "./server.js";

interface Runtimes {
  Deno?: { env: { get(name: string): string | undefined } };
  process?: { env: Record<string, string | undefined> };
}

const runtimes = globalThis as Runtimes;
const server = smokeServer({
  http: { maxBodyBytes: 1000 },
  limits: { maxBodyBytesInFlight: 2000, receiveTimeoutMs: 500 },
});
const port = runtimes.Deno ? runtimes.Deno.env.get("BODIES_PORT") : runtimes.process?.env.BODIES_PORT;
const listening = await server.serve({ port: Number(port) });
console.log(JSON.stringify({ url: listening.url }));
