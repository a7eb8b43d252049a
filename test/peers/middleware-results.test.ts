/**
 * Results a middleware keeps and answers with again (a cache) or freezes, as each era's official
 * client sees them over Streamable HTTP on 127.0.0.1. What 2026-07-28 adds to a result (`resultType`,
 * cache hints, the `serverInfo` in `_meta`: §1.3, §3.1, §7) goes on the response, never on the
 * middleware's object: a 2025-11-25 client answered from the same cache later gets the result
 * exactly as it was, and a frozen result is answered in both eras.
 */
import { describe, expect, it } from "vitest";
import { type CallToolResult, pico, type ResultOf, text } from "../../src/index.js";
import { servedToClients } from "./served.js";

/** Frozen to the bottom, as a module-level constant result may be. */
function frozen<T extends object>(value: T): T {
  for (const inner of Object.values(value)) if (typeof inner === "object" && inner !== null) frozen(inner);
  return Object.freeze(value);
}

const MAINTENANCE: CallToolResult = frozen({ content: [text("Down for maintenance.")] });

let cachedList: ResultOf<"tools/list"> | undefined;

const server = pico({ name: "cached", version: "1.0.0" })
  .tool("weather", { description: "Today's weather.", run: () => "sunny" })
  .tool("deploy", { description: "Deploys the site.", run: () => "deployed" })
  // The list is the same for every client: the first answer is kept and answered with from then on.
  .use("tools/list", async (_, next) => {
    cachedList ??= await next();
    return cachedList;
  })
  .use({ tool: "deploy" }, () => MAINTENANCE);

const clients = servedToClients(server);

describe("a result a middleware answers with again, or froze", () => {
  it("reaches a 2025-11-25 client as it was, after a 2026-07-28 client was answered with it", async () => {
    const modern = await clients.modern();
    const legacy = await clients.legacy();
    const first = await modern.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(["weather", "deploy"]);
    const second = await legacy.listTools();
    expect(second.tools.map((tool) => tool.name)).toEqual(["weather", "deploy"]);
    // None of 2026-07-28's fields: the v1 client keeps what the server sent.
    expect(second).not.toHaveProperty("resultType");
    expect(second).not.toHaveProperty("ttlMs");
    expect(second).not.toHaveProperty("cacheScope");
    expect(second).not.toHaveProperty("_meta");
    expect(cachedList).toEqual({ tools: second.tools });
  });

  it("is answered when frozen, to a 2026-07-28 and a 2025-11-25 client", async () => {
    const expected = { content: [{ type: "text", text: "Down for maintenance." }] };
    expect(await (await clients.modern()).callTool({ name: "deploy", arguments: {} })).toMatchObject(expected);
    expect(await (await clients.legacy()).callTool({ name: "deploy", arguments: {} })).toEqual(expected);
  });
});
