/**
 * Tasks under `auth` rules (docs/authorization.md, "What a refused caller sees"): a caller a tool's
 * rule refuses gets what an ordinary call answers, in both eras, and no task is made for them.
 * Driven through `server.fetch` with real signed tokens.
 */
import { describe, expect, it } from "vitest";
import { ErrorCode, pico } from "../../src/index.js";
import { harness, testIssuer } from "../../src/testing.js";
import { TASKS } from "./tasks-helpers.js";

const RESOURCE = "http://localhost/mcp";
const issuer = await testIssuer({ audience: RESOURCE });

function server(hideUnauthorized = false) {
  const runs: string[] = [];
  const app = pico({
    name: "tasks-auth",
    version: "1.0.0",
    auth: {
      verify: issuer.verify,
      resource: RESOURCE,
      authorizationServers: [issuer.issuer],
      required: false,
      hideUnauthorized,
    },
  })
    .tool("report", {
      description: "Writes a report, as a task if asked.",
      auth: { scopes: ["reports"] },
      task: "optional",
      run: () => {
        runs.push("report");
        return "the report";
      },
    })
    .tool("secret", {
      description: "Never a task.",
      auth: { scopes: ["reports"] },
      run: () => "secret",
    });
  return { app, runs };
}

const taskMeta = { _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } } } };

describe.each(["legacy", "modern"] as const)("a refused caller of a task tool (%s)", (era) => {
  const call = (app: ReturnType<typeof server>["app"], name: string, token?: string) => {
    const params = era === "legacy" ? { name, arguments: {}, task: {} } : { name, arguments: {}, ...taskMeta };
    return harness(app, { era, ...(token ? { token } : {}) }).request("tools/call", params);
  };

  it("is challenged as an ordinary call is, and no task is made", async () => {
    const { app, runs } = server();
    const anonymous = await call(app, "report");
    expect(anonymous.status).toBe(401);
    expect(anonymous.challenge).toContain('scope="reports"');
    expect(anonymous.error?.message).toBe('Unauthorized: Sign in to use tool "report".');
    const underScoped = await call(app, "report", await issuer.mint({ scopes: ["other"] }));
    expect(underScoped.status).toBe(403);
    expect(underScoped.challenge).toContain('error="insufficient_scope"');
    expect(runs).toEqual([]);
  });

  it("with hideUnauthorized, is told the tool does not exist, whether or not it runs as a task", async () => {
    const { app, runs } = server(true);
    for (const name of ["report", "secret", "missing"]) {
      const refused = await call(app, name);
      expect(refused.error?.code, name).toBe(ErrorCode.InvalidParams);
      expect(refused.error?.message, name).toBe(`Unknown tool "${name}". Call tools/list to see the available tools.`);
    }
    expect(runs).toEqual([]);
  });

  it("gets a task when the rule admits them", async () => {
    const { app } = server();
    const admitted = await call(app, "report", await issuer.mint({ scopes: ["reports"] }));
    expect(admitted.status).toBe(200);
    expect(admitted.result).toMatchObject(
      era === "legacy" ? { task: { status: "working" } } : { resultType: "task", status: "working" },
    );
  });
});
