/** How the peer tests start test/fixtures/stdio-server.ts (and any program over stdio), and what its tool list looks like. */
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Spawn parameters for the TypeScript program `file` (a path from the repository's root), run
 * through tsx with `env`, in the shape both SDK stdio transports accept.
 */
export function tsxProgram(file: string, env: Record<string, string> = {}) {
  return {
    command: process.execPath,
    args: ["--import", "tsx", file],
    cwd: ROOT,
    // The SDK transports pass only a safe subset of the environment unless told otherwise.
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe" as const,
  };
}

/** Spawn parameters for the fixture. */
export function fixture(env: Record<string, string> = {}) {
  return tsxProgram("test/fixtures/stdio-server.ts", env);
}

/** The fixture's tools, in registration order. */
export const TOOL_NAMES = [
  "search_issues",
  "content",
  "transform",
  "get_price",
  "bad_price",
  "fail",
  "forbidden",
  "wait_for_cancel",
  "context",
  "add_tool",
  "chatty",
  "stats",
];

/** The seed's search_issues tool exactly as a client must see it in tools/list. */
export const SEARCH_ISSUES = {
  name: "search_issues",
  title: "Search issues",
  description: "Search open GitHub issues in a repository. Use it before filing a new issue.",
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      repo: { type: "string", description: "owner/name" },
      query: { type: "string" },
      limit: expect.objectContaining({ type: "integer", maximum: 50, default: 10 }),
    },
    // limit has a default, so the client may leave it out.
    required: ["repo", "query"],
  },
  annotations: { readOnlyHint: true, openWorldHint: true },
  icons: [{ src: "https://example.com/search.png", mimeType: "image/png", sizes: ["48x48"] }],
  _meta: { "com.example/owner": "peers" },
};

export const GET_PRICE_OUTPUT_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    sku: { type: "string" },
    cents: expect.objectContaining({ type: "integer" }),
    currency: { type: "string", const: "EUR" },
  },
  required: ["sku", "cents", "currency"],
  additionalProperties: false,
};

/** 8 bytes of PNG signature and 6 of a WAV header, as the fixture sends them, in base64. */
export const PNG_BASE64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString("base64");
export const WAV_BASE64 = Buffer.from([0x52, 0x49, 0x46, 0x46, 0xff, 0x00]).toString("base64");

export const SEED_VALIDATION_ERROR =
  'Invalid arguments for tool "search_issues":\nlimit: Too big: expected number to be <=50';

/** What each `content` kind must reach the client as: the seed's "return what is natural". */
export const CONTENT_CASES: Record<string, unknown[]> = {
  string: [{ type: "text", text: "plain string" }],
  text: [{ type: "text", text: "a text block", annotations: { audience: ["user"] } }],
  image: [{ type: "image", data: PNG_BASE64, mimeType: "image/png" }],
  audio: [{ type: "audio", data: WAV_BASE64, mimeType: "audio/wav" }],
  link: [{ type: "resource_link", uri: "file:///reports/q3.csv", name: "q3.csv", mimeType: "text/csv" }],
  embed: [{ type: "resource", resource: { uri: "file:///notes.txt", text: "hello", mimeType: "text/plain" } }],
  embed_blob: [{ type: "resource", resource: { uri: "file:///pixel.png", blob: PNG_BASE64, mimeType: "image/png" } }],
  array: [
    { type: "text", text: "Here is the chart:" },
    { type: "image", data: PNG_BASE64, mimeType: "image/png" },
    { type: "resource_link", uri: "file:///reports/q3.csv", name: "q3.csv" },
  ],
  value: [{ type: "text", text: '{"total":3,"items":["a","b"]}' }],
  nothing: [],
};

/** The fixture registers tools, so `tools.listChanged` is advertised; other capabilities may come with other features. */
export const CAPABILITIES = expect.objectContaining({ tools: { listChanged: true } });
