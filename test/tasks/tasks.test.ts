/**
 * The 2026-07-28 Tasks extension (SEP-2663) over Streamable HTTP on a 127.0.0.1 listener: task
 * creation, polling, questions answered with tasks/update, cooperative cancellation, the TTL, the
 * gating errors and the routing header. The conformance suite runs its nine tasks-* scenarios
 * against the fixture (test/conformance); these check what it does not.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ErrorCode, McpError, pico } from "../../src/index.js";
import type { Listening } from "../../src/transports/listen.js";
import { TASKS, TasksClient } from "./tasks-helpers.js";

/** Why each `wait` run's signal aborted, by label. */
const aborted = new Map<string, unknown>();
/** How many times `ask_first`'s run started, and with which name. */
const started: string[] = [];
let release: (() => void) | undefined;

function waitForAbortOrRelease(label: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    release = () => resolve(`released ${label}`);
    signal.addEventListener("abort", () => {
      aborted.set(label, signal.reason);
      reject(signal.reason);
    });
  });
}

const server = pico({ name: "tasks-test", version: "1.0.0" })
  .tool("plain", { description: "Never a task", run: () => "plain answer" })
  .tool("wait", {
    description: "Waits until released or cancelled",
    input: z.object({ label: z.string() }),
    task: "optional",
    run: ({ label }, ctx) => waitForAbortOrRelease(label, ctx.signal),
  })
  .tool("brief", {
    description: "Lives at most its TTL",
    task: { support: "optional", ttlMs: 200, pollIntervalMs: 50 },
    run: (_args, ctx) => waitForAbortOrRelease("brief", ctx.signal),
  })
  .tool("monthly", {
    description: "Kept for 30 days, longer than one setTimeout can wait",
    task: { support: "optional", ttlMs: 30 * 86_400_000 },
    run: (_args, ctx) => waitForAbortOrRelease("monthly", ctx.signal),
  })
  .tool("delete_file", {
    description: "Asks before deleting",
    input: z.object({ file: z.string() }),
    task: "required",
    run: async ({ file }, ctx) => ((await ctx.confirm(`Delete ${file}?`)) ? `deleted ${file}` : `kept ${file}`),
  })
  .tool("two_questions", {
    description: "Asks two things at once, then a third",
    task: "optional",
    run: async (_args, ctx) => {
      const [a, b] = await Promise.all([
        ctx.elicit("A?", z.object({ a: z.string() }), { key: "a" }),
        ctx.elicit("B?", z.object({ b: z.string() }), { key: "b" }),
      ]);
      const c = await ctx.elicit("C?", z.object({ c: z.string() }), { key: "c" });
      const value = (answer: typeof a | typeof b | typeof c, key: string) =>
        answer.action === "accept" ? (answer.content as Record<string, string>)[key] : "-";
      return `${value(a, "a")}${value(b, "b")}${value(c, "c")}`;
    },
  })
  .tool("tool_error", {
    description: "Throws an ordinary error",
    task: "optional",
    run: () => {
      throw new Error("the input was bad");
    },
  })
  .tool("protocol_error", {
    description: "Throws an McpError",
    task: "optional",
    run: () => {
      throw new McpError(ErrorCode.InvalidParams, "no such record", { record: 7 });
    },
  })
  .tool("missing_resource", {
    description: "Throws an McpError with the 2025 resource-not-found code",
    task: "optional",
    run: () => {
      throw new McpError(ErrorCode.ResourceNotFound, "no such file", { uri: "file:///x" });
    },
  })
  .tool("ask_first", {
    description: "Asks a name in the request, then works in a task",
    task: { support: "required", askFirst: true },
    run: async (_args, ctx) => {
      const answer = await ctx.elicit("Name?", z.object({ name: z.string() }), { key: "name" });
      const name = answer.action === "accept" ? answer.content.name : "nobody";
      started.push(name);
      return `Hello from the task, ${name}`;
    },
  });

