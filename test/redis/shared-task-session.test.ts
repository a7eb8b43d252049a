/**
 * A shared 2025-11-25 session (`pico({ state })`) whose task runs, or whose task's result waits to
 * be taken, is in use on every instance (docs/tasks.md): the instance running the task keeps the
 * session's record from expiring, as it does for a request in progress. Was: a client polling less
 * often than `idleTimeoutMs` found its session gone from Redis on every instance (404), and with
 * it the task. Two instances on a real Redis, sessions idle for 400 ms at most: the task is made on
 * A, polled and taken on B (its result relayed from A). Every wait is bounded. Skipped (with the
 * install command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { askInSession, initialize, signal } from "../http-helpers.js";
import { createdTaskId } from "../tasks/tasks-helpers.js";
import { busLoss } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING, sharedState } from "./shared-state.js";

const redis = useRedisServer();
const { opened, recordThere } = busLoss(redis);

const IDLE_MS = 400;

/**
 * An instance sharing its state under `prefix`, whose tool `wait` runs as a task until `done`
 * resolves, and whose tool `quick` answers at once.
 */
async function instance(prefix: string, done: Promise<void>) {
  const server = pico({
    name: "shared-task-session",
    ...SHARING,
    state: await sharedState(redis.get(), prefix, opened),
    http: { sessions: { idleTimeoutMs: IDLE_MS } },
  })
    .tool("wait", {
      description: "Waits until the test lets it finish.",
      task: "optional",
      run: async () => {
        await done;
        return "finished";
      },
    })
    .tool("quick", { description: "Answers at once.", task: "optional", run: () => "quick" });
  opened.push(() => server.close());
  return server;
}

it("keeps a session on every instance while its task runs and its result waits; lets it expire once the result is taken", async () => {
  const prefix = "task-session:";
  const done = signal();
  const [a, b] = [await instance(prefix, done.promise), await instance(prefix, done.promise)];
  const id = await initialize(a);
  const created = await askInSession(a, id, "tools/call", { name: "wait", arguments: {}, task: {} });
  const taskId = createdTaskId(created);
  // The client polls less often than idleTimeoutMs, on the other instance. Was: 404 there, the record expired.
  await sleep(2.5 * IDLE_MS);
  const polled = await askInSession(b, id, "tasks/get", { taskId });
  expect(polled.status).toBe(200);
  expect(polled.answer?.result).toMatchObject({ taskId, status: "working" });
  done.resolve();
  await sleep(2.5 * IDLE_MS);
  const taken = await askInSession(b, id, "tasks/result", { taskId });
  expect(taken.status).toBe(200);
  expect(taken.answer?.result).toMatchObject({ content: [{ type: "text", text: "finished" }] });
  // Taken (A is told so on the bus): the session expires idle, its record too. A wait, not a timing assertion.
  await sleep(4 * IDLE_MS);
  expect(await recordThere(prefix, id)).toBe(false);
});

it("keeps a session whose result waits on every instance though another session's 1000 tasks took every channel; lets it expire once taken elsewhere", async () => {
  const prefix = "task-session-channels:";
  const done = signal();
  const [a, b] = [await instance(prefix, done.promise), await instance(prefix, done.promise)];
  const quick = { name: "quick", arguments: {}, task: {} };
  const id = await initialize(a);
  const taskId = createdTaskId(await askInSession(a, id, "tools/call", quick));
  // As many finished tasks of another session on A as an instance keeps channels for (tasks.ts MAX_CHANNELS).
  const noisy = await initialize(a);
  for (let i = 0; i < 1000; i++) await askInSession(a, noisy, "tools/call", quick);
  // Was: 404, A let go of the hold with the task's channel, and the session's record expired.
  await sleep(2.5 * IDLE_MS);
  const taken = await askInSession(b, id, "tasks/result", { taskId });
  expect(taken.status).toBe(200);
  expect(taken.answer?.result).toMatchObject({ content: [{ type: "text", text: "quick" }] });
  // Taken on B (task-unwait tells A, which holds no channel for it): the session expires idle. A wait, not a timing assertion.
  await sleep(4 * IDLE_MS);
  expect(await recordThere(prefix, id)).toBe(false);
});
