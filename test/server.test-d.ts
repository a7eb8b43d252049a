import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { type CallToolResult, type CorsOptions, type HttpOptions, pico } from "../src/index.js";

const server = pico({ name: "github", version: "1.0.0" })
  .tool("search_issues", {
    input: z.object({ repo: z.string(), query: z.string(), limit: z.number().int().max(50).default(10) }),
    run: async ({ repo, query, limit }) => `${repo} ${query} ${limit}`,
  })
  .tool("get_price", {
    input: z.object({ sku: z.string() }),
    output: z.object({ sku: z.string(), cents: z.number().int(), currency: z.literal("EUR") }),
    run: ({ sku }) => ({ sku, cents: 100, currency: "EUR" }),
  })
  .tool("parse_date", {
    input: z.object({ at: z.string() }),
    output: z.object({ at: z.string(), day: z.number().default(1) }),
    run: ({ at }) => ({ at }),
  })
  .tool("ark", {
    input: type({ repo: "string", "limit?": "number", page: "string.numeric.parse" }),
    output: type({ total: "number" }),
    run: () => ({ total: 1 }),
  })
  .tool("vali", {
    input: toStandardJsonSchema(v.object({ repo: v.string(), limit: v.optional(v.number(), 10) })),
    output: toStandardJsonSchema(v.object({ ok: v.boolean() })),
    run: () => ({ ok: true }),
  })
  .tool("now", { run: () => new Date().toISOString() });

describe("server.call", () => {
  it("checks the tool name", () => {
    // @ts-expect-error: no tool by that name
    void server.call("search_issue", { repo: "a/b", query: "q" });
    // @ts-expect-error: no tools at all
    void pico({ name: "t", version: "1" }).call("anything");
  });

  it("checks the arguments against the input schema's input type", () => {
    void server.call("search_issues", { repo: "a/b", query: "q" });
    void server.call("search_issues", { repo: "a/b", query: "q", limit: 5 });
    // @ts-expect-error: limit must be a number
    void server.call("search_issues", { repo: "a/b", query: "q", limit: "5" });
    // @ts-expect-error: query is required
    void server.call("search_issues", { repo: "a/b" });
    // @ts-expect-error: arguments are required when the schema has required fields
    void server.call("search_issues");
    // @ts-expect-error: unknown argument
    void server.call("search_issues", { repo: "a/b", query: "q", lmit: 5 });
  });

  it("types the arguments of each tool from its own schema", () => {
    expectTypeOf(server.call<"search_issues">)
      .parameter(1)
      .toEqualTypeOf<{ repo: string; query: string; limit?: number | undefined }>();
    expectTypeOf(server.call<"ark">)
      .parameter(1)
      .toEqualTypeOf<{ repo: string; limit?: number; page: string }>();
    expectTypeOf(server.call<"vali">)
      .parameter(1)
      .toEqualTypeOf<{ repo: string; limit?: number | undefined }>();
    void server.call("ark", { repo: "a/b", page: "2" });
    // @ts-expect-error: page is a numeric string before the morph
    void server.call("ark", { repo: "a/b", page: 2 });
    void server.call("vali", { repo: "a/b" });
    // @ts-expect-error: repo is required
    void server.call("vali", { limit: 1 });
  });

  it("lets a tool without input be called with no arguments", () => {
    void server.call("now");
    void server.call("now", {});
    void server.call("now", undefined, { signal: AbortSignal.timeout(1000) });
    // @ts-expect-error: the tool takes no arguments
    void server.call("now", { x: 1 });
  });

  it("types structuredContent from the output schema's output type", () => {
    expectTypeOf(server.call("get_price", { sku: "A1" })).resolves.toEqualTypeOf<
      CallToolResult<{ sku: string; cents: number; currency: "EUR" }>
    >();
    expectTypeOf(server.call("parse_date", { at: "x" }))
      .resolves.toHaveProperty("structuredContent")
      .toEqualTypeOf<{ at: string; day: number } | undefined>();
    expectTypeOf(server.call("ark", { repo: "", page: "1" }))
      .resolves.toHaveProperty("structuredContent")
      .toEqualTypeOf<{ total: number } | undefined>();
    expectTypeOf(server.call("vali", { repo: "" }))
      .resolves.toHaveProperty("structuredContent")
      .toEqualTypeOf<{ ok: boolean } | undefined>();
    expectTypeOf(server.call("now")).resolves.toHaveProperty("structuredContent").toEqualTypeOf<unknown>();
  });

  it("checks the options", () => {
    void server.call("now", undefined, {
      signal: new AbortController().signal,
      meta: { progressToken: 1 },
      client: { info: { name: "c", version: "1" }, capabilities: { sampling: {} } },
    });
    // @ts-expect-error: meta is an object
    void server.call("now", undefined, { meta: "x" });
  });

  it("keeps the types of every tool through the chain", () => {
    const one = pico({ name: "t", version: "1" }).tool("a", { input: z.object({ n: z.number() }), run: () => "" });
    const two = one.tool("b", { run: () => "" });
    void two.call("a", { n: 1 });
    void two.call("b");
    // @ts-expect-error: "b" was added to `two`, not `one`
    void one.call("b");
  });
});

