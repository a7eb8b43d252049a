/**
 * A request for a method whose capability the server does not have (2025-11-25 "Capabilities": a
 * client uses only what the server advertised) is answered -32601 with that reason and what to do:
 * `prompts/list` on a server with no prompts says the server has no prompts, not that the method is
 * missing from the client's protocol (was: 'Method not found: "prompts/list" is not available in
 * protocol 2025-11-25', in both eras, though 2025-11-25 and 2026-07-28 both have the method). A
 * method the request's protocol does not have still says so. The official v1 client in a 2025-11-25
 * session and the v2 client in 2026-07-28, over Streamable HTTP on 127.0.0.1.
 */
import { EmptyResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { failure } from "../http-helpers.js";
import { servedToClients } from "./served.js";

/** Tools only: no prompts, no resources, hence no completions. */
const tools = servedToClients(pico({ name: "tools-only", version: "1.0.0" }).tool("echo", { run: () => "echo" }));
/** A prompt only: no tools. */
const prompts = servedToClients(pico({ name: "prompts-only", version: "1.0.0" }).prompt("hello", { get: () => "hi" }));

/** The answer to `method`, whose capability is `capability`, on a server that does not have it. */
const noCapability = (method: string, capability: string) =>
  `Method not found: "${method}" is not available because this server has no ${capability}; call only the methods of the capabilities it advertises`;

describe("a method of a capability the server does not have", () => {
  it("says the server has none, to a 2025-11-25 session (official v1 client)", async () => {
    const client = await tools.legacy();
    const promptsOnly = await prompts.legacy();
    const ref = { type: "ref/prompt" as const, name: "hello" };
    for (const [call, method, capability] of [
      [failure(client.listPrompts()), "prompts/list", "prompts"],
      [failure(client.getPrompt({ name: "hello" })), "prompts/get", "prompts"],
      [failure(client.listResources()), "resources/list", "resources"],
      [failure(client.readResource({ uri: "notes://1" })), "resources/read", "resources"],
      [failure(client.complete({ ref, argument: { name: "a", value: "" } })), "completion/complete", "completions"],
      [failure(promptsOnly.listTools()), "tools/list", "tools"],
      [failure(promptsOnly.callTool({ name: "echo" })), "tools/call", "tools"],
    ] as const) {
      expect(await call).toBe(`MCP error -32601: ${noCapability(method, capability)}`);
    }
  });

  it("says the server has none, to a 2026-07-28 request (official v2 client)", async () => {
    const client = await tools.modern();
    // The client refuses listPrompts itself (the capability is not advertised); getPrompt and
    // readResource reach the server, whose 404 answer the client reports with its body.
    for (const [call, method, capability] of [
      [failure(client.getPrompt({ name: "hello" })), "prompts/get", "prompts"],
      [failure(client.readResource({ uri: "notes://1" })), "resources/read", "resources"],
    ] as const) {
      const reported = await call;
      expect(JSON.parse(reported.slice(reported.indexOf("{"))).error).toEqual({
        code: -32601,
        message: noCapability(method, capability),
      });
    }
  });

  it("still says a method is not in the session's protocol when it is not, or does not exist (official v1 client)", async () => {
    const client = await tools.legacy();
    // An Object.prototype name before the slash names no family.
    for (const method of ["subscriptions/listen", "nope/nothing", "__proto__/list", "constructor/list"]) {
      expect(await failure(client.request({ method, params: {} }, EmptyResultSchema))).toBe(
        `MCP error -32601: Method not found: "${method}" is not available in protocol 2025-11-25`,
      );
    }
  });
});
