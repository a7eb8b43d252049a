/**
 * Type tests for asking the client: `ctx.elicit` types the accepted content from the schema (zod,
 * ArkType, Valibot), a raw JSON Schema gives a plain record, and the other questions have the
 * result types of their answers.
 */
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  type CreateMessageResult,
  type ElicitResult,
  type InputRequest,
  pico,
  type Root,
  type SamplingRequest,
} from "../src/index.js";

const server = pico({ name: "t", version: "1" });

describe("ctx.elicit", () => {
  it("types accepted content as the zod schema's output (defaults applied)", () => {
    server.tool("zod", {
      run: async (_args, ctx) => {
        const answer = await ctx.elicit(
          "Settings?",
          z.object({ name: z.string(), retries: z.number().int().default(3), tag: z.string().optional() }),
        );
        expectTypeOf(answer).toEqualTypeOf<ElicitResult<{ name: string; retries: number; tag?: string | undefined }>>();
        if (answer.action === "accept") {
          expectTypeOf(answer.content.retries).toEqualTypeOf<number>();
          // @ts-expect-error: no such field in the schema
          answer.content.missing;
        } else {
          expectTypeOf(answer.action).toEqualTypeOf<"decline" | "cancel">();
          // @ts-expect-error: declined and cancelled answers carry no content
          answer.content;
        }
        return "ok";
      },
    });
  });

  it("with ArkType and Valibot", () => {
    server.tool("others", {
      run: async (_args, ctx) => {
        const ark = await ctx.elicit("Ark?", type({ city: "string", "zip?": "number" }));
        if (ark.action === "accept") expectTypeOf(ark.content).toEqualTypeOf<{ city: string; zip?: number }>();
        const valibot = await ctx.elicit("Valibot?", toStandardJsonSchema(v.object({ agree: v.boolean() })));
        if (valibot.action === "accept") expectTypeOf(valibot.content).toEqualTypeOf<{ agree: boolean }>();
        return "ok";
      },
    });
  });

  it("a raw JSON Schema gives a record of unknown values", () => {
    server.tool("raw", {
      run: async (_args, ctx) => {
        const answer = await ctx.elicit("Pick", { type: "object", properties: { a: { type: "string" } } });
        expectTypeOf(answer).toEqualTypeOf<ElicitResult<Record<string, unknown>>>();
        return "ok";
      },
    });
  });

  it("takes a key, and nothing else", () => {
    server.tool("key", {
      run: async (_args, ctx) => {
        await ctx.elicit("Name?", z.object({ name: z.string() }), { key: "name" });
        // @ts-expect-error: keys are strings
        await ctx.elicit("Name?", z.object({ name: z.string() }), { key: 1 });
        return "ok";
      },
    });
  });
});

describe("the other questions", () => {
  it("confirm is a boolean; elicitUrl an action; sample a CreateMessageResult; roots a list of roots", () => {
    server.tool("rest", {
      run: async (_args, ctx) => {
        expectTypeOf(await ctx.confirm("Sure?")).toEqualTypeOf<boolean>();
        expectTypeOf(await ctx.elicitUrl("Sign in", "https://a.example", { elicitationId: "x" })).toEqualTypeOf<{
          action: "accept" | "decline" | "cancel";
        }>();
        expectTypeOf(await ctx.sample("Hi")).toEqualTypeOf<CreateMessageResult>();
        const request: SamplingRequest = {
          messages: [{ role: "user", content: { type: "text", text: "x" } }],
          maxTokens: 5,
        };
        expectTypeOf(await ctx.sample(request, { key: "s" })).toEqualTypeOf<CreateMessageResult>();
        // @ts-expect-error: maxTokens is required
        await ctx.sample({ messages: [] });
        expectTypeOf(await ctx.roots()).toEqualTypeOf<Root[]>();
        return "ok";
      },
    });
  });

  it("a sampled message's content narrows by type: text, image, audio, tool use", () => {
    server.tool("summarise", {
      run: async (_args, ctx) => {
        const { content } = await ctx.sample("Summarise this");
        const blocks = Array.isArray(content) ? content : [content];
        for (const block of blocks) {
          if (block.type === "text") expectTypeOf(block.text).toEqualTypeOf<string>();
          if (block.type === "image") expectTypeOf(block.mimeType).toEqualTypeOf<string>();
          if (block.type === "tool_use") expectTypeOf(block.input).toEqualTypeOf<Record<string, unknown>>();
          // @ts-expect-error: a content kind sampling does not have
          if (block.type === "resource_link") return "never";
        }
        return blocks.map((block) => (block.type === "text" ? block.text : "")).join("");
      },
    });
  });

  it("prompts and resources ask with the same context", () => {
    server
      .prompt("p", { get: async (_args, ctx) => ((await ctx.confirm("Ok?")) ? "yes" : "no") })
      .resource("r://x", { read: async (_args, ctx) => (await ctx.roots()).map((root) => root.uri).join() });
  });

  it("server.call's onInput receives the question and answers anything", () => {
    const typed = pico({ name: "t", version: "1" }).tool("ask", {
      run: async (_args, ctx) => String(await ctx.confirm("Ok?")),
    });
    void typed.call("ask", undefined, {
      onInput: (request) => {
        expectTypeOf(request).toEqualTypeOf<InputRequest>();
        expectTypeOf(request.method).toEqualTypeOf<"elicitation/create" | "sampling/createMessage" | "roots/list">();
        return { action: "accept", content: { confirm: true } };
      },
    });
  });
});
