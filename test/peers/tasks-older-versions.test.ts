/**
 * 2025-11-25's experimental tasks ("Tasks", SEP-1686) exist only in that revision: a session of
 * 2025-06-18, 2025-03-26 or 2024-11-05 is offered no `capabilities.tasks` (sessions/session.ts), so it
 * is served as a server without tasks serves (2025-11-25 "Tasks": such a server MUST ignore a `task`
 * parameter and does not advertise `execution.taskSupport`): no `execution` in `tools/list`, a `task`
 * parameter ignored, a tool that runs only as a task refused saying why, and the tasks methods
 * -32601 as any method the protocol lacks. Was: each was served as in 2025-11-25, to a client told
 * the server had no tasks. The official v1 client, asking for 2025-06-18, against
 * test/fixtures/tasks-server.ts over stdio; 2025-11-25 itself: test/peers/tasks-v1.test.ts.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, EmptyResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StdioOfVersion } from "./versioned.js";

let client: Client;

beforeAll(async () => {
  client = new Client({ name: "v1-2025-06-18", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  await client.connect(new StdioOfVersion("test/fixtures/tasks-server.ts", "2025-06-18"));
});

afterAll(async () => {
  await client?.close();
});

/** The JSON-RPC error `sending` rejects with. */
async function refusal(sending: Promise<unknown>): Promise<{ code: number; message: string }> {
  const thrown = await sending.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(McpError);
  const { code, message } = thrown as McpError;
  return { code, message };
}

describe("a 2025-06-18 session of a server with task tools (official v1 client over stdio)", () => {
  it("is offered no tasks, and lists no tool with execution.taskSupport", async () => {
    expect(client.getServerCapabilities()).not.toHaveProperty("tasks");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("slow");
    expect(tools.filter((tool) => "execution" in tool)).toEqual([]);
  });

  it("runs a call with a task parameter as an ordinary call", async () => {
    const result = await client.request(
      { method: "tools/call", params: { name: "slow", arguments: { ms: 0 }, task: { ttl: 60_000 } } },
      CallToolResultSchema,
    );
    expect(result.content).toEqual([{ type: "text", text: "slept 0 ms" }]);
    expect(result).not.toHaveProperty("task");
  });

  it("refuses a tool that runs only as a task with -32601, saying the protocol has no tasks", async () => {
    expect(await refusal(client.callTool({ name: "confirm_delete", arguments: { file: "a" } }))).toEqual({
      code: -32601,
      message:
        'MCP error -32601: Tool "confirm_delete" runs only as a task, which protocol 2025-06-18 does not have (tasks came with 2025-11-25); it cannot be called in this session',
    });
  });

  it.for(["tasks/get", "tasks/result", "tasks/cancel", "tasks/list"])(
    "answers %s with -32601, as a method the protocol lacks",
    async (method) => {
      const params = method === "tasks/list" ? {} : { taskId: "any" };
      expect(await refusal(client.request({ method, params }, EmptyResultSchema))).toEqual({
        code: -32601,
        message: `MCP error -32601: Method not found: "${method}" is not available in protocol 2025-06-18`,
      });
    },
  );
});
