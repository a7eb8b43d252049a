/**
 * What a read that returned contents the protocol cannot carry sends, through a real server
 * (`server.fetch`, in a 2025-11-25 session): an internal error naming the item, never an item a
 * client would refuse (2025-11-25 "Reading Resources": each item has a uri, and a text or a blob).
 */
import { afterEach, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import type { ResourceReturn } from "../src/resources/resources.js";
import { harness } from "../src/testing.js";

const servers: ReturnType<typeof pico>[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** What reading x://item answers when its `read` returns `value`, as plain JavaScript could. */
async function readReturning(value: unknown) {
  const server = pico({ name: "contents", version: "1" }).resource("x://item", {
    read: () => value as ResourceReturn,
  });
  servers.push(server);
  return harness(server).request("resources/read", { uri: "x://item" });
}

describe("resources/read of contents a client would refuse", () => {
  it.each([
    ["text undefined", { uri: "x://item", text: undefined }, 0],
    ["no uri", { text: "hi" }, 0],
    [
      "a text that is not a string",
      [
        { uri: "x://item", text: "ok" },
        { uri: "x://item", text: 5 },
      ],
      1,
    ],
    ["a blob that is not a string", { uri: "x://item", blob: { 0: 1 } }, 0],
  ])("answers -32603 naming the item for an item with %s", async (_label, value, index) => {
    const { result, error } = await readReturning(value);
    expect(result).toBeUndefined();
    expect(error).toEqual({
      code: -32603,
      message: `Internal error: Resource "x://item" read returned contents item ${index} without a string uri and a string text or blob; return a string, bytes, or { uri, text | blob } items.`,
    });
  });

  it("sends items with a uri and a text or blob string as they are", async () => {
    const { result } = await readReturning([
      { uri: "x://item", text: "" },
      { uri: "x://item/b", blob: "AAE=" },
    ]);
    expect(result?.contents).toEqual([
      { uri: "x://item", text: "" },
      { uri: "x://item/b", blob: "AAE=" },
    ]);
  });
});
