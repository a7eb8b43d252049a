/**
 * Which arrays an elicitation form may hold (2025-11-25 "Elicitation": requestedSchema's
 * properties are primitives, and arrays only as multi-select enums), through `server.call`.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Context, pico } from "../src/index.js";

/** What the client is asked, and what the tool answers, when it runs `elicit`. */
async function ask(elicit: (ctx: Context) => Promise<{ action: string }>) {
  const asked: unknown[] = [];
  const server = pico({ name: "forms", version: "1" }).tool("form", {
    run: async (_args, ctx) => (await elicit(ctx)).action,
  });
  const result = await server.call(
    "form",
    {},
    {
      onInput: (question) => {
        asked.push(question.params);
        return { action: "decline" };
      },
    },
  );
  await server.close();
  return { asked, result };
}

describe("ctx.elicit with arrays", () => {
  it("asks a multi-select enum, untitled (items with an enum) or titled (items with an anyOf of { const, title })", async () => {
    const titled = {
      type: "object",
      properties: {
        colours: {
          type: "array",
          items: {
            anyOf: [
              { const: "r", title: "Red" },
              { const: "g", title: "Green" },
            ],
          },
        },
      },
    };
    const untitled = z.object({ tags: z.array(z.enum(["a", "b"])) });
    for (const elicit of [
      (ctx: Context) => ctx.elicit("Tags?", untitled),
      (ctx: Context) => ctx.elicit("Colours?", titled),
    ]) {
      const { asked, result } = await ask(elicit);
      expect(result).toMatchObject({ content: [{ type: "text", text: "decline" }] });
      expect(asked).toHaveLength(1);
    }
  });

  it("refuses an array of objects at the question, naming the field and the arrays a form may hold", async () => {
    const people = z.object({ people: z.array(z.object({ name: z.string(), age: z.number() })) });
    const { asked, result } = await ask((ctx) => ctx.elicit("Contacts?", people));
    expect(asked).toEqual([]);
    expect(result).toMatchObject({
      isError: true,
      content: [
        {
          type: "text",
          text: 'An elicitation form must be a flat object of simple values, but property "people" is not a string, number, integer, boolean, enum or multi-select array (an array whose items have an enum, or an anyOf of { const, title }).',
        },
      ],
    });
  });
});
