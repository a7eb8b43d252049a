/**
 * 2025-11-25 and 2026-07-28 tasks shared by two instances on a real Redis, when the bus loses
 * messages or has none to carry: pub/sub keeps nothing for a subscriber that is reconnecting, so
 * whatever depends on one bus message must recover once the subscription is back (docs/scaling.md).
 * The subscriber connection of one instance is killed with CLIENT KILL and comes back after a
 * delay its client sets; what is published meanwhile is lost for it. A `tasks/result` for a task
 * whose messages nobody holds answers without waiting out its bound, and a `tasks/update` handing
 * answers over again and again ends when its server closes. Two in-process servers
 * (`server.fetch`); every wait is bounded. Skipped (with the install command as the reason) without
 * redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { createHook } from "node:async_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { z } from "zod";
import { META } from "../../src/core/types.js";
import { pico } from "../../src/index.js";
import { type NodeRedisClient, type RedisClient, redisState } from "../../src/redis.js";
import { EventReader, inSession, messageOf, modern, signal, within } from "../http-helpers.js";
import { BOUND_MS, busLoss, busMessage, type Library, openSession } from "./bus-loss.js";
import { TASKS } from "./clients.js";
import { useRedisServer } from "./redis-server.js";
import { forever } from "./tasks-helpers.js";

const redis = useRedisServer();
/** Why each run of `forever` stopped, by instance. */
const stopped = new Map<string, unknown>();
let prefixes = 0;

const { opened, client, userClient, subscriberAway, published, busHeard } = busLoss(redis);
// Before the closes: a test that left fake timers on would hold them.
afterEach(() => {
  vi.useRealTimers();
});

type Server = ReturnType<typeof pico>;

/** How an instance is made: its Redis client library, or the client itself; its shutdown grace period. */
interface InstanceOptions {
  readonly library?: Library;
  /** The client its state uses (default: a client of the Redis user `name`, of `library`). */
  readonly client?: RedisClient;
  /** Its limits.shutdownGraceMs (default: the server's). */
  readonly shutdownGraceMs?: number;
}

/**
 * An instance named `name`, sharing its state under `prefix`, with a task that asks and one that
 * reports progress.
 */
async function instance(name: string, prefix: string, options: InstanceOptions = {}): Promise<Server> {
  const { library = "node-redis", shutdownGraceMs } = options;
  const redisClient = options.client ?? (await userClient(name, library));
  const state = await redisState({ client: redisClient, prefix, leaseMs: 900 });
  opened.push(() => state.close());
  const server = pico({
    name: "bus-loss",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
    signals: false,
    limits: shutdownGraceMs === undefined ? {} : { shutdownGraceMs },
  })
    .tool("approve", {
      description: "A task that asks for approval, then answers.",
      task: "optional",
      run: async (_args, ctx) => {
        const answer = await ctx.elicit("Approve?", z.object({ ok: z.boolean() }), { key: "ok" });
        return answer.action === "accept" && answer.content.ok ? "approved" : "refused";
      },
    })
    .tool(
      "forever",
      forever((reason) => stopped.set(name, reason)),
    )
    .tool("progress_task", {
      description: "A task that reports two steps of progress, then answers.",
      task: "optional",
      run: (_args, ctx) => {
        ctx.progress(1, 2, "step 1");
        ctx.progress(2, 2, "step 2");
        return "did 2 steps";
      },
    });
  opened.push(() => server.close());
  return server;
}

/** A 2025-11-25 session opened on `server` (with elicitation); its id. */
const open = (server: Server) => openSession(server, { elicitation: { form: {} }, tasks: {} });

let ids = 1;

/** A request's single JSON answer (a stream's last message), read within `timeoutMs`. */
async function answer(server: Server, session: string, method: string, params: Record<string, unknown>) {
  const response = await server.fetch(inSession(session, { jsonrpc: "2.0", id: ids++, method, params }));
  const text = await response.text();
  const body = response.headers.get("content-type")?.startsWith("text/event-stream")
    ? text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>)
        .at(-1)!
    : (JSON.parse(text) as Record<string, unknown>);
  return body as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

/** Polls tasks/get on `server` until the task has `status` (bounded: a failure guard, not a timing). */
async function until(server: Server, session: string, taskId: string, status: string): Promise<void> {
  for (let polls = 0; polls < 200; polls++) {
    const { result } = await answer(server, session, "tasks/get", { taskId });
    if (result?.status === status) return;
    await sleep(25);
  }
  throw new Error(`task ${taskId} never became ${status}`);
}

