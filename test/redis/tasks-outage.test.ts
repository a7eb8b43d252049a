/**
 * Tasks on a shared Redis at the edges: the server shutting down (a deploy's SIGTERM) records its
 * running tasks as failed before `close()` resolves, whether Redis answers or not, and never leaves
 * a rejection unhandled; a run's status write that Redis failed is tried a last time by `close()`
 * and never after it, nor keeps a timer, nor after the run's next write (which it would undo); a
 * 2026-07-28 run's progress message that Redis failed is dropped, its failure handled; a task being
 * stored as the server closes never runs, and is recorded failed as the running ones are; the leases
 * of a closed server's tasks, or of a run whose end was given up, are renewed no more, and a
 * 2025-11-25 `tasks/result` waiting for the latter on its instance answers the failure; a run waiting
 * for answers whose questions were given up stops, and its task reads failed; a listen request for
 * taskIds while Redis is away is told to retry instead of being acknowledged with no task. One
 * in-process server over real HTTP on a real Redis. Skipped (with the install command as the reason)
 * without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { createHook } from "node:async_hooks";
import { fileURLToPath } from "node:url";
import { createClient } from "redis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import { StateUnavailable } from "../../src/state/state.js";
import type { TaskStore } from "../../src/tasks/store.js";
import type { Listening } from "../../src/transports/listen.js";
import { signal, within } from "../http-helpers.js";
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
/** Ends the runs of the tool "ends" (each resolves its result), oldest first. */
const ending: ((result: string) => void)[] = [];
/** Makes the run of the tool "reports" report progress with a message (ctx.progress). */
const reporting: ((message: string) => void)[] = [];
/** Lets each run of the tool "asks" (from the top, each round) go on to its questions, oldest first. */
const asking: (() => void)[] = [];

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
/**
 * The timers the tasks layer's own code set that are still pending, where each was set: tracked from
 * creation until it fires or is cleared (its destroy comes a moment after). Not the shared state's
 * (its leases' renewal, src/redis/), which stays the test's to close.
 */
const taskTimers = new Map<number, string>();
/** Those timers, as Node made them: whether each keeps the process alive (`hasRef`). */
const timerObjects = new Map<number, { hasRef(): boolean }>();
const hook = createHook({
  init(asyncId, type, _trigger, resource) {
    if (type !== "Timeout") return;
    const where = (new Error().stack ?? "").split("\n").filter((line) => line.includes(SRC));
    if (!where[0]?.includes(`${SRC}tasks/`)) return;
    taskTimers.set(asyncId, where.join("\n"));
    timerObjects.set(asyncId, resource as { hasRef(): boolean });
  },
  destroy(asyncId) {
    taskTimers.delete(asyncId);
    timerObjects.delete(asyncId);
  },
});

beforeAll(async () => {
  if (!AVAILABLE) {
    if (REQUIRED) throw new Error(`${MISSING} (PICOMCP_REQUIRE_REDIS is set, so Redis is required)`);
    return;
  }
  redis = await RedisServer.start();
  process.on("unhandledRejection", onUnhandled);
  hook.enable();
});

beforeEach(async (ctx) => {
  if (!AVAILABLE) ctx.skip(MISSING);
  // A test may have stopped it.
  if (redis && !(await reachable())) await redis.resume();
  unhandled.length = 0;
  aborted.clear();
  // A run a test left going (a failed one) is not another test's to end.
  ending.length = 0;
  reporting.length = 0;
  asking.length = 0;
});

afterEach(async () => {
  vi.useRealTimers();
  // A test that failed while Redis was frozen would leave it so.
  redis?.thaw();
  for (const each of opened.splice(0).reverse()) await each.close().catch(() => {});
});

