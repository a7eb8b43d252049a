/**
 * A 2025-11-25 session's `tasks/list` with its tasks on a real Redis (`pico({ state })`) misses none
 * of them when `limits.maxTasks` is set above 1000: the owner's list keeps as many tasks as one
 * instance's store does (limits.maxTasks; docs/tasks.md), not a fixed 1000. Driven by the official
 * v1 client over a real `serve({ port: 0 })` listener on 127.0.0.1; every wait is bounded. Skipped
 * (with the install command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { useRedisServer } from "./redis-server.js";
import { sharedState } from "./shared-state.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

const TASKS = 1010;

it(`lists all ${TASKS} of a session's tasks with limits.maxTasks above 1000 and its state on Redis`, async () => {
  const state = await sharedState(redis.get(), "tasks-listed:", opened);
  const listening = await pico({
    name: "tasks-listed",
    version: "1.0.0",
    limits: { maxTasks: 2000, maxTasksPerCaller: Infinity },
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
  })
    .tool("quick", { description: "Answers at once", task: "optional", run: () => "done" })
    .serve({ port: 0 });
  opened.push(() => listening.close());
  const client = new Client({ name: "v1-lister", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
  opened.push(() => client.close());

  const created: string[] = [];
  for (let started = 0; started < TASKS; started += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, TASKS - started) }, () =>
        client.request(
          { method: "tools/call", params: { name: "quick", arguments: {}, task: {} } },
          CreateTaskResultSchema,
        ),
      ),
    );
    for (const { task } of batch) created.push(task.taskId);
  }

  const listed: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await client.experimental.tasks.listTasks(cursor);
    listed.push(...page.tasks.map((task) => task.taskId));
    cursor = page.nextCursor;
    if (cursor === undefined) break;
  }
  // Was: 1000, the others missing from every page (a fixed MAX_LISTED in src/redis/tasks.ts).
  expect(listed).toHaveLength(TASKS);
  expect(new Set(listed)).toEqual(new Set(created));
});
