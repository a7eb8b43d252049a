/**
 * The server of bench/src/scaling.ts: `echo` for session calls, `quick` for tasks, its state in
 * memory or on Redis (STATE=memory|redis, REDIS_URL). Prints its port on stdout; exits when stdin closes.
 */
import { createClient } from "redis";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";

async function state() {
  if (process.env.STATE !== "redis") return undefined;
  const client = createClient({ url: process.env.REDIS_URL });
  client.on("error", () => {});
  await client.connect();
  return redisState({ client, prefix: "bench:" });
}

const server = pico({
  name: "scaling-bench",
  version: "1.0.0",
  requestStateKey: "a bench key of 32 bytes or more...",
  state: await state(),
})
  .tool("echo", { description: "Echoes", input: z.object({ text: z.string() }), run: ({ text }) => text })
  .tool("quick", { description: "A task that finishes at once", task: "optional", run: () => "done" });

const listening = await server.serve({ port: 0 });
process.stdout.write(`${listening.port}\n`);
process.stdin.resume();
process.stdin.on("end", () => process.exit(0));
