/**
 * A middleware (or a plug-in's) that answers a built-in method with a result of another shape: a
 * tool call without content or with a block a client refuses, a prompt without messages, contents
 * without a uri, completion values that are not strings, a list that is not one. Such a result was
 * sent as it was, and the official clients refused it with a schema error of their own, or misread
 * it (was: `{}` for tools/call reached the v1 client as a call with no content). Now it is checked
 * where a handler's result is, by the same checks (content/check.ts), and the request is answered
 * -32603 naming the middleware and the shape expected, in both eras (official v1 and v2 clients over
 * Streamable HTTP on 127.0.0.1); `server.call` rejects with the same error. A well-formed result,
 * and the results of unwrapped requests, are answered as ever.
 */
import { describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { expectInternalErrors, type InternalError } from "./internal-errors.js";
import { servedToClients } from "./served.js";

const server = pico({ name: "shapes", version: "1.0.0" })
  .tool("empty", { description: "Answered {} by its middleware.", run: () => "never sent" })
  .tool("bad_block", { description: "Answered a text block without text.", run: () => "never sent" })
  .tool("plugged", { description: "Answered {} by a plug-in's middleware.", run: () => "never sent" })
  .tool("fine", { description: "Answered with a _meta added.", run: () => "fine" })
  .prompt("greet", { get: () => "hello" })
  .resource("docs://readme", { read: () => "read me" })
  .resource("users://{id}", { read: ({ id }) => `user ${id}`, complete: { id: () => ["1", "2"] } })
  .use({ tool: "empty" }, function empty() {
    return {} as never;
  })
  .use({ tool: "bad_block" }, () => ({ content: [{ type: "text" }] }) as never)
  .use({ tool: "fine" }, async (_, next) => ({ ...(await next()), _meta: { "example.com/timed": 1 } }))
  .use("prompts/get", function promptless() {
    return { description: "no messages" } as never;
  })
  .use("resources/read", function uriless() {
    return { contents: [{ text: "x" }] } as never;
  })
  .use("completion/complete", function numbers() {
    return { completion: { values: [1, 2] } } as never;
  })
  .use("tools/list", function listless() {
    return { tools: "empty, bad_block, fine" } as never;
  })
  .use({
    name: "shaper",
    use: (call, next) => (call.method === "tools/call" && call.params?.name === "plugged" ? {} : next()),
  });

const clients = servedToClients(server);

const TOOL_SHAPE = "a tools/call result is { content: [content blocks], structuredContent?, isError? }";
const MALFORMED: InternalError[] = [
  [
    { method: "tools/call", params: { name: "empty", arguments: {} } },
    `Middleware "empty" for "tools/call" returned a malformed result: needs content: an array of content blocks; ${TOOL_SHAPE}`,
  ],
  [
    { method: "tools/call", params: { name: "bad_block", arguments: {} } },
    `Middleware for "tools/call" returned a malformed result: content[0] (text) needs text: a string; ${TOOL_SHAPE}`,
  ],
  [
    { method: "tools/call", params: { name: "plugged", arguments: {} } },
    `Plug-in "shaper"'s middleware for "tools/call" returned a malformed result: needs content: an array of content blocks; ${TOOL_SHAPE}`,
  ],
  [
    { method: "prompts/get", params: { name: "greet" } },
    'Middleware "promptless" for "prompts/get" returned a malformed result: needs messages: an array of messages; a prompts/get result is { description?, messages: [{ role: "user" | "assistant", content: a content block }] }',
  ],
  [
    { method: "resources/read", params: { uri: "docs://readme" } },
    'Middleware "uriless" for "resources/read" returned a malformed result: contents[0] needs uri: a string; a resources/read result is { contents: [{ uri, text | blob, mimeType? }] }',
  ],
  [
    {
      method: "completion/complete",
      params: { ref: { type: "ref/resource", uri: "users://{id}" }, argument: { name: "id", value: "" } },
    },
    'Middleware "numbers" for "completion/complete" returned a malformed result: needs completion.values: an array of at most 100 strings; a completion/complete result is { completion: { values: [strings], total?, hasMore? } }',
  ],
  [
    { method: "tools/list" },
    'Middleware "listless" for "tools/list" returned a malformed result: needs tools: an array of tools; a tools/list result is { tools: [tools], nextCursor? }',
  ],
];

describe("a middleware's result of another shape than its method's", () => {
  it("is answered -32603 naming the middleware and the shape expected, in both eras", async () => {
    await expectInternalErrors(clients, MALFORMED);
  });

  it("rejects server.call with the same error", async () => {
    await expect(server.call("empty")).rejects.toThrow(new TypeError(MALFORMED[0]![1]));
  });

  it("leaves a well-formed result, and every other request, answered as ever", async () => {
    const legacy = await clients.legacy();
    const modern = await clients.modern();
    const fine = { content: [{ type: "text", text: "fine" }], _meta: { "example.com/timed": 1 } };
    expect(await legacy.callTool({ name: "fine", arguments: {} })).toEqual(fine);
    expect(await modern.callTool({ name: "fine", arguments: {} })).toMatchObject(fine);
    expect(await server.call("fine")).toEqual(fine);
    expect(await legacy.listPrompts()).toMatchObject({ prompts: [{ name: "greet" }] });
    expect((await modern.listResources()).resources.map((resource) => resource.uri)).toEqual(["docs://readme"]);
  });
});
