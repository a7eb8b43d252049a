/**
 * One instance of a server that runs as several behind a load balancer (docs/scaling.md): its
 * 2025-11-25 sessions, their resumable streams, tasks and the requestState replay guard live in
 * Redis, so any instance answers any request and no sticky sessions are needed.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 MCP_STATE_KEY=<32+ random bytes, the same on every instance> \
 *     PORT=3001 node --import tsx examples/scaling/server.ts
 *
 * Start as many as you like on other ports, and put examples/scaling/balancer.ts (or your own
 * balancer) in front. It needs a Redis server and node-redis: `npm install redis` first (or pass
 * an ioredis client to redisState instead).
 */

import { pico } from "picomcp";
import { redisState } from "picomcp/redis";
import { createClient } from "redis";
import { z } from "zod";

const client = createClient({ url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" });
// The client reconnects by itself; while it does, requests get 503 with Retry-After.
client.on("error", (error: Error) => console.error(`redis: ${error.message}`));
await client.connect();

const stateKey = process.env.MCP_STATE_KEY;
if (!stateKey || stateKey.length < 32) {
  throw new Error("Set MCP_STATE_KEY to the same secret of 32 or more characters on every instance");
}

const server = pico({
  name: "scaling-example",
  version: "1.0.0",
  // Every instance seals and opens the others' requestStates with this key.
  requestStateKey: stateKey,
  state: await redisState({ client, prefix: "scaling-example:" }),
})
  .tool("whoami", {
    description: "Says which instance answered.",
    run: () => `instance ${process.pid}`,
  })
  .tool("count_to", {
    description: "Counts to n, one a second, reporting progress: a stream that survives a dropped connection.",
    input: z.object({ n: z.number().int().min(1).max(60) }),
    run: async ({ n }, ctx) => {
      for (let i = 1; i <= n; i++) {
        ctx.progress(i, n, `${i}`);
        await new Promise((resolve) => setTimeout(resolve, Number(process.env.STEP_MS ?? 1000)));
      }
      return `counted to ${n} on instance ${process.pid}`;
    },
  })
  .tool("approve_deploy", {
    description: "A task: asks for approval, then deploys. Poll, answer and cancel it through any instance.",
    input: z.object({ version: z.string().max(40) }),
    task: "optional",
    run: async ({ version }, ctx) =>
      (await ctx.confirm(`Deploy ${version}?`)) ? `deployed ${version}` : `kept the current version`,
  });

const listening = await server.serve({ port: Number(process.env.PORT ?? 3001) });
console.error(`scaling example instance ${process.pid} on ${listening.url}`);
