/**
 * `hideUnauthorized` (docs/authorization.md, "What a refused caller sees"): a registration the caller
 * may not use answers exactly as one that does not exist, whatever else is wrong with the request
 * (malformed arguments, a task parameter, a missing tasks extension). Otherwise the difference
 * between the two errors tells a refused caller which names exist. Through `server.fetch`, both eras.
 */
import { describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { harness, testIssuer } from "../src/testing.js";

const RESOURCE = "http://localhost/mcp";
const issuer = await testIssuer({ audience: RESOURCE });
const TASKS = "io.modelcontextprotocol/tasks";

function server() {
  const runs: string[] = [];
  const app = pico({
    name: "hidden",
    version: "1.0.0",
    auth: {
      verify: issuer.verify,
      resource: RESOURCE,
      authorizationServers: [issuer.issuer],
      required: false,
      hideUnauthorized: true,
    },
  })
    .tool("secret", { description: "Hidden from anyone without the scope.", auth: { scopes: ["s"] }, run: () => "x" })
    .tool("secret_task", {
      description: "Runs only as a task.",
      auth: { scopes: ["s"] },
      task: "required",
      run: () => {
        runs.push("secret_task");
        return "x";
      },
    })
    .prompt("secret_prompt", { description: "Hidden.", auth: { scopes: ["s"] }, get: () => "x" });
  return { app, runs };
}

/** The error a request gets, without what names the registration (which the caller sent anyway). */
function shape(error: { code: number; message: string } | undefined, name: string) {
  return error && { code: error.code, message: error.message.replaceAll(name, "NAME") };
}

describe.each(["legacy", "modern"] as const)("a hidden registration, to a refused caller (%s)", (era) => {
  const { app, runs } = server();
  const client = harness(app, { era });
  const same = async (method: string, params: (name: string) => Record<string, unknown>, hidden: string) => {
    const missing = `no_${hidden}`;
    const [a, b] = [await client.request(method, params(hidden)), await client.request(method, params(missing))];
    expect(a.status).toBe(b.status);
    expect(shape(a.error, hidden), `${method} ${JSON.stringify(params(hidden))}`).toEqual(shape(b.error, missing));
  };

  it("answers a tools/call with malformed arguments as for a tool that does not exist", async () => {
    await same("tools/call", (name) => ({ name, arguments: "not an object" }), "secret");
    await same("tools/call", (name) => ({ name, arguments: [1] }), "secret_task");
  });

  it("answers a prompts/get with malformed arguments as for a prompt that does not exist", async () => {
    await same("prompts/get", (name) => ({ name, arguments: "not an object" }), "secret_prompt");
  });

  it("answers a call to a task-only tool without the tasks extension, or with a malformed task, as for a tool that does not exist", async () => {
    await same("tools/call", (name) => ({ name, arguments: {} }), "secret_task");
    await same("tools/call", (name) => ({ name, arguments: {}, task: { ttl: -1 } }), "secret_task");
    const extension = { _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } } } };
    await same("tools/call", (name) => ({ name, arguments: "x", ...extension }), "secret_task");
    // A state is checked first, for any tool: one that exists or not, hidden or not.
    await same("tools/call", (name) => ({ name, arguments: {}, requestState: "forged", ...extension }), "secret_task");
    await same("tools/call", (name) => ({ name, arguments: {}, requestState: "forged" }), "secret");
    await same(
      "tools/call",
      (name) => ({ name, arguments: {}, inputResponses: { a: 1 }, ...extension }),
      "secret_task",
    );
    expect(runs).toEqual([]);
  });
});
