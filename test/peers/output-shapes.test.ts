/**
 * A tool whose output schema is not an object, as each era's official client sees it over
 * Streamable HTTP. 2026-07-28 allows any JSON Schema and any structured value; before it, both had to
 * be objects (2025-11-25 "Output Schema"), and the v1 client refuses a whole `tools/list` answer that
 * breaks the rule. So a 2025 client gets such a tool without `outputSchema` and its results as the
 * JSON text copy alone; an object schema reaches both eras as it is. A returned row shaped like an
 * embedded resource block but without a resource object reaches both as its JSON text.
 */
import type { Client as ModernClient } from "@modelcontextprotocol/client";
import type { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { servedToClients } from "./served.js";

const server = pico({ name: "shapes", version: "1.0.0" })
  .tool("tags", {
    description: "Lists the tags of the repository.",
    output: z.array(z.string()),
    run: () => ["bug", "docs"],
  })
  .tool("count", {
    description: "Counts the open issues.",
    output: z.object({ open: z.number() }),
    run: () => ({ open: 3 }),
  })
  .tool("attachment", {
    description: "The attachment of an issue, which has none.",
    // A row, not an embedded resource block: it has no resource object (typeof null is "object").
    run: () => ({ type: "resource", resource: null }),
  });

/** What both clients get for the `attachment` row: its JSON text, never a block they refuse. */
const ATTACHMENT = { content: [{ type: "text", text: '{"type":"resource","resource":null}' }] };

const clients = servedToClients(server);

describe("a 2025-11-25 client (official v1 SDK)", () => {
  let client: LegacyClient;

  beforeAll(async () => {
    client = await clients.legacy();
  });

  it("lists every tool: the array schema left out, the object schema sent", async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.tags).not.toHaveProperty("outputSchema");
    expect(byName.tags?.description).toBe("Lists the tags of the repository.");
    expect(byName.count?.outputSchema).toMatchObject({ type: "object", properties: { open: { type: "number" } } });
  });

  it("gets the array as its JSON text copy, and the object as structuredContent with its copy", async () => {
    const tags = await client.callTool({ name: "tags", arguments: {} });
    expect(tags).toEqual({ content: [{ type: "text", text: '["bug","docs"]' }] });
    const count = await client.callTool({ name: "count", arguments: {} });
    expect(count).toEqual({ content: [{ type: "text", text: '{"open":3}' }], structuredContent: { open: 3 } });
  });

  it("gets a value shaped like a resource block without a resource as its JSON text", async () => {
    expect(await client.callTool({ name: "attachment", arguments: {} })).toEqual(ATTACHMENT);
  });
});

describe("a 2026-07-28 client (official v2 SDK)", () => {
  let client: ModernClient;

  beforeAll(async () => {
    client = await clients.modern();
  });

  it("lists the array schema as declared", async () => {
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "tags")?.outputSchema).toMatchObject({
      type: "array",
      items: { type: "string" },
    });
  });

  it("gets the array as structuredContent, with its text copy", async () => {
    const tags = await client.callTool({ name: "tags", arguments: {} });
    expect(tags.structuredContent).toEqual(["bug", "docs"]);
    expect(tags.content).toEqual([{ type: "text", text: '["bug","docs"]' }]);
  });

  it("gets a value shaped like a resource block without a resource as its JSON text", async () => {
    // The 2026-07-28 result also carries the server's info in _meta.
    expect(await client.callTool({ name: "attachment", arguments: {} })).toMatchObject(ATTACHMENT);
  });
});

describe("server.call, in-process", () => {
  it("returns the array as structuredContent, as its output type says", async () => {
    expect((await server.call("tags")).structuredContent).toEqual(["bug", "docs"]);
  });
});
