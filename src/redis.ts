/**
 * `picomcp/redis`: the shared state of several instances of one server (docs/scaling.md) on
 * Redis, through the application's own client (node-redis 6 or 5, or ioredis 5).
 */
export type { IoRedisClient, NodeRedisClient, RedisClient } from "./redis/client.js";
export { type RedisStateOptions, redisState } from "./redis/state.js";
export type { SharedState } from "./state/state.js";
