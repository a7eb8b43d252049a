/** `picomcp list`: what a client receives from the fixture, compared with the lists fetched in-process. */
import { describe, expect, it } from "vitest";
import { harness } from "../../src/testing.js";
import server from "../fixtures/cli-server.js";
import { FIXTURE, picomcp, ROOT } from "./helpers.js";

describe("picomcp list", () => {
  it("--json prints every list exactly as a client receives it, and the tools/list estimate", async () => {
    const { code, stdout } = picomcp(["list", FIXTURE, "--json"]);
    expect(code).toBe(0);
    const listing = JSON.parse(stdout);
    const client = harness(server);
    const fetched = async (method: string, key: string) => (await client.request(method)).result?.[key];
    expect(listing.tools).toEqual(await fetched("tools/list", "tools"));
    expect(listing.resources).toEqual(await fetched("resources/list", "resources"));
    expect(listing.resourceTemplates).toEqual(await fetched("resources/templates/list", "resourceTemplates"));
    expect(listing.prompts).toEqual(await fetched("prompts/list", "prompts"));
    expect(listing.tools.map((tool: { name: string }) => tool.name)).toEqual([
      "greet",
      "measure",
      "count",
      "ask_color",
      "fail",
    ]);
    expect(listing.server).toEqual({ name: "cli-fixture", version: "1.2.3" });
    expect(listing.toolsListTokens).toBe(Math.ceil(JSON.stringify({ tools: listing.tools }).length / 4));
  });

  it("prints each tool with its schemas for people, and says how the token figure is estimated", () => {
    const { code, stdout } = picomcp(["list", FIXTURE]);
    expect(code).toBe(0);
    expect(stdout).toContain("cli-fixture 1.2.3 (protocol 2025-11-25)\n\nTools (5)\n  greet — Greet  (~");
    expect(stdout).toContain('    input: {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"');
    expect(stdout).toContain(
      '"times":{"default":1,"description":"How many times","type":"integer","minimum":1,"maximum":3}',
    );
    expect(stdout).toContain("Resources (1)\n  notes://today — text/plain, Today's note");
    expect(stdout).toContain("Resource templates (1)\n  notes://{day} — The note of a day");
    expect(stdout).toContain("Prompts (1)\n  summary(text) — Summarise a text");
    expect(stdout).toMatch(
      /tools\/list costs about \d+ tokens per turn \(\d+ characters of JSON; estimate: characters/,
    );
  });

  it("says to pass --token to a server that wants one, and that the token was refused when it was", () => {
    const oauth = "test/fixtures/cli-oauth-server.ts";
    const challenge = 'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp"';
    expect(picomcp(["list", oauth])).toEqual({
      code: 1,
      stdout: "",
      stderr: `picomcp list: the server requires authorization: pass --token <access token> (it answered 401, ${challenge})\n`,
    });
    const refused = picomcp(["call", oauth, "whoami", "--token", "bad"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^picomcp call: the server refused the token of --token \(it answered 401, Bearer .*\)\n$/,
    );
    expect(picomcp(["call", oauth, "whoami", "--token", "good"])).toMatchObject({ code: 0, stdout: "ada\n" });
  });

  it("exits 2 saying what to export when the module exports no server", () => {
    const { code, stderr } = picomcp(["list", "test/fixtures/cli-none.ts"]);
    expect(code).toBe(2);
    expect(stderr).toContain("picomcp list: test/fixtures/cli-none.ts exports no server. Export the pico() server");
  });

  it("exits 2 naming the server the module does export when the name after the file is not one (a tool's, say)", () => {
    // Was: "exports no server named "greet". Export the pico() server without serving it", of a
    // module whose default export is the server.
    expect(picomcp(["list", FIXTURE, "greet"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `picomcp list: ${FIXTURE} exports no server named "greet"; its server is its default export: name it, ` +
        "or no export for the default or first one (picomcp list takes an export's name after the file, not a tool's).\n",
    });
  });

  // Was: "(list and check take an export's name after the file, …)" whatever the command.
  it.each([
    ["run", [FIXTURE, "--export", "greet"]],
    ["call", [FIXTURE, "greet", "--export", "greet"]],
    ["install", ["claude-code", FIXTURE, "--export", "greet"]],
    ["check", [FIXTURE, "greet"]],
  ])("says how picomcp %s takes an export's name when the one given is not a server's", (verb, args) => {
    const how = verb === "check" ? "after the file" : "with --export";
    const { code, stderr } = picomcp([verb, ...args], { env: { HOME: "/nonexistent" } });
    expect({ code, stderr }).toEqual({
      code: 2,
      stderr:
        `picomcp ${verb}: ${FIXTURE} exports no server named "greet"; its server is its default export: name it, ` +
        `or no export for the default or first one (picomcp ${verb} takes an export's name ${how}, not a tool's).\n`,
    });
  });

  it("exits 2 naming the path it looked at when the file is not there or is a folder, not picomcp's own files", () => {
    expect(picomcp(["list", "test/fixtures/no-such-server.ts"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `picomcp list: there is no file test/fixtures/no-such-server.ts (looked for ${ROOT}test/fixtures/no-such-server.ts): ` +
        "give the path of the file that exports the server, such as server.ts.\n",
    });
    expect(picomcp(["list", "test/fixtures"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "picomcp list: test/fixtures is a folder: give the path of the file in it that exports the server, " +
        "such as test/fixtures/server.ts.\n",
    });
  });
});
