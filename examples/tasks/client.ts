/**
 * A 2025-11-25 client of examples/tasks/server.ts, with the official v1 client
 * (`@modelcontextprotocol/sdk`): it starts the server over stdio, calls `build_report` as a task
 * with `client.experimental.tasks.callToolStream`, prints each status it polls and each progress
 * message, confirms the question the task asks (it arrives on the `tasks/result` stream), and
 * prints the report. `node --import tsx examples/tasks/client.ts [topic]`; SECTION_MS as for the
 * server. The client is the SDK's, not picomcp's: `npm install @modelcontextprotocol/sdk` first.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const topic = process.argv[2] ?? "tides";
const client = new Client({ name: "tasks-example-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
client.setRequestHandler(ElicitRequestSchema, async (request) => {
  console.log(`asked: ${request.params.message} (yes)`);
  return { action: "accept", content: { confirm: true } };
});
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", new URL("server.ts", import.meta.url).pathname],
    env: { PATH: process.env.PATH ?? "", SECTION_MS: process.env.SECTION_MS ?? "1000" },
  }),
);
// callToolStream sends the task parameter only for tools whose execution.taskSupport allows it.
await client.listTools();
const stream = client.experimental.tasks.callToolStream(
  { name: "build_report", arguments: { topic, sections: 2 } },
  CallToolResultSchema,
  { onprogress: (progress) => console.log(`progress: ${progress.message}`) },
);
for await (const message of stream) {
  if (message.type === "taskCreated") console.log(`task ${message.task.taskId} created`);
  else if (message.type === "taskStatus") console.log(`status: ${message.task.status}`);
  else if (message.type === "result") console.log(`report: ${JSON.stringify(message.result.structuredContent)}`);
  else console.log(`error: ${message.error.message}`);
}
await client.close();
