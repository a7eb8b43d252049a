/**
 * Tasks on a shared Redis at the edges: the server shutting down (a deploy's SIGTERM) records its
 * running tasks as failed before `close()` resolves, whether Redis answers or not, and never leaves
 * a rejection unhandled; a listen request for taskIds while Redis is away is told to retry instead
 * of being acknowledged with no task. One in-process server over real HTTP on a real Redis.
 * Skipped (with the install command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import { StateUnavailable } from "../../src/state/state.js";
import type { TaskStore } from "../../src/tasks/store.js";
import type { Listening } from "../../src/transports/listen.js";
import { TasksClient } from "../tasks/tasks-helpers.js";
import { haveRedis, MISSING, REQUIRED, RedisServer } from "./redis-server.js";

const AVAILABLE = haveRedis();

type Server = ReturnType<typeof pico>;

let redis: RedisServer | undefined;
let prefixes = 0;
/** What each test opened, closed after it whatever happened. */
const opened: { close(): Promise<unknown> }[] = [];
/** Why each run's signal aborted, by the run's label. */
const aborted = new Map<string, unknown>();
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  if (!AVAILABLE) {
    if (REQUIRED) throw new Error(`${MISSING} (PICOMCP_REQUIRE_REDIS is set, so Redis is required)`);
    return;
  }
  redis = await RedisServer.start();
  process.on("unhandledRejection", onUnhandled);
});

beforeEach(async (ctx) => {
  if (!AVAILABLE) ctx.skip(MISSING);
  // A test may have stopped it.
  if (redis && !(await reachable())) await redis.resume();
  unhandled.length = 0;
  aborted.clear();
});

afterEach(async () => {
  for (const each of opened.splice(0).reverse()) await each.close().catch(() => {});
});

afterAll(async () => {
  process.off("unhandledRejection", onUnhandled);
  await redis?.close();
});

async function reachable(): Promise<boolean> {
  const probe = createClient({ url: redis!.url, socket: { reconnectStrategy: false } });
  probe.on("error", () => {});
  try {
    await probe.connect();
    await probe.close();
    return true;
  } catch {
    return false;
  }
}

/** A connected node-redis client that reconnects quickly (the tests stop Redis). */
async function client() {
  const connected = createClient({ url: redis!.url, socket: { reconnectStrategy: () => 50 } });
  connected.on("error", () => {});
  await connected.connect();
  // destroy, not close: close waits for commands Redis, stopped by a test, will never answer.
  opened.push({ close: async () => connected.destroy() });
  return connected;
}

/** A server sharing its tasks on Redis (its own prefix), served on a loopback port; `tasks` wraps its task store. */
async function serve(
  prefix: string,
  tasks: (store: TaskStore) => TaskStore = (store) => store,
): Promise<{ server: Server; listening: Listening; tasks: TasksClient }> {
  const shared = await redisState({ client: await client(), prefix, commandTimeoutMs: 300 });
  opened.push(shared);
  const state = { ...shared, tasks: tasks(shared.tasks) };
  const server = pico({
    name: "outage",
    version: "1.0.0",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
    signals: false,
  }).tool("forever", {
    description: "Runs until its signal aborts",
    task: "optional",
    run: (_args, ctx) =>
      new Promise((_resolve, reject) =>
        ctx.signal.addEventListener("abort", () => {
          aborted.set("forever", ctx.signal.reason);
          reject(ctx.signal.reason);
        }),
      ),
  });
  const listening = await server.serve({ port: 0 });
  opened.push(listening);
  return { server, listening, tasks: new TasksClient(listening.url) };
}

describe("shutting down a server whose tasks are on Redis", () => {
  it("records its running tasks as failed before close() resolves (a deploy: clients see the end at once)", async () => {
    const prefix = `outage-${prefixes++}:`;
    const { server, tasks } = await serve(prefix);
    const { taskId } = await tasks.result("tools/call", { name: "forever" });
    const reader = await client();
    await server.close();
    // What another instance reads the moment the closing one is gone (its process may exit now).
    const record = JSON.parse(String(await reader.get(`${prefix}t:${taskId}`)));
    expect(record).toMatchObject({
      status: "failed",
      error: { code: -32603, message: "The server shut down before the task finished" },
    });
    expect((aborted.get("forever") as Error).message).toBe("The server is shutting down");
  });

  it("ends the runs and leaves no rejection unhandled when Redis is away at the shutdown", async () => {
    const { listening, tasks } = await serve(`outage-${prefixes++}:`);
    await tasks.result("tools/call", { name: "forever" });
    await redis!.stop();
    await listening.close();
    // The failed writes are retried in the background; give a rejection time to surface.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(unhandled).toEqual([]);
    expect((aborted.get("forever") as Error).message).toBe("The server is shutting down");
  });
});

describe("listening for tasks while Redis is away", () => {
  it("answers the retryable 503, not an acknowledgement that leaves the caller's tasks out", async () => {
    const { tasks } = await serve(`outage-${prefixes++}:`);
    const { taskId } = await tasks.result("tools/call", { name: "forever" });
    await redis!.stop();
    const response = await tasks.open("subscriptions/listen", { notifications: { taskIds: [taskId] } });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    const { error } = (await response.json()) as { error: { message: string } };
    expect(error.message).toMatch(/^The server's shared state is unreachable \(.*\); retry in a moment$/);
  });
});

describe("a 2025-11-25 tasks/result when Redis goes away as it starts waiting", () => {
  it("answers the retryable error instead of leaving the failed read unhandled and the request hanging", async () => {
    // Redis answers the request's first read of the task (tasks/result finds it), then no more.
    let reads = 0;
    const failing = (store: TaskStore): TaskStore => ({
      put: (record) => store.put(record),
      update: (taskId, change) => store.update(taskId, change),
      list: (owner) => store.list(owner),
      get: (taskId) =>
        reads++ === 0 ? store.get(taskId) : Promise.reject(new StateUnavailable(new Error("Redis went away"))),
    });
    const { listening } = await serve(`outage-${prefixes++}:`, failing);
    const post = (body: Record<string, unknown>, session?: string) =>
      fetch(listening.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
        },
        body: JSON.stringify({ jsonrpc: "2.0", ...body }),
        signal: AbortSignal.timeout(5000),
      });
    const initialize = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
    const opened = await post({ id: 1, method: "initialize", params: initialize });
    const session = opened.headers.get("mcp-session-id")!;
    await post({ method: "notifications/initialized" }, session);
    const created = (await (
      await post({ id: 2, method: "tools/call", params: { name: "forever", task: {} } }, session)
    ).json()) as { result: { task: { taskId: string } } };
    const waited = await post(
      { id: 3, method: "tasks/result", params: { taskId: created.result.task.taskId } },
      session,
    );
    expect(waited.status).toBe(503);
    const { error } = (await waited.json()) as { error: { message: string } };
    expect(error.message).toMatch(/^The server's shared state is unreachable \(Redis went away\); retry in a moment$/);
    expect(unhandled).toEqual([]);
  });
});
