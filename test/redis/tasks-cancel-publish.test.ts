/**
 * A `tasks/cancel` on one instance for a task another instance runs, on a real Redis, when Redis
 * records the cancel but refuses the cancelling instance's PUBLISH that tells the running one. The
 * cancel is recorded, so the client is told it succeeded (2026-07-28: the acknowledgement; 2025-11-25:
 * the task, cancelled), not the retryable 503 of a cancel that did not happen; and the run still
 * stops once the cancelling instance can publish again. The cancelling instance's client is a real
 * node-redis client whose PUBLISH commands fail while the test says so (its other commands reach
 * Redis). Two in-process servers (`server.fetch`); every wait is bounded. Skipped (with the install
 * command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "redis";
import { afterEach, expect, it } from "vitest";
import { META } from "../../src/core/types.js";
import { pico } from "../../src/index.js";
import { type NodeRedisClient, redisState } from "../../src/redis.js";
import { inSession, modern } from "../http-helpers.js";
import { busMessage, openSession } from "./bus-loss.js";
import { TASKS } from "./clients.js";
import { useRedisServer } from "./redis-server.js";
import { forever } from "./tasks-helpers.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
/** Why each instance's run of `forever` stopped, by instance. */
const stopped = new Map<string, unknown>();
let prefixes = 0;

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close().catch(() => {});
  stopped.clear();
});

async function client() {
  const connected = createClient({ url: redis.get().url });
  connected.on("error", () => {});
  await connected.connect();
  opened.push(async () => connected.destroy());
  return connected;
}

/** A real node-redis client whose PUBLISH commands fail while `refusing.on` (as while the link to Redis is lost). */
function refusingPublish(connected: Awaited<ReturnType<typeof client>>) {
  const refusing = { on: false };
  const wrapped: NodeRedisClient = {
    get isReady() {
      return connected.isReady;
    },
    duplicate: () => connected.duplicate(),
    sendCommand: async (args) => {
      if (refusing.on && busMessage(args) !== undefined) throw new Error("Socket closed unexpectedly");
      return connected.sendCommand([...args]);
    },
  };
  return { refusing, client: wrapped };
}

type Server = ReturnType<typeof pico>;

/** An instance named `name` on `redisClient`, sharing its state under `prefix`, with a task that runs until its signal aborts. */
async function instance(name: string, redisClient: NodeRedisClient, prefix: string): Promise<Server> {
  const state = await redisState({ client: redisClient, prefix, leaseMs: 900 });
  opened.push(() => state.close());
  const server = pico({
    name: "cancel-publish",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
    signals: false,
  }).tool(
    "forever",
    forever((reason) => stopped.set(name, reason)),
  );
  opened.push(() => server.close());
  return server;
}

/** Instance "runner" runs the task; instance "canceller", whose PUBLISH the test refuses, cancels it. */
async function pair() {
  const prefix = `cancel-publish-${prefixes++}:`;
  const runner = await instance("runner", await client(), prefix);
  const refused = refusingPublish(await client());
  const canceller = await instance("canceller", refused.client, prefix);
  return { runner, canceller, refusing: refused.refusing };
}

/** Waits (bounded: a failure guard, not a timing) until the runner's run has stopped; why it did. */
async function runnerStopped(): Promise<string | undefined> {
  for (let polls = 0; polls < 320 && !stopped.has("runner"); polls++) await sleep(25);
  return (stopped.get("runner") as Error | undefined)?.message;
}

type Reply = { status: number; body: { result?: Record<string, unknown>; error?: { code: number; message: string } } };

async function replyOf(response: Response): Promise<Reply> {
  return { status: response.status, body: await response.json() };
}

it("acknowledges a 2026-07-28 tasks/cancel whose record was written, and the run elsewhere stops once the publish goes through", async () => {
  const { runner, canceller, refusing } = await pair();
  const _meta = { [META.clientCapabilities]: { extensions: { [TASKS]: {} } } };
  const call = async (server: Server, method: string, params: Record<string, unknown>) => {
    const name = typeof params.taskId === "string" ? { "mcp-name": params.taskId } : {};
    return replyOf(await server.fetch(modern(method, { ...params, _meta }, name)));
  };
  const created = await call(runner, "tools/call", { name: "forever", arguments: {} });
  const taskId = created.body.result!.taskId as string;
  refusing.on = true;
  const cancelled = await call(canceller, "tasks/cancel", { taskId });
  // Was: 503 "The server's shared state is unreachable (…); retry in a moment", the cancel recorded
  // all the same, and the run on the other instance never told.
  expect(cancelled.status).toBe(200);
  expect(cancelled.body.error).toBeUndefined();
  expect(cancelled.body.result).toMatchObject({ resultType: "complete" });
  expect((await call(runner, "tasks/get", { taskId })).body.result).toMatchObject({ status: "cancelled" });
  refusing.on = false;
  expect(await runnerStopped()).toBe("The client cancelled the task");
});

it("answers a 2025-11-25 tasks/cancel whose record was written with the cancelled task, and the run elsewhere stops", async () => {
  const { runner, canceller, refusing } = await pair();
  const session = await openSession(runner, { tasks: {} });
  let ids = 1;
  const call = async (server: Server, method: string, params: Record<string, unknown>) =>
    replyOf(await server.fetch(inSession(session, { jsonrpc: "2.0", id: ids++, method, params })));
  const created = await call(runner, "tools/call", { name: "forever", task: {} });
  const taskId = (created.body.result!.task as { taskId: string }).taskId;
  refusing.on = true;
  const cancelled = await call(canceller, "tasks/cancel", { taskId });
  // Was: 503, the task cancelled in the store, its run going on until its TTL unless Redis reconnected.
  expect(cancelled.status).toBe(200);
  expect(cancelled.body.result).toMatchObject({ taskId, status: "cancelled" });
  refusing.on = false;
  expect(await runnerStopped()).toBe("The client cancelled the task");
});
