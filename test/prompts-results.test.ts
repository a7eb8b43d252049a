/**
 * What a prompt whose `get` returned messages the protocol cannot carry sends, through a real server
 * (`server.fetch`, in a 2025-11-25 session): an internal error that says what is wrong, never a
 * message a client would refuse (2025-11-25 "PromptMessage": role user or assistant, a content block).
 */
import { afterEach, describe, expect, it } from "vitest";
import { assistant, pico, user } from "../src/index.js";
import type { PromptReturn } from "../src/prompts/prompts.js";
import { harness } from "../src/testing.js";

const servers: ReturnType<typeof pico>[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** What getting the prompt "p" answers when its `get` returns `value`, as plain JavaScript could. */
async function getReturning(value: unknown) {
  const server = pico({ name: "prompts", version: "1" }).prompt("p", { get: async () => value as PromptReturn });
  servers.push(server);
  return harness(server).request("prompts/get", { name: "p" });
}

const RETURN = "return text, a content block, messages made with user() or assistant(), or { description?, messages }.";

describe("prompts/get of messages a client would refuse", () => {
  it("answers -32603 for a get that returned nothing", async () => {
    const { result, error } = await getReturning(undefined);
    expect(result).toBeUndefined();
    expect(error).toEqual({ code: -32603, message: `Internal error: Prompt "p" get returned nothing; ${RETURN}` });
  });

  it.each([
    ["a system message", [{ role: "system", content: { type: "text", text: "hi" } }], 0],
    ["text content that is not a block", [user("ok"), { role: "user", content: "hi" }], 1],
    ["a null in the list", ["ok", null], 1],
    ["a bad message in a full result", { description: "d", messages: [assistant("ok"), { role: "user" }] }, 1],
  ])("answers -32603 naming the message for %s", async (_label, value, index) => {
    const { result, error } = await getReturning(value);
    expect(result).toBeUndefined();
    expect(error).toEqual({
      code: -32603,
      message: `Internal error: Prompt "p" get returned message ${index}, which is not { role: "user" | "assistant", content: a content block }; ${RETURN}`,
    });
  });

  it("sends user and assistant messages, and a full result's description", async () => {
    const { result } = await getReturning({ description: "d", messages: [user("hi"), assistant("hello")] });
    expect(result).toMatchObject({ description: "d", messages: [user("hi"), assistant("hello")] });
  });
});
