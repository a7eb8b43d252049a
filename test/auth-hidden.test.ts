/**
 * `hideUnauthorized` (docs/authorization.md, "What a refused caller sees"): a registration the caller
 * may not use answers exactly as one that does not exist, whatever else is wrong with the request
 * (malformed arguments, a task parameter, a missing tasks extension, the 2026-07-28 `Mcp-Param-*`
 * headers). Otherwise the difference between the two errors tells a refused caller which names
 * exist. Through `server.fetch`, both eras, and over a real listener for the headers.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ErrorCode, pico } from "../src/index.js";
import { type Harness, harness, type RequestOptions, testIssuer } from "../src/testing.js";
import { remote } from "./http-helpers.js";

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
    .tool("secret_geo", {
      description: "Hidden; its region is mirrored in a header (2026-07-28 x-mcp-header).",
      auth: { scopes: ["s"] },
      input: z.object({ region: z.string().meta({ "x-mcp-header": "Region" }).optional() }),
      run: () => "x",
    })
    .prompt("secret_prompt", { description: "Hidden.", auth: { scopes: ["s"] }, get: () => "x" });
  return { app, runs };
}

/** The error a request gets, without what names the registration (which the caller sent anyway). */
function shape(error: { code: number; message: string } | undefined, name: string) {
  return error && { code: error.code, message: error.message.replaceAll(name, "NAME") };
}

/** Checks that `client` gets the same answer for the `hidden` registration as for one that does not exist. */
async function alike(
  client: Harness,
  request: { method: string; params: (name: string) => Record<string, unknown>; options?: RequestOptions },
  hidden: string,
) {
  const { method, params, options } = request;
  const missing = `no_${hidden}`;
  const a = await client.request(method, params(hidden), options);
  const b = await client.request(method, params(missing), options);
  const what = `${method} ${JSON.stringify(params(hidden))} ${JSON.stringify(options?.headers)}`;
  expect(a.status, what).toBe(b.status);
  expect(shape(a.error, hidden), what).toEqual(shape(b.error, missing));
}

describe("a hidden tool's Mcp-Param headers (2026-07-28), over a real listener", () => {
  // First in the file: its first call loads the caller checks (the endpoint waits for them, then goes on).
  // Was: the headers were checked against the tool before its caller, so a refused caller's call with a
  // wrong, missing or undecodable header got 400/-32020 "does not match" where an unknown tool's got
  // "Unknown tool", telling them the hidden tool exists.
  const region = (name: string) => ({ name, arguments: { region: "eu" } });
  const cases: { params: (name: string) => Record<string, unknown>; headers: Record<string, string> }[] = [
    { params: region, headers: { "mcp-param-region": "EU" } },
    { params: region, headers: {} },
    // The argument absent, its header one no client could have encoded.
    { params: (name) => ({ name, arguments: {} }), headers: { "mcp-param-region": "=?base64?a?=" } },
  ];

  it("answers a refused caller as for a tool that does not exist, whatever the headers say", async () => {
    const { app, runs } = server();
    const listening = await app.serve({ port: 0 });
    try {
      const client = harness(remote(listening.url), { era: "modern", url: listening.url });
      for (const { params, headers } of cases) {
        await alike(client, { method: "tools/call", params, options: { headers } }, "secret_geo");
      }
      // A caller who may see the tool has its headers checked as before.
      const allowed = harness(remote(listening.url), {
        era: "modern",
        url: listening.url,
        token: await issuer.mint({ scopes: ["s"] }),
      });
      for (const { params, headers } of cases) {
        const answer = await allowed.request("tools/call", params("secret_geo"), { headers });
        expect(answer.status, JSON.stringify(headers)).toBe(400);
        expect(answer.error?.code).toBe(ErrorCode.HeaderMismatch);
      }
      expect(runs).toEqual([]);
    } finally {
      await listening.close();
    }
  });
});

describe.each(["legacy", "modern"] as const)("a hidden registration, to a refused caller (%s)", (era) => {
  const { app, runs } = server();
  const client = harness(app, { era });
  const same = (method: string, params: (name: string) => Record<string, unknown>, hidden: string) =>
    alike(client, { method, params }, hidden);

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
