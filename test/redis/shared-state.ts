import { createClient } from "redis";
import { redisState } from "../../src/redis.js";
import type { RedisServer } from "./redis-server.js";

/**
 * The options an instance sharing a state takes besides it: one requestStateKey for every instance,
 * since each reads the request state another signed (docs/scaling.md); no signal handlers, which are
 * the test process's; a version, for a complete serverInfo.
 */
export const SHARING = { version: "1.0.0", requestStateKey: "a shared secret of 32 bytes or more!", signals: false };

/**
 * A state shared on `server` under `prefix` (`pico({ state })`), through a node-redis client of its
 * own, made with `options`; closing them goes in `opened` (the client's, then the state's: a test file
 * closes them in reverse order).
 */
export async function sharedState(
  server: Pick<RedisServer, "url">,
  prefix: string,
  opened: (() => Promise<unknown>)[],
  options: Parameters<typeof createClient>[0] = {},
) {
  const client: ReturnType<typeof createClient> = createClient({ ...options, url: server.url });
  client.on("error", () => {});
  await client.connect();
  opened.push(() => client.close());
  const state = await redisState({ client, prefix });
  opened.push(() => state.close());
  return state;
}
