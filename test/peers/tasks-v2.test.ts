/**
 * The official v2 client (@modelcontextprotocol/client 2.4) against picomcp's tasks, over Streamable
 * HTTP on a 127.0.0.1 listener (test/fixtures/tasks-server.ts), in both eras, as far as it goes.
 *
 * 2026-07-28: the client has no opt-in for the Tasks extension's results. Declaring the extension in
 * its capabilities is sent with every request, but its 2026 codec knows only the `complete` and
 * `input_required` result kinds: a `CreateTaskResult` (`resultType: "task"`) is refused with
 * SdkErrorCode.UnsupportedResultType ("Unsupported result type 'task' for tools/call"), so no
 * callTool can start a task. What it does have: `tasks/get` and `tasks/cancel` through
 * `client.request` with a result schema of one's own (its "extension reused" methods), with the
 * `Mcp-Name` header set to the taskId; and without the extension declared, a task tool runs as an
 * ordinary call, a task-only tool is refused with -32021.
 *
 * 2025-11-25 (legacy mode): it exports the experimental tasks' types only, no task API, but
 * `client.request` carries the `task` parameter and the tasks/* methods with one's own schemas, and
 * its handlers answer the questions a task asks on the `tasks/result` stream.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Listening } from "../../src/transports/listen.js";
import { tasksServer } from "../fixtures/tasks-server.js";
import { TasksClient } from "../tasks/tasks-helpers.js";

const TASKS = "io.modelcontextprotocol/tasks";
const RELATED = "io.modelcontextprotocol/related-task";
const DetailedTask = z.looseObject({ taskId: z.string(), status: z.string() });
const CreateTaskResult = z.looseObject({ task: z.looseObject({ taskId: z.string(), status: z.string() }) });
const Task = z.looseObject({ taskId: z.string(), status: z.string(), ttl: z.number() });
const ToolResult = z.looseObject({ content: z.array(z.looseObject({ type: z.string(), text: z.string() })) });

let listening: Listening;
const clients: Client[] = [];
const sentNames: (string | null)[] = [];

beforeAll(async () => {
  listening = await tasksServer().serve({ port: 0 });
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await listening.close();
});

async function connect(mode: "auto" | "legacy", capabilities: Record<string, unknown>) {
  const client = new Client({ name: "v2-tasks", version: "2.0.0" }, { versionNegotiation: { mode }, capabilities });
  const recording = (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    if (headers.get("mcp-method")?.startsWith("tasks/")) sentNames.push(headers.get("mcp-name"));
    return fetch(url, init);
  };
  await client.connect(new StreamableHTTPClientTransport(new URL(listening.url), { fetch: recording }));
  clients.push(client);
  return client;
}

describe("v2 client, 2026-07-28", () => {
  it("cannot take a CreateTaskResult even when it declares the extension: it has no opt-in for the 'task' result kind", async () => {
    const client = await connect("auto", { extensions: { [TASKS]: {} } });
    expect(client.getProtocolEra()).toBe("modern");
    const refused = await client.callTool({ name: "slow", arguments: { ms: 0 } }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "UNSUPPORTED_RESULT_TYPE" });
    expect(String((refused as Error).message)).toContain("Unsupported result type 'task' for tools/call");
  });

  it("polls and cancels a task with client.request and its own schemas, sending Mcp-Name", async () => {
    const client = await connect("auto", { extensions: { [TASKS]: {} } });
    // The task is started by a client that can take it; both are anonymous, so it is theirs alike.
    const starter = new TasksClient(listening.url);
    const created = await starter.result("tools/call", { name: "blocked", arguments: { label: "v2" } });
    const taskId = created.taskId as string;
    const got = await client.request({ method: "tasks/get", params: { taskId } }, DetailedTask);
    expect(got).toMatchObject({ taskId, status: "working" });
    await client.request({ method: "tasks/cancel", params: { taskId } }, z.looseObject({}));
    expect(await client.request({ method: "tasks/get", params: { taskId } }, DetailedTask)).toMatchObject({
      status: "cancelled",
    });
    expect(sentNames.slice(-3)).toEqual([taskId, taskId, taskId]);
  });

  it("without the extension, runs an optional task tool as an ordinary call and is refused a task-only one with -32021", async () => {
    const client = await connect("auto", { elicitation: {} });
    expect(await client.callTool({ name: "slow", arguments: { ms: 0 } })).toMatchObject({
      content: [{ type: "text", text: "slept 0 ms" }],
    });
    const refused = await client
      .callTool({ name: "confirm_delete", arguments: { file: "x" } })
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: -32021 });
  });
});

describe("v2 client, 2025-11-25 (legacy mode)", () => {
  it("starts a task with the task parameter, and gets its result and its question through tasks/result", async () => {
    const client = await connect("legacy", { elicitation: {} });
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ requests: { tools: { call: {} } } });
    const asked: Record<string, unknown>[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params as Record<string, unknown>);
      return { action: "accept", content: { confirm: true } };
    });
    const created = await client.request(
      { method: "tools/call", params: { name: "confirm_delete", arguments: { file: "a.txt" }, task: {} } },
      CreateTaskResult,
    );
    const taskId = created.task.taskId;
    const result = await client.request({ method: "tasks/result", params: { taskId } }, ToolResult);
    expect(result.content).toEqual([{ type: "text", text: "deleted a.txt" }]);
    expect(result._meta).toEqual({ [RELATED]: { taskId } });
    expect(asked).toEqual([expect.objectContaining({ message: "Delete a.txt?", _meta: { [RELATED]: { taskId } } })]);
    expect(await client.request({ method: "tasks/get", params: { taskId } }, Task)).toMatchObject({
      status: "completed",
      ttl: 3_600_000,
    });
    const listed = await client.request({ method: "tasks/list", params: {} }, z.looseObject({ tasks: z.array(Task) }));
    expect(listed.tasks.map((task) => task.taskId)).toContain(taskId);
  });
});
