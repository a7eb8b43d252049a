/**
 * Writes whose command Redis did not answer within the command timeout failed (the request was told
 * to retry), yet the client had sent them, and Redis ran them whenever it got to them: a requestState
 * claim made the client's retry refused as a replay, a task the client was told could not be created
 * appeared (working, in its tasks/list), a cancel the client was told failed cancelled the task, a
 * DELETE answered 503 ended its session unannounced (its history kept, its copies on other instances
 * not told) and the DELETE sent again was answered 404. Was: each came once Redis was back. Now they
 * run through RedisLink.inTime, whose script does nothing when Redis runs it later than half the
 * command timeout after it was sent (late-publish.test.ts does the same for the bus). The test's
 * redis-server is frozen (SIGSTOP: the command waits in its socket) and thawed, with each client
 * library; the state's next command on the same connection runs after the late one. Skipped (with the
 * install command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { type SharedState, StateUnavailable } from "../../src/state/state.js";
import { busLoss, type Library } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING } from "./shared-state.js";
import { workingTask } from "./tasks-helpers.js";

const redis = useRedisServer();
const { opened, userState, routedClient } = busLoss(redis);

/** A command timeout short enough for a test, long enough for a Redis that is not frozen. */
const TIMEOUT_MS = 300;

const LIBRARIES: Library[] = ["node-redis", "ioredis"];

/** An instance's state through a client of `library`, under a prefix of its own. */
function stateOf(name: string, library: Library): Promise<SharedState> {
  return userState(`${name}-${library}`, `${name}-${library}:`, { library, commandTimeoutMs: TIMEOUT_MS });
}

/** Freezes the test's redis-server, thawed after the test whatever happens; answers what thaws it. */
function freeze(): () => void {
  redis.get().freeze();
  const thawed = () => redis.get().thaw();
  opened.push(async () => thawed());
  return thawed;
}

it.each(LIBRARIES)(
  "takes a requestState the client retries with after its claim timed out while Redis was frozen (%s) (was: the late claim refused the retry as already used)",
  async (library) => {
    const state = await stateOf("late-claim", library);
    const expiresAt = Date.now() + 60_000;
    const thawed = freeze();
    await expect(state.usedStates.claim("state-1", expiresAt)).rejects.toBeInstanceOf(StateUnavailable);
    thawed();
    expect(await state.usedStates.claim("state-1", expiresAt)).toBe(true);
    expect(await state.usedStates.claim("state-1", expiresAt)).toBe(false);
  },
);

it.each(LIBRARIES)(
  "never creates a task whose creation timed out while Redis was frozen (%s) (was: it appeared, working, once Redis was back)",
  async (library) => {
    const state = await stateOf("late-put", library);
    const thawed = freeze();
    await expect(Promise.resolve(state.tasks.put(workingTask("late")))).rejects.toBeInstanceOf(StateUnavailable);
    thawed();
    expect(await state.tasks.get("late")).toBeUndefined();
    expect(await state.tasks.list("")).toEqual([]);
  },
);

it.each(LIBRARIES)(
  "never applies a task's change that timed out while Redis was frozen (%s) (was: a cancel the client was told failed cancelled the task once Redis was back)",
  async (library) => {
    const state = await stateOf("late-swap", library);
    await state.tasks.put(workingTask("cancelled-late"));
    let thawed = () => {};
    const cancelling = state.tasks.update("cancelled-late", (current) => {
      // Between the store's read and its compare-and-swap: the swap is what waits in the socket.
      thawed = freeze();
      return { ...current, status: "cancelled", lastUpdatedAt: Date.now() };
    });
    await expect(Promise.resolve(cancelling)).rejects.toBeInstanceOf(StateUnavailable);
    thawed();
    expect((await state.tasks.get("cancelled-late"))?.status).toBe("working");
  },
);

it.each(LIBRARIES)(
  "ends a session whose DELETE timed out while Redis was frozen when the official v1 client sends it again (%s) (was: the late DEL ended it unannounced, and the DELETE sent again was answered 404)",
  async (library) => {
    const server = pico({ name: "late-delete", ...SHARING, state: await stateOf("late-delete", library) });
    const listening = await server.serve({ port: 0, host: "127.0.0.1" });
    opened.push(() => listening.close());
    const url = new URL(listening.url);
    const { transport } = await routedClient(url, () => url);
    const thawed = freeze();
    await expect(transport.terminateSession()).rejects.toThrow("Service Unavailable");
    thawed();
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
  },
);