describe("HTTP options", () => {
  it("names the CORS options, so a configuration can be written and passed on its own", () => {
    const cors: CorsOptions = { origins: ["https://app.example.com"] };
    pico({ name: "web", version: "1.0.0", http: { cors } });
    expectTypeOf<CorsOptions>().toEqualTypeOf<NonNullable<Exclude<HttpOptions["cors"], boolean>>>();
    // @ts-expect-error origins is a list of origins, not one string
    const one: CorsOptions = { origins: "https://app.example.com" };
    void one;
  });

  // Was: `port: number` alone, so the digits docs/http.md says serve() takes, as process.env.PORT
  // holds them, did not compile: "Type 'string | number' is not assignable to type 'number'".
  it("takes the port as a number, or as the digits process.env.PORT holds", () => {
    const web = pico({ name: "web" });
    void web.serve({ port: process.env.PORT ?? 3000 });
    void web.serve({ port: "3000" });
    // @ts-expect-error: PORT may be unset, and serve() needs a port
    void web.serve({ port: process.env.PORT });
  });
});

describe("server.node", () => {
  /**
   * Node's request as @types/node 25 and later declare it (26.6 here, what `npm install -D
   * @types/node` gives a new project): its events typed by a map, and a catch-all overload whose
   * listener takes `any[]`. The repository's own @types/node (20) declares one overload per event.
   */
  interface RequestEvents {
    data: [chunk: Uint8Array];
    end: [];
    close: [];
  }
  interface TypedIncomingMessage {
    method?: string | undefined;
    url?: string | undefined;
    headers: Record<string, string | string[] | undefined>;
    on<E extends keyof RequestEvents>(eventName: E, listener: (...args: RequestEvents[E]) => void): this;
    // biome-ignore lint/suspicious/noExplicitAny: as @types/node declares it
    on(eventName: string | symbol, listener: (...args: any[]) => void): this;
  }
  interface TypedServerResponse {
    headersSent: boolean;
    writeHead(statusCode: number, headers?: Record<string, string | number | string[]>): this;
    end(): this;
  }

  it("takes Node's request and response as every @types/node types them", () => {
    const server = pico({ name: "web" });
    const listen = (listener: (req: TypedIncomingMessage, res: TypedServerResponse) => void) => listener;
    // Was: "Types of property 'on' are incompatible", so `createServer(server.node)`, Express's
    // `app.all("/mcp", server.node)` and Fastify's `server.node(request.raw, reply.raw)` did not compile.
    listen(server.node);
  });
});

describe("pico() options", () => {
  it("needs a name, and takes an optional version", () => {
    expectTypeOf(
      pico({ name: "weather" })
        .tool("forecast", { run: () => "sunny" })
        .serve(),
    ).resolves.toBeVoid();
    pico({ name: "weather", version: "1.0.0", title: "Weather" });
    // @ts-expect-error: a server needs a name
    pico({ version: "1.0.0" });
    // @ts-expect-error: a version is a string
    pico({ name: "weather", version: 1 });
  });
});
