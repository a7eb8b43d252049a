/**
 * Content blocks a tool returns malformed, as each era's official client sees them over Streamable
 * HTTP. Both clients parse a result with their schema (2025-11-25 ContentBlock) and throw on the
 * whole of it when one block is wrong, so the model would get nothing: picomcp checks the blocks
 * first and answers a tool error that names the block and what it needs. Blocks as the schema has
 * them, the strict parts included (base64 with line breaks, a lastModified, icons), reach both whole.
 */
import type { Client as ModernClient } from "@modelcontextprotocol/client";
import type { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { embed, image, link, pico, text } from "../../src/index.js";
import { servedToClients } from "./served.js";

/** What each tool returns, and the error its call answers. */
const MALFORMED: [name: string, returned: unknown, problem: string][] = [
  [
    "uri_number",
    { type: "resource", resource: { uri: 5, text: "a" } },
    "content[0] (resource) needs resource.uri: a string",
  ],
  [
    "no_contents",
    [text("The file:"), { type: "resource", resource: { uri: "file:///a.txt" } }],
    "content[1] (resource) needs resource.text: a string (or resource.blob: a base64 string)",
  ],
  [
    "data_number",
    [text("The chart:"), { type: "image", data: 42, mimeType: "image/png" }],
    "content[1] (image) needs data: a base64 string",
  ],
  ["no_text", [text("a"), { type: "text" }], "content[1] (text) needs text: a string"],
  // A file's text where its bytes belong: image() takes a string as already base64.
  ["not_base64", image("<svg></svg>", "image/svg+xml"), "content[0] (image) needs data: a base64 string"],
  [
    "bad_priority",
    text("a", { annotations: { priority: 2 } }),
    "content[0] (text) needs annotations.priority to be a number from 0 to 1, or left out",
  ],
  [
    "date_only",
    link("file:///q3.csv", "q3.csv", { annotations: { lastModified: "2026-01-12" } }),
    "content[0] (resource_link) needs annotations.lastModified to be an ISO 8601 date-time with seconds and an offset, such as 2025-01-12T15:00:58Z, or left out",
  ],
];

/** Blocks with each optional part the schema has, in the forms the v1 client is strictest about. */
const VALID = [
  text("Q3", { annotations: { audience: ["user", "assistant"], priority: 0.5 }, _meta: { "com.example/id": 1 } }),
  // Base64 wrapped at 76 columns, as MIME and `openssl base64` write it, and without padding.
  image("iVBORw0K\nGgo=", "image/png"),
  { type: "audio", data: "UklGRg", mimeType: "audio/wav" },
  link("file:///q3.csv", "q3.csv", {
    title: "Q3",
    size: 1024,
    icons: [{ src: "https://example.com/csv.png", sizes: ["48x48"], theme: "dark" }],
    annotations: { lastModified: "2026-01-12T15:00:58.123+01:00" },
  }),
  embed("file:///a.bin", new Uint8Array([1, 2, 3]), { mimeType: "application/octet-stream" }),
];

const server = pico({ name: "blocks", version: "1.0.0" }).tool("valid", { run: () => VALID });
for (const [name, returned] of MALFORMED) server.tool(name, { run: () => returned });

const clients = servedToClients(server);

function toolError(name: string, problem: string) {
  return {
    content: [{ type: "text", text: `Tool "${name}" returned a content block that is not valid: ${problem}` }],
    isError: true,
  };
}

describe("a 2025-11-25 client (official v1 SDK)", () => {
  let client: LegacyClient;

  beforeAll(async () => {
    client = await clients.legacy();
  });

  it.each(MALFORMED)(
    "gets a tool error naming the block for %s, not a result it cannot parse",
    async (name, _, problem) => {
      expect(await client.callTool({ name, arguments: {} })).toEqual(toolError(name, problem));
    },
  );

  it("gets valid blocks whole", async () => {
    expect(await client.callTool({ name: "valid", arguments: {} })).toEqual({ content: VALID });
  });
});

describe("a 2026-07-28 client (official v2 SDK)", () => {
  let client: ModernClient;

  beforeAll(async () => {
    client = await clients.modern();
  });

  it.each(MALFORMED)(
    "gets a tool error naming the block for %s, not a result it cannot parse",
    async (name, _, problem) => {
      // The 2026-07-28 result also carries the server's info in _meta.
      expect(await client.callTool({ name, arguments: {} })).toMatchObject(toolError(name, problem));
    },
  );

  it("gets valid blocks whole", async () => {
    expect((await client.callTool({ name: "valid", arguments: {} })).content).toEqual(VALID);
  });
});
