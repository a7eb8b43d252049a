/**
 * The project tracker inside an Express 5 app that has routes of its own: `server.node` serves the
 * MCP endpoint at /mcp from Node's request and response, and a small JSON API at /api/projects
 * calls the same tools in-process.
 *
 *   node --import tsx examples/projects/express.ts
 *
 * It listens on 127.0.0.1, on the port in PORT (default 3000). The data file is PROJECTS_FILE, or
 * data/projects.json next to this file. Express is not picomcp's: `npm install express` first (5.x).
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import express from "express";
import type { CallToolResult } from "picomcp";
import { createProjectsServer } from "./app.js";

/** The names a loopback server goes by: any other Host is a web page that pointed its own name at 127.0.0.1. */
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** The tracker's MCP server, and the Express app that serves it beside the JSON API. */
export function createProjectsApp(file: string) {
  const server = createProjectsServer(file);
  const app = express();
  // serve() checks Host for its MCP endpoint; an app of its own checks it for every route (DNS rebinding).
  app.use((req, res, next) => {
    if (LOOPBACK.includes(req.hostname)) next();
    else res.status(403).json({ error: `Host "${req.hostname}" is not allowed` });
  });
  // Before express.json(), which would otherwise read the body first (picomcp then takes req.body).
  app.all("/mcp", server.node);
  app.use(express.json());
  app.get("/api/projects", async (_req, res) => {
    res.json((await server.call("list_projects", {})).structuredContent);
  });
  app.post("/api/projects", async (req, res) => {
    const result = await server.call("create_project", req.body);
    if (result.isError) res.status(400).json({ error: textOf(result) });
    else res.status(201).json(result.structuredContent);
  });
  return { server, app };
}

/** A tool error's message, as a model would read it. */
function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

function main(): void {
  const file = process.env.PROJECTS_FILE || fileURLToPath(new URL("data/projects.json", import.meta.url));
  const port = Number(process.env.PORT || 3000);
  const { server, app } = createProjectsApp(file);
  const listener = app.listen(port, "127.0.0.1", (error) => {
    if (error) throw error;
    console.log(`The project tracker is listening on http://127.0.0.1:${port}`);
    console.log(`  MCP (Streamable HTTP): http://127.0.0.1:${port}/mcp`);
    console.log(`  JSON API:              http://127.0.0.1:${port}/api/projects`);
  });
  // Ctrl+C ends the MCP sessions and their streams, then the listener.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void server.close().then(() => listener.close(() => process.exit(0))));
  }
}

// Run, not imported: import.meta.url names the file by its real path (symlinks resolved), argv[1] as typed.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) main();
