/**
 * Task records that JSON.stringify cannot write as they are, with instances sharing their state on a
 * real Redis (`pico({ state })`, docs/scaling.md), each compared with one server without shared state:
 *
 * - a result nested deeper than JSON.stringify recurses (100,000 levels of arrays, which JSON.parse
 *   reads): a 2025-11-25 task whose tool echoes its client's argument in its result (a content
 *   block's `_meta`). The record is written (as session records are, with deepJson), so the task
 *   reads `completed` on every instance at once, and its `tasks/result` answers what one instance
 *   answers for it (a result JSON cannot send whole becomes a tool error);
 * - a result JSON cannot carry at all (a BigInt, a cycle in a content block's `_meta`): the record is
 *   written all the same, with the tool error one instance answers for that result (core/jsonrpc.ts's
 *   `serialize`) as its result, so the task reads `completed` on every instance and its `tasks/result`
 *   answers that error.
 *
 * Two in-process servers (`server.fetch`) and one without shared state; every wait is bounded.
 * Skipped (with the install command as the reason) without redis-server, failed with
 * PICOMCP_REQUIRE_REDIS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, expect, it } from "vitest";
import { z } from "zod";
import { pico, text } from "../../src/index.js";
import type { redisState } from "../../src/redis.js";
import { inSession, within } from "../http-helpers.js";
import { BOUND_MS, openSession } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { sharedState } from "./shared-state.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
let prefixes = 0;

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/** Levels of arrays in the argument: far past what JSON.stringify recurses through. */
const DEPTH = 100_000;
const DEEP = `${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`;

type Server = ReturnType<typeof pico>;

/** What the `unsendable` tool puts in its block's `_meta`: a BigInt, or an object holding itself. */
function unsendable(kind: "bigint" | "cycle"): Record<string, unknown> {
  if (kind === "bigint") return { count: 1n };
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  return { cycle };
}

/**
 * A server of two tasks; with `state`, shared. In a content block's _meta, a value is sent as it is,
 * serialized only as the response is written (docs/tools.md): `echo` answers its argument `value`
 * there, `unsendable` a value JSON cannot carry.
 */
function server(state?: Awaited<ReturnType<typeof redisState>>): Server {
  const made = pico({
    name: "tasks-records",
    version: "1.0.0",
    requestStateKey: "a shared secret of 32 bytes or more!",
    ...(state && { state }),
    signals: false,
  })
    .tool("echo", {
      description: "A task that answers its argument",
      task: "optional",
      input: z.object({ value: z.unknown() }),
      run: ({ value }) => text("echoed", { _meta: { value } }),
    })
    .tool("unsendable", {
      description: "A task whose result JSON cannot carry",
      task: "optional",
      input: z.object({ kind: z.enum(["bigint", "cycle"]) }),
      run: ({ kind }) => text("made", { _meta: unsendable(kind) }),
    });
  opened.push(() => made.close());
  return made;
}

/** Two instances sharing their state on the test's Redis. */
async function instances(): Promise<[Server, Server]> {
  const prefix = `tasks-records-${prefixes++}:`;
  const servers: Server[] = [];
  for (let i = 0; i < 2; i++) {
    const state = await sharedState(redis.get(), prefix, opened);
    servers.push(server(state));
  }
  return [servers[0]!, servers[1]!];
}

let ids = 1;

/**
 * A request's JSON-RPC answer (a stream's last message), its body written by hand around the deep
 * part: the string "DEEP" in `params` stands for DEEP.
 */
async function answer(on: Server, session: string, method: string, params: Record<string, unknown>) {
  const body = JSON.stringify({ jsonrpc: "2.0", id: ids++, method, params }).replace('"DEEP"', DEEP);
  const response = await on.fetch(inSession(session, body));
  const text = await response.text();
  const last = response.headers.get("content-type")?.startsWith("text/event-stream")
    ? text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .at(-1)!
        .slice(6)
    : text;
  return JSON.parse(last) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

/**
 * Calls tool `name` as a task on `start`, then reads on `on` its status once it is no longer working
 * (bounded: a failure guard, not a timing), and its tasks/result.
 */
async function ran(start: Server, on: Server, name: string, args: Record<string, unknown>) {
  const session = await openSession(start, { tasks: {} });
  const created = await answer(start, session, "tools/call", { name, arguments: args, task: {} });
  const taskId = (created.result!.task as { taskId: string }).taskId;
  let status: unknown;
  for (let polls = 0; polls < 100; polls++) {
    status = (await answer(on, session, "tasks/get", { taskId })).result?.status;
    if (status !== "working") break;
    await sleep(25);
  }
  // Bounded: for a task still working, it would wait for its end.
  const result = await within(answer(on, session, "tasks/result", { taskId }), BOUND_MS, "the tasks/result");
  return { status, result: result.result };
}

it("records a task whose result nests 100,000 deep, which then answers on another instance as on one", async () => {
  const single = server();
  const alone = await ran(single, single, "echo", { value: "DEEP" });
  expect(alone.result).toMatchObject({ isError: true });
  const [a, b] = await instances();
  const shared = await ran(a, b, "echo", { value: "DEEP" });
  // Was: "working" for as long as the write was retried (a minute), the record being written with
  // JSON.stringify ("Maximum call stack size exceeded"), then "failed" as if its instance had stopped.
  expect(shared.status).toBe("completed");
  expect(shared.result).toEqual(alone.result);
});

for (const kind of ["bigint", "cycle"] as const) {
  it(`records a task whose result holds a ${kind}, which then answers on another instance the tool error one answers`, async () => {
    const single = server();
    const alone = await ran(single, single, "unsendable", { kind });
    expect(alone.status).toBe("completed");
    expect(alone.result).toMatchObject({ isError: true });
    const [a, b] = await instances();
    const shared = await ran(a, b, "unsendable", { kind });
    // Was: "working" for as long as the write was retried (a minute), deepJson throwing on the record,
    // then "failed" as if its instance had stopped.
    expect(shared.status).toBe("completed");
    // The related-task _meta aside, which the shared answer carries (tasks/result adds it to a recorded result).
    expect({ content: shared.result?.content, isError: shared.result?.isError }).toEqual({
      content: alone.result?.content,
      isError: true,
    });
  });
}
