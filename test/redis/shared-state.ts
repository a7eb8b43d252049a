import { createClient } from "redis";
import { redisState } from "../../src/redis.js";
import type { RedisServer } from "./redis-server.js";

/**
 * A state shared on `server` under `prefix` (`pico({ state })`), through a node-redis client of its
 * own; closing them goes in `opened` (the client's, then the state's: a test file closes them in
 * reverse order).
 */
export async function sharedState(server: RedisServer, prefix: string, opened: (() => Promise<unknown>)[]) {
  const client: ReturnType<typeof createClient> = createClient({ url: server.url });
  client.on("error", () => {});
  await client.connect();
  opened.push(() => client.close());
  const state = await redisState({ client, prefix });
  opened.push(() => state.close());
  return state;
}