it("answers a tasks/result on another instance at once for a task whose messages were delivered already", async () => {
  const prefix = `bus-loss-${prefixes++}:`;
  const [a, b] = [await instance("a1", prefix), await instance("b1", prefix)];
  const session = await open(a);
  const created = await answer(a, session, "tools/call", { name: "progress_task", task: {} });
  const taskId = (created.result!.task as { taskId: string }).taskId;
  await until(a, session, taskId, "completed");
  // The first tasks/result, on the running instance, takes the task's messages with its result.
  expect((await answer(a, session, "tasks/result", { taskId })).result).toMatchObject({
    content: [{ text: "did 2 steps" }],
  });
  // Timers stop: a tasks/result that waits out its bound for messages nobody holds never answers now.
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const again = answer(b, session, "tasks/result", { taskId });
  const bound = sleep(5000).then(() => "still waiting");
  // Before: instance b waited FLUSH_WAIT_MS (2 s) for what instance a no longer held.
  expect(await Promise.race([again, bound])).toMatchObject({ result: { content: [{ text: "did 2 steps" }] } });
});

it("asks for a task's messages again once the running instance's subscriber is back: its question reaches the client", async () => {
  const prefix = `bus-loss-${prefixes++}:`;
  const a = await instance("a2", prefix);
  const b = await instance("b2", prefix);
  const session = await open(a);
  const created = await answer(a, session, "tools/call", { name: "approve", task: {} });
  const taskId = (created.result!.task as { taskId: string }).taskId;
  await until(b, session, taskId, "input_required");
  // Instance a's subscriber goes away: the tasks/result's task-wait, published now, never reaches it.
  const away = await subscriberAway("a2");
  const asked = await published(prefix, "task-wait");
  // The response starts with the first message the tasks/result sends: the question, once instance a hears the wait.
  const waiting = b.fetch(
    inSession(session, { jsonrpc: "2.0", id: ids++, method: "tasks/result", params: { taskId } }),
  );
  await within(asked.seen, BOUND_MS, "the task-wait");
  await away.back();
  const events = new EventReader(await within(waiting, BOUND_MS, "the tasks/result's stream"));
  // Before: the question waited for a stream that never came; the tasks/result hung until its bound.
  let event = await events.next(BOUND_MS);
  // The stream's priming event (an id, no data) comes first.
  while (event && !event.data) event = await events.next(BOUND_MS);
  const question = messageOf(event) as { id: string; method: string };
  expect(question).toMatchObject({ method: "elicitation/create", params: { message: "Approve?" } });
  const replied = await b.fetch(
    inSession(session, { jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { ok: true } } }),
  );
  expect(replied.status).toBe(202);
  const result = (await events.rest(BOUND_MS))
    .filter((each) => each.data)
    .map(messageOf)
    .at(-1);
  expect(result).toMatchObject({ result: { content: [{ text: "approved" }] } });
});

