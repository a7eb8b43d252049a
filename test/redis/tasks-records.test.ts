/**
 * Task records that JSON.stringify cannot write as they are, with instances sharing their state on a
 * real Redis (`pico({ state })`, docs/scaling.md), each compared with one server without shared state:
 *
 * - a result nested deeper than JSON.stringify recurses (100,000 levels of arrays, which JSON.parse
 *   reads): a 2025-11-25 task whose tool echoes its client's argument in its result (a content
 *   block's `_meta`);
 * - a result JSON cannot carry at all (a BigInt, a cycle in a content block's `_meta`), in 2025-11-25
 *   and in 2026-07-28;
 * - a JSON-RPC error whose `data` JSON cannot carry (2026-07-28).
 *
 * Each is recorded as what the call would have answered (the tool error for such a result, the
 * internal error for such an error), on every instance at once, so the task reads the same on one
 * instance as on two, its 2026-07-28 `tasks/get` inlines it, and its 2025-11-25 `tasks/result`
 * answers it with its related-task `_meta`.
 *
 * Two in-process servers (`server.fetch`) and one without shared state; every wait is bounded.
 * Skipped (with the install command as the reason) without redis-server, failed with
 * PICOMCP_REQUIRE_REDIS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, expect, it } from "vitest";
import { z } from "zod";
import { askingLayer } from "../../src/core/context.js";
import { ErrorCode, McpError, pico, text } from "../../src/index.js";
import type { redisState } from "../../src/redis.js";
import { inSession, modern, within } from "../http-helpers.js";
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
    })
    .tool("changed_questions", {
      description: "A task that asks, then changes what it asked into what JSON cannot carry",
      task: "optional",
      run: async (_args, ctx) => {
        const count: Record<string, unknown> = { type: "integer" };
        const form = ctx.elicit("How many?", { type: "object", properties: { count } });
        const message: Record<string, unknown> = { type: "text", text: "Name it" };
        const sampled = ctx.sample({ messages: [{ role: "user", content: message as never }], maxTokens: 5 });
        // After asking: a default JSON cannot carry, and a cycle.
        count.default = 1n;
        message.self = message;
        const [answer, named] = await Promise.all([form, sampled]);
        return `${"content" in answer ? JSON.stringify(answer.content) : answer.action} ${JSON.stringify(named.content)}`;
      },
    })
    .tool("unsendable_error", {
      description: "A task that ends with a JSON-RPC error whose data JSON cannot carry",
      task: "optional",
      run: () => {
        throw new McpError(ErrorCode.InvalidParams, "no such record", unsendable("bigint"));
      },
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
  return { status, result: result.result, taskId };
}

/** A 2025-11-25 tasks/result's answer, tied to its task by related-task `_meta` (2025-11-25 "Tasks": MUST) as it must be, without it. */
function untied(ran: { result?: Record<string, unknown>; taskId: string }) {
  const { _meta, ...rest } = ran.result ?? {};
  expect(_meta).toEqual({ "io.modelcontextprotocol/related-task": { taskId: ran.taskId } });
  return rest;
}

it("records a task whose result nests 100,000 deep, which then answers on another instance as on one", async () => {
  const single = server();
  const alone = await ran(single, single, "echo", { value: "DEEP" });
  expect(alone.result).toMatchObject({ isError: true });
  const [a, b] = await instances();
  const shared = await ran(a, b, "echo", { value: "DEEP" });
  // Was: "working" for as long as the write was retried (a minute), the record being written with
  // JSON.stringify ("Maximum call stack size exceeded"), then "failed" as if its instance had stopped.
  // A tool error fails a 2025-11-25 task (SHOULD; its tasks/result still answers it), on both.
  expect([alone.status, shared.status]).toEqual(["failed", "failed"]);
  expect(untied(shared)).toEqual(untied(alone));
});

for (const kind of ["bigint", "cycle"] as const) {
  it(`records a task whose result holds a ${kind}, which then answers on another instance the tool error one answers`, async () => {
    const single = server();
    const alone = await ran(single, single, "unsendable", { kind });
    expect(alone.result).toMatchObject({ isError: true });
    const [a, b] = await instances();
    const shared = await ran(a, b, "unsendable", { kind });
    // Was: "working" for as long as the write was retried (a minute), deepJson throwing on the record,
    // then "failed" as if its instance had stopped. A tool error fails a 2025-11-25 task (SHOULD).
    expect([alone.status, shared.status]).toEqual(["failed", "failed"]);
    // Was: one instance's answer had no related-task _meta (the response's own fallback dropped it).
    expect(untied(shared)).toEqual(untied(alone));
  });
}

