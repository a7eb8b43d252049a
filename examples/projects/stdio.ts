/**
 * The project tracker served over stdio, for clients that start their servers as child processes:
 * `npm start --silent -- --stdio` (without --silent, npm writes its banner to stdout first), or
 * `node --import tsx examples/projects/stdio.ts`. The data file is PROJECTS_FILE, or
 * data/projects.json next to this file; it is created on the first change.
 */
import { fileURLToPath } from "node:url";
import { createProjectsServer } from "./app.js";

const file = process.env.PROJECTS_FILE || fileURLToPath(new URL("data/projects.json", import.meta.url));
const server = createProjectsServer(file);

// stdout carries the protocol and nothing else, so everything meant for people goes to stderr.
if (process.stdin.isTTY) console.error(howToConnect());
else console.error(`projects: serving MCP over stdio, data in ${file}`);

await server.serve();

/** Paths are absolute, because a client starts the server from a working directory of its own. */
function howToConnect(): string {
  const command = process.execPath;
  const args = ["--import", import.meta.resolve("tsx"), fileURLToPath(import.meta.url)];
  const config = { mcpServers: { projects: { command, args, env: { PROJECTS_FILE: file } } } };
  return [
    "The project tracker MCP server is running on stdio.",
    `Data: ${file}`,
    "",
    "It now reads JSON-RPC messages from this terminal, one per line. Press Ctrl+D to stop it.",
    "",
    "To use it from an MCP client, add it to the client's configuration",
    "(the mcpServers shape of Claude Desktop, Cursor and others):",
    "",
    JSON.stringify(config, null, 2),
    "",
    "To try it in the MCP Inspector, run:",
    "",
    `  npx @modelcontextprotocol/inspector@2 ${[command, ...args].join(" ")}`,
    "",
  ].join("\n");
}
