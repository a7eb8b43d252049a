import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { type Context, pico } from "../src/index.js";

declare function priceOf(sku: string): Promise<number>;

const server = pico({ name: "t", version: "1" });

describe("run's arguments are the input schema's output", () => {
  it("with zod 4: defaults make fields required, transforms change types", () => {
    server.tool("search_issues", {
      input: z.object({
        repo: z.string().describe("owner/name"),
        query: z.string(),
        limit: z.number().int().max(50).default(10),
        labels: z.string().transform((s) => s.split(",")),
        state: z.enum(["open", "closed"]).optional(),
      }),
      run: (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{
          repo: string;
          query: string;
          limit: number;
          labels: string[];
          state?: "open" | "closed" | undefined;
        }>();
        expectTypeOf(ctx).toEqualTypeOf<Context>();
        expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
        return "";
      },
    });
  });

  it("with ArkType: defaults and morphs apply", () => {
    server.tool("ark", {
      input: type({
        repo: "string",
        "state?": "'open' | 'closed'",
        limit: "number = 10",
        page: "string.numeric.parse",
      }),
      run: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ repo: string; state?: "open" | "closed"; limit: number; page: number }>();
        return "";
      },
    });
  });

  it("with Valibot: defaults and transforms apply", () => {
    server.tool("vali", {
      input: toStandardJsonSchema(
        v.object({
          repo: v.string(),
          limit: v.optional(v.number(), 10),
          labels: v.pipe(
            v.string(),
            v.transform((s) => s.split(",")),
          ),
        }),
      ),
      run: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ repo: string; limit: number; labels: string[] }>();
        return "";
      },
    });
  });

  it("without input: an empty object", () => {
    server.tool("none", {
      run: (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, never>>();
        expectTypeOf(ctx).toEqualTypeOf<Context>();
        return "";
      },
    });
  });

  it("rejects reading an argument the schema does not have", () => {
    server.tool("typo", {
      input: z.object({ repo: z.string() }),
      // @ts-expect-error: `repository` is not an argument
      run: ({ repository }) => repository,
    });
  });

  it("types the context's fields", () => {
    server.tool("ctx", {
      run: (_args, ctx) => {
        expectTypeOf(ctx.meta).toEqualTypeOf<Record<string, unknown> | undefined>();
        expectTypeOf(ctx.protocolVersion).toBeString();
        expectTypeOf(ctx.era).toEqualTypeOf<"modern" | "legacy" | "local">();
        expectTypeOf(ctx.requestId).toEqualTypeOf<string | number | undefined>();
        // @ts-expect-error: the context is read-only
        ctx.signal = new AbortController().signal;
        return "";
      },
    });
  });
});

describe("run's return value", () => {
  const price = z.object({ sku: z.string(), cents: z.number().int(), currency: z.literal("EUR") });

  it("accepts the seed's get_price, literal fields included", () => {
    server.tool("get_price", {
      input: z.object({ sku: z.string() }),
      output: price,
      run: async ({ sku }) => ({ sku, cents: await priceOf(sku), currency: "EUR" }),
    });
    server.tool("get_price_sync", {
      input: z.object({ sku: z.string() }),
      output: price,
      run: ({ sku }) => ({ sku, cents: 100, currency: "EUR" }),
    });
    server.tool("get_price_ctx", {
      output: price,
      run: (_args, ctx) => ({ sku: ctx.protocolVersion, cents: 100, currency: "EUR" }),
    });
  });

  it("widens a literal only in an object built before it is returned, as docs/tools.md says", () => {
    server.tool("built_first", {
      input: z.object({ sku: z.string() }),
      output: price,
      // @ts-expect-error: currency was widened to string in row
      run: async ({ sku }) => {
        const row = { sku, cents: await priceOf(sku), currency: "EUR" };
        return row;
      },
    });
    server.tool("built_first_as_const", {
      input: z.object({ sku: z.string() }),
      output: price,
      run: async ({ sku }) => {
        const row = { sku, cents: await priceOf(sku), currency: "EUR" as const };
        return row;
      },
    });
  });

  it("must match the output schema's input type", () => {
    server.tool("wrong_literal", {
      input: z.object({ sku: z.string() }),
      output: price,
      // @ts-expect-error: currency must be "EUR"
      run: async ({ sku }) => ({ sku, cents: await priceOf(sku), currency: "USD" }),
    });
    server.tool("wrong_type", {
      input: z.object({ sku: z.string() }),
      output: price,
      // @ts-expect-error: cents must be a number
      run: ({ sku }) => ({ sku, cents: "100", currency: "EUR" }),
    });
    server.tool("missing_field", {
      output: price,
      // @ts-expect-error: sku is missing
      run: async () => ({ cents: 100, currency: "EUR" as const }),
    });
    server.tool("not_an_object", {
      output: price,
      // @ts-expect-error: a string is not a price
      run: () => "12.50 EUR",
    });
  });

  it("may leave out fields the output schema defaults", () => {
    server.tool("defaults", {
      output: z.object({ n: z.number().default(0), tags: z.array(z.string()) }),
      run: () => ({ tags: ["a"] }),
    });
  });

  it("is checked against ArkType and Valibot output schemas", () => {
    server.tool("ark_out", {
      input: type({ sku: "string" }),
      output: type({ sku: "string", cents: "number", currency: "'EUR'" }),
      run: ({ sku }) => ({ sku, cents: 1, currency: "EUR" }),
    });
    server.tool("ark_out_bad", {
      output: type({ cents: "number" }),
      // @ts-expect-error: cents must be a number
      run: () => ({ cents: "1" }),
    });
    server.tool("vali_out", {
      input: toStandardJsonSchema(v.object({ sku: v.string() })),
      output: toStandardJsonSchema(v.object({ sku: v.string(), currency: v.literal("EUR") })),
      run: async ({ sku }) => ({ sku, currency: "EUR" }),
    });
    server.tool("vali_out_bad", {
      output: toStandardJsonSchema(v.object({ cents: v.number() })),
      // @ts-expect-error: cents must be a number
      run: async () => ({ cents: null }),
    });
  });

  it("is free without an output schema", () => {
    server
      .tool("free_string", { run: () => "text" })
      .tool("free_value", { run: async () => ({ any: ["thing"] }) })
      .tool("free_nothing", { run: () => {} });
  });
});
