/**
 * The protected project tracker (examples/projects/auth.ts): app.ts's tools included under OAuth,
 * tested as the tool-design guide asks — each contract with representative, invalid and
 * unauthorized inputs — and over HTTP with real tokens, through sign-in and step-up.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createProtectedProjectsServer, READ, WRITE } from "../../examples/projects/auth.js";
import { contract, harness, lint, testIssuer } from "../../src/testing.js";

const RESOURCE = "http://localhost/mcp";
const issuer = await testIssuer({ audience: RESOURCE });
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "picomcp-auth-example-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const protectedServer = () =>
  createProtectedProjectsServer(join(dir, "projects.json"), {
    verify: issuer.verify,
    resource: RESOURCE,
    authorizationServers: [issuer.issuer],
  });

describe("the protected projects example", () => {
  it("keeps every tool's contract: representative, invalid and unauthorized inputs", async () => {
    const report = await contract(protectedServer(), {
      // In order: the project the later calls read, change and archive is created first.
      create_project: { valid: [{ name: "Website redesign", dueDate: "2026-03-31" }, { name: "Hire a designer" }] },
      list_projects: { valid: [{}, { status: "planned", query: "web", limit: 5 }, { includeArchived: true }] },
      get_project: { valid: [{ id: "prj_1" }] },
      update_project: {
        valid: [
          { id: "prj_1", status: "active" },
          { id: "prj_1", dueDate: null },
        ],
        // A write-scoped caller without the read scope is refused too.
        unauthorized: [{ args: { id: "prj_1", status: "done" }, as: { subject: "u", scopes: [WRITE] } }],
      },
      archive_project: { valid: [{ id: "prj_2" }] },
    });
    expect(report.tools).toEqual({
      create_project: { valid: 2, invalid: 10, unauthorized: 3 },
      list_projects: { valid: 3, invalid: 8, unauthorized: 2 },
      get_project: { valid: 1, invalid: 3, unauthorized: 2 },
      update_project: { valid: 2, invalid: 11, unauthorized: 4 },
      archive_project: { valid: 1, invalid: 3, unauthorized: 3 },
    });
    expect(report).toMatchObject({ valid: 9, invalid: 35, unauthorized: 14 });
  });

  it("passes the plan linter, and advertises each tool's scopes", async () => {
    const server = protectedServer();
    const report = await lint(server);
    expect(report.findings).toEqual([]);
    expect(report.checklist).toContain("- **Authorization**: a signed-in caller; scopes projects:read, projects:write");
    const tools = (await harness(server, { token: await issuer.mint({ scopes: [READ] }) }).listTools()).result!
      .tools as { name: string; securitySchemes: unknown }[];
    expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.securitySchemes]))).toEqual({
      list_projects: [{ type: "oauth2", scopes: [READ] }],
      get_project: [{ type: "oauth2", scopes: [READ] }],
      create_project: [{ type: "oauth2", scopes: [READ, WRITE] }],
      update_project: [{ type: "oauth2", scopes: [READ, WRITE] }],
      archive_project: [{ type: "oauth2", scopes: [READ, WRITE] }],
    });
  });

  it.each(["legacy", "modern"] as const)(
    "over HTTP (%s era): 401 without a token, reads with projects:read, step-up to write",
    async (era) => {
      const server = protectedServer();
      const anonymous = await harness(server, { era }).callTool("list_projects");
      expect(anonymous.status).toBe(401);
      expect(anonymous.challenge).toBe(
        'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp", scope="projects:read"',
      );

      const reader = harness(server, { era, token: await issuer.mint({ subject: "ada", scopes: [READ] }) });
      expect((await reader.callTool("list_projects")).result?.structuredContent).toEqual({ projects: [], total: 0 });
      const denied = await reader.callTool("create_project", { name: "Launch" });
      expect(denied.status).toBe(403);
      expect(denied.challenge).toContain('error="insufficient_scope"');
      expect(denied.challenge).toContain('scope="projects:read projects:write"');

      const writer = harness(server, { era, token: await issuer.mint({ subject: "ada", scopes: [READ, WRITE] }) });
      const created = await writer.callTool("create_project", { name: "Launch" });
      expect(created.result?.structuredContent).toMatchObject({ id: "prj_1", name: "Launch" });
      const read = await reader.request("resources/read", { uri: "projects://prj_1" });
      expect(read.status).toBe(200);
      expect(read.result?.contents).toHaveLength(1);
    },
  );
});
