/**
 * What a hostile client can make a server hold with tasks, on one instance (the in-memory store) and
 * with instances sharing their state on a real Redis (`pico({ state })`, docs/scaling.md): each
 * instance runs at most `limits.maxTasks` tasks at a time (default 1000, DEFAULT_MAX_TASKS), and a
 * call past that is refused with an error that says so, rather than each task's run being held in the instance's memory
 * without bound (Redis holds the records, the instance the runs). In-process servers
 * (`server.fetch`), 2026-07-28 requests; every wait is bounded. Skipped (with the install command as
 * the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { afterEach, expect, it } from "vitest";
import { META } from "../../src/core/types.js";
import { pico } from "../../src/index.js";
import type { redisState } from "../../src/redis.js";
import { DEFAULT_MAX_TASKS } from "../../src/tasks/store.js";
import { modern } from "../http-helpers.js";
import { useRedisServer } from "./redis-server.js";
import { sharedState } from "./shared-state.js";
import { forever } from "./tasks-helpers.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
let prefixes = 0;

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

const TASKS = "io.modelcontextprotocol/tasks";
type Server = ReturnType<typeof pico>;

/**
 * A server of the `forever` task tool; with `state`, shared; `maxTasks`, its limit (else the default).
 * Its callers are anonymous 2026-07-28 requests, which may take every task here (their own share,
 * limits.maxAnonymousTasks, is test/peers/tasks-anonymous.test.ts's).
 */
function server(state?: Awaited<ReturnType<typeof redisState>>, maxTasks?: number): Server {
  const made = pico({
    name: "tasks-limits",
    version: "1.0.0",
    limits: { maxTasks, maxAnonymousTasks: Infinity },
    requestStateKey: "a shared secret of 32 bytes or more!",
    ...(state && { state }),
    signals: false,
  }).tool(
    "forever",
    forever(() => {}),
  );
  opened.push(() => made.close());
  return made;
}

/** A 2026-07-28 request declaring the Tasks extension; `Mcp-Name` names its task. */
async function send(on: Server, method: string, params: Record<string, unknown>) {
  const _meta = { [META.clientCapabilities]: { extensions: { [TASKS]: {} } } };
  const named = typeof params.taskId === "string" ? { "mcp-name": params.taskId } : {};
  const response = await on.fetch(modern(method, { ...params, _meta }, named));
  return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

const start = (on: Server) => send(on, "tools/call", { name: "forever", arguments: {} });

/** Starts `count` tasks on `on`, in batches of 100 as a client's concurrent calls would come; answers their ids. */
async function fill(on: Server, count: number): Promise<string[]> {
  const taskIds: string[] = [];
  for (let started = 0; started < count; started += 100) {
    const created = await Promise.all(Array.from({ length: Math.min(100, count - started) }, () => start(on)));
    for (const { result } of created) taskIds.push(result?.taskId as string);
  }
  return taskIds;
}

/** The refusal of a task past `max` running, as the model reads it. */
function refusal(max: number) {
  return {
    code: -32603,
    message: `Could not create a task: the server is running ${max} tasks already, the most it may (limits.maxTasks = ${max}); try again once one has finished, or cancel those you no longer need with tasks/cancel.`,
    data: { limit: "maxTasks", max },
  };
}

for (const shared of [false, true]) {
  const where = shared ? "with state shared on Redis" : "alone";
  const state = async () => (shared ? sharedState(redis.get(), `tasks-limits-${prefixes++}:`, opened) : undefined);

  it(`refuses a task past ${DEFAULT_MAX_TASKS} running on one instance, ${where}, and takes one again once one has ended`, async () => {
    const on = server(await state());
    const taskIds = await fill(on, DEFAULT_MAX_TASKS);
    expect(new Set(taskIds).size).toBe(DEFAULT_MAX_TASKS);
    // Was (shared): created, and every one after it, each run held by this instance for its TTL.
    expect((await start(on)).error).toEqual(refusal(DEFAULT_MAX_TASKS));
    expect(await send(on, "tasks/cancel", { taskId: taskIds[0] })).toMatchObject({ result: {} });
    expect((await start(on)).result).toMatchObject({ resultType: "task", status: "working" });
  });

  // Was: limits.maxTasks was an unknown limit (pico() threw), the instance's bound a fixed 1000.
  it(`runs at most limits.maxTasks tasks at a time when set lower, ${where}`, async () => {
    const on = server(await state(), 30);
    const taskIds = await fill(on, 30);
    expect(new Set(taskIds).size).toBe(30);
    expect((await start(on)).error).toEqual(refusal(30));
    expect(await send(on, "tasks/cancel", { taskId: taskIds[0] })).toMatchObject({ result: {} });
    expect((await start(on)).result).toMatchObject({ resultType: "task", status: "working" });
    expect((await start(on)).error).toEqual(refusal(30));
  });
}

// The in-memory store keeps as many tasks as the instance may run: a store of its own 1000 would
// refuse the 1001st that limits.maxTasks allows.
it("runs limits.maxTasks tasks at a time when set above 1000, its in-memory store holding them all", async () => {
  const on = server(undefined, 1200);
  const taskIds = await fill(on, 1200);
  expect(new Set(taskIds).size).toBe(1200);
  expect((await start(on)).error).toEqual(refusal(1200));
  for (const taskId of [taskIds[0], taskIds[1199]]) {
    expect(await send(on, "tasks/get", { taskId })).toMatchObject({ result: { taskId, status: "working" } });
  }
});

it("refuses a limits.maxTasks that is not a positive integer when pico() is called", () => {
  expect(() => pico({ name: "x", version: "1", limits: { maxTasks: 0 } })).toThrow(
    new TypeError("limits.maxTasks must be an integer of at least 1, at most 2^53 - 1, or Infinity; got 0."),
  );
});
