/**
 * A bus message whose PUBLISH Redis did not answer within the command timeout failed (the request
 * was told to retry, `announce` holds it for its next try), yet the client had sent it: Redis ran
 * it whenever it got to it, after the instance's `close()` too, and other instances acted on a
 * message of an instance that was gone (a tasks/update's hand-over, a relayed client message). Was:
 * the message came once Redis was back. Now the bus publishes with a script that does nothing when
 * Redis runs it later than half the command timeout after it was sent, by Redis's clock
 * (RedisLink.inTime), which the instance reads against its own. The test's redis-server is frozen
 * (SIGSTOP: it reads nothing, as a hung Redis; the PUBLISH waits in its socket) and thawed, with
 * each client library; every wait is bounded. Skipped (with the install command as the reason)
 * without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { expect, it, vi } from "vitest";
import { StateUnavailable } from "../../src/state/state.js";
import { within } from "../http-helpers.js";
import { BOUND_MS, busLoss, type Library } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();
const { opened, userState, busHeard } = busLoss(redis);

/** A command timeout short enough for a test, long enough for a Redis that is not frozen. */
const TIMEOUT_MS = 300;

it.each<Library>(["node-redis", "ioredis"])(
  "never publishes a bus message that timed out while Redis was frozen, once the instance has closed (%s) (was: published when Redis came back)",
  async (library) => {
    const prefix = `late-${library}:`;
    const state = await userState(`late-${library}`, prefix, { library, commandTimeoutMs: TIMEOUT_MS });
    const bus = await busHeard(prefix);
    // In time, a message goes out.
    await state.bus.publish({ type: "session", id: "in-time" });
    expect(await bus.heard()).toEqual(["session"]);

    redis.get().freeze();
    const thawed = () => redis.get().thaw();
    opened.push(async () => thawed());
    // Sent at once, both: `announce` too, which then holds its message for a next try that never comes.
    state.bus.announce({ type: "task-cancel", taskId: "late" });
    await expect(state.bus.publish({ type: "session", id: "late" })).rejects.toBeInstanceOf(StateUnavailable);
    // The instance closes while Redis is frozen (ending its subscriber waits for nothing), then Redis comes back.
    await within(state.close(), BOUND_MS, "close()");
    thawed();
    expect(await bus.heard()).toEqual(["session"]);
  },
);

it("publishes in time whatever this process's clock says, an hour behind Redis's (the deadline is on Redis's clock)", async () => {
  const real = Date.now.bind(Date);
  vi.spyOn(Date, "now").mockImplementation(() => real() - 3_600_000);
  opened.push(async () => vi.restoreAllMocks());
  const prefix = "late-clock:";
  const state = await userState("late-clock", prefix, { commandTimeoutMs: TIMEOUT_MS });
  const bus = await busHeard(prefix);
  await state.bus.publish({ type: "session", id: "ahead" });
  await state.bus.announce({ type: "task-cancel", taskId: "ahead" });
  expect(await bus.heard()).toEqual(["session", "task-cancel"]);
});

it("never publishes a timed-out bus message late when this process's wall clock steps forward after it started (was: the deadline moved on with the step)", async () => {
  const prefix = "late-step:";
  const state = await userState("late-step", prefix, { commandTimeoutMs: TIMEOUT_MS });
  const bus = await busHeard(prefix);
  await state.bus.publish({ type: "session", id: "before" });
  expect(await bus.heard()).toEqual(["session"]);
  // NTP, or a machine waking from sleep: the wall clock jumps an hour ahead of Redis's.
  const real = Date.now.bind(Date);
  vi.spyOn(Date, "now").mockImplementation(() => real() + 3_600_000);
  opened.push(async () => vi.restoreAllMocks());
  redis.get().freeze();
  const thawed = () => redis.get().thaw();
  opened.push(async () => thawed());
  await expect(state.bus.publish({ type: "session", id: "late" })).rejects.toBeInstanceOf(StateUnavailable);
  await within(state.close(), BOUND_MS, "close()");
  thawed();
  expect(await bus.heard()).toEqual(["session"]);
});
