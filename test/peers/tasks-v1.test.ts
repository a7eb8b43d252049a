/**
 * The official v1 client (@modelcontextprotocol/sdk 1.32, `client.experimental.tasks`) against
 * picomcp's 2025-11-25 tasks (test/fixtures/tasks-server.ts), over stdio (a child process) and over
 * Streamable HTTP sessions: the capability and `execution.taskSupport` it reads, `callToolStream`
 * (task creation, polling, the result through `tasks/result`), progress after the call was answered,
 * a question asked inside a task (input_required, answered on the `tasks/result` stream with
 * related-task `_meta`), a tool error, `tasks/list` and `tasks/cancel`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema, type Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Listening } from "../../src/transports/listen.js";
import { tasksServer } from "../fixtures/tasks-server.js";
import { tsxProgram } from "./fixture.js";

const RELATED = "io.modelcontextprotocol/related-task";
const listenings: Listening[] = [];
const clients: Client[] = [];

afterAll(async () => {
  for (const client of clients) await client.close();
  for (const listening of listenings) await listening.close();
});

async function connect(transport: "stdio" | "HTTP session") {
  const asked: { params: Record<string, unknown> }[] = [];
  const client = new Client({ name: "v1-tasks", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request);
    return { action: "accept", content: { confirm: true } };
  });
  if (transport === "stdio") {
    await client.connect(new StdioClientTransport(tsxProgram("test/fixtures/tasks-server.ts")));
  } else {
    const listening = await tasksServer().serve({ port: 0 });
    listenings.push(listening);
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
  }
  clients.push(client);
  return { client, asked };
}

interface Streamed {
  type: string;
  task?: { taskId: string; status: string };
  result?: Record<string, unknown>;
}

/** Every message of a callToolStream, in order. */
async function streamed(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  onprogress?: (p: Progress) => void,
) {
  const messages: Streamed[] = [];
  const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
    onprogress,
  });
  for await (const message of stream) {
    messages.push({
      type: message.type,
      task: "task" in message ? message.task : undefined,
      result: "result" in message ? message.result : undefined,
    });
  }
  return messages;
}

describe.each(["stdio", "HTTP session"] as const)("v1 client's experimental tasks over %s", (transport) => {
  let client: Client;
  let asked: { params: Record<string, unknown> }[];

  beforeAll(async () => {
    ({ client, asked } = await connect(transport));
  });

  it("sees capabilities.tasks and each task tool's execution.taskSupport", async () => {
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
    expect(support).toMatchObject({ plain: undefined, slow: "optional", confirm_delete: "required" });
  });

  it("creates a task, polls it, and gets the result through tasks/result, with the run's progress", async () => {
    const progress: Progress[] = [];
    const messages = await streamed(client, "slow", { ms: 50 }, (p) => progress.push(p));
    expect(messages[0]).toMatchObject({ type: "taskCreated", task: { status: "working", ttl: 3_600_000 } });
    expect(messages.at(-1)).toMatchObject({ type: "result", result: { content: [{ text: "slept 50 ms" }] } });
    const taskId = messages[0]!.task!.taskId;
    expect(messages.at(-1)!.result!._meta).toEqual({ [RELATED]: { taskId } });
    // The progress token stays valid until the task ends (2025-11-25 "Tasks"): it travels with tasks/result.
    expect(progress.map((p) => p.message)).toEqual(["half way", "done"]);
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe("completed");
  });

  it("moves a task that asks to input_required, and asks on the tasks/result stream with related-task _meta", async () => {
    const before = asked.length;
    const messages = await streamed(client, "confirm_delete", { file: "notes.txt" });
    const taskId = messages[0]!.task!.taskId;
    expect(messages.map((m) => m.type)).toContain("taskStatus");
    expect(messages.some((m) => m.task?.status === "input_required")).toBe(true);
    expect(messages.at(-1)).toMatchObject({ type: "result", result: { content: [{ text: "deleted notes.txt" }] } });
    expect(asked.length).toBe(before + 1);
    expect(asked.at(-1)!.params).toMatchObject({ message: "Delete notes.txt?", _meta: { [RELATED]: { taskId } } });
  });

  it("fails a task whose tool reported an error, and still returns that result from tasks/result", async () => {
    const messages = await streamed(client, "report_error", {});
    const taskId = messages[0]!.task!.taskId;
    expect(messages.at(-1)).toMatchObject({ type: "error" });
    const task = await client.experimental.tasks.getTask(taskId);
    expect(task).toMatchObject({ status: "failed", statusMessage: "the input was bad" });
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result).toMatchObject({ isError: true, content: [{ text: "the input was bad" }] });
  });

  it("answers the tool error for a result JSON cannot carry from tasks/result, tied to its task by related-task _meta", async () => {
    const messages = await streamed(client, "unsendable_result", {});
    const taskId = messages[0]!.task!.taskId;
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    // Was: no _meta at all (2025-11-25 "Tasks": the tasks/result response MUST carry it).
    expect(result._meta).toEqual({ [RELATED]: { taskId } });
    expect(result).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: expect.stringMatching(/^Tool "unsendable_result" returned a value that cannot be sent as JSON: /),
        },
      ],
    });
    // A tool error fails a 2025-11-25 task (SHOULD), and tasks/result still answers it.
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({
      status: "failed",
      statusMessage: expect.stringContaining("cannot be sent as JSON"),
    });
  });

  it("lists the session's tasks, and cancels a running one (its signal aborts)", async () => {
    const stream = client.experimental.tasks.callToolStream(
      { name: "blocked", arguments: { label: transport } },
      CallToolResultSchema,
    );
    const first = await stream.next();
    const taskId = (first.value as { task: { taskId: string } }).task.taskId;
    const { tasks } = await client.experimental.tasks.listTasks();
    expect(tasks.map((task) => task.taskId)).toContain(taskId);
    expect(tasks.find((task) => task.taskId === taskId)?.status).toBe("working");
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled).toMatchObject({ taskId, status: "cancelled" });
    await expect
      .poll(async () => (await client.callTool({ name: "cancelled_runs" })).content)
      .toEqual([{ type: "text", text: expect.stringContaining(transport) }]);
    // A terminal task cannot be cancelled again (2025-11-25 "Tasks": -32602).
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toMatchObject({ code: -32602 });
    for await (const _ of stream) {
      // The stream ends with an error for the cancelled task.
    }
  });
});
