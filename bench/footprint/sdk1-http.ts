import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

function app(): McpServer {
  const server = new McpServer({ name: "echo", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
}

const transports = new Map<string, StreamableHTTPServerTransport>();
createServer(async (req, res) => {
  const body = req.method === "POST" ? await json(req) : undefined;
  const id = req.headers["mcp-session-id"];
  let transport = typeof id === "string" ? transports.get(id) : undefined;
  if (!transport && isInitializeRequest(body)) {
    const created = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        transports.set(sessionId, created);
      },
    });
    created.onclose = () => {
      if (created.sessionId) transports.delete(created.sessionId);
    };
    await app().connect(created);
    transport = created;
  }
  if (!transport) {
    res.writeHead(400).end();
    return;
  }
  await transport.handleRequest(req, res, body);
}).listen(Number(process.env.PORT ?? 3000), "127.0.0.1");

async function json(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}
