/**
 * What a completer returns, and what a client asks to complete, as each era's official client sees
 * completion/complete over Streamable HTTP. A completer's values are strings (2025-11-25
 * "CompleteResult"): one that returns something else is a bug in it, answered with an internal
 * error that names the completer and what it returned, never "suggested.filter is not a function".
 */

import type { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { servedToClients } from "./served.js";

const FIX = "return an array of strings, the values to suggest.";

/** What the completer returns (as plain JavaScript could), and what the error says of it. */
const RETURNED: [label: string, returned: unknown, problem: string][] = [
  ["a string", "Go, Java", "a value of type string, not an array"],
  ["nothing", undefined, "a value of type undefined, not an array"],
  ["null", null, "null, not an array"],
  ["an array with a number", ["1", 2], "value 1, of type number, where a string belongs"],
  ["an array with null", [null], "value 0, null, where a string belongs"],
];

/** What the completers return in the test under way. */
let returned: unknown = [];
/** A million values starting with "v". */
const MANY = Array.from({ length: 1_000_000 }, (_, index) => `v${index}`);

const clients = servedToClients(
  pico({ name: "completions", version: "1.0.0" })
    .prompt("review", {
      input: z.object({ language: z.string() }),
      complete: { language: async () => returned as string[] },
      get: ({ language }) => `Review this ${language} code.`,
    })
    .resource("repos://{owner}", {
      complete: { owner: () => returned as string[] },
      read: ({ owner }) => owner,
    }),
);

type Client = Pick<LegacyClient, "complete">;

/** The same cases for each era's client. */
function eachClient(connect: () => Promise<Client>) {
  let client: Client;

  beforeAll(async () => {
    client = await connect();
  });

  it.each(RETURNED)("gets an error naming the completer when it returns %s", async (_, value, problem) => {
    returned = value;
    const prompt = client.complete({
      ref: { type: "ref/prompt", name: "review" },
      argument: { name: "language", value: "" },
    });
    await expect(prompt).rejects.toMatchObject({ code: -32603 });
    await expect(prompt).rejects.toThrow(
      `Internal error: The completer of "language" in prompt "review" returned ${problem}; ${FIX}`,
    );
    const template = client.complete({
      ref: { type: "ref/resource", uri: "repos://{owner}" },
      argument: { name: "owner", value: "" },
    });
    await expect(template).rejects.toThrow(
      `Internal error: The completer of "owner" in resource template repos://{owner} returned ${problem}; ${FIX}`,
    );
  });

  it("gets 100 of a million values, with their total and hasMore", async () => {
    returned = MANY;
    const { completion } = await client.complete({
      ref: { type: "ref/resource", uri: "repos://{owner}" },
      argument: { name: "owner", value: "V" },
    });
    expect(completion).toEqual({ values: MANY.slice(0, 100), total: 1_000_000, hasMore: true });
  });
}

describe("a 2025-11-25 client (official v1 SDK)", () => {
  eachClient(() => clients.legacy());
});

describe("a 2026-07-28 client (official v2 SDK)", () => {
  eachClient(() => clients.modern());
});
