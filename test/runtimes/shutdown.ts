/**
 * Shutdown on the runtime's own listener: a call still running when `listening.close()`'s grace period
 * ends must still get its answer before the connection closes. Prints one JSON line: the call's
 * status and body, or what the client saw instead ("lost": the connection closed first).
 */
import { pico } from "../../src/index.js";

const MODERN = "2026-07-28";
const server = pico({ name: "shutdown", limits: { shutdownGraceMs: 100 }, signals: false }).tool("hang", {
  run: () => new Promise<string>(() => {}),
});
const listening = await server.serve({ port: 0 });
const answer = fetch(listening.url, {
  method: "POST",
  headers: {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": MODERN,
    "mcp-method": "tools/call",
    "mcp-name": "hang",
  },
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name: "hang",
      arguments: {},
      _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} },
    },
  }),
}).then(
  async (response) => ({ status: response.status, body: await response.json() }),
  (error: unknown) => ({ lost: String(error) }),
);
// The call is running on the server before shutdown begins.
await new Promise((resolve) => setTimeout(resolve, 100));
await listening.close();
console.log(JSON.stringify(await answer));
