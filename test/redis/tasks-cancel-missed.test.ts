/**
 * A `tasks/cancel` on one instance for a task another instance runs, on a real Redis, whose bus
 * message never reaches the running instance (its subscriber is killed with CLIENT KILL and kept
 * away for the whole test: pub/sub keeps nothing for it, and it never rejoins to read the record
 * again; the same as a cancelling instance whose held message was dropped after a minute without
 * Redis). The running instance still learns that the task ended, from Redis, and its run stops as a
 * cancel stops it (`ctx.signal` aborts with the cancel's reason): when renewing the task's lease
 * finds it cancelled, and when a status write of the run (its questions, its progress) finds it
 * cancelled. Two in-process servers (`server.fetch`); every wait is bounded. Skipped (with the
 * install command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { beforeEach, expect, it } from "vitest";
import { z } from "zod";
import { META } from "../../src/core/types.js";
import { pico } from "../../src/index.js";
import { type RedisClient, redisState } from "../../src/redis.js";
import { modern } from "../http-helpers.js";
import { busLoss } from "./bus-loss.js";
import { TASKS } from "./clients.js";
import { useRedisServer } from "./redis-server.js";
import { forever } from "./tasks-helpers.js";

const redis = useRedisServer();
const { opened, client, userClient, subscriberAway } = busLoss(redis);
/** Why the runner's run stopped, once it did. */
const stopped = new Map<string, unknown>();
/** Lets the runner's `later` task go on to what it does after its start (ask, or report progress). */
let goOn: (() => void) | undefined;
let prefixes = 0;

// Before each test, not after: closing the last test's servers (busLoss, after it) stops their runs.
beforeEach(() => {
  stopped.clear();
  goOn = undefined;
});

type Server = ReturnType<typeof pico>;

/**
 * An instance on `redisClient` sharing its state under `prefix`, with `forever` (runs until its
 * signal aborts) and `later` (waits for the test, then asks a question or reports progress); a
 * run's stop is recorded under `name`.
 */
async function instance(options: {
  name: string;
  client: RedisClient;
  prefix: string;
  leaseMs: number;
}): Promise<Server> {
  const { name } = options;
  const state = await redisState({ client: options.client, prefix: options.prefix, leaseMs: options.leaseMs });
  opened.push(() => state.close());
  const watch = (signal: AbortSignal) =>
    signal.addEventListener("abort", () => stopped.set(name, signal.reason), { once: true });
  const server = pico({
    name: "cancel-missed",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
    signals: false,
  })
    .tool(
      "forever",
      forever((reason) => stopped.set(name, reason)),
    )
    .tool("later", {
      description: "A task that waits for the test, then asks for approval or reports progress.",
      task: "optional",
      input: z.object({ next: z.enum(["ask", "progress"]) }),
      run: async ({ next }, ctx) => {
        watch(ctx.signal);
        await new Promise<void>((resolve) => {
          goOn = resolve;
        });
        if (next === "progress") {
          ctx.progress(1, 2, "step 1");
          return new Promise<string>((resolve) => ctx.signal.addEventListener("abort", () => resolve("stopped")));
        }
        const answer = await ctx.elicit("Approve?", z.object({ ok: z.boolean() }), { key: "ok" });
        return answer.action === "accept" ? "approved" : "refused";
      },
    });
  opened.push(() => server.close());
  return server;
}

/**
 * Instance "runner" (its subscriber can be kept away) runs the task; instance "canceller" cancels
 * it. `leaseMs`: both instances' lease (renewed three times a lease).
 */
async function pair(leaseMs: number) {
  const prefix = `cancel-missed-${prefixes++}:`;
  const name = `runner${prefixes}`;
  const runner = await instance({ name: "runner", client: await userClient(name), prefix, leaseMs });
  const canceller = await instance({ name: "canceller", client: await client(), prefix, leaseMs });
  return { runner, canceller, name };
}

const _meta = { [META.clientCapabilities]: { extensions: { [TASKS]: {} }, elicitation: { form: {} } } };

/** A 2026-07-28 request's result (declaring the extension and elicitation; Mcp-Name: the taskId). */
async function call(server: Server, method: string, params: Record<string, unknown>) {
  const name = typeof params.taskId === "string" ? { "mcp-name": params.taskId } : {};
  const response = await server.fetch(modern(method, { ...params, _meta }, name));
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: { message: string } };
  expect(body.error).toBeUndefined();
  return body.result!;
}

/** Waits (bounded: a failure guard, not a timing) until the runner's run has stopped; why it did. */
async function runnerStopped(): Promise<string | undefined> {
  for (let polls = 0; polls < 320 && !stopped.has("runner"); polls++) await sleep(25);
  return (stopped.get("runner") as Error | undefined)?.message;
}

/** Waits (bounded) until the runner's `later` run waits for the test. */
async function started(): Promise<() => void> {
  for (let polls = 0; polls < 320 && !goOn; polls++) await sleep(25);
  expect(goOn, "the run of later started").toBeDefined();
  return goOn!;
}

it("stops a run cancelled on another instance whose message it missed, once renewing the task's lease finds it cancelled", async () => {
  const { runner, canceller, name } = await pair(900);
  const { taskId } = (await call(runner, "tools/call", { name: "forever", arguments: {} })) as { taskId: string };
  // The runner's subscriber goes away and stays away: the cancel's bus message never reaches it.
  await subscriberAway(name);
  await call(canceller, "tasks/cancel", { taskId });
  expect(await call(canceller, "tasks/get", { taskId })).toMatchObject({ status: "cancelled" });
  // Was: the lease renewal (every 300 ms here) found the task cancelled and only stopped renewing:
  // the run went on until its TTL.
  expect(await runnerStopped()).toBe("The client cancelled the task");
});

it("stops a run cancelled on another instance whose message it missed, once its questions' write finds it cancelled", async () => {
  // A lease of a minute: no renewal (every 20 s) comes within the test, so the write alone can tell the runner.
  const { runner, canceller, name } = await pair(60_000);
  const created = await call(runner, "tools/call", { name: "later", arguments: { next: "ask" } });
  const taskId = created.taskId as string;
  const askNow = await started();
  await subscriberAway(name);
  await call(canceller, "tasks/cancel", { taskId });
  askNow();
  // Was: the write of its questions found the task cancelled and changed nothing: the run waited
  // for answers nobody could send (the task reads cancelled) until its TTL.
  expect(await runnerStopped()).toBe("The client cancelled the task");
  expect(await call(runner, "tasks/get", { taskId })).toMatchObject({ status: "cancelled" });
});

it("stops a run cancelled on another instance whose message it missed, once its progress write finds it cancelled", async () => {
  const { runner, canceller, name } = await pair(60_000);
  const created = await call(runner, "tools/call", { name: "later", arguments: { next: "progress" } });
  const taskId = created.taskId as string;
  const reportNow = await started();
  await subscriberAway(name);
  await call(canceller, "tasks/cancel", { taskId });
  reportNow();
  // Was: the progress message (the task's statusMessage) found the task cancelled and the run went on.
  expect(await runnerStopped()).toBe("The client cancelled the task");
});
