/**
 * SDK v1 over node:http, as its docs wire it: stateless mode builds a server and a transport per
 * request; sessions mode keeps one transport per `Mcp-Session-Id`. The body is parsed first and
 * passed in, as express.json() does in the docs' examples. SDK v1 has no 2026-07-28 mode.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { control, mode } from "./control.js";
import { app } from "./sdk1-app.js";

const served = mode();
if (served === "modern") throw new Error("SDK v1 does not serve 2026-07-28");
const transports = new Map<string, StreamableHTTPServerTransport>();

const http = createServer(async (req, res) => {
  const body = req.method === "POST" ? await json(req) : undefined;
  if (served === "stateless") {
    const server = app();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    return;
  }
  const id = req.headers["mcp-session-id"];
  let transport = typeof id === "string" ? transports.get(id) : undefined;
  if (!transport && id === undefined && isInitializeRequest(body)) {
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
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "No valid session" } }));
    return;
  }
  await transport.handleRequest(req, res, body);
});

async function json(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

http.listen(0, "127.0.0.1", () => {
  const address = http.address();
  control(typeof address === "object" && address ? address.port : 0);
});