afterAll(async () => {
  hook.disable();
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

/**
 * A server sharing its tasks on Redis (its own prefix), served on a loopback port; `tasks` wraps its
 * task store; `leaseMs`, its tasks' leases (default: the state's).
 */
async function serve(
  prefix: string,
  tasks: (store: TaskStore) => TaskStore = (store) => store,
  leaseMs?: number,
): Promise<{ server: Server; listening: Listening; tasks: TasksClient }> {
  const shared = await redisState({ client: await client(), prefix, commandTimeoutMs: 300, leaseMs });
  opened.push(shared);
  const state = { ...shared, tasks: tasks(shared.tasks) };
  const server = pico({
    name: "outage",
    version: "1.0.0",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
    signals: false,
  })
    .tool("forever", {
      description: "Runs until its signal aborts",
      task: "optional",
      run: (_args, ctx) =>
        new Promise((_resolve, reject) =>
          ctx.signal.addEventListener("abort", () => {
            aborted.set("forever", ctx.signal.reason);
            reject(ctx.signal.reason);
          }),
        ),
    })
    .tool("ends", {
      description: "Runs until the test ends it",
      task: "optional",
      run: () => new Promise<string>((resolve) => ending.push(resolve)),
    })
    .tool("asks", {
      description: "Asks one question, then another, each run once the test lets it",
      task: "optional",
      run: async (_args, ctx) => {
        ctx.signal.addEventListener("abort", () => aborted.set("asks", ctx.signal.reason), { once: true });
        await new Promise<void>((resolve) => asking.push(resolve));
        const first = await ctx.elicit("First?", z.object({ a: z.string() }), { key: "first" });
        const second = await ctx.elicit("Second?", z.object({ b: z.string() }), { key: "second" });
        return `${first.action} ${second.action}`;
      },
    })
    .tool("reports", {
      description: "Reports progress when the test says so, until its signal aborts",
      task: "optional",
      run: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          reporting.push((message) => ctx.progress(1, 2, message));
          ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason));
        }),
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
    // close() resolved once the failed writes were answered; give a rejection of theirs time to surface.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(unhandled).toEqual([]);
    expect((aborted.get("forever") as Error).message).toBe("The server is shutting down");
  });
});

/**
 * Wraps a task store so that its updates fail while `writes.away` is set (Redis refusing them), and
 * the update numbered `writes.refused` (counting from 1) alone, counting those tried; `writes.read`
 * counts the reads answered.
 */
function flaky() {
  const writes = { away: false, refused: 0, tried: 0, failed: 0, read: 0 };
  const wrap = (store: TaskStore): TaskStore => ({
    put: (record) => store.put(record),
    get: async (taskId) => {
      const record = await store.get(taskId);
      writes.read++;
      return record;
    },
    list: (owner) => store.list(owner),
    release: (taskId) => store.release?.(taskId),
    update: (taskId, change) => {
      writes.tried++;
      if (!writes.away && writes.tried !== writes.refused) return store.update(taskId, change);
      writes.failed++;
      return Promise.reject(new StateUnavailable(new Error("Redis refused the write")));
    },
  });
  return { writes, wrap };
}

/** Refuses `writes`, lets the run go on, and passes the minute of its retries on fake timers (Redis answers the rest). */
async function refuseForAMinute(writes: { away: boolean }, goOn: () => void): Promise<void> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  writes.away = true;
  goOn();
  await vi.advanceTimersByTimeAsync(62_000);
  vi.useRealTimers();
}

/** Polls `check` until it holds, for at most 5 s (a failure guard, not a timing): answers whether it did. */
async function eventually(check: () => boolean): Promise<boolean> {
  const end = Date.now() + 5000;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
}

