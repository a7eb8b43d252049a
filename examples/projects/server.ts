/**
 * The project tracker served over Streamable HTTP on 127.0.0.1: `npm start` runs it from the
 * repository root, on the port in PORT (default 3000), and prints how to connect a client.
 * `npm start --silent -- --stdio` serves it over stdio instead (see stdio.ts). The data file is
 * PROJECTS_FILE, or data/projects.json next to this file; it is created on the first change.
 */
import { fileURLToPath } from "node:url";
import { createProjectsServer } from "./app.js";

if (process.argv.includes("--stdio")) {
  await import("./stdio.js");
} else {
  const file = process.env.PROJECTS_FILE || fileURLToPath(new URL("data/projects.json", import.meta.url));
  const port = Number(process.env.PORT || 3000);
  const server = createProjectsServer(file);
  const listening = await server.serve({ port }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EADDRINUSE") throw error;
    console.error(`Port ${port} is in use. Stop what runs there, or choose another: PORT=3001 npm start`);
    process.exit(1);
  });
  console.log(howToConnect(listening.url, file));
  // Ctrl+C ends the sessions and their streams before the process exits.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void listening.close().then(() => process.exit(0)));
  }
}

/** Copy-paste instructions for the three usual ways in: a client's config, the Inspector, and curl. */
function howToConnect(url: string, file: string): string {
  const config = { mcpServers: { projects: { url } } };
  // A 2026-07-28 request needs no handshake: the body's _meta says who is asking, the headers repeat it.
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const call = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "list_projects", arguments: {}, _meta: meta },
  };
  return [
    `The project tracker MCP server is listening on ${url} (Streamable HTTP).`,
    `Data: ${file}`,
    "",
    "To use it from an MCP client, add it to the client's configuration",
    "(the mcpServers shape of Cursor, Windsurf and others):",
    "",
    JSON.stringify(config, null, 2),
    "",
    `Claude Code: claude mcp add --transport http projects ${url}`,
    "",
    "To try it in the MCP Inspector, run:",
    "",
    `  npx @modelcontextprotocol/inspector@2 --transport http --server-url ${url}`,
    "",
    "To call a tool with curl:",
    "",
    `  curl ${url} \\`,
    "    -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\",
    "    -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' -H 'Mcp-Name: list_projects' \\",
    `    -d '${JSON.stringify(call)}'`,
    "",
    "Press Ctrl+C to stop it. For stdio instead: npm start --silent -- --stdio",
    "",
  ].join("\n");
}
