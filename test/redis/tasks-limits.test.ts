/**
 * What a hostile client can make a server hold with tasks, on one instance (the in-memory store) and
 * with instances sharing their state on a real Redis (`pico({ state })`, docs/scaling.md): each
 * instance runs at most 1000 tasks at a time (DEFAULT_MAX_TASKS), and a call past that is refused
 * with an error that says so, rather than each task's run being held in the instance's memory
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

/** A server of the `forever` task tool; with `state`, shared. */
function server(state?: Awaited<ReturnType<typeof redisState>>): Server {
  const made = pico({
    name: "tasks-limits",
    version: "1.0.0",
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

for (const shared of [false, true]) {
  it(`refuses a task past ${DEFAULT_MAX_TASKS} running on one instance, ${shared ? "with state shared on Redis" : "alone"}, and takes one again once one has ended`, async () => {
    const on = server(shared ? await sharedState(redis.get(), `tasks-limits-${prefixes++}:`, opened) : undefined);
    const taskIds: string[] = [];
    // In batches, as a client's concurrent calls would come.
    for (let batch = 0; batch < DEFAULT_MAX_TASKS / 100; batch++) {
      const created = await Promise.all(Array.from({ length: 100 }, () => start(on)));
      for (const { result } of created) taskIds.push(result?.taskId as string);
    }
    expect(new Set(taskIds).size).toBe(DEFAULT_MAX_TASKS);
    // Was (shared): created, and every one after it, each run held by this instance for its TTL.
    const refused = await start(on);
    expect(refused.error?.message).toMatch(
      new RegExp(`running ${DEFAULT_MAX_TASKS} tasks already \\(its limit\\); try again once one has finished`),
    );
    expect(await send(on, "tasks/cancel", { taskId: taskIds[0] })).toMatchObject({ result: {} });
    expect((await start(on)).result).toMatchObject({ resultType: "task", status: "working" });
  });
}
