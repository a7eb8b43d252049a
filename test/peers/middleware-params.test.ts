/**
 * Middleware of one method is typed with that method's params (`MethodTypes`): `tools/call`'s
 * `params.name` a string, `resources/read`'s `params.uri`, … A request whose params are not of that
 * shape (sent by hand, or by a client with a bug) reached such a middleware as it was, and a
 * middleware that read `params.name.length`, as its types allow, threw: the request was answered
 * -32603 "Internal error: Cannot read properties of undefined (reading 'length')" instead of the
 * handler's -32602 (was). Now such a request is answered -32602 naming the param and what it must be,
 * before any middleware runs, as the handler would answer it, in both eras (the official v1 client
 * over Streamable HTTP on 127.0.0.1, the v2 client over stdio to a child process): the types
 * middleware is written with hold.
 */
import { Client as ModernClient, ProtocolError } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpError as V1Error } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode } from "../../src/index.js";
import { paramsServer } from "../fixtures/middleware-params-server.js";
import { tsxProgram } from "./fixture.js";
import { ANY } from "./internal-errors.js";
import { servedToClients } from "./served.js";

const { server, seen, argumentsSeen } = paramsServer();
const clients = servedToClients(server);

/** A 2026-07-28 client over stdio: over HTTP, its Mcp-Name header already refuses a request without a name (-32020). */
const modern = new ModernClient({ name: "v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
beforeAll(() => modern.connect(new StdioClientTransport(tsxProgram("test/fixtures/middleware-params-server.ts"))));
afterAll(() => modern.close());

const MALFORMED: [method: string, params: Record<string, unknown>, message: string][] = [
  ["tools/call", {}, "Invalid params: tools/call needs params.name: a string"],
  ["tools/call", { name: 5 }, "Invalid params: tools/call needs params.name: a string"],
  [
    "tools/call",
    { name: "echo", arguments: [1] },
    "Invalid params: tools/call needs params.arguments to be an object, or left out",
  ],
  ["resources/read", {}, "Invalid params: resources/read needs params.uri: a string"],
  ["prompts/get", { name: null }, "Invalid params: prompts/get needs params.name: a string"],
  [
    "completion/complete",
    { ref: { type: "ref/resource", uri: "users://{id}" }, argument: { name: "id" } },
    "Invalid params: completion/complete needs params.argument.value: a string",
  ],
  ["tools/list", { cursor: 7 }, "Invalid params: tools/list needs params.cursor to be a string, or left out"],
];

describe("a request whose params are not of the shape its method's middleware is typed with", () => {
  it("is answered -32602 naming the param, before any middleware, in both eras", async () => {
    const legacy = await clients.legacy();
    seen.length = 0;
    for (const [method, params, message] of MALFORMED) {
      const v1 = await legacy.request({ method, params }, ANY).catch((error: unknown) => error);
      expect(v1).toBeInstanceOf(V1Error);
      expect(v1).toMatchObject({ code: ErrorCode.InvalidParams, message: `MCP error -32602: ${message}` });
      const v2 = await modern.request({ method, params }, ANY).catch((error: unknown) => error);
      expect(v2).toBeInstanceOf(ProtocolError);
      expect(v2).toMatchObject({ code: ErrorCode.InvalidParams, message });
    }
    expect(seen).toEqual([]);
  });

  it("leaves well-formed requests to the middleware, as ever", async () => {
    const legacy = await clients.legacy();
    seen.length = 0;
    expect(await legacy.callTool({ name: "echo", arguments: {} })).toEqual({
      content: [{ type: "text", text: "echo" }],
    });
    await legacy.readResource({ uri: "docs://readme" });
    await legacy.getPrompt({ name: "greet" });
    await legacy.complete({ ref: { type: "ref/resource", uri: "users://{id}" }, argument: { name: "id", value: "" } });
    await legacy.listTools();
    // null arguments are none to the handlers: served, and seen by middleware as none.
    const none = await legacy.request({ method: "tools/call", params: { name: "echo", arguments: null } }, ANY);
    expect(none).toEqual({ content: [{ type: "text", text: "echo" }] });
    expect(seen).toEqual([
      "tools/call",
      "resources/read",
      "prompts/get",
      "completion/complete",
      "tools/list",
      "tools/call",
    ]);
    expect(argumentsSeen.at(-1)).toBe("none");
  });
});
