import type { SharedState } from "../state/state.js";
import type { TaskRecord } from "../tasks/task.js";
import { RedisBus } from "./bus.js";
import { type RedisClient, RedisLink } from "./client.js";
import { RedisEvents } from "./events.js";
import { InstanceLease } from "./liveness.js";
import { RedisSessions } from "./sessions.js";
import { RedisTaskStore } from "./tasks.js";
import { RedisUsedStates } from "./used-states.js";

export interface RedisStateOptions {
  /** A connected client: node-redis 5 (`await createClient({ url }).connect()`) or ioredis 5 (`new Redis(url)`). */
  client: RedisClient;
  /** Prefix of every key and of the bus channel, so that several servers share one Redis. Default: "picomcp:". */
  prefix?: string;
  /** A command unanswered for this long fails the request with a retryable error. Default: 2000 ms. */
  commandTimeoutMs?: number;
  /**
   * How long a running task's instance may go silent before the task is recorded as failed, and a
   * request's stream resumed elsewhere is answered with an error saying its instance stopped (a
   * session's GET stream resumed elsewhere goes on there as that instance's own). Default: 30000 ms.
   */
  leaseMs?: number;
  /**
   * How long a session's event history outlives its last event, or its session's last use. It is
   * refreshed every quarter of `sessions.idleTimeoutMs` (keep it at least half of that) while the
   * session is in use: a request of it runs, a stream of it is open (one resumed from another instance
   * included), or a 2025-11-25 task of it holds it, until `tasks/result` takes the task's outcome,
   * `tasks/cancel` cancels it or its TTL passes (HttpSession.inUse). Default: 30 minutes (the default
   * session idle time).
   */
  historyTtlMs?: number;
}

/**
 * The shared state on Redis, for `pico({ state })`. It subscribes to its bus on a duplicate of the
 * client before it resolves; `state.close()` ends that connection at once, waiting for nothing from
 * Redis (the client stays open).
 */
export async function redisState(options: RedisStateOptions): Promise<SharedState> {
  checkOptions(options);
  const prefix = options.prefix ?? "picomcp:";
  const link = new RedisLink(options.client, options.commandTimeoutMs ?? 2000);
  const bus = new RedisBus(link, prefix, crypto.randomUUID());
  await bus.start();
  // Redis's clock, for the deadlines of the bus's messages (RedisLink.inTime): unread, the bus is closed.
  await link.clock().catch((thrown: unknown) => {
    bus.close().catch(() => {});
    throw thrown;
  });
  const leaseMs = options.leaseMs ?? 30_000;
  const lease = new InstanceLease(link, { prefix, instance: bus.instance, ms: leaseMs });
  const tasks = new RedisTaskStore(link, {
    prefix,
    leaseMs,
    publish: (record: TaskRecord) => bus.announce({ type: "task", taskId: record.taskId, status: record.status }),
  });
  const events = new RedisEvents(link, {
    prefix,
    ttlMs: options.historyTtlMs ?? 30 * 60_000,
    wake: (session, stream) => [bus.channel, bus.encode({ type: "events", session, stream })],
    instance: bus.instance,
    lease,
  });
  return {
    sessions: new RedisSessions(link, prefix),
    events,
    usedStates: new RedisUsedStates(link, prefix),
    tasks,
    bus,
    close: async () => {
      tasks.close();
      events.close();
      lease.close();
      await bus.close();
    },
  };
}

/** The options that are durations: each sets a timer, or an expiry renewed by one. */
const DURATIONS = ["commandTimeoutMs", "leaseMs", "historyTtlMs"] as const;

/**
 * Refuses, before any command, options that would fail every request later: a duration that is not a
 * whole number of milliseconds a timer can wait (NaN, or past 2^31 - 1, fires a timer at once: every
 * command would time out), or a prefix that is not a string.
 */
function checkOptions(options: RedisStateOptions): void {
  if (options.prefix !== undefined && typeof options.prefix !== "string") {
    throw new TypeError(`redisState()'s prefix must be a string, such as "picomcp:"; got ${String(options.prefix)}.`);
  }
  for (const name of DURATIONS) {
    const value = options[name];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1 && value < 2 ** 31)) {
      throw new TypeError(
        `redisState()'s ${name} must be a whole number of milliseconds from 1 to 2147483647 (about 24 days); got ${String(value)}. Leave it out for its default.`,
      );
    }
  }
}
