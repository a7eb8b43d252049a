/**
 * A 2025-11-25 `tasks/cancel` that races the task's completion, on two instances sharing a real
 * Redis: the task ends on the instance running it between the cancel's read of the task (working)
 * and its change of the record. 2025-11-25 "Tasks": cancelling a task in a terminal status MUST be
 * refused with -32602, and a cancelled task is what `tasks/cancel` returns; the completed task is
 * neither. The interleaving is made, not hoped for: the cancelling instance's client holds its
 * command that reads the record for the change until the task has completed. Skipped (with the
 * install command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "redis";
import { afterEach, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { type NodeRedisClient, redisState } from "../../src/redis.js";
import { inSession, post, signal, within } from "../http-helpers.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close().catch(() => {});
});

/** A bound on each wait: a failure guard, not a timing. */
const BOUND_MS = 8000;

async function client() {
  const connected = createClient({ url: redis.get().url });
  connected.on("error", () => {});
  await connected.connect();
  opened.push(async () => connected.destroy());
  return connected;
}

/** A hold on the next `GET key` a client sends: `caught` once it is held, `release` lets it go to Redis. */
interface Hold {
  readonly key: string;
  readonly caught: ReturnType<typeof signal<void>>;
  readonly released: ReturnType<typeof signal<void>>;
}

/** A real node-redis client whose next `GET` of a held key waits until the test releases it. */
function holding(connected: Awaited<ReturnType<typeof client>>): { client: NodeRedisClient; hold(key: string): Hold } {
  let armed: Hold | undefined;
  return {
    client: {
      get isReady() {
        return connected.isReady;
      },
      duplicate: () => connected.duplicate(),
      sendCommand: async (args) => {
        const hold = armed;
        if (hold && args[0] === "GET" && args[1] === hold.key) {
          armed = undefined;
          hold.caught.resolve();
          await hold.released.promise;
        }
        return connected.sendCommand([...args]);
      },
    },
    hold: (key) => {
      armed = { key, caught: signal(), released: signal() };
      return armed;
    },
  };
}

type Server = ReturnType<typeof pico>;

/** An instance on `redisClient` with a task that finishes when `finish` resolves. */
async function instance(redisClient: NodeRedisClient, prefix: string, finish: Promise<void>): Promise<Server> {
  const state = await redisState({ client: redisClient, prefix, leaseMs: 900 });
  opened.push(() => state.close());
  const server = pico({
    name: "cancel-race",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
    signals: false,
  }).tool("finish", {
    description: "A task that completes when the test lets it.",
    task: "optional",
    run: async () => {
      await finish;
      return "finished";
    },
  });
  opened.push(() => server.close());
  return server;
}

let ids = 1;

async function answer(server: Server, session: string, method: string, params: Record<string, unknown>) {
  const response = await server.fetch(inSession(session, { jsonrpc: "2.0", id: ids++, method, params }));
  return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

it("refuses with -32602 a tasks/cancel whose task completed while the cancel was being applied", async () => {
  const prefix = "cancel-race:";
  const finish = signal();
  const a = await instance(await client(), prefix, finish.promise);
  const held = holding(await client());
  const b = await instance(held.client, prefix, new Promise(() => {}));
  const initialized = await a.fetch(
    post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { tasks: {} },
        clientInfo: { name: "t", version: "1" },
      },
    }),
  );
  const session = initialized.headers.get("mcp-session-id")!;
  await initialized.text();
  await a.fetch(inSession(session, { jsonrpc: "2.0", method: "notifications/initialized" }));
  const created = await answer(a, session, "tools/call", { name: "finish", task: {} });
  const taskId = (created.result!.task as { taskId: string }).taskId;
  // Instance b reads the task (working), then its change waits here while instance a completes it.
  const hold = held.hold(`${prefix}t:${taskId}`);
  const cancelling = answer(b, session, "tasks/cancel", { taskId });
  await within(hold.caught.promise, BOUND_MS, "the cancel's read of the task");
  finish.resolve();
  let status = "";
  for (let polls = 0; polls < 200 && status !== "completed"; polls++) {
    status = String((await answer(a, session, "tasks/get", { taskId })).result?.status);
    if (status !== "completed") await sleep(25);
  }
  expect(status).toBe("completed");
  hold.released.resolve();
  // Before: the completed task came back as tasks/cancel's result.
  const cancelled = await within(cancelling, BOUND_MS, "tasks/cancel");
  expect(cancelled.result).toBeUndefined();
  expect(cancelled.error).toMatchObject({ code: -32602, message: expect.stringContaining("completed") });
  expect((await answer(b, session, "tasks/get", { taskId })).result).toMatchObject({ status: "completed" });
});
