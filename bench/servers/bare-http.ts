/**
 * The bare HTTP server: node:http, a JSON body in, a JSON body out. In `sessions` mode, initialize
 * creates a session (an id and what the client declared) and every later request must name it.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { bare } from "./bare.js";
import { control, mode } from "./control.js";

interface Session {
  protocolVersion: unknown;
  capabilities: unknown;
  clientInfo: unknown;
  initialized: boolean;
}

const served = mode();
const server = await bare();
const sessions = new Map<string, Session>();

const http = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const reply = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      const text = body === undefined ? "" : JSON.stringify(body);
      res.writeHead(status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
        ...headers,
      });
      res.end(text);
    };
    if (req.method === "DELETE" && served === "sessions") {
      return reply(sessions.delete(req.headers["mcp-session-id"] as string) ? 200 : 404);
    }
    if (req.method !== "POST") return reply(405);
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    if (served === "sessions") {
      if (message.method === "initialize") {
        const id = randomUUID();
        const params = message.params as Record<string, unknown>;
        sessions.set(id, {
          protocolVersion: params.protocolVersion,
          capabilities: params.capabilities,
          clientInfo: params.clientInfo,
          initialized: false,
        });
        return reply(200, server.handle(message), { "mcp-session-id": id });
      }
      const session = sessions.get(req.headers["mcp-session-id"] as string);
      if (!session)
        return reply(404, { jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } });
      if (message.method === "notifications/initialized") session.initialized = true;
    }
    const response = server.handle(message);
    reply(response ? 200 : 202, response);
  });
});
http.listen(0, "127.0.0.1", () => {
  const address = http.address();
  control(typeof address === "object" && address ? address.port : 0);
});
