/**
 * Progress values JSON cannot carry, from a tool author who passes what a computation gave them
 * (`done / 0`, `NaN` from an empty total), as each era's official client receives them over
 * Streamable HTTP. 2025-11-25 "Progress": progress and total are numbers, and progress MUST increase.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { servedToClients } from "./served.js";

const clients = servedToClients(
  pico({ name: "progress", version: "1.0.0" }).tool("steps", {
    description: "Reports progress with some values JSON cannot carry, then answers.",
    run: (_args, ctx) => {
      ctx.progress(1, 10, "one");
      // JSON writes Infinity and NaN as null, which no client reads as a number.
      ctx.progress(Number.POSITIVE_INFINITY, 10, "infinite");
      ctx.progress(Number.NaN, 10, "not a number");
      ctx.progress(2, Number.NaN, "two");
      ctx.progress(3, Number.POSITIVE_INFINITY, "three");
      ctx.progress(4, 10, "four");
      return "done";
    },
  }),
);

interface Update {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

interface Client {
  callTool(
    params: { name: string; arguments: Record<string, unknown> },
    schema: undefined,
    options: { onprogress: (update: Update) => void },
  ): Promise<unknown>;
}

function eachClient(connect: () => Promise<Client>) {
  let client: Client;

  beforeAll(async () => {
    client = await connect();
  });

  it("sends only finite progress values, leaves out a total that is not finite, and keeps on increasing", async () => {
    const seen: Update[] = [];
    await client.callTool({ name: "steps", arguments: {} }, undefined, { onprogress: (update) => seen.push(update) });
    // Was: the infinite progress went out as null (the client dropped it as malformed) and every later report,
    // not larger than Infinity, was dropped by the server: the client saw only the first.
    expect(seen).toEqual([
      { progress: 1, total: 10, message: "one" },
      { progress: 2, message: "two" },
      { progress: 3, message: "three" },
      { progress: 4, total: 10, message: "four" },
    ]);
  });
}

describe("the official v1 client (2025-11-25)", () => {
  eachClient(async () => {
    const client = await clients.legacy();
    return {
      callTool: (params, _schema, options) => client.callTool(params, undefined, options),
    };
  });
});

describe("the official v2 client (2026-07-28)", () => {
  eachClient(async () => {
    const client = await clients.modern();
    return { callTool: (params, _schema, options) => client.callTool(params, options) };
  });
});
