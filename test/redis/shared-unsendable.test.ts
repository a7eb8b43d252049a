/**
 * What a server makes that JSON cannot carry (a BigInt in a log's data), with instances sharing their
 * state on a real Redis (`pico({ state })`, docs/scaling.md): a 2025-11-25 task's logs reach a
 * `tasks/result` on another instance over the bus, and the one JSON cannot carry is dropped there, as
 * one instance's transport drops it (core/jsonrpc.ts's `serialize`), whether it was kept for the
 * `tasks/result` or sent while it waits: the tool's `ctx.log` never throws, and the messages after it
 * arrive. And a client's message relayed by a bus of one's own whose `announce` throws is still
 * answered 202. Two in-process servers (`server.fetch`); every wait is bounded. Skipped (with the install
 * command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { afterEach, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { EventReader, inSession, messageOf, signal, within } from "../http-helpers.js";
import { BOUND_MS, openSession } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { sharedState } from "./shared-state.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
let prefixes = 0;

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/**
 * Two instances sharing their state under one prefix (`throwing`: through a bus of one's own whose
 * `announce` throws, wrapping Redis's); instance a's `noisy` task logs a BigInt and a
 * line before `go`, and a BigInt and a line after it, then answers.
 */
async function instances(throwing = false) {
  const prefix = `unsendable-${prefixes++}:`;
  const logged = signal();
  const go = signal();
  const servers = [];
  for (let i = 0; i < 2; i++) {
    const state = await sharedState(redis.get(), prefix, opened);
    if (throwing) {
      state.bus.announce = () => {
        throw new Error("this bus is broken");
      };
    }
    const server = pico({
      name: "shared-unsendable",
      version: "1.0.0",
      requestStateKey: "a shared secret of 32 bytes or more!",
      state,
      signals: false,
    }).tool("noisy", {
      description: "A task that logs what JSON cannot carry, among lines it can",
      task: "optional",
      run: async (_args, ctx) => {
        ctx.log.info({ count: 1n });
        ctx.log.info("kept");
        logged.resolve();
        await go.promise;
        ctx.log.info({ count: 2n });
        ctx.log.info("sent");
        return "done";
      },
    });
    opened.push(() => server.close());
    servers.push(server);
  }
  return { a: servers[0]!, b: servers[1]!, logged: logged.promise, go: go.resolve };
}

it("drops a task's log JSON cannot carry on its way to a tasks/result on another instance, and delivers the rest", async () => {
  const { a, b, logged, go } = await instances();
  const session = await openSession(a, { tasks: {} });
  const created = await a.fetch(
    inSession(session, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "noisy", task: {} } }),
  );
  const { result } = (await created.json()) as { result: { task: { taskId: string } } };
  const taskId = result.task.taskId;
  // Kept by instance a for a tasks/result that has not come yet.
  await within(logged, BOUND_MS, "the task's first logs");

  // Its response starts with the first message it sends.
  const waiting = await within(
    b.fetch(inSession(session, { jsonrpc: "2.0", id: 2, method: "tasks/result", params: { taskId } })),
    BOUND_MS,
    "the tasks/result's stream",
  );
  expect(waiting.status).toBe(200);
  const events = new EventReader(waiting);
  opened.push(() => events.cancel().catch(() => {}));
  const read = async () => {
    for (;;) {
      const event = await events.next(BOUND_MS);
      if (!event) return undefined;
      if (event.data) return messageOf(event) as { method?: string; params?: { data?: unknown }; result?: unknown };
    }
  };
  // Was: the kept BigInt threw in the bus listener attaching the tasks/result, and the line after it was lost.
  expect(await read()).toMatchObject({ method: "notifications/message", params: { data: "kept" } });

  go();
  const rest = [];
  for (let message = await read(); message; message = await read()) rest.push(message);
  const logs = rest.filter((message) => message.method === "notifications/message").map((m) => m.params?.data);
  // Was: the tool's ctx.log threw ("Do not know how to serialize a BigInt"), and the task failed with it.
  expect(logs).toEqual(["sent"]);
  expect(rest.at(-1)).toMatchObject({ id: 2, result: { content: [{ type: "text", text: "done" }] } });
});

it("answers 202 to a client's message for another instance when a bus of one's own throws as it relays it", async () => {
  const { a, b } = await instances(true);
  const session = await openSession(a, {});
  const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } };
  // Was: the throw of `announce` left SharedSessions.forward, and server.fetch rejected with it (no answer).
  const relayed = await b.fetch(inSession(session, cancel));
  expect(relayed.status).toBe(202);
  const ping = await b.fetch(inSession(session, { jsonrpc: "2.0", id: 6, method: "ping" }));
  expect(await ping.json()).toMatchObject({ id: 6, result: {} });
});
