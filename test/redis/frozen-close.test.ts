/**
 * An instance shut down while its Redis is frozen (SIGSTOP: it reads nothing and answers nothing, as
 * a hung Redis; its connections stay open) still shuts down, within the bound docs/scaling.md gives
 * ("Deploys, crashes and a Redis outage"), and leaves nothing running: `server.close()` and
 * `state.close()` resolve, and the process exits on its own once the application has closed its own
 * client. Was: `state.close()` waited for Redis to answer its subscriber's QUIT (ioredis) or pending
 * PING (node-redis), so the process hung until it was killed. The instance (test/fixtures/scaling-server.ts, SHUTDOWN=own) serves a
 * 2025-11-25 session with its GET stream, a request in progress, and a task of each era, with each
 * client library. Skipped (with the install command as the reason) without redis-server, failed
 * with PICOMCP_REQUIRE_REDIS.
 */
import { expect, it } from "vitest";
import { EventReader, within } from "../http-helpers.js";
import { BOUND_MS, busLoss, type Library } from "./bus-loss.js";
import { LegacyClient, ModernClient } from "./clients.js";
import { startInstance } from "./cluster.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();
const { opened } = busLoss(redis);

/** The fixture's `commandTimeoutMs`, and the grace it is given here (SHUTDOWN_GRACE_MS). */
const COMMAND_TIMEOUT_MS = 500;
const GRACE_MS = 1000;
/** ioredis's default `disconnectTimeout`: how long the application's own client may wait for Redis once disconnected. */
const IOREDIS_DISCONNECT_MS = 2000;
/**
 * What docs/scaling.md bounds the shutdown by, with Redis not answering: `server.close()` within
 * `limits.shutdownGraceMs` and a `commandTimeoutMs`, `state.close()` at once, its connection gone
 * within a `commandTimeoutMs`, the application's client as its library closes it; and BOUND_MS on
 * top, for a loaded machine (a failure guard, not a timing).
 */
const GUARD_MS = GRACE_MS + 2 * COMMAND_TIMEOUT_MS + IOREDIS_DISCONNECT_MS + BOUND_MS;

/**
 * node-redis's subscriber has a command pending when Redis freezes once the application's client
 * has a `pingInterval` (its duplicate inherits it): its PING. ioredis's `quit()` waits anyway.
 */
const CASES: [Library, Record<string, string>][] = [
  ["node-redis", { PING_MS: "100" }],
  ["ioredis", {}],
];

it.each(CASES)(
  "shuts down, and its process exits on its own, while Redis is frozen (%s) (was: state.close() waited for Redis for ever)",
  async (library, env) => {
    const instance = await startInstance({
      REDIS_URL: redis.get().url,
      REDIS_CLIENT: library,
      PREFIX: `frozen-${library}:`,
      SHUTDOWN: "own",
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      ...env,
    });
    const child = instance.process;
    opened.push(async () => child.kill("SIGKILL"));
    // What it prints after its address (startInstance read that): a line as each close() resolves.
    let printed = "";
    child.stdout.on("data", (chunk: string) => {
      printed += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

    const legacy = new LegacyClient(instance.url.href);
    await legacy.open();
    const stream = new EventReader(await legacy.get());
    opened.push(() => stream.cancel());
    await legacy.result("tools/call", { name: "forever", task: { ttl: 60_000 } });
    expect((await new ModernClient(instance.url.href).result("tools/call", { name: "forever" })).taskId).toEqual(
      expect.any(String),
    );
    // A request in progress: past its priming event, its progress.
    const call = await legacy.post("tools/call", {
      name: "steps",
      arguments: { count: 1, everyMs: 600_000 },
      _meta: { progressToken: 1 },
    });
    const running = new EventReader(call);
    opened.push(() => running.cancel());
    for (let event = await running.next(BOUND_MS); !event?.data; event = await running.next(BOUND_MS));

    redis.get().freeze();
    opened.push(async () => redis.get().thaw());
    child.kill("SIGTERM");
    const code = await within(exited, GUARD_MS, "the instance's exit").catch((thrown: Error) => {
      // Which close() it got past, if any.
      throw new Error(`${thrown.message}; it printed ${JSON.stringify(printed)}`);
    });
    expect(code).toBe(0);
    expect(printed.split("\n").filter(Boolean)).toEqual([
      JSON.stringify({ closed: "server" }),
      JSON.stringify({ closed: "state" }),
    ]);
  },
);