let listening: Listening;
let client: TasksClient;
let undeclared: TasksClient;

beforeAll(async () => {
  listening = await server.serve({ port: 0 });
  client = new TasksClient(listening.url);
  undeclared = new TasksClient(listening.url, false);
});

afterAll(async () => {
  await listening.close();
});

describe("task creation and polling", () => {
  it("advertises the extension under capabilities.extensions", async () => {
    const discovered = await client.result("server/discover");
    expect((discovered.capabilities as Record<string, unknown>).extensions).toEqual({ [TASKS]: {} });
    expect(discovered.capabilities).not.toHaveProperty("tasks");
  });

  it("answers a task tool with a flat CreateTaskResult, then inlines the result on tasks/get", async () => {
    const created = await client.result("tools/call", { name: "wait", arguments: { label: "done" } });
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: 3_600_000, pollIntervalMs: 1000 });
    expect(created.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(created.createdAt as string)).not.toBeNaN();
    for (const absent of ["result", "error", "inputRequests", "requestState", "task", "ttl"]) {
      expect(created).not.toHaveProperty(absent);
    }
    const taskId = created.taskId as string;
    expect(await client.result("tasks/get", { taskId })).toMatchObject({ resultType: "complete", status: "working" });
    release!();
    const done = await client.until(taskId);
    expect(done.status).toBe("completed");
    // The result inlined is the tool call's 2026-07-28 CallToolResult, whose resultType is required
    // (schema 2026-07-28 `Result`; SEP-2663 "Tasks": "the CallToolResult structure").
    expect(done.result).toEqual({ resultType: "complete", content: [{ type: "text", text: "released done" }] });
    expect(done).not.toHaveProperty("error");
  });

  it("runs a tool without a task setting, and any tool for a client that did not declare the extension, as usual", async () => {
    expect(await client.result("tools/call", { name: "plain" })).toMatchObject({ resultType: "complete" });
    release = undefined;
    const call = undeclared.result("tools/call", { name: "wait", arguments: { label: "sync" } });
    await expect.poll(() => release).toBeDefined();
    release!();
    expect(await call).toMatchObject({ resultType: "complete", content: [{ text: "released sync" }] });
  });

  it("keeps a tool error a completed task (isError) and a JSON-RPC error a failed one", async () => {
    const toolError = await client.result("tools/call", { name: "tool_error" });
    expect(await client.until(toolError.taskId as string)).toMatchObject({
      status: "completed",
      result: { isError: true, content: [{ text: "the input was bad" }] },
    });
    const protocolError = await client.result("tools/call", { name: "protocol_error" });
    const failed = await client.until(protocolError.taskId as string);
    expect(failed).toMatchObject({
      status: "failed",
      error: { code: ErrorCode.InvalidParams, message: "no such record", data: { record: 7 } },
    });
    expect(failed).not.toHaveProperty("result");
  });

  it("fails a task with the code 2026-07-28 allows, as a response would carry it (-32002 as -32602)", async () => {
    const created = await client.result("tools/call", { name: "missing_resource" });
    expect(await client.until(created.taskId as string)).toMatchObject({
      status: "failed",
      error: { code: ErrorCode.InvalidParams, message: "no such file", data: { uri: "file:///x" } },
    });
  });

  it("answers an unknown taskId with -32602, and tasks/result and tasks/list with -32601", async () => {
    expect((await client.error("tasks/get", { taskId: "no-such-task" })).code).toBe(ErrorCode.InvalidParams);
    expect((await client.error("tasks/cancel", { taskId: "no-such-task" })).code).toBe(ErrorCode.InvalidParams);
    expect((await client.error("tasks/result", { taskId: "x" })).code).toBe(ErrorCode.MethodNotFound);
    expect((await client.error("tasks/list")).code).toBe(ErrorCode.MethodNotFound);
  });
});

