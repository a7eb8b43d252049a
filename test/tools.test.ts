import { describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../src/index.js";

describe("tool registration", () => {
  it("rejects invalid names with the rule they break", () => {
    const server = pico({ name: "t", version: "1" });
    const run = () => "";
    expect(() => server.tool("", { run })).toThrow(/non-empty string/);
    expect(() => server.tool("a".repeat(129), { run })).toThrow(/129 characters long; the limit is 128/);
    expect(() => server.tool("search issues", { run })).toThrow(/contains " "; use only letters, digits/);
    server.tool("a".repeat(128), { run });
    server.tool("ok.name-1_x", { run });
    expect(() => server.tool("ok.name-1_x", { run })).toThrow(/already registered/);
  });

  it("validates arguments in the seed's form and never calls run on failure", async () => {
    let calls = 0;
    const server = pico({ name: "t", version: "1" }).tool("search_issues", {
      input: z.object({ repo: z.string(), query: z.string(), limit: z.number().int().max(50).default(10) }),
      run: ({ limit }) => {
        calls++;
        return `limit=${limit}`;
      },
    });
    const bad = await server.call("search_issues", { repo: "a/b", query: "q", limit: 99 });
    expect(bad).toEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments for tool "search_issues":\nlimit: Too big: expected number to be <=50',
        },
      ],
      isError: true,
    });
    expect(calls).toBe(0);
    const good = await server.call("search_issues", { repo: "a/b", query: "q" });
    expect(good).toEqual({ content: [{ type: "text", text: "limit=10" }] });
    expect(calls).toBe(1);
  });
});