/** A 2026-07-28 request that declares the Tasks extension, to `server`; its JSON-RPC answer. */
async function call(server: Server, method: string, params: Record<string, unknown>) {
  const capabilities = { elicitation: {}, extensions: { [TASKS]: {} } };
  const _meta = { [META.clientCapabilities]: capabilities };
  const name = typeof params.taskId === "string" ? { "mcp-name": params.taskId } : {};
  const response = await server.fetch(modern(method, { ...params, _meta }, name));
  return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

/** Polls tasks/get (2026-07-28) until the task has `status` (bounded: a failure guard, not a timing). */
async function untilModern(server: Server, taskId: string, status: string): Promise<Record<string, unknown>> {
  for (let polls = 0; polls < 200; polls++) {
    const { result } = await call(server, "tasks/get", { taskId });
    if (result?.status === status) return result;
    await sleep(25);
  }
  throw new Error(`task ${taskId} never became ${status}`);
}

it("hands tasks/update's answers to the running instance once its subscriber is back, rather than losing them", async () => {
  const prefix = `bus-loss-${prefixes++}:`;
  const a = await instance("a3", prefix);
  const b = await instance("b3", prefix);
  const created = await call(a, "tools/call", { name: "approve", arguments: {} });
  const taskId = created.result!.taskId as string;
  await untilModern(b, taskId, "input_required");
  const away = await subscriberAway("a3");
  const handed = await published(prefix, "task-input");
  const updated = call(b, "tasks/update", {
    taskId,
    inputResponses: { ok: { action: "accept", content: { ok: true } } },
  });
  await within(handed.seen, BOUND_MS, "the task-input");
  await away.back();
  expect(await within(updated, BOUND_MS, "tasks/update")).toMatchObject({ result: {} });
  // Before: the one task-input was lost, and the task waited on its question until its TTL.
  const done = await untilModern(b, taskId, "completed");
  expect(done.result).toMatchObject({ content: [{ text: "approved" }] });
});

// Both clients: each reports its subscriber's reconnects its own way (redis/client.ts).
for (const library of ["node-redis", "ioredis"] as const) {
  it(`tells a listen stream of a change made while its instance's subscriber was away, once it is back (${library})`, async () => {
    const prefix = `bus-loss-${prefixes++}:`;
    const a = await instance(`a4-${library}`, prefix, { library });
    const b = await instance(`b4-${library}`, prefix, { library });
    const created = await call(a, "tools/call", { name: "forever", arguments: {} });
    const taskId = created.result!.taskId as string;
    const capabilities = { extensions: { [TASKS]: {} } };
    const listening = await b.fetch(
      modern("subscriptions/listen", {
        notifications: { taskIds: [taskId] },
        _meta: { [META.clientCapabilities]: capabilities },
      }),
    );
    const events = new EventReader(listening);
    const seen = async (status: string) => {
      for (let event = await events.next(BOUND_MS); event; event = await events.next(BOUND_MS)) {
        const sent = event.data ? messageOf(event) : {};
        if (sent.method === "notifications/tasks" && (sent.params as { status: string }).status === status) return;
      }
      throw new Error(`the listen stream ended before ${status}`);
    };
    await seen("working");
    const away = await subscriberAway(`b4-${library}`);
    const changed = await published(prefix, "task");
    await call(a, "tasks/cancel", { taskId });
    await within(changed.seen, BOUND_MS, "the task's change");
    await away.back();
    // Before: the change was lost for instance b, whose listen stream never told it.
    await seen("cancelled");
    await events.cancel();
  });

  it(`stops a run cancelled on another instance while its own subscriber was away, once it is back (${library})`, async () => {
    const prefix = `bus-loss-${prefixes++}:`;
    const name = `a5-${library}`;
    const a = await instance(name, prefix, { library });
    const b = await instance(`b5-${library}`, prefix, { library });
    const created = await call(a, "tools/call", { name: "forever", arguments: {} });
    const taskId = created.result!.taskId as string;
    const away = await subscriberAway(name);
    const cancelling = await published(prefix, "task-cancel");
    expect(await call(b, "tasks/cancel", { taskId })).toMatchObject({ result: {} });
    await within(cancelling.seen, BOUND_MS, "the task-cancel");
    expect(stopped.has(name)).toBe(false);
    await away.back();
    // Before: the run went on until its TTL (an hour), its task long cancelled.
    for (let polls = 0; polls < 200 && !stopped.has(name); polls++) await sleep(25);
    expect((stopped.get(name) as Error | undefined)?.message).toBe("The client cancelled the task");
  });
}

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));
/** The timers the tasks layer's own code sets while `tracking.on`, where each was set: all of them, and those still pending. */
const tracking = { on: false, set: [] as string[], timers: new Map<number, string>() };
const hook = createHook({
  init(asyncId, type) {
    if (!tracking.on || type !== "Timeout") return;
    const where = (new Error().stack ?? "").split("\n").filter((line) => line.includes(SRC));
    if (!where[0]?.includes(`${SRC}tasks/`)) return;
    tracking.set.push(where.join("\n"));
    tracking.timers.set(asyncId, where.join("\n"));
  },
  destroy(asyncId) {
    tracking.timers.delete(asyncId);
  },
});
hook.enable();
afterAll(() => hook.disable());

/** Counts the task-inputs published on the bus of `prefix`, each count of every one Redis took before it was asked for (busHeard). */
async function handedCount(prefix: string): Promise<() => Promise<number>> {
  const bus = await busHeard(prefix);
  return async () => (await bus.heard()).filter((type) => type === "task-input").length;
}

