/**
 * A client whose roots/list answer has entries of the wrong shape, as each era's official client
 * sends it over Streamable HTTP (neither checks what its handler returns). 2025-11-25 "Roots": each
 * root is an object with a `uri` string and an optional `name` string; `ctx.roots()` is typed so.
 */
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { servedToClients } from "./served.js";

const server = pico({ name: "roots", version: "1.0.0" }).tool("workspace", {
  description: "Lists the client's roots",
  run: async (_args, ctx) => (await ctx.roots()).map((root) => `${root.name ?? "?"}=${root.uri.slice(7)}`).join(", "),
});

/** What the client answers roots/list with; each test sets it. */
let answer: unknown;
const clients = servedToClients(server);

const BAD_ROOTS: [string, unknown[]][] = [
  ["a root that is null", [{ uri: "file:///a" }, null]],
  ["a root that is a string", ["file:///a"]],
  ["a root whose uri is a number", [{ uri: 5 }]],
  ["a root without a uri", [{ name: "a" }]],
  ["a root whose name is not a string", [{ uri: "file:///a", name: { first: "a" } }]],
];

type Call = () => Promise<{ text: string | undefined; isError: boolean }>;

function eachClient(connect: () => Promise<Call>) {
  let call: Call;

  beforeAll(async () => {
    call = await connect();
  });

  it("passes on roots of the right shape", async () => {
    answer = { roots: [{ uri: "file:///a", name: "a" }, { uri: "file:///b" }] };
    expect(await call()).toEqual({ text: "a=/a, ?=/b", isError: false });
  });

  it.each(BAD_ROOTS)(
    "refuses %s, naming it, instead of handing the handler what its type says cannot be",
    async (_name, roots) => {
      answer = { roots };
      // Was: the handler got the entries as they came, typed Root[]: it failed on null.uri, or went on with a number.
      const result = await call();
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/The answer to roots\/list "roots-1" is not a ListRootsResult .*: root \d is not/);
    },
  );
}

describe("the official v1 client (2025-11-25 session)", () => {
  eachClient(async () => {
    const client = await clients.legacy({ capabilities: { roots: {} } }, (client) =>
      client.setRequestHandler(ListRootsRequestSchema, () => answer as never),
    );
    return async () => {
      const result = await client.callTool({ name: "workspace", arguments: {} });
      return { text: (result.content as { text: string }[])[0]?.text, isError: result.isError === true };
    };
  });
});

describe("the official v2 client (2026-07-28)", () => {
  eachClient(async () => {
    const client = await clients.modern({ capabilities: { roots: {} } }, (client) =>
      client.setRequestHandler("roots/list", () => answer as never),
    );
    return async () => {
      try {
        const result = await client.callTool({ name: "workspace", arguments: {} });
        return { text: (result.content as { text: string }[])[0]?.text, isError: result.isError === true };
      } catch (thrown) {
        // 2026-07-28: an answer of the wrong shape is -32602 on the retried request.
        return { text: (thrown as Error).message, isError: true };
      }
    };
  });
});
