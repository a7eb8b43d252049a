import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { type Schema, type StandardSchemaV1, toJsonSchema, validate } from "../src/core/schema.js";
import { pico } from "../src/index.js";

/** A hand-written Standard Schema: accepts objects, converts to a fixed JSON Schema. */
function mockSchema(validateFn: Schema["~standard"]["validate"], withConverter = true, vendor = "mock") {
  const jsonSchema = {
    input: vi.fn(() => ({ type: "object", side: "input" })),
    output: vi.fn(() => ({ type: "object", side: "output" })),
  };
  const schema: Schema = {
    "~standard": { version: 1, vendor, validate: validateFn, ...(withConverter ? { jsonSchema } : {}) },
  };
  return { schema, jsonSchema };
}

/** What `validate` answers for a schema of this vendor (its `~standard.vendor`) that reports these issues. */
function issuesOf(issues: StandardSchemaV1.Issue[], vendor: string) {
  return validate(mockSchema(() => ({ issues }), false, vendor).schema, {});
}

describe("toJsonSchema", () => {
  it("asks the converter for the requested side, with the draft 2020-12 target", () => {
    const { schema, jsonSchema } = mockSchema((value) => ({ value }));
    expect(toJsonSchema(schema, "input", "x")).toEqual({ type: "object", side: "input" });
    expect(jsonSchema.input).toHaveBeenCalledExactlyOnceWith({ target: "draft-2020-12" });
    expect(jsonSchema.output).not.toHaveBeenCalled();
    expect(toJsonSchema(schema, "output", "x")).toEqual({ type: "object", side: "output" });
    expect(jsonSchema.output).toHaveBeenCalledExactlyOnceWith({ target: "draft-2020-12" });
  });

  it("says what to use when a schema cannot produce JSON Schema", () => {
    const { schema } = mockSchema((value) => ({ value }), false);
    expect(() => toJsonSchema(schema, "input", 'Tool "t" input')).toThrow(
      'Tool "t" input uses a mock schema that cannot produce JSON Schema. Use a library that implements the Standard JSON Schema interface (zod 4, ArkType, or Valibot wrapped with toStandardJsonSchema from @valibot/to-json-schema).',
    );
    // A bare Valibot schema has no converter until it is wrapped.
    expect(() => toJsonSchema(v.object({}) as Schema, "input", "X")).toThrow(
      /uses a valibot schema.*toStandardJsonSchema/,
    );
  });

  it("names the schema, as a TypeError, when its library cannot write it as JSON Schema", () => {
    for (const [schema, refusal] of [
      [z.object({ when: z.date() }), "Date cannot be represented in JSON Schema"],
      [z.object({ n: z.bigint() }), "BigInt cannot be represented in JSON Schema"],
    ] as const) {
      let thrown: unknown;
      try {
        toJsonSchema(schema, "input", 'Tool "t" input');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      expect((thrown as Error).message).toBe(
        `Tool "t" input cannot be written as JSON Schema: ${refusal}. Use types JSON has (no dates, bigints or transforms).`,
      );
    }
  });

  it("gives input and output views of the same schema (defaults optional on input)", () => {
    const schema = z.object({ q: z.string(), limit: z.number().default(10) });
    expect(toJsonSchema(schema, "input", "x")).toMatchObject({ required: ["q"] });
    expect(toJsonSchema(schema, "output", "x")).toMatchObject({ required: ["q", "limit"] });
  });

  it("produces 2020-12 schemas from zod, ArkType and Valibot", () => {
    const dialect = "https://json-schema.org/draft/2020-12/schema";
    expect(toJsonSchema(z.object({ a: z.string() }), "input", "x").$schema).toBe(dialect);
    expect(toJsonSchema(type({ a: "string" }), "input", "x").$schema).toBe(dialect);
    expect(toJsonSchema(toStandardJsonSchema(v.object({ a: v.string() })), "input", "x").$schema).toBe(dialect);
  });
});

describe("integer bounds", () => {
  it("drops the bounds zod's .int() adds for safe integers, wherever the integer sits, and keeps real ones", () => {
    const schema = z.object({
      any: z.number().int(),
      capped: z.number().int().max(50),
      small: z.int32(),
      list: z.array(z.number().int()),
      either: z.union([z.number().int(), z.string()]),
    });
    expect(toJsonSchema(schema, "input", "x").properties).toEqual({
      any: { type: "integer" },
      capped: { type: "integer", maximum: 50 },
      small: { type: "integer", minimum: -2147483648, maximum: 2147483647 },
      list: { type: "array", items: { type: "integer" } },
      either: { anyOf: [{ type: "integer" }, { type: "string" }] },
    });
  });

  it("keeps a number that is not an integer as it is, and validation still refuses an unsafe integer", () => {
    expect(toJsonSchema(z.object({ n: z.number().max(Number.MAX_SAFE_INTEGER) }), "input", "x").properties).toEqual({
      n: { type: "number", maximum: Number.MAX_SAFE_INTEGER },
    });
    expect(validate(z.object({ n: z.number().int() }), { n: 2 ** 60 })).toMatchObject({ ok: false });
  });

  it("leaves tools/list without them, through a real tool registration", async () => {
    const server = pico({ name: "ints" }).tool("page", {
      input: z.object({ page: z.number().int().min(1) }),
      run: ({ page }) => `page ${page}`,
    });
    const listed = await server.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/list",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/list",
          params: {
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      }),
    );
    const { result } = await listed.json();
    expect(result.tools[0].inputSchema.properties).toEqual({ page: { type: "integer", minimum: 1 } });
  });
});