describe("gating (-32021) and the routing header (-32020)", () => {
  // The number itself, not ErrorCode's: the extension's older drafts say -32003, the code before
  // 2026-07-28 renumbered it; its current text and the 2026-07-28 schema say -32021 (docs/tasks.md).
  it("refuses the tasks methods and a required tool to a client that did not declare the extension", async () => {
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const error = await undeclared.error(method, { taskId: "t", inputResponses: {} });
      expect(error.code).toBe(-32021);
      expect(error.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    }
    const required = await undeclared.error("tools/call", { name: "delete_file", arguments: { file: "a" } });
    expect(required.code).toBe(-32021);
    expect(required.message).toContain('Tool "delete_file" runs only as a task');
  });

  it("requires Mcp-Name to carry the taskId", async () => {
    const created = await client.result("tools/call", { name: "wait", arguments: { label: "headers" } });
    const taskId = created.taskId as string;
    const wrong = await client.send("tasks/get", { taskId }, { "mcp-name": "another-task" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error?.code).toBe(ErrorCode.HeaderMismatch);
    const missing = await client.send("tasks/get", { taskId }, { "mcp-name": null });
    expect(missing.status).toBe(400);
    expect(missing.body.error?.message).toContain("params.taskId");
    expect((await client.send("tasks/get", { taskId })).status).toBe(200);
    await client.result("tasks/cancel", { taskId });
  });
});

describe("questions inside a task", () => {
  it("moves to input_required, and tasks/update resumes it", async () => {
    const created = await client.result("tools/call", { name: "delete_file", arguments: { file: "notes.txt" } });
    const taskId = created.taskId as string;
    const waiting = await client.until(taskId, "input_required");
    const keys = Object.keys(waiting.inputRequests as object);
    expect(keys).toHaveLength(1);
    expect((waiting.inputRequests as Record<string, { method: string }>)[keys[0]!]!.method).toBe("elicitation/create");
    const ack = await client.result("tasks/update", {
      taskId,
      inputResponses: { [keys[0]!]: { action: "accept", content: { confirm: true } } },
    });
    expect(ack).toEqual({ resultType: "complete", _meta: expect.any(Object) });
    expect(await client.until(taskId)).toMatchObject({
      status: "completed",
      result: { content: [{ text: "deleted notes.txt" }] },
    });
  });

  it("keeps answered keys out, waits for the whole round, ignores unknown keys, and asks the next round with new keys", async () => {
    const taskId = (await client.result("tools/call", { name: "two_questions" })).taskId as string;
    const first = await client.until(taskId, "input_required");
    expect(Object.keys(first.inputRequests as object).sort()).toEqual(["a", "b"]);
    await client.result("tasks/update", {
      taskId,
      inputResponses: { a: { action: "accept", content: { a: "1" } }, zzz: {} },
    });
    const partial = await client.result("tasks/get", { taskId });
    expect(partial.status).toBe("input_required");
    expect(Object.keys(partial.inputRequests as object)).toEqual(["b"]);
    await client.result("tasks/update", { taskId, inputResponses: { b: { action: "accept", content: { b: "2" } } } });
    const second = await client.until(taskId, "input_required");
    expect(Object.keys(second.inputRequests as object)).toEqual(["c"]);
    // An answer to a key already answered is ignored: it cannot change the first round.
    await client.result("tasks/update", { taskId, inputResponses: { a: { action: "accept", content: { a: "9" } } } });
    await client.result("tasks/update", { taskId, inputResponses: { c: { action: "accept", content: { c: "3" } } } });
    expect(await client.until(taskId)).toMatchObject({ status: "completed", result: { content: [{ text: "123" }] } });
  });

  it("asks an askFirst tool's questions in the request, and starts the task with the retry that answers them", async () => {
    const round = await client.result("tools/call", { name: "ask_first" });
    expect(round).toMatchObject({
      resultType: "input_required",
      inputRequests: { name: { method: "elicitation/create" } },
    });
    expect(round).not.toHaveProperty("taskId");
    const retry = {
      name: "ask_first",
      inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
      requestState: round.requestState,
    };
    const created = await client.result("tools/call", retry);
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    expect(created).not.toHaveProperty("requestState");
    expect(await client.until(created.taskId as string)).toMatchObject({
      status: "completed",
      result: { content: [{ text: "Hello from the task, Ada" }] },
    });
    // The state was good for one retry: a replay starts no second task.
    expect((await client.error("tools/call", retry)).code).toBe(ErrorCode.InvalidParams);
    expect(started.filter((name) => name === "Ada")).toHaveLength(1);
  });
});

describe("cancellation and TTL", () => {
  it("cancels cooperatively: an empty ack, status cancelled, the run's signal aborted; idempotent", async () => {
    const taskId = (await client.result("tools/call", { name: "wait", arguments: { label: "cancel-me" } }))
      .taskId as string;
    const ack = await client.result("tasks/cancel", { taskId });
    expect(Object.keys(ack).sort()).toEqual(["_meta", "resultType"]);
    expect(await client.result("tasks/get", { taskId })).toMatchObject({ status: "cancelled" });
    expect((aborted.get("cancel-me") as Error).name).toBe("AbortError");
    expect(Object.keys(await client.result("tasks/cancel", { taskId })).sort()).toEqual(["_meta", "resultType"]);
  });

  it("ends a run at its TTL and forgets the task", async () => {
    const created = await client.result("tools/call", { name: "brief" });
    expect(created).toMatchObject({ ttlMs: 200, pollIntervalMs: 50 });
    const taskId = created.taskId as string;
    let error: Awaited<ReturnType<TasksClient["error"]>> | undefined;
    for (let polls = 0; polls < 300 && !error; polls++) {
      const reply = await client.send("tasks/get", { taskId });
      error = reply.body.error;
      if (!error) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(error?.code).toBe(ErrorCode.InvalidParams);
    expect(error?.message).toContain("may have expired");
    expect((aborted.get("brief") as Error).message).toBe("The task's TTL passed");
  });

  it("keeps a task whose TTL is longer than setTimeout's longest delay (2^31 - 1 ms) until it finishes", async () => {
    const created = await client.result("tools/call", { name: "monthly" });
    expect(created).toMatchObject({ status: "working", ttlMs: 2_592_000_000 });
    const taskId = created.taskId as string;
    // An overflowing timer fires after 1 ms: by now it would have ended the run as expired.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(aborted.has("monthly")).toBe(false);
    expect(await client.result("tasks/get", { taskId })).toMatchObject({ status: "working" });
    release?.();
    const done = await client.until(taskId, "completed");
    expect(done).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "released monthly" }] },
    });
  });
});

describe("registration", () => {
  it("refuses a tool whose task setting the extension does not have, saying what to fix", async () => {
    const bad = pico({ name: "bad" }).tool("t", { task: { support: "optional", ttlMs: 1.5 }, run: () => "" });
    await expect(bad.serve({ port: 0 })).rejects.toThrow(
      'Tool "t" has an invalid task setting {"support":"optional","ttlMs":1.5}',
    );
    await expect(bad.ready()).rejects.toThrow("whole positive milliseconds");
  });

  it("does not load the tasks layer, nor offer its methods, without a task tool", async () => {
    const plainServer = pico({ name: "plain" }).tool("plain", { run: () => "x" });
    const plainListening = await plainServer.serve({ port: 0 });
    try {
      const plainClient = new TasksClient(plainListening.url);
      const discovered = await plainClient.result("server/discover");
      expect(discovered.capabilities).not.toHaveProperty("extensions");
      expect((await plainClient.send("tasks/get", { taskId: "x" })).body.error?.code).toBe(ErrorCode.MethodNotFound);
    } finally {
      await plainListening.close();
    }
  });
});
