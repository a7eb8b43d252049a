/**
 * 2025-11-25 tasks over Streamable HTTP without sessions (`http: { sessions: false }`, the default
 * on Workers), driven by the official v1 client (`client.experimental.tasks`): each request is
 * served on its own, so a task is found by its taskId from any later request, as the 2026-07-28
 * tasks of callers not signed in are; `tasks/list` is not offered, since nothing tells one caller
 * from another (2025-11-25 "Tasks", "Security Considerations": receivers that cannot identify
 * requestors SHOULD NOT declare `tasks.list`); and those requests share the anonymous callers'
 * bound, `limits.maxAnonymousTasks`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import type { Listening } from "../../src/transports/listen.js";
import { tasksServer } from "../fixtures/tasks-server.js";

const RELATED = "io.modelcontextprotocol/related-task";
const listenings: Listening[] = [];
const clients: Client[] = [];

afterAll(async () => {
  for (const client of clients) await client.close();
  for (const listening of listenings) await listening.close();
});

async function sessionless(maxAnonymousTasks?: number): Promise<Client> {
  const limits = maxAnonymousTasks === undefined ? {} : { maxAnonymousTasks };
  const listening = await tasksServer({ http: { sessions: false }, limits }).serve({ port: 0 });
  listenings.push(listening);
  const client = new Client({ name: "v1-sessionless", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, () => {
    throw new Error("no question can reach a client without a session");
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
  clients.push(client);
  // callToolStream asks for a task only for a tool whose execution.taskSupport it has listed.
  await client.listTools();
  return client;
}

/** The first message of a callToolStream: the task created, or the error that refused it. */
async function started(client: Client, name: string, args: Record<string, unknown>) {
  const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema);
  return (await stream.next()).value;
}

describe("2025-11-25 tasks without sessions", () => {
  it("offers tasks without tasks/list, and the v1 client gets a task's result through tasks/get and tasks/result", async () => {
    const client = await sessionless();
    // Was: list offered too, and tasks/list always empty.
    expect(client.getServerCapabilities()?.tasks).toEqual({ cancel: {}, requests: { tools: { call: {} } } });
    const messages = [];
    for await (const message of client.experimental.tasks.callToolStream(
      { name: "slow", arguments: { ms: 50 } },
      CallToolResultSchema,
    )) {
      messages.push(message);
    }
    // Was: every later request was refused with -32602 "no task", and the stream ended with that error.
    expect(messages[0]).toMatchObject({ type: "taskCreated", task: { status: "working" } });
    const last = messages.at(-1)!;
    expect(last).toMatchObject({ type: "result", result: { content: [{ text: "slept 50 ms" }] } });
    const taskId = messages[0]!.type === "taskCreated" ? messages[0]!.task.taskId : "";
    expect(last.type === "result" && last.result._meta).toEqual({ [RELATED]: { taskId } });
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: "completed" });
  });

  it("cancels a running task from a later request, and refuses tasks/list saying why", async () => {
    const client = await sessionless();
    const created = await started(client, "blocked", { label: "sessionless" });
    if (created?.type !== "taskCreated") throw new Error(`no task was created: ${JSON.stringify(created)}`);
    const { taskId } = created.task;
    expect(await client.experimental.tasks.cancelTask(taskId)).toMatchObject({ taskId, status: "cancelled" });
    await expect
      .poll(async () => (await client.callTool({ name: "cancelled_runs" })).content)
      .toEqual([{ type: "text", text: "sessionless" }]);
    await expect(client.experimental.tasks.listTasks()).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining(
        "tasks/list needs a session, which this server does not keep (http.sessions: false); read each task you created with tasks/get",
      ),
    });
  });

  it("counts requests without a session as one caller, held to limits.maxAnonymousTasks", async () => {
    const client = await sessionless(2);
    for (const label of ["a", "b"])
      expect(await started(client, "blocked", { label })).toMatchObject({ type: "taskCreated" });
    // Was: each request its own caller, so the bound never applied.
    expect(await started(client, "blocked", { label: "c" })).toMatchObject({
      type: "error",
      error: { message: expect.stringContaining("(limits.maxAnonymousTasks = 2)") },
    });
  });

  it("fails a task whose run asks a question, saying the request came over stateless HTTP", async () => {
    const client = await sessionless();
    const messages = [];
    for await (const message of client.experimental.tasks.callToolStream(
      { name: "confirm_delete", arguments: { file: "notes.txt" } },
      CallToolResultSchema,
    )) {
      messages.push(message);
    }
    const taskId = messages[0]?.type === "taskCreated" ? messages[0].task.taskId : "";
    // Was: "This client did not declare the "elicitation" capability", though it had, in initialize.
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({
      status: "failed",
      statusMessage: expect.stringContaining(
        "This request cannot ask the client for input: it came over stateless HTTP, which has no way back to the client.",
      ),
    });
  });
});