describe("a run's status write that Redis failed, at the shutdown", () => {
  it("is tried a last time by close(): Redis back, the run's end is recorded before close() resolves", async () => {
    const prefix = `outage-${prefixes++}:`;
    const { writes, wrap } = flaky();
    const { server, tasks } = await serve(prefix, wrap);
    const { taskId } = await tasks.result("tools/call", { name: "ends" });
    writes.away = true;
    ending.shift()!("done");
    // The run's end was sent, and refused: it waits to be tried again.
    expect(await eventually(() => writes.failed === 1)).toBe(true);
    writes.away = false;
    await server.close();
    const record = JSON.parse(String(await (await client()).get(`${prefix}t:${taskId}`)));
    // Was: still working, the write waiting for its next try a second later (after close: a write
    // of the closed server), a ref'd timer keeping the process.
    expect(record).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "done" }] } });
    await eventually(() => taskTimers.size === 0);
    expect([...taskTimers.values()]).toEqual([]);
  });

  it("is tried no more after close(), nor keeps a timer, while Redis stays away", async () => {
    const prefix = `outage-${prefixes++}:`;
    const { writes, wrap } = flaky();
    const { server, listening, tasks } = await serve(prefix, wrap);
    await tasks.result("tools/call", { name: "ends" });
    writes.away = true;
    ending.shift()!("done");
    expect(await eventually(() => writes.failed === 1)).toBe(true);
    // Its retry waits on a timer that does not keep the process alive, the server open or not.
    expect(await eventually(() => timerObjects.size === 1)).toBe(true);
    // Was: ref'd: a process whose server was not closed stayed up for a minute of retries.
    expect([...timerObjects.values()].map((timer) => timer.hasRef())).toEqual([false]);
    await listening.close();
    await server.close();
    const tried = writes.tried;
    // Was: the retry's timer, not unref'd: the closed server kept the process for up to a minute.
    await eventually(() => taskTimers.size === 0);
    expect([...taskTimers.values()]).toEqual([]);
    // Longer than the retries' period (a second): a retry that outlived close() would have written.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(writes.tried).toBe(tried);
    expect(unhandled).toEqual([]);
  });
});

