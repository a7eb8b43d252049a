/**
 * A middleware that answers a call of a tool with an output schema: its `structuredContent` is checked
 * by that schema, as the tool's own result is, and its parsed value sent. The official clients read a
 * tool's `outputSchema` from tools/list and refuse a call's result that has no `structuredContent` or
 * one the schema rejects (2025-11-25 "Output Schema": servers MUST provide structured results that
 * conform to it), so such a result was a client-side error that named neither the middleware nor
 * the tool's author (was: "Tool cached has an output schema but did not return structured content",
 * from both clients, for a cache that answered with text, as this page's short-circuit example
 * does). Now it is -32603 naming the middleware, the tool and what to return, in both eras (official
 * v1 and v2 clients over Streamable HTTP on 127.0.0.1), and `server.call` rejects with it.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type CallToolResult, pico, text } from "../../src/index.js";
import { expectInternalErrors, type InternalError } from "./internal-errors.js";
import { servedToClients } from "./served.js";

const Price = z.object({ sku: z.string(), cents: z.number().int() });
const price = {
  input: z.object({ sku: z.string() }),
  output: Price,
  run: ({ sku }: { sku: string }) => ({ sku, cents: 100 }),
};

const server = pico({ name: "structured", version: "1.0.0" })
  .tool("cached_price", price)
  .tool("wrong_price", price)
  .tool("stamped_price", price)
  .tool("refused_price", price)
  .tool("timed_price", price)
  // The short-circuit of "What a middleware can do", on a tool with an output schema.
  .use({ tool: "cached_price" }, function cache() {
    return { content: [text("cached")] };
  })
  .use("tools/call", async function cents(call, next) {
    const result = await next();
    if (call.params.name !== "wrong_price") return result;
    return { ...result, structuredContent: { sku: "A-1", cents: "one hundred" } };
  })
  // A field the schema does not name, as the tool's own would be, is left out.
  .use({ tool: "stamped_price" }, async (_, next) => {
    const result = await next();
    return { ...result, structuredContent: { sku: "A-1", cents: 150, cachedAt: 1 } };
  })
  .use({ tool: "refused_price" }, () => ({ content: [text("Over the limit: wait a minute.")], isError: true }))
  .use({ tool: "timed_price" }, async (_, next) => ({ ...(await next()), _meta: { "example.com/ms": 1 } }));

const clients = servedToClients(server);

const CACHED =
  'Middleware "cache" for "tools/call" returned a result for tool "cached_price" without structuredContent, which its output schema requires (the clients refuse such a result): return the value as structuredContent (and its JSON text in content), or a tool error with isError: true';
const MALFORMED: InternalError[] = [
  [{ method: "tools/call", params: { name: "cached_price", arguments: { sku: "A-1" } } }, CACHED],
  [
    { method: "tools/call", params: { name: "wrong_price", arguments: { sku: "A-1" } } },
    'Middleware "cents" for "tools/call" returned a result for tool "wrong_price" whose structuredContent does not match its output schema:\ncents: Invalid input: expected number, received string',
  ],
];

describe("a middleware's result for a tool with an output schema", () => {
  it("is answered -32603 naming the middleware and the tool when its structuredContent is missing or does not match, in both eras", async () => {
    await expectInternalErrors(clients, MALFORMED);
  });

  it("rejects server.call with the same error", async () => {
    await expect(server.call("cached_price", { sku: "A-1" })).rejects.toThrow(new TypeError(CACHED));
  });

  it("sends a structuredContent that matches as parsed, and tool errors and the tool's own value as they are, to clients that listed the tools", async () => {
    const legacy = await clients.legacy();
    const modern = await clients.modern();
    await legacy.listTools();
    await modern.listTools();
    const call = (name: string) => ({ name, arguments: { sku: "A-1" } });
    for (const client of [legacy, modern]) {
      expect(await client.callTool(call("stamped_price"))).toMatchObject({
        structuredContent: { sku: "A-1", cents: 150 },
      });
      expect((await client.callTool(call("stamped_price"))).structuredContent).not.toHaveProperty("cachedAt");
      expect(await client.callTool(call("refused_price"))).toMatchObject({ isError: true });
      expect(await client.callTool(call("timed_price"))).toMatchObject({
        structuredContent: { sku: "A-1", cents: 100 },
        _meta: { "example.com/ms": 1 },
      });
    }
    const local: CallToolResult<{ sku: string; cents: number }> = await server.call("stamped_price", { sku: "A-1" });
    expect(local.structuredContent).toEqual({ sku: "A-1", cents: 150 });
  });
});
