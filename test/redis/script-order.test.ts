/**
 * Commands of one link reach Redis in the order issued, scripts included: on a script's first use
 * by a link, and when Redis has lost its script cache since (SCRIPT FLUSH here; a restart without
 * persistence does the same), for both clients the state supports. The event history depends on
 * it: its writes go in order on the store's connection (http/history-mirror.ts), so a stream's END issued
 * after the APPEND of its last event must not overtake it. Skipped (with the install command as the
 * reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { Redis } from "ioredis";
import { createClient } from "redis";
import { afterEach, describe, expect, it } from "vitest";
import { RedisLink } from "../../src/redis/client.js";
import { redisState } from "../../src/redis.js";
import { live } from "./records.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();

/** A script that depends on nothing before it: it sets the key to its argument. */
const SET = "redis.call('SET', KEYS[1], ARGV[1]) return 1";
const WIDE = { maxEvents: 100, maxSessionBytes: 1_000_000, maxBytes: 1_000_000 };

const closers: (() => Promise<unknown>)[] = [];
let keys = 0;

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A connected client of `library`, closed after the test. */
async function connected(library: "node-redis" | "ioredis") {
  if (library === "ioredis") {
    const client = new Redis({ host: "127.0.0.1", port: redis.get().port, maxRetriesPerRequest: 1 });
    client.on("error", () => {});
    closers.push(() => client.quit());
    await new Promise((resolve) => client.once("ready", resolve));
    return client;
  }
  const client = createClient({ url: redis.get().url });
  client.on("error", () => {});
  await client.connect();
  closers.push(() => client.close());
  return client;
}

/** Another connection, as an operator's: what Redis holds, and SCRIPT FLUSH. */
async function operator() {
  const client = createClient({ url: redis.get().url });
  client.on("error", () => {});
  await client.connect();
  closers.push(() => client.close());
  return client;
}

for (const library of ["node-redis", "ioredis"] as const) {
  describe(`a link's commands, with ${library}`, () => {
    it("reach Redis in the order issued on a script's first use (was: the next command overtook its SCRIPT LOAD round trip)", async () => {
      const link = new RedisLink(await connected(library), 2000);
      const key = `order-${keys++}`;
      const script = link.script(SET, [key], ["a"]);
      const after = link.command(["APPEND", key, "b"]);
      await Promise.all([script, after]);
      expect(await (await operator()).get(key)).toBe("ab");
    });

    it("reach Redis in the order issued when Redis lost the script since (was: the next command overtook the retry after NOSCRIPT)", async () => {
      const link = new RedisLink(await connected(library), 2000);
      const admin = await operator();
      const key = `order-${keys++}`;
      await link.script(SET, [key], ["first"]);
      await admin.sendCommand(["SCRIPT", "FLUSH"]);
      const script = link.script(SET, [key], ["a"]);
      const after = link.command(["APPEND", key, "b"]);
      await Promise.all([script, after]);
      expect(await admin.get(key)).toBe("ab");
    });

    it("end a stream after its last event when END is issued at once after its APPEND, on the APPEND script's first use (was: END came first, forgot the stream then empty, and the event began it again, never ended)", async () => {
      const state = await redisState({ client: await connected(library), prefix: `order-${keys++}:` });
      closers.push(() => state.close());
      await live(state, "s");
      // The END script is in use already (a stream ended before); the APPEND script is not.
      await state.events.end("s", 1);
      const appended = state.events.append("s", { stream: 2, seq: 1, text: "the answer" }, WIDE);
      const ended = state.events.end("s", 2);
      await Promise.all([appended, ended]);
      const slice = await state.events.read("s", 2, 0);
      expect(slice).toMatchObject({ last: 1, done: true, events: [{ seq: 1, text: "the answer" }] });
    });
  });
}
