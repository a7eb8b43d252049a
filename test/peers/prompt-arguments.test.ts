/**
 * prompts/get's arguments are strings (2025-11-25 and 2026-07-28 `GetPromptRequest`: `arguments`
 * is `{ [key: string]: string }`). Other values were refused -32602 only on a server with
 * middleware (middleware/params.ts); without it a prompt's schema answered its own words for one
 * (`n: Invalid input: expected string, received number`), the prompts layer other words for
 * arguments that were no object, and a prompt without a schema, or a value its schema does not
 * name, was served. Now the prompts layer refuses them itself, with the words used before
 * middleware, so the answer is the same with or without it: the official v1 client (2025-11-25)
 * and v2 client (2026-07-28) over Streamable HTTP on 127.0.0.1.
 */
import { ProtocolError } from "@modelcontextprotocol/client";
import { McpError as V1Error } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ErrorCode, pico } from "../../src/index.js";
import { ANY } from "./internal-errors.js";
import { servedToClients } from "./served.js";

function promptServer() {
  return pico({ name: "prompt-arguments", version: "1.0.0" })
    .prompt("count", { input: z.object({ n: z.string() }), get: ({ n }) => `count to ${n}` })
    .prompt("free", { get: () => "free" });
}

const SERVERS = {
  "without middleware": servedToClients(promptServer()),
  "with middleware": servedToClients(promptServer().use((_call, next) => next())),
};

const REFUSED: [name: string, args: unknown][] = [
  ["count", { n: 5 }],
  ["count", "x"],
  ["count", [1]],
  ["count", { n: "3", extra: 5 }],
  ["free", { n: 5 }],
];

const MESSAGE = "Invalid params: prompts/get needs params.arguments to be an object of strings, or left out";

describe.each(Object.entries(SERVERS))("prompts/get with argument values that are not strings, %s", (_, clients) => {
  it("is answered -32602 saying what the arguments must be, in both eras", async () => {
    const legacy = await clients.legacy();
    const modern = await clients.modern();
    for (const [name, args] of REFUSED) {
      const params = { name, arguments: args };
      const v1 = await legacy.request({ method: "prompts/get", params }, ANY).catch((error: unknown) => error);
      expect(v1).toBeInstanceOf(V1Error);
      expect(v1).toMatchObject({ code: ErrorCode.InvalidParams, message: `MCP error -32602: ${MESSAGE}` });
      const v2 = await modern.request({ method: "prompts/get", params }, ANY).catch((error: unknown) => error);
      expect(v2).toBeInstanceOf(ProtocolError);
      expect(v2).toMatchObject({ code: ErrorCode.InvalidParams, message: MESSAGE });
    }
  });

  it("serves string arguments, and none (null is none)", async () => {
    const legacy = await clients.legacy();
    const text = (result: { messages: { content: unknown }[] }) => result.messages[0]?.content;
    expect(text(await legacy.getPrompt({ name: "count", arguments: { n: "3" } }))).toEqual({
      type: "text",
      text: "count to 3",
    });
    const modern = await clients.modern();
    expect(text(await modern.getPrompt({ name: "free" }))).toEqual({ type: "text", text: "free" });
    const none = await legacy.request({ method: "prompts/get", params: { name: "free", arguments: null } }, ANY);
    expect(none).toMatchObject({ messages: [{ role: "user", content: { type: "text", text: "free" } }] });
  });
});