describe("validate", () => {
  it("answers a synchronous schema synchronously, with the parsed value", () => {
    const result = validate(z.object({ n: z.coerce.number() }), { n: "4" });
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toEqual({ ok: true, value: { n: 4 } });
  });

  it("answers an asynchronous schema with a promise", async () => {
    const schema = z.object({ n: z.number().refine(async (n) => n > 0, "must be positive") });
    const good = validate(schema, { n: 1 });
    expect(good).toBeInstanceOf(Promise);
    expect(await good).toEqual({ ok: true, value: { n: 1 } });
    expect(await validate(schema, { n: -1 })).toEqual({ ok: false, issues: "n: must be positive" });
  });

  it("lists issues one per line", () => {
    const schema = z.object({ a: z.string(), b: z.number().max(3) });
    expect(validate(schema, { a: 1, b: 9 })).toEqual({
      ok: false,
      issues: "a: Invalid input: expected string, received number\nb: Too big: expected number to be <=3",
    });
  });
});

describe("the issues validate lists", () => {
  it("joins nested paths with dots, array indices included", () => {
    expect(issuesOf([{ message: "Required", path: ["user", "emails", 2, "address"] }], "zod")).toEqual({
      ok: false,
      issues: "user.emails.2.address: Required",
    });
  });

  it("reads path segments given as objects with a key (Valibot)", () => {
    expect(issuesOf([{ message: "Bad", path: [{ key: "a" }, { key: 0 }, "b"] }], "valibot")).toEqual({
      ok: false,
      issues: "a.0.b: Bad",
    });
  });

  it("gives the bare message when there is no path, or an empty one", () => {
    expect(issuesOf([{ message: "Expected an object" }, { message: "Also bad", path: [] }], "zod")).toEqual({
      ok: false,
      issues: "Expected an object\nAlso bad",
    });
  });

  it("gives the bare message for an ArkType issue on the whole object, not a path of 0", async () => {
    // ArkType's empty path is an Array subclass whose map() answers [0].
    const range = type({ from: "number", to: "number" }).narrow(
      (o, ctx) => o.from <= o.to || ctx.reject({ message: "from must not be after to" }),
    );
    expect(await validate(range, { from: 5, to: 1 })).toEqual({ ok: false, issues: "from must not be after to" });
    expect(await validate(type({ a: "string" }), "x")).toEqual({
      ok: false,
      issues: "must be an object (was a string)",
    });
  });

  it("does not say the path twice when the message already starts with it (ArkType)", () => {
    expect(issuesOf([{ message: "a.b must be at most 3 (was 9)", path: ["a", "b"] }], "arktype")).toEqual({
      ok: false,
      issues: "a.b: must be at most 3 (was 9)",
    });
    // Only a whole-word prefix is a repeated path.
    expect(issuesOf([{ message: "ab is wrong", path: ["a"] }], "arktype")).toEqual({
      ok: false,
      issues: "a: ab is wrong",
    });
  });

  it("keeps a zod or Valibot message that starts with its field's name as written: only ArkType's messages repeat the path", async () => {
    // A refine's message is the author's own sentence; the field's name is its subject, not a path to drop.
    const zod = z
      .object({ from: z.number(), to: z.number() })
      .refine((range) => range.from <= range.to, { message: "to must not be before from", path: ["to"] });
    expect(await validate(zod, { from: 5, to: 1 })).toEqual({ ok: false, issues: "to: to must not be before from" });
    const vali = toStandardJsonSchema(
      v.pipe(
        v.object({ from: v.number(), to: v.number() }),
        v.forward(
          v.check((range) => range.from <= range.to, "to must not be before from"),
          ["to"],
        ),
      ),
    );
    expect(await validate(vali, { from: 5, to: 1 })).toEqual({ ok: false, issues: "to: to must not be before from" });
    expect(await validate(type({ to: "number <= 3" }), { to: 9 })).toEqual({
      ok: false,
      issues: "to: must be at most 3 (was 9)",
    });
  });

  it("does not say a path with array indexes twice either (ArkType writes them in brackets)", async () => {
    const ark = type({ items: type({ id: "string" }).array(), filter: { tags: "string >= 2 [] " } });
    const checked = await validate(ark, { items: [{ id: "a" }, { id: 7 }], filter: { tags: ["ok", "x"] } });
    expect(checked).toEqual({
      ok: false,
      issues: "filter.tags.1: must be at least length 2 (was 1)\nitems.1.id: must be a string (was a number)",
    });
  });

  it("formats real nested issues from zod, ArkType and Valibot alike", async () => {
    const input = { user: { age: 200 } };
    const zod = z.object({ user: z.object({ age: z.number().max(150) }) });
    const ark = type({ user: { age: "number <= 150" } });
    const vali = toStandardJsonSchema(v.object({ user: v.object({ age: v.pipe(v.number(), v.maxValue(150)) }) }));
    expect(await validate(zod, input)).toEqual({ ok: false, issues: "user.age: Too big: expected number to be <=150" });
    expect(await validate(ark, input)).toEqual({ ok: false, issues: "user.age: must be at most 150 (was 200)" });
    expect(await validate(vali, input)).toEqual({
      ok: false,
      issues: "user.age: Invalid value: Expected <=150 but received 200",
    });
  });
});

describe("what is not a schema, as code moved from the official SDK or plain JavaScript passes it", () => {
  it("says an object of field schemas is to be made one schema, and what else is not one", () => {
    // Was: 'uses a unknown schema that cannot produce JSON Schema', for the official SDK's `{ city: z.string() }`.
    for (const fields of [{ city: z.string() }, { city: type("string") }]) {
      expect(() => pico({ name: "w" }).tool("t", { input: fields as never, run: () => "x" })).toThrow(
        new TypeError(
          'Tool "t" input is an object of fields, not a schema: make it one, such as z.object({ city: z.string() }).',
        ),
      );
    }
    expect(() =>
      pico({ name: "w" }).tool("t", { input: { type: "object", properties: {} } as never, run: () => "x" }),
    ).toThrow(
      new TypeError(
        'Tool "t" input is not a schema. Use a library that implements the Standard JSON Schema interface (zod 4, ArkType, or Valibot wrapped with toStandardJsonSchema from @valibot/to-json-schema).',
      ),
    );
  });
});
