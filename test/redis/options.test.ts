/**
 * redisState() refuses options that would fail every request later, before it sends Redis a command:
 * a duration that is not a whole number of milliseconds a timer can wait (NaN, or past 2^31 - 1 ms,
 * fires a timer at once, so every command would time out), or a prefix that is not a string. The
 * client is never used, so no Redis is needed: a node-redis client that was never connected.
 */
import { createClient } from "redis";
import { describe, expect, it } from "vitest";
import { redisState } from "../../src/redis.js";

const client = createClient();

describe("redisState()'s options", () => {
  it.each([
    ["commandTimeoutMs", Number.NaN],
    ["commandTimeoutMs", 2 ** 31],
    ["leaseMs", 0],
    ["leaseMs", 1.5],
    ["historyTtlMs", Number.POSITIVE_INFINITY],
  ] as const)("refuses %s = %s, saying what it takes", async (name, value) => {
    await expect(redisState({ client, [name]: value })).rejects.toThrow(
      `redisState()'s ${name} must be a whole number of milliseconds from 1 to 2147483647 (about 24 days); got ${String(value)}. Leave it out for its default.`,
    );
  });

  it("refuses a prefix that is not a string", async () => {
    // A caller without types (JavaScript, or options read from a file) can pass anything.
    const prefix: unknown = 7;
    await expect(redisState({ client, prefix: prefix as string })).rejects.toThrow(
      `redisState()'s prefix must be a string, such as "picomcp:"; got 7.`,
    );
  });
});