describe("a 2026-07-28 run's progress while Redis does not answer", () => {
  it("leaves no rejection unhandled: the message is dropped, and the next one, Redis back, is the task's statusMessage", async () => {
    // Counts the task's writes that Redis failed (the run's progress messages, in 2026-07-28).
    const notes = { failed: 0 };
    const counting = (store: TaskStore): TaskStore => ({
      put: (record) => store.put(record),
      get: (taskId) => store.get(taskId),
      list: (owner) => store.list(owner),
      release: (taskId) => store.release?.(taskId),
      update: (taskId, change) => {
        const updated = Promise.resolve(store.update(taskId, change));
        updated.catch(() => notes.failed++);
        return updated;
      },
    });
    const { tasks } = await serve(`outage-${prefixes++}:`, counting);
    const { taskId } = await tasks.result("tools/call", { name: "reports" });
    expect(await eventually(() => reporting.length === 1)).toBe(true);
    redis!.freeze();
    reporting[0]!("halfway");
    // Its write times out (commandTimeoutMs, 300 ms); then a moment for a rejection of its to surface.
    expect(await eventually(() => notes.failed === 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    redis!.thaw();
    // Was: an unhandled rejection (StateUnavailable), which ends a Node process that serves with
    // server.fetch or server.node (serve() alone logs it instead).
    expect(unhandled).toEqual([]);
    reporting[0]!("three quarters");
    const reported = async () => (await tasks.result("tasks/get", { taskId })).statusMessage;
    expect(await until(reported, "three quarters")).toBe("three quarters");
  });
});

/** Calls `read` until it answers `value`, for at most 5 s (a failure guard, not a timing): answers the last read. */
async function until<T>(read: () => Promise<T>, value: T): Promise<T> {
  const end = Date.now() + 5000;
  let now = await read();
  while (now !== value && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    now = await read();
  }
  return now;
}

describe("a run's status writes, one refused by Redis, then a later one recorded", () => {
  it("never tries the earlier one again over the later: the task keeps the questions it now waits on", async () => {
    const { writes, wrap } = flaky();
    const { tasks } = await serve(`outage-${prefixes++}:`, wrap);
    const { taskId } = await tasks.result("tools/call", { name: "asks" });
    expect(await eventually(() => asking.length === 1)).toBe(true);
    asking.shift()!();
    await tasks.until(taskId as string, "input_required");
    // The answer's own write goes through; the run's "working" write after it (the next) is refused once.
    writes.refused = writes.tried + 2;
    const first = { action: "accept", content: { a: "1" } };
    await tasks.result("tasks/update", { taskId, inputResponses: { first } });
    expect(await eventually(() => writes.failed === 1 && asking.length === 1)).toBe(true);
    // The run asks its second question: recorded, while the refused write waits for its next try.
    asking.shift()!();
    const second = async () => Object.keys((await tasks.result("tasks/get", { taskId })).inputRequests ?? {});
    expect(await until(async () => (await second()).join(), "second")).toBe("second");
    // Longer than the retries' period (a second): a retry of the refused write would have come.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Was: the refused "working" write, tried again, wrote over the questions: `working`, and the
    // run waiting for an answer no client could see until its TTL.
    expect(await tasks.result("tasks/get", { taskId })).toMatchObject({
      status: "input_required",
      inputRequests: { second: { method: "elicitation/create" } },
    });
    const answer = { action: "accept", content: { b: "2" } };
    await tasks.result("tasks/update", { taskId, inputResponses: { second: answer } });
    expect(await eventually(() => asking.length === 1)).toBe(true);
    asking.shift()!();
    expect(await tasks.until(taskId as string)).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "accept accept" }] },
    });
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

/** The `fetch` init of a JSON-RPC POST of `body`, in 2025-11-25 session `session` if one is given. */
function postInit(body: Record<string, unknown>, session?: string): RequestInit {
  return {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", ...body }),
  };
}

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
      fetch(listening.url, { ...postInit(body, session), signal: AbortSignal.timeout(5000) });
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

const SHUT_DOWN = { code: -32603, message: "The server shut down before the task finished" };

describe("a task being stored as the server shuts down", () => {
  it("never runs: it is recorded failed before close() resolves, and its call answered with the shutdown refusal", async () => {
    const prefix = `outage-${prefixes++}:`;
    // The new task's put is done in Redis, its answer held until close() records the running task failed.
    const stored = signal<string>();
    const closing = signal();
    let running: string | undefined;
    const holding = (store: TaskStore): TaskStore => ({
      get: (taskId) => store.get(taskId),
      list: (owner) => store.list(owner),
      release: (taskId) => store.release?.(taskId),
      update: (taskId, change) => {
        if (taskId === running) closing.resolve();
        return store.update(taskId, change);
      },
      put: async (record) => {
        await store.put(record);
        if (running === undefined) return;
        stored.resolve(record.taskId);
        await closing.promise;
      },
    });
    const { server, tasks } = await serve(prefix, holding);
    running = (await tasks.result("tools/call", { name: "forever" })).taskId as string;
    const runs = ending.length;
    const calling = tasks.send("tools/call", { name: "ends" });
    const taskId = await within(stored.promise, 5000, "the new task's put");
    await server.close();
    // Was: 200 with a CreateTaskResult, the run started after close() and never stopped, the task
    // `working` (its writes refused after close) until its TTL, on an expiry timer of an hour.
    const reply = await within(calling, 5000, "the tools/call's answer");
    expect(reply.status).toBe(503);
    expect(reply.body.error).toEqual({
      code: -32603,
      message: "Server shutting down: the task was not started; call the tool again",
    });
    expect(ending.length).toBe(runs);
    const reader = await client();
    for (const id of [running, taskId]) {
      expect(JSON.parse(String(await reader.get(`${prefix}t:${id}`)))).toMatchObject({
        status: "failed",
        error: SHUT_DOWN,
      });
    }
    await eventually(() => taskTimers.size === 0);
    expect([...taskTimers.values()]).toEqual([]);
  });
});

/** Reads the task as any instance would (a state of its own on `prefix`), until it is `status`, for at most 5 s. */
async function readsAs(prefix: string, taskId: string, status: string): Promise<Record<string, unknown> | undefined> {
  const reader = await redisState({ client: await client(), prefix });
  opened.push(reader);
  let record = await reader.tasks.get(taskId);
  for (const end = Date.now() + 5000; record?.status !== status && Date.now() < end; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    record = await reader.tasks.get(taskId);
  }
  return record as Record<string, unknown> | undefined;
}

const ORPHANED = "The server instance running this task stopped before it finished; call the tool again";
/** Why a run waiting for answers stops once its questions could not be recorded. */
const UNRECORDED = "The task's questions could not be recorded: the server's shared state was unreachable";

describe("the leases of a server's tasks whose end could not be written, the state staying open", () => {
  it("are renewed no more once the server has closed with Redis away: the task reads failed once its lease runs out", async () => {
    const prefix = `outage-${prefixes++}:`;
    const { server, tasks } = await serve(prefix, undefined, 600);
    const { taskId } = await tasks.result("tools/call", { name: "forever" });
    redis!.freeze();
    // Its failed record times out (commandTimeoutMs): close() resolves without it.
    await server.close();
    redis!.thaw();
    // Was: the state, open, renewed the lease of the closed server's task: `working` until its TTL (an hour).
    expect(await readsAs(prefix, taskId as string, "failed")).toMatchObject({
      status: "failed",
      error: { code: -32603, message: ORPHANED },
    });
  });

  it("are renewed no more once a run's end is given up after a minute of failed writes: the task reads failed", async () => {
    const prefix = `outage-${prefixes++}:`;
    const { writes, wrap } = flaky();
    const { tasks } = await serve(prefix, wrap, 600);
    const { taskId } = await tasks.result("tools/call", { name: "ends" });
    await refuseForAMinute(writes, () => ending.shift()!("done"));
    // The first try and 60 more: then it is given up.
    expect(writes.failed).toBe(61);
    // Was: its lease renewed while the server stays open, the run long over: `working` until its TTL.
    expect(await readsAs(prefix, taskId as string, "failed")).toMatchObject({
      status: "failed",
      error: { code: -32603, message: ORPHANED },
    });
  });
});

describe("a 2025-11-25 tasks/result waiting on the instance whose run's end could not be written", () => {
  it("answers the task's failure once its lease has run out, not at the handler timeout", async () => {
    const { writes, wrap } = flaky();
    const { listening } = await serve(`outage-${prefixes++}:`, wrap, 600);
    // A request's answer: its JSON body, or its SSE stream's last message.
    const post = async (body: Record<string, unknown>, session?: string) => {
      const response = await fetch(listening.url, postInit(body, session));
      const text = await response.text();
      const data = text.split("\n").filter((line) => line.startsWith("data: "));
      const answer = data.length > 0 ? JSON.parse(data.at(-1)!.slice(6)) : text ? JSON.parse(text) : undefined;
      return { session: response.headers.get("mcp-session-id"), answer };
    };
    const initialize = {
      protocolVersion: "2025-11-25",
      capabilities: { tasks: {} },
      clientInfo: { name: "t", version: "1" },
    };
    const session = (await post({ id: 1, method: "initialize", params: initialize })).session!;
    await post({ method: "notifications/initialized" }, session);
    const created = await post({ id: 2, method: "tools/call", params: { name: "ends", task: {} } }, session);
    const taskId = (created.answer as { result: { task: { taskId: string } } }).result.task.taskId;
    expect(await eventually(() => ending.length === 1)).toBe(true);
    // The tasks/result waits here, on the instance running the task, once it has found the task and
    // read it again as it starts waiting (both before the fake timers: Redis's answers to them are real).
    const read = writes.read;
    const waiting = post({ id: 3, method: "tasks/result", params: { taskId } }, session);
    expect(await eventually(() => writes.read === read + 2)).toBe(true);
    await refuseForAMinute(writes, () => ending.shift()!("done"));
    expect(writes.failed).toBe(61);
    // Was: nothing read the task again here (only a tasks/result following a task run elsewhere
    // did), so this one waited for a change that never came, until limits.handlerTimeoutMs (5 min).
    const { answer } = await within(waiting, 5000, "the tasks/result's answer");
    expect(answer).toMatchObject({ id: 3, error: { code: -32603, message: ORPHANED } });
  });
});

describe("a run waiting for answers whose questions Redis refused, the state staying open", () => {
  it("stops once they are given up after a minute of failed writes: the task reads failed, not working until its TTL", async () => {
    const prefix = `outage-${prefixes++}:`;
    const { writes, wrap } = flaky();
    const { tasks } = await serve(prefix, wrap, 600);
    const { taskId } = await tasks.result("tools/call", { name: "asks" });
    expect(await eventually(() => asking.length === 1)).toBe(true);
    // The code of a round loads at the first question (an import, which fake timers do not wait for): now.
    await import("../../src/asking/layer.js");
    await refuseForAMinute(writes, () => asking.shift()!());
    expect(writes.failed).toBe(61);
    // Was: the run waited on, its lease renewed, the task `working` (its questions never recorded)
    // until its TTL: no client could see them, nor answer them.
    expect((aborted.get("asks") as Error | undefined)?.message).toBe(UNRECORDED);
    expect(await readsAs(prefix, taskId as string, "failed")).toMatchObject({
      status: "failed",
      error: { code: -32603, message: ORPHANED },
    });
  });
});
