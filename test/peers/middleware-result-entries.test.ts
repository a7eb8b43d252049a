/**
 * A middleware's list result whose entries the official clients refuse (a tool without an
 * inputSchema, a template that is not an object, a prompt argument without a name), a tool call's
 * structuredContent that is not an object, a completion total past the safe integers: found by
 * test/fuzz/middleware-results.test.ts. They were sent as they were, and the official v1 client
 * refused the whole result with a schema error of its own (was: only the list's array, resource
 * entries and prompt names were checked). Now each is answered -32603 naming the middleware, the
 * entry and the shape expected, in both eras (official v1 and v2 clients over Streamable HTTP on
 * 127.0.0.1); a middleware that passes the handler's own lists through changes nothing.
 */
import { CreateTaskResultSchema, McpError as V1Error } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ErrorCode, pico } from "../../src/index.js";
import { ANY, expectInternalErrors, type InternalError } from "./internal-errors.js";
import { servedToClients } from "./served.js";

const malformed = pico({ name: "entries", version: "1.0.0" })
  .tool("structured", { description: "Answered with structuredContent: [].", run: () => "never sent" })
  .prompt("greet", { get: () => "hello" })
  .resource("users://{id}", { read: ({ id }) => `user ${id}`, complete: { id: () => ["1"] } })
  .use("tools/list", function toolless() {
    return { tools: [{ name: "x" }] } as never;
  })
  .use("resources/templates/list", function templateless() {
    return { resourceTemplates: [0] } as never;
  })
  .use("prompts/list", function nameless() {
    return { prompts: [{ name: "greet", arguments: [{ description: "who" }] }] } as never;
  })
  .use({ tool: "structured" }, function listed() {
    return { content: [], structuredContent: [] } as never;
  })
  .tool("not_a_task", {
    description: "Answered with a { task } to a call that asked for none.",
    run: () => "never sent",
  })
  .tool("typed", {
    description: 'Answered with resultType: "task", which 2025 does not have.',
    run: () => "never sent",
  })
  .use({ tool: "not_a_task" }, function tasked() {
    return { content: [""], task: { taskId: "t", status: "working" } } as never;
  })
  .use({ tool: "typed" }, function typed() {
    return { content: [{}], resultType: "task" } as never;
  })
  .use("completion/complete", function huge() {
    return { completion: { values: [], total: 2 ** 53 } } as never;
  });

/** The same registrations and more, behind a middleware that passes every result through. */
const passing = pico({ name: "passing", version: "1.0.0" })
  .tool("typed", {
    title: "Typed",
    input: z.object({ q: z.string().describe("query"), n: z.number().int().optional() }),
    output: z.object({ total: z.number() }),
    annotations: { readOnlyHint: true, openWorldHint: false, title: "Typed tool" },
    icons: [{ src: "https://example.com/t.png", sizes: ["48x48"] }],
    run: () => ({ total: 1 }),
  })
  .tool("plain", { run: () => "plain" })
  .tool("later", { task: "optional", run: () => "later" })
  .prompt("greet", {
    input: z.object({ who: z.string().describe("whom"), tone: z.string().optional() }),
    get: () => "hi",
  })
  .resource("docs://readme", { mimeType: "text/markdown", read: () => "read me" })
  .resource("users://{id}", { title: "User", read: ({ id }) => `user ${id}`, complete: { id: () => ["1"] } })
  .use(async (_, next) => next());

const clients = servedToClients(malformed);
const passingClients = servedToClients(passing);

const MALFORMED: InternalError[] = [
  [
    { method: "tools/list" },
    'Middleware "toolless" for "tools/list" returned a malformed result: tools[0] needs inputSchema: an object; a tools/list result is { tools: [tools], nextCursor? }',
  ],
  [
    { method: "resources/templates/list" },
    'Middleware "templateless" for "resources/templates/list" returned a malformed result: resourceTemplates[0] is not an object; a resources/templates/list result is { resourceTemplates: [resource templates], nextCursor? }',
  ],
  [
    { method: "prompts/list" },
    'Middleware "nameless" for "prompts/list" returned a malformed result: prompts[0] needs arguments to be an array of arguments, each { name, title?, description?, required?: a boolean }, or left out; a prompts/list result is { prompts: [prompts], nextCursor? }',
  ],
  [
    { method: "tools/call", params: { name: "structured", arguments: {} } },
    'Middleware "listed" for "tools/call" returned a malformed result: needs structuredContent to be an object, or left out; a tools/call result is { content: [content blocks], structuredContent?, isError? }',
  ],
  [
    {
      method: "completion/complete",
      params: { ref: { type: "ref/resource", uri: "users://{id}" }, argument: { name: "id", value: "" } },
    },
    'Middleware "huge" for "completion/complete" returned a malformed result: needs completion.total to be an integer, or left out; a completion/complete result is { completion: { values: [strings], total?, hasMore? } }',
  ],
];

const TOOL_SHAPE = "a tools/call result is { content: [content blocks], structuredContent?, isError? }";
/** Results a 2025 client reads as a CallToolResult whatever their resultType or task (2025 has no resultType). */
const LEGACY_MALFORMED: [name: string, message: string][] = [
  [
    "not_a_task",
    `Middleware "tasked" for "tools/call" returned a malformed result: content[0] is not an object; ${TOOL_SHAPE}`,
  ],
  [
    "typed",
    `Middleware "typed" for "tools/call" returned a malformed result: content[0] (undefined) has no block type; ${TOOL_SHAPE}`,
  ],
];

describe("a middleware's result whose entries the official clients refuse", () => {
  it("is answered -32603 to a 2025 client also when it says it is a task, since that client asked for none", async () => {
    const legacy = await clients.legacy();
    for (const [name, message] of LEGACY_MALFORMED) {
      const request = { method: "tools/call", params: { name, arguments: {} } };
      const v1 = await legacy.request(request, ANY, { timeout: 5_000 }).catch((error: unknown) => error);
      expect(v1).toBeInstanceOf(V1Error);
      expect(v1).toMatchObject({
        code: ErrorCode.InternalError,
        message: `MCP error -32603: Internal error: ${message}`,
      });
    }
  });

  it("is answered -32603 naming the middleware, the entry and the shape expected, in both eras", async () => {
    await expectInternalErrors(clients, MALFORMED);
  });

  it("passes a 2025 task through a middleware to the call that asked for it", async () => {
    const legacy = await passingClients.legacy();
    const params = { name: "later", arguments: {}, task: { ttl: 60_000 } };
    const created = await legacy.request({ method: "tools/call", params }, CreateTaskResultSchema, { timeout: 5_000 });
    expect(created.task.taskId).toEqual(expect.any(String));
  });

  it("passes the handlers' own lists through a middleware unchanged, to both clients", async () => {
    for (const client of [await passingClients.legacy(), await passingClients.modern()]) {
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toEqual(["typed", "plain", "later"]);
      expect(tools.tools[0]).toMatchObject({ annotations: { readOnlyHint: true }, outputSchema: { type: "object" } });
      const prompts = await client.listPrompts();
      expect(prompts.prompts[0]?.arguments?.map((argument) => argument.name)).toEqual(["who", "tone"]);
      expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(["docs://readme"]);
      const templates = await client.listResourceTemplates();
      expect(templates.resourceTemplates.map((template) => template.uriTemplate)).toEqual(["users://{id}"]);
      expect(await client.callTool({ name: "typed", arguments: { q: "x" } })).toMatchObject({
        structuredContent: { total: 1 },
      });
    }
  });
});
