/**
 * SDK v2 over node:http with its Node adapter (@modelcontextprotocol/node): `createMcpHandler` for
 * 2026-07-28 requests and stateless 2025 requests (a fresh server per request, as v2 does), and a
 * `NodeStreamableHTTPServerTransport` per `Mcp-Session-Id` for legacy sessions, as its docs wire it.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import { NodeStreamableHTTPServerTransport, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, isInitializeRequest } from "@modelcontextprotocol/server";
import { control, mode } from "./control.js";
import { app } from "./sdk2-app.js";

const served = mode();
const transports = new Map<string, NodeStreamableHTTPServerTransport>();

const http =
  served === "sessions"
    ? createServer(async (req, res) => {
        const body = req.method === "POST" ? await json(req) : undefined;
        const id = req.headers["mcp-session-id"];
        let transport = typeof id === "string" ? transports.get(id) : undefined;
        if (!transport && id === undefined && isInitializeRequest(body)) {
          const created = new NodeStreamableHTTPServerTransport({
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
          res.writeHead(400, { "content-type": "application/json" });
          res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "No valid session" } }));
          return;
        }
        await transport.handleRequest(req, res, body);
      })
    : createServer(toNodeHandler(createMcpHandler(app)));

async function json(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

http.listen(0, "127.0.0.1", () => {
  const address = http.address();
  control(typeof address === "object" && address ? address.port : 0);
});
