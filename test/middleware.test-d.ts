import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  type CallToolResult,
  type Context,
  McpError,
  type Middleware,
  type MiddlewareCall,
  type Plugin,
  pico,
  type ToolMiddleware,
} from "../src/index.js";

const server = pico({ name: "types", version: "1.0.0" })
  .tool("search_issues", {
    input: z.object({ repo: z.string(), query: z.string() }),
    run: ({ repo, query }) => `${repo} ${query}`,
  })
  .tool("get_price", {
    input: z.object({ sku: z.string() }),
    output: z.object({ sku: z.string(), cents: z.number().int() }),
    run: ({ sku }) => ({ sku, cents: 100 }),
  });

describe("server.use types", () => {
  it("for every method: the method name, raw params, the context, a record result", () => {
    server.use(async (call, next) => {
      expectTypeOf(call.method).toEqualTypeOf<string>();
      expectTypeOf(call.params).toEqualTypeOf<Record<string, unknown> | undefined>();
      expectTypeOf(call.ctx).toEqualTypeOf<Context>();
      expectTypeOf(next).returns.resolves.toEqualTypeOf<Record<string, unknown>>();
      return next();
    });
    // Returning nothing after next() is allowed: the chain answers with next()'s result.
    server.use(async (_, next) => {
      await next();
    });
  });

  it("for tools/call: typed params { name, arguments } and a CallToolResult", () => {
    server.use("tools/call", async (call, next) => {
      expectTypeOf(call.method).toEqualTypeOf<"tools/call">();
      expectTypeOf(call.params.name).toEqualTypeOf<string>();
      expectTypeOf(call.params.arguments).toEqualTypeOf<Readonly<Record<string, unknown>> | undefined>();
      const result = await next();
      expectTypeOf(result).toEqualTypeOf<CallToolResult>();
      return { ...result, isError: true };
    });
    // A short-circuit must be a CallToolResult.
    server.use("tools/call", () => ({ content: [{ type: "text", text: "no" }], isError: true }));
    // @ts-expect-error a tools/call result needs content
    server.use("tools/call", () => ({ contents: [] }));
    server.use("resources/read", async (call, next) => {
      expectTypeOf(call.params.uri).toEqualTypeOf<string>();
      const result = await next();
      expectTypeOf(result.contents).toBeArray();
      return result;
    });
    server.use("prompts/get", (call, next) => {
      expectTypeOf(call.params.name).toEqualTypeOf<string>();
      return next();
    });
  });

  it("for the 2025 session's methods and completion: their params typed", () => {
    server.use("logging/setLevel", (call, next) => {
      expectTypeOf(call.params.level).toEqualTypeOf<
        "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency"
      >();
      return next();
    });
    server.use("resources/subscribe", (call, next) => {
      expectTypeOf(call.params.uri).toEqualTypeOf<string>();
      return next();
    });
    server.use("resources/unsubscribe", (call, next) => {
      expectTypeOf(call.params.uri).toEqualTypeOf<string>();
      return next();
    });
    server.use("completion/complete", (call, next) => {
      expectTypeOf(call.params.context?.arguments).toEqualTypeOf<Readonly<Record<string, string>> | undefined>();
      return next();
    });
  });

  it("for a plug-in's method: a record in, a record out", () => {
    server.use("x/echo", (call, next) => {
      expectTypeOf(call.method).toEqualTypeOf<"x/echo">();
      expectTypeOf(call.params).toEqualTypeOf<Record<string, unknown> | undefined>();
      return next();
    });
  });

  it("for one tool: the name checked against the registered tools, the result typed from its output schema", () => {
    server.use({ tool: "get_price" }, async (call, next) => {
      expectTypeOf(call.params.name).toEqualTypeOf<"get_price">();
      const result = await next();
      expectTypeOf(result.structuredContent).toEqualTypeOf<{ sku: string; cents: number } | undefined>();
      return result;
    });
    server.use({ tool: "search_issues" }, (_, next) => next());
    // @ts-expect-error no tool of that name is registered
    server.use({ tool: "search_issue" }, (_, next) => next());
    server.use({ tool: "get_price" }, () => {
      throw new McpError(-32000, "Rate limited");
    });
  });

  it("use returns the server, so the chain keeps its tool types", () => {
    const chained = server.use((_, next) => next());
    expectTypeOf(chained).toEqualTypeOf(server);
    expectTypeOf(chained.call("get_price", { sku: "a" })).resolves.toEqualTypeOf<
      CallToolResult<{ sku: string; cents: number }>
    >();
  });

  it("named middleware types for reuse", () => {
    const audit: Middleware = (call, next) => {
      expectTypeOf(call).toEqualTypeOf<MiddlewareCall>();
      return next();
    };
    const toolCalls: Middleware<"tools/call"> = (_, next) => next();
    const price: ToolMiddleware<"get_price", { sku: string; cents: number }> = (_, next) => next();
    server.use(audit).use("tools/call", toolCalls).use({ tool: "get_price" }, price);
    // @ts-expect-error a tools/call middleware is not a middleware of every method
    server.use(toolCalls);
  });

  it("plug-ins: methods, capabilities, context and use", () => {
    const plugin: Plugin = {
      name: "echo",
      methods: { "x/echo": { run: (params) => ({ echoed: params?.text }) } },
      capabilities: { extensions: { "io.example/echo": {} } },
      context: { startedAt: () => Date.now() },
      use: (_, next) => next(),
    };
    server.use(plugin);
    // @ts-expect-error a method's run must return a result object
    server.use({ methods: { "x/bad": { run: () => "text" } } });
  });
});
