import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import { NodeStreamableHTTPServerTransport, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, isInitializeRequest, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

function app(): McpServer {
  const server = new McpServer({ name: "echo", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
}

// 2026-07-28 requests and stateless 2025 requests go to createMcpHandler; 2025 sessions to a transport each.
const handler = toNodeHandler(createMcpHandler(app));
const transports = new Map<string, NodeStreamableHTTPServerTransport>();
createServer(async (req, res) => {
  const id = req.headers["mcp-session-id"];
  const body = req.method === "POST" ? await json(req) : undefined;
  let transport = typeof id === "string" ? transports.get(id) : undefined;
  if (!transport && isInitializeRequest(body)) {
    const created = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        transports.set(sessionId, created);
      },
    });
    await app().connect(created);
    transport = created;
  }
  if (transport) await transport.handleRequest(req, res, body);
  else await handler(req, res, body);
}).listen(Number(process.env.PORT ?? 3000), "127.0.0.1");

async function json(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}