it("ends a tasks/update handing answers to another instance when its server closes: the shutdown refusal, nothing left", async () => {
  const prefix = `bus-loss-${prefixes++}:`;
  const a = await instance("a6", prefix);
  // A grace period shorter than the hand-over's attempts (about 3 s).
  const b = await instance("b6", prefix, { shutdownGraceMs: 200 });
  const created = await call(a, "tools/call", { name: "approve", arguments: {} });
  const taskId = created.result!.taskId as string;
  await untilModern(b, taskId, "input_required");
  // Instance a hears nothing now: b hands the answers over again and again, checking the task between.
  await subscriberAway("a6");
  const handed = await handedCount(prefix);
  const first = await published(prefix, "task-input");
  tracking.on = true;
  const capabilities = { elicitation: {}, extensions: { [TASKS]: {} } };
  const params = { taskId, inputResponses: { ok: { action: "accept", content: { ok: true } } } };
  const updating = b.fetch(
    modern("tasks/update", { ...params, _meta: { [META.clientCapabilities]: capabilities } }, { "mcp-name": taskId }),
  );
  await within(first.seen, BOUND_MS, "the task-input");
  await b.close();
  tracking.on = false;
  const response = await within(updating, BOUND_MS, "tasks/update's answer");
  // Was: cut short by the grace period (its own refusal), the hand-over going on after close().
  await expectHandOverRefusal(response, taskId);
  // Every task-input b published: close() resolved once each of its PUBLISHes was answered.
  const sent = await handed();
  expect(sent).toBeGreaterThan(0);
  // Longer than the hand-over's wait between attempts (300 ms): one left going would publish again.
  await sleep(1000);
  // Was: task-input published, and the hand-over's timers set, for seconds after close() resolved.
  expect(await handed()).toBe(sent);
  expect([...tracking.timers.values()]).toEqual([]);
});

/**
 * `client`, whose reply to the first PUBLISH of a task-input is held until `release` (Redis takes
 * the message at once): the hand-over that sent it waits for the reply meanwhile; `sending`
 * resolves once it is sent.
 */
function holdingHandOver(client: NodeRedisClient) {
  const sending = signal();
  const released = signal();
  let held = false;
  const holding: NodeRedisClient = {
    get isReady() {
      return client.isReady;
    },
    duplicate: () => client.duplicate(),
    sendCommand: async (args) => {
      const reply = client.sendCommand(args);
      if (held || !busMessage(args)?.includes('"task-input"')) return reply;
      held = true;
      sending.resolve();
      await released.promise;
      return reply;
    },
  };
  return { client: holding, sending: sending.promise, release: () => released.resolve() };
}

it("ends a tasks/update whose answers' PUBLISH is answered once its server began closing, starting no wait", async () => {
  const prefix = `bus-loss-${prefixes++}:`;
  const a = await instance("a7", prefix);
  const held = holdingHandOver(await client());
  const b = await instance("b7", prefix, { client: held.client });
  const created = await call(a, "tools/call", { name: "approve", arguments: {} });
  const taskId = created.result!.taskId as string;
  await untilModern(b, taskId, "input_required");
  // Instance a hears nothing now: the answers are never taken.
  await subscriberAway("a7");
  const capabilities = { elicitation: {}, extensions: { [TASKS]: {} } };
  const params = { taskId, inputResponses: { ok: { action: "accept", content: { ok: true } } } };
  const updating = b.fetch(
    modern("tasks/update", { ...params, _meta: { [META.clientCapabilities]: capabilities } }, { "mcp-name": taskId }),
  );
  await within(held.sending, BOUND_MS, "the task-input's PUBLISH");
  // close() has woken the waits there were (none) by the time it returns its promise.
  const closing = b.close();
  tracking.set.length = 0;
  tracking.on = true;
  held.release();
  await closing;
  tracking.on = false;
  const response = await within(updating, BOUND_MS, "tasks/update's answer");
  await expectHandOverRefusal(response, taskId);
  // Was: the hand-over, its PUBLISH answered after close() had woken the waits, set a wait of
  // 300 ms for the task's next change, which nothing ended, and close() waited it out.
  expect(tracking.set).toEqual([]);
});

/** The answer to a tasks/update whose hand-over the server's shutdown ended: 503, and what to send again. */
async function expectHandOverRefusal(response: Response, taskId: string): Promise<void> {
  expect(response.status).toBe(503);
  expect(await response.json()).toMatchObject({
    error: {
      code: -32603,
      message: `Server shutting down: send the same tasks/update again (answers task "${taskId}" took already are ignored)`,
    },
  });
}
