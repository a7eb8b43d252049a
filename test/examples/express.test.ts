/**
 * The project tracker inside Express (examples/projects/express.ts), over 127.0.0.1: an MCP client
 * and the app's JSON API see the same projects, and a foreign Host is refused on every route.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProjectsApp } from "../../examples/projects/express.js";

let dir: string;
let listener: Server;
let base: string;
let close: () => Promise<void>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "picomcp-express-"));
  const { server, app } = createProjectsApp(join(dir, "projects.json"));
  listener = app.listen(0, "127.0.0.1");
  await new Promise((done) => listener.once("listening", done));
  base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  close = async () => {
    await server.close();
    listener.closeAllConnections();
    await new Promise((done) => listener.close(done));
  };
});

afterEach(async () => {
  await close();
  await rm(dir, { recursive: true, force: true });
});

/** A GET with a Host header of the test's choosing, which fetch does not allow. */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    })
      .on("error", reject)
      .end();
  });
}

describe("the projects example, inside Express", () => {
  it("serves MCP at /mcp and its JSON API from the same tools", async () => {
    const client = new Client({ name: "express-example", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    try {
      const created = await client.callTool({ name: "create_project", arguments: { name: "Garden" } });
      expect(created.structuredContent).toMatchObject({ id: "prj_1", name: "Garden", status: "planned" });

      // The JSON API, behind express.json(), sees what the MCP client made, and the other way round.
      expect(await (await fetch(`${base}/api/projects`)).json()).toMatchObject({
        projects: [{ id: "prj_1", name: "Garden" }],
        total: 1,
      });
      const posted = await fetch(`${base}/api/projects`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "Shed", status: "active" }),
      });
      expect(posted.status).toBe(201);
      const listed = await client.callTool({ name: "list_projects", arguments: {} });
      expect(listed.structuredContent).toMatchObject({ projects: [{ name: "Garden" }, { name: "Shed" }], total: 2 });

      const invalid = await fetch(`${base}/api/projects`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "" }),
      });
      expect(invalid.status).toBe(400);
      expect((await invalid.json()).error).toMatch(/^Invalid arguments for tool "create_project":\nname: /);
    } finally {
      await client.close();
    }
  });

  it("answers only loopback Host headers, on every route", async () => {
    expect(await getWithHost(`${base}/api/projects`, "localhost")).toBe(200);
    expect(await getWithHost(`${base}/api/projects`, "evil.example.com")).toBe(403);
    expect(await getWithHost(`${base}/mcp`, "evil.example.com")).toBe(403);
  });
});
