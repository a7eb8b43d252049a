import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { assistant, type Context, image, type PromptMessage, pico, user } from "../src/index.js";

const server = pico({ name: "t", version: "1" });

describe("get's arguments are the input schema's output", () => {
  it("with zod 4: optional and defaulted arguments, transforms applied", () => {
    server.prompt("code_review", {
      input: z.object({
        language: z.string(),
        focus: z.string().optional(),
        strict: z
          .string()
          .default("no")
          .transform((value) => value === "yes"),
      }),
      get: (args, ctx) => {
        expectTypeOf(args).toEqualTypeOf<{ language: string; focus?: string | undefined; strict: boolean }>();
        expectTypeOf(ctx).toEqualTypeOf<Context>();
        return "";
      },
    });
  });

  it("with ArkType and Valibot", () => {
    server.prompt("ark", {
      input: type({ topic: "string", "tone?": "string" }),
      get: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ topic: string; tone?: string }>();
        return "";
      },
    });
    server.prompt("vali", {
      input: toStandardJsonSchema(v.object({ topic: v.string() })),
      get: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ topic: string }>();
        return "";
      },
    });
  });

  it("makes an unknown argument a type error", () => {
    server.prompt("summary", {
      input: z.object({ topic: z.string() }),
      // @ts-expect-error: the argument is topic, not subject
      get: ({ subject }) => subject,
    });
  });

  it("gives a prompt without input no arguments", () => {
    server.prompt("hello", {
      get: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, never>>();
        return "Hello";
      },
    });
  });
});

describe("complete", () => {
  it("is limited to the prompt's arguments", () => {
    server.prompt("review", {
      input: z.object({ language: z.string(), code: z.string() }),
      complete: {
        language: (value, { arguments: resolved, ctx }) => {
          expectTypeOf(value).toEqualTypeOf<string>();
          expectTypeOf(resolved).toEqualTypeOf<Record<string, string>>();
          expectTypeOf(ctx).toEqualTypeOf<Context>();
          return ["TypeScript"];
        },
      },
      get: () => "",
    });
    server.prompt("review_v2", {
      input: z.object({ language: z.string(), code: z.string() }),
      complete: {
        // @ts-expect-error: not an argument of the prompt
        lang: () => [],
      },
      get: () => "",
    });
  });
});

describe("what get returns", () => {
  it("accepts text, blocks, messages from the helpers, and a full result", () => {
    expectTypeOf(user("Hi")).toEqualTypeOf<PromptMessage>();
    expectTypeOf(assistant(image("AA==", "image/png"))).toEqualTypeOf<PromptMessage>();
    server
      .prompt("a", { get: () => "text" })
      .prompt("b", { get: () => image("AA==", "image/png") })
      .prompt("c", { get: async () => [user("Hi"), assistant("Hello"), "more text"] })
      .prompt("d", { get: () => ({ description: "d", messages: [user("Hi")] }) });
    server.prompt("e", {
      // @ts-expect-error: a number is not a prompt
      get: () => 42,
    });
    server.prompt("f", {
      // @ts-expect-error: roles are user and assistant
      get: () => ({ messages: [{ role: "system", content: { type: "text", text: "x" } }] }),
    });
  });
});