/** A 2026-07-28 request declaring the Tasks extension (per request, SEP-2663); `Mcp-Name` names its task. */
async function modernAnswer(on: Server, method: string, params: Record<string, unknown>) {
  const declared = { elicitation: { form: {} }, sampling: {}, extensions: { [TASKS]: {} } };
  const capabilities = { "io.modelcontextprotocol/clientCapabilities": declared };
  const named = typeof params.taskId === "string" ? { "mcp-name": params.taskId } : {};
  const response = await on.fetch(modern(method, { ...params, _meta: capabilities }, named));
  return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

const TASKS = "io.modelcontextprotocol/tasks";

/** Calls tool `name` as a 2026-07-28 task on `start`, then answers `tasks/get` on `on` once it is no longer working (bounded). */
async function modernRan(start: Server, on: Server, name: string, args: Record<string, unknown>) {
  const created = await modernAnswer(start, "tools/call", { name, arguments: args });
  const taskId = created.result!.taskId as string;
  for (let polls = 0; polls < 100; polls++) {
    const got = await modernAnswer(on, "tasks/get", { taskId });
    if (got.result?.status !== "working") return got;
    await sleep(25);
  }
  throw new Error(`task ${taskId} stayed working`);
}

for (const kind of ["bigint", "cycle"] as const) {
  it(`answers a 2026-07-28 tasks/get for a task whose result holds a ${kind} with the tool error, on one instance as on two`, async () => {
    const single = server();
    const alone = await modernRan(single, single, "unsendable", { kind });
    // Was: -32603 "Internal error: the response cannot be sent as JSON", the task's status unreadable.
    expect(alone.error).toBeUndefined();
    const [a, b] = await instances();
    const shared = await modernRan(a, b, "unsendable", { kind });
    // SEP-2663 "Task Status": a tool result with isError is `completed`, inlined in tasks/get.
    for (const got of [alone, shared]) {
      expect(got.result).toMatchObject({ status: "completed", result: { isError: true } });
      const block = (got.result!.result as { content: { text: string }[] }).content[0]!;
      expect(block.text).toMatch(/^Tool "unsendable" returned a value that cannot be sent as JSON: /);
    }
    expect(alone.result!.result).toEqual(shared.result!.result);
  });
}

it("answers a 2026-07-28 tasks/get for a task failed with a JSON-RPC error whose data JSON cannot carry, on one instance as on two", async () => {
  const single = server();
  const alone = await modernRan(single, single, "unsendable_error", {});
  // Was: -32603 for tasks/get itself (one instance), and the record never written (shared).
  expect(alone.error).toBeUndefined();
  const [a, b] = await instances();
  const shared = await modernRan(a, b, "unsendable_error", {});
  for (const got of [alone, shared]) {
    // What the call would have answered: the internal error of a response JSON cannot carry.
    expect(got.result).toMatchObject({
      status: "failed",
      error: { code: -32603, message: expect.stringMatching(/^Internal error: the response cannot be sent as JSON: /) },
    });
  }
});

it("records and answers a task's questions as asked when the tool changes them afterwards into what JSON cannot carry, on one instance as on two", async () => {
  // Loaded already, as on a server that has asked before: the questions are taken at once, before the change.
  await askingLayer.load();
  const single = server();
  const [a, b] = await instances();
  for (const [start, on] of [
    [single, single],
    [a, b],
  ] as const) {
    const asked = await modernRan(start, on, "changed_questions", {});
    // Was (shared): "working" while its record was written again for a minute (deepJson threw on the
    // BigInt), then "failed" as if its instance had stopped; one instance's tasks/get answered -32603.
    expect(asked.result).toMatchObject({
      status: "input_required",
      inputRequests: {
        "elicitation-1": { params: { requestedSchema: { properties: { count: { type: "integer" } } } } },
        "sampling-1": { params: { messages: [{ content: { type: "text", text: "Name it" } }] } },
      },
    });
    const taskId = asked.result!.taskId as string;
    const requests = asked.result!.inputRequests as Record<string, { params: Record<string, unknown> }>;
    const schema = requests["elicitation-1"]!.params.requestedSchema as { properties: { count: object } };
    expect(schema.properties.count).toEqual({ type: "integer" });
    const responses = {
      "elicitation-1": { action: "accept", content: { count: 3 } },
      "sampling-1": { role: "assistant", content: { type: "text", text: "Bob" }, model: "m" },
    };
    expect(await modernAnswer(on, "tasks/update", { taskId, inputResponses: responses })).toMatchObject({ result: {} });
    let done: Record<string, unknown> | undefined;
    for (let polls = 0; polls < 200 && done?.status !== "completed"; polls++) {
      done = (await modernAnswer(on, "tasks/get", { taskId })).result;
      if (done?.status !== "completed") await sleep(25);
    }
    expect(done).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: '{"count":3} {"type":"text","text":"Bob"}' }] },
    });
  }
});
