/** The workload served by the official SDK v1 (`@modelcontextprotocol/sdk`), as its docs register tools. */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { addInput, echoInput, statsInput, statsOutput } from "./schemas.js";
import { add, SERVER_INFO, stats } from "./workload.js";

export function app(): McpServer {
  const server = new McpServer(SERVER_INFO);
  server.registerTool("add", { inputSchema: addInput }, async ({ a, b }) => ({
    content: [{ type: "text", text: add(a, b) }],
  }));
  server.registerTool("echo", { inputSchema: echoInput }, async ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool("stats", { inputSchema: statsInput, outputSchema: statsOutput }, async ({ values }) => {
    const value = stats(values);
    return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: { ...value } };
  });
  return server;
}
