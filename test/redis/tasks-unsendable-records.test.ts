/**
 * A task whose tool result JSON cannot carry (a BigInt, a cycle in a content block's `_meta`), with
 * instances sharing their state on a real Redis (`pico({ state })`, docs/scaling.md): the record is
 * written all the same, with the tool error one instance answers for that result (core/jsonrpc.ts's
 * `serialize`) as its result, so the task reads `completed` on every instance at once and its
 * `tasks/result` answers that error. Two in-process servers (`server.fetch`) and one without shared
 * state to compare with; every wait is bounded. Skipped (with the install command as the reason)
 * without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "redis";
import { afterEach, expect, it } from "vitest";
import { z } from "zod";
import { pico, text } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import { inSession, within } from "../http-helpers.js";
import { BOUND_MS, openSession } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
let prefixes = 0;

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

type Server = ReturnType<typeof pico>;

/** What the `unsendable` tool puts in its block's `_meta`: a BigInt, or an object holding itself. */
function unsendable(kind: "bigint" | "cycle"): Record<string, unknown> {
  if (kind === "bigint") return { count: 1n };
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  return { cycle };
}

/** A server whose `unsendable` task answers a block whose `_meta` JSON cannot carry; with `state`, shared. */
function server(state?: Awaited<ReturnType<typeof redisState>>): Server {
  const made = pico({
    name: "tasks-unsendable-records",
    version: "1.0.0",
    requestStateKey: "a shared secret of 32 bytes or more!",
    ...(state && { state }),
    signals: false,
  }).tool("unsendable", {
    description: "A task whose result JSON cannot carry",
    task: "optional",
    input: z.object({ kind: z.enum(["bigint", "cycle"]) }),
    // In a content block's _meta: sent as it is, serialized only as the response is written (docs/tools.md).
    run: ({ kind }) => text("made", { _meta: unsendable(kind) }),
  });
  opened.push(() => made.close());
  return made;
}

/** Two instances sharing their state on the test's Redis. */
async function instances(): Promise<[Server, Server]> {
  const prefix = `unsendable-records-${prefixes++}:`;
  const servers: Server[] = [];
  for (let i = 0; i < 2; i++) {
    const client: ReturnType<typeof createClient> = createClient({ url: redis.get().url });
    client.on("error", () => {});
    await client.connect();
    opened.push(() => client.close());
    const state = await redisState({ client, prefix });
    opened.push(() => state.close());
    servers.push(server(state));
  }
  return [servers[0]!, servers[1]!];
}

let ids = 1;

/** A request's JSON-RPC answer (a stream's last message). */
async function answer(on: Server, session: string, method: string, params: Record<string, unknown>) {
  const response = await on.fetch(inSession(session, { jsonrpc: "2.0", id: ids++, method, params }));
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

/** The task's status on `on` once it is no longer working (bounded: a failure guard, not a timing), and its tasks/result. */
async function ran(start: Server, on: Server, kind: "bigint" | "cycle") {
  const session = await openSession(start, { tasks: {} });
  const created = await answer(start, session, "tools/call", { name: "unsendable", arguments: { kind }, task: {} });
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

for (const kind of ["bigint", "cycle"] as const) {
  it(`records a task whose result holds a ${kind}, which then answers on another instance the tool error one answers`, async () => {
    const single = server();
    const alone = await ran(single, single, kind);
    expect(alone.status).toBe("completed");
    expect(alone.result).toMatchObject({ isError: true });
    const [a, b] = await instances();
    const shared = await ran(a, b, kind);
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
