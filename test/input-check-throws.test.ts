/**
 * An input schema whose check throws (a refine with a bug), and the arguments of `server.call` that
 * throw when the check reads them (a getter, a Proxy's trap): the call answers a tool error that
 * says the check failed, with the message made safe, as a throw of `run`'s does (docs/tools.md:
 * only an McpError and an unknown name reject `server.call`). Was: the throw escaped the tool
 * pipeline, so a client got -32603 "Internal error" and `server.call` rejected with the raw error.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { McpError, pico } from "../src/index.js";
import { tsxProgram } from "./peers/fixture.js";

const REFINE_THREW =
  'Tool "check_throws" failed while checking its arguments against its input schema: the rule file [path] could not be read';

describe("an input schema whose check throws, over stdio (official v1 client)", () => {
  const client = new Client({ name: "check-throws", version: "1.0.0" });
  afterAll(() => client.close());

  it("is a tool error that says the check failed, with no path in it", async () => {
    await client.connect(new StdioClientTransport(tsxProgram("test/fixtures/hardening-server.ts")));
    expect(await client.callTool({ name: "check_throws", arguments: { s: "x" } })).toEqual({
      content: [{ type: "text", text: REFINE_THREW }],
      isError: true,
    });
    // The server goes on serving.
    expect(await client.callTool({ name: "echo", arguments: { s: "still here" } })).toEqual({
      content: [{ type: "text", text: "still here" }],
    });
  });
});

describe("server.call with arguments that throw when read", () => {
  const runs: string[] = [];
  const server = pico({ name: "hostile-arguments", version: "1.0.0" })
    .tool("echo", {
      input: z.object({ s: z.string() }),
      run: ({ s }) => {
        runs.push(s);
        return s;
      },
    })
    .tool("guarded", {
      input: z.object({ s: z.string() }),
      auth: "signed-in",
      run: ({ s }) => {
        runs.push(s);
        return s;
      },
    })
    .tool("strict", {
      input: z.object({
        s: z.string().refine(() => {
          throw new McpError(-32602, "s is checked against a list this server no longer has");
        }),
      }),
      run: ({ s }) => s,
    });
  const getter = Object.defineProperty({}, "s", {
    enumerable: true,
    get() {
      throw new Error("the getter of s threw, reading /home/ada/secrets/token.txt");
    },
  });
  const trap = new Proxy(
    {},
    {
      get() {
        throw new Error("the get trap threw");
      },
    },
  );
  const failed = (tool: string, why: string) => ({
    content: [
      { type: "text", text: `Tool "${tool}" failed while checking its arguments against its input schema: ${why}` },
    ],
    isError: true,
  });

  it("resolves a tool error for a getter or a Proxy trap that throws, and never runs the tool", async () => {
    // The arguments are typed; a caller in plain JavaScript can pass anything.
    const hostile = (value: object) => value as { s: string };
    expect(await server.call("echo", hostile(getter))).toEqual(failed("echo", "the getter of s threw, reading [path]"));
    expect(await server.call("echo", hostile(trap))).toEqual(failed("echo", "the get trap threw"));
    expect(await server.call("guarded", hostile(getter), { auth: { subject: "ada" } })).toEqual(
      failed("guarded", "the getter of s threw, reading [path]"),
    );
    expect(runs).toEqual([]);
  });

  it("rejects with an McpError the check throws, as one from run", async () => {
    await expect(server.call("strict", { s: "x" })).rejects.toMatchObject({
      code: -32602,
      message: "s is checked against a list this server no longer has",
    });
  });
});
