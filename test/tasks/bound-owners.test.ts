/**
 * The in-memory task store at its bound (`limits.maxTasks`, docs/tasks.md) makes room from the owner
 * keeping the most tasks: a client running many quick tasks, within its own limits, drops its own
 * finished tasks, not another client's whose result it has yet to read. Was: the oldest finished
 * task of any owner made room, and the other client's `tasks/result` answered -32602 (its answer lost).
 * Two official v1 clients, 2025-11-25 sessions (each session an owner), on a 127.0.0.1 listener.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import type { Listening } from "../../src/transports/listen.js";

const MAX_TASKS = 4;
const clients: Client[] = [];
let listening: Listening | undefined;

afterAll(async () => {
  for (const client of clients) await client.close();
  await listening?.close();
});

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "v1-bound", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

/** Starts the `quick` tool as a task; answers its taskId once created. */
async function startQuick(client: Client): Promise<string> {
  const params = { name: "quick", arguments: {}, task: {} };
  return (await client.request({ method: "tools/call", params }, CreateTaskResultSchema)).task.taskId;
}

it("keeps a client's unread result while another client churns through quick tasks at the store's bound", async () => {
  const server = pico({ name: "bound-owners", limits: { maxTasks: MAX_TASKS } });
  server.tool("quick", { description: "Answers at once.", task: "optional", run: () => "quick" });
  listening = await server.serve({ port: 0 });
  const reader = await connect(listening.url);
  const churner = await connect(listening.url);
  const taskId = await startQuick(reader);
  // Each ends before the next starts: the churner never runs more than one task at once.
  for (let i = 0; i < 3 * MAX_TASKS; i++) await startQuick(churner);
  const result = await reader.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
  expect(result.content).toEqual([{ type: "text", text: "quick" }]);
  // The churner's own oldest results made the room: its latest are kept.
  expect((await churner.experimental.tasks.listTasks()).tasks).toHaveLength(MAX_TASKS - 1);
});
