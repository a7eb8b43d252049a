/**
 * Prompt messages and resource contents with a field the 2025-11-25 schema refuses (image data not
 * base64, a priority past 1, an embedded resource without text or blob, a blob not base64), as each
 * era's official client sees them over Streamable HTTP. Both clients parse a prompts/get or
 * resources/read result with their schema and throw on the whole of it, saying only which zod path
 * failed; picomcp checks the fields first and answers an internal error that names the prompt's
 * message or the resource's item and what it needs, for the author to fix.
 */

import type { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { assistant, embed, image, pico, text, user } from "../../src/index.js";
import type { PromptReturn } from "../../src/prompts/prompts.js";
import type { ResourceReturn } from "../../src/resources/resources.js";
import { servedToClients } from "./served.js";

const RETURN_MESSAGES =
  "return text, a content block, messages made with user() or assistant(), or { description?, messages }.";
const RETURN_CONTENTS = "return a string, bytes (picomcp encodes them in base64), or { uri, text | blob } items.";

/** What each prompt's get returns, and the message its prompts/get answers. */
const PROMPTS: [name: string, returned: unknown, problem: string][] = [
  // A file's text where its bytes belong: image() takes a string as already base64.
  [
    "svg_text",
    user(image("<svg></svg>", "image/svg+xml")),
    "message 0, whose content (image) needs data: a base64 string",
  ],
  [
    "bad_priority",
    [user("Summarise."), assistant(text("Done.", { annotations: { priority: 2 } }))],
    "message 1, whose content (text) needs annotations.priority to be a number from 0 to 1, or left out",
  ],
  [
    "blob_not_base64",
    user({ type: "resource", resource: { uri: "file:///a.bin", blob: "bytes: 1, 2, 3" } }),
    "message 0, whose content (resource) needs resource.blob to be a base64 string, or left out",
  ],
  [
    "no_contents",
    // As plain JavaScript could: the type of user() asks for the text or blob the schema needs.
    {
      description: "d",
      messages: [{ role: "user", content: { type: "resource", resource: { uri: "file:///a.txt" } } }],
    },
    "message 0, whose content (resource) needs resource.text: a string (or resource.blob: a base64 string)",
  ],
];

/** What each resource's read returns, and the message its resources/read answers. */
const RESOURCES: [uri: string, returned: unknown, problem: string][] = [
  [
    "x://blob_not_base64",
    { uri: "x://blob_not_base64", blob: "<svg></svg>" },
    "needs blob to be a base64 string, or left out",
  ],
  [
    "x://mime_number",
    [
      { uri: "x://mime_number", text: "ok" },
      { uri: "x://mime_number/b", text: "b", mimeType: 42 },
    ],
    "needs mimeType to be a string, or left out",
  ],
];
const RESOURCE_ITEM: Record<string, number> = { "x://blob_not_base64": 0, "x://mime_number": 1 };

/** Messages and contents as the schema has them, base64 wrapped and unpadded included. */
const VALID_MESSAGES = [
  user(image("iVBORw0K\nGgo=", "image/png", { annotations: { priority: 1, audience: ["user"] } })),
  assistant(embed("file:///a.bin", new Uint8Array([1, 2, 3]), { mimeType: "application/octet-stream" })),
];
const VALID_CONTENTS = [
  { uri: "x://valid", text: "" },
  { uri: "x://valid/b", blob: "UklGRg", mimeType: "audio/wav", _meta: { "com.example/id": 1 } },
];

const server = pico({ name: "contents", version: "1.0.0" })
  .prompt("valid", { get: () => VALID_MESSAGES })
  .resource("x://valid", { read: () => VALID_CONTENTS });
for (const [name, returned] of PROMPTS) server.prompt(name, { get: () => returned as PromptReturn });
for (const [uri, returned] of RESOURCES) server.resource(uri, { read: () => returned as ResourceReturn });

const clients = servedToClients(server);

function promptError(name: string, problem: string): string {
  return `Internal error: Prompt "${name}" get returned ${problem}; ${RETURN_MESSAGES}`;
}

function resourceError(uri: string, problem: string): string {
  return `Internal error: Resource "${uri}" read returned contents item ${RESOURCE_ITEM[uri]}, which ${problem}; ${RETURN_CONTENTS}`;
}

type Client = Pick<LegacyClient, "getPrompt" | "readResource">;

/** The same cases for each era's client. */
function eachClient(connect: () => Promise<Client>) {
  let client: Client;

  beforeAll(async () => {
    client = await connect();
  });

  it.each(PROMPTS)(
    "gets an error naming the message for prompt %s, not a result it cannot parse",
    async (name, _, problem) => {
      const got = client.getPrompt({ name });
      await expect(got).rejects.toMatchObject({ code: -32603 });
      await expect(got).rejects.toThrow(promptError(name, problem));
    },
  );

  it.each(RESOURCES)("gets an error naming the item for %s, not a result it cannot parse", async (uri, _, problem) => {
    const got = client.readResource({ uri });
    await expect(got).rejects.toMatchObject({ code: -32603 });
    await expect(got).rejects.toThrow(resourceError(uri, problem));
  });

  it("gets valid messages and contents whole", async () => {
    expect((await client.getPrompt({ name: "valid" })).messages).toEqual(VALID_MESSAGES);
    expect((await client.readResource({ uri: "x://valid" })).contents).toEqual(VALID_CONTENTS);
  });
}

describe("a 2025-11-25 client (official v1 SDK)", () => {
  eachClient(() => clients.legacy());
});

describe("a 2026-07-28 client (official v2 SDK)", () => {
  eachClient(() => clients.modern());
});
