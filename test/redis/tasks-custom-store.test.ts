/**
 * A task store of the user's own (`TaskStore`, here wrapping the Redis one) that fails the way user
 * code may: its `get` throwing synchronously rather than rejecting, its `release` throwing. A store's
 * failure must never crash the process nor leave a rejection unhandled: the Tasks layer treats it
 * as a store that is away. `get` is read by the bus's listener when the instance's subscription is
 * back (its runs' tasks are checked for cancellation), `release` when a run's end could not be
 * written for a minute. One in-process server on a real Redis; the subscriber is killed with CLIENT
 * KILL and kept away until the test lets it back. Skipped (with the install command as the reason)
 * without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import { StateUnavailable } from "../../src/state/state.js";
import type { TaskStore } from "../../src/tasks/store.js";
import { inSession } from "../http-helpers.js";
import { BOUND_MS, busLoss, type Library, openSession } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { forever } from "./tasks-helpers.js";

const redis = useRedisServer();
const { userClient, subscriberAway } = busLoss(redis);
let prefixes = 0;

/** What escaped to the process: exceptions nobody caught, rejections nobody handled. */
const escaped: unknown[] = [];
const onEscaped = (thrown: unknown) => escaped.push(thrown);
beforeAll(() => {
  process.on("uncaughtException", onEscaped);
  process.on("unhandledRejection", onEscaped);
});
afterAll(() => {
  process.off("uncaughtException", onEscaped);
  process.off("unhandledRejection", onEscaped);
});
afterEach(() => {
  vi.useRealTimers();
  escaped.length = 0;
});

/** What the test makes the store do: `get` throw (synchronously) while set, `update` reject while set; calls counted. */
interface Failing {
  getThrows: boolean;
  updateRejects: boolean;
  thrownGets: number;
  releases: number;
}

/** The Redis store, wrapped as user code would: `get` and `release` throw, `update` rejects, as `failing` says. */
function userStore(store: TaskStore, failing: Failing): TaskStore {
  return {
    put: (record) => store.put(record),
    list: (owner) => store.list(owner),
    get: (taskId) => {
      if (!failing.getThrows) return store.get(taskId);
      failing.thrownGets++;
      throw new Error("the user's store failed to read");
    },
    update: (taskId, change) =>
      failing.updateRejects
        ? Promise.reject(new StateUnavailable(new Error("the user's store refused the write")))
        : store.update(taskId, change),
    release: (taskId) => {
      failing.releases++;
      store.release?.(taskId);
      throw new Error("the user's store failed to let the task go");
    },
  };
}

/** Why the run of `forever` stopped, if it did. */
let stopped: unknown;
/** Ends the run of `ends` with its result. */
let end: ((result: string) => void) | undefined;

/** An instance of Redis user `name` (its subscriber can be kept away) whose task store is `userStore`. */
async function instance(name: string, failing: Failing, library: Library = "node-redis") {
  const client = await userClient(name, library);
  const state = await redisState({ client, prefix: `custom-store-${prefixes++}:` });
  const server = pico({
    name: "custom-store",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state: { ...state, tasks: userStore(state.tasks, failing) },
    signals: false,
  })
    .tool(
      "forever",
      forever((reason) => {
        stopped = reason;
      }),
    )
    .tool("ends", {
      description: "A task that ends when the test says so.",
      task: "optional",
      run: () =>
        new Promise<string>((resolve) => {
          end = resolve;
        }),
    });
  const session = await openSession(server, { tasks: {} });
  let ids = 1;
  const call = async (method: string, params: Record<string, unknown>) => {
    const response = await server.fetch(inSession(session, { jsonrpc: "2.0", id: ids++, method, params }));
    return (await response.json()) as { result?: Record<string, unknown>; error?: { message: string } };
  };
  return { server, state, call };
}

/** Polls `check` until it holds, for at most BOUND_MS (a failure guard, not a timing): answers whether it did. */
async function eventually(check: () => boolean): Promise<boolean> {
  for (const end = Date.now() + BOUND_MS; !check() && Date.now() < end; ) await sleep(20);
  return check();
}

// Both clients: a throw out of a subscriber's listener ends the process with ioredis (its parser
// runs in the socket's data handler); node-redis catches it, drops the rest of what it was reading,
// and reports it as a connection error.
for (const library of ["ioredis", "node-redis"] as const) {
  it(`keeps the process up when the store's get throws as the instance's subscription comes back (${library})`, async () => {
    stopped = undefined;
    const failing: Failing = { getThrows: false, updateRejects: false, thrownGets: 0, releases: 0 };
    const name = `custom-get-${library}`;
    const { server, state, call } = await instance(name, failing, library);
    try {
      const created = await call("tools/call", { name: "forever", task: {} });
      const taskId = (created.result!.task as { taskId: string }).taskId;
      const away = await subscriberAway(name);
      failing.getThrows = true;
      await away.back();
      // Back, the instance reads the task of its run (was it cancelled meanwhile?): the store throws.
      expect(await eventually(() => failing.thrownGets > 0)).toBe(true);
      await sleep(100);
      failing.getThrows = false;
      // Was: the throw went out of the bus's listener into the Redis client's socket handler, an
      // uncaught exception that ends a Node process.
      expect(escaped).toEqual([]);
      // A store that failed is as one away: the run goes on, and a cancel still stops it.
      expect(stopped).toBeUndefined();
      expect((await call("tasks/cancel", { taskId })).result).toMatchObject({ status: "cancelled" });
      expect((stopped as Error | undefined)?.message).toBe("The client cancelled the task");
    } finally {
      await server.close();
      await state.close();
    }
  });
}

it("leaves no rejection unhandled when the store's release throws for a run whose end was given up", async () => {
  const failing: Failing = { getThrows: false, updateRejects: false, thrownGets: 0, releases: 0 };
  const { server, state, call } = await instance("custom-release", failing);
  try {
    await call("tools/call", { name: "ends", task: {} });
    expect(await eventually(() => end !== undefined)).toBe(true);
    // The minute of retries, each a second apart, passes on fake timers: then the run's end is given up.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    failing.updateRejects = true;
    end!("done");
    await vi.advanceTimersByTimeAsync(62_000);
    vi.useRealTimers();
    expect(failing.releases).toBe(1);
    // A moment for a rejection nobody handles to be reported.
    await sleep(100);
    // Was: the throw rejected the retry queue's promise of the write, which nothing handled.
    expect(escaped).toEqual([]);
  } finally {
    await server.close();
    await state.close();
  }
});
