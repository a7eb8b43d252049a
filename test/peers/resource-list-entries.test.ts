/**
 * What a resource template's `list` returns, as each era's official client sees resources/list over
 * Streamable HTTP. Both clients parse the result with their schema and throw on the whole of it for
 * one entry without a name, a uri that is not a string or a size that is not a number: every other
 * resource, fixed ones included, is lost with it, and they say only which zod path failed. picomcp
 * checks the entries first and answers an internal error naming the template, the entry and what it
 * needs, for the author to fix.
 */

import type { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { pico, type ResourceInfo } from "../../src/index.js";
import { servedToClients } from "./served.js";

const FIX = "return an array of { uri, name, title?, description?, mimeType?, size?, annotations?, icons? }.";

/** What the template's list returns (as plain JavaScript could), and what the error says of it. */
const RETURNED: [label: string, returned: unknown, problem: string][] = [
  [
    "an entry without a name",
    [{ uri: "notes://1", name: "one" }, { uri: "notes://2" }],
    "entry 1, which needs name: a string",
  ],
  ["a uri that is a number", [{ uri: 7, name: "seven" }], "entry 0, which needs uri: a string"],
  [
    "a size that is text",
    [{ uri: "notes://1", name: "one", size: "12 kB" }],
    "entry 0, which needs size to be a number, or left out",
  ],
  [
    "a priority past 1",
    [{ uri: "notes://1", name: "one", annotations: { priority: 5 } }],
    "entry 0, which needs annotations.priority to be a number from 0 to 1, or left out",
  ],
  ["a URI for an entry", ["notes://1"], "entry 0, which is not an object"],
  ["a string for the array", "notes://1, notes://2", "a value of type string, not an array"],
  ["nothing", undefined, "a value of type undefined, not an array"],
];

const VALID: ResourceInfo[] = [
  { uri: "notes://1", name: "one", title: "One", size: 3, annotations: { priority: 0.5 }, mimeType: "text/plain" },
];

/** What the template's list returns in the test under way. */
let returned: unknown = VALID;

const clients = servedToClients(
  pico({ name: "lists", version: "1.0.0" })
    .resource("docs://readme", { read: () => "# Readme" })
    .resource("notes://{id}", { list: () => returned as ResourceInfo[], read: () => "" }),
);

type Client = Pick<LegacyClient, "listResources">;

/** The same cases for each era's client. */
function eachClient(connect: () => Promise<Client>) {
  let client: Client;

  beforeAll(async () => {
    client = await connect();
  });

  it.each(RETURNED)(
    "gets an error naming what list returned for %s, not a list it cannot parse",
    async (_, value, problem) => {
      returned = value;
      const got = client.listResources();
      await expect(got).rejects.toMatchObject({ code: -32603 });
      await expect(got).rejects.toThrow(
        `Internal error: Resource template "notes://{id}" list returned ${problem}; ${FIX}`,
      );
    },
  );

  it("gets valid entries whole, after the fixed resources", async () => {
    returned = VALID;
    expect((await client.listResources()).resources).toEqual([
      { uri: "docs://readme", name: "docs://readme" },
      ...VALID,
    ]);
  });
}

describe("a 2025-11-25 client (official v1 SDK)", () => {
  eachClient(() => clients.legacy());
});

describe("a 2026-07-28 client (official v2 SDK)", () => {
  eachClient(() => clients.modern());
});
