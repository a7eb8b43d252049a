/** Content blocks (MCP 2025-11-25 "Tools" §content) and the helpers that build them. */

import { isObject } from "./jsonrpc.js";

export interface Annotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

interface BlockBase {
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}

export interface TextContent extends BlockBase {
  type: "text";
  text: string;
}
export interface ImageContent extends BlockBase {
  type: "image";
  data: string;
  mimeType: string;
}
export interface AudioContent extends BlockBase {
  type: "audio";
  data: string;
  mimeType: string;
}
export interface ResourceLink extends BlockBase {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
}
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
  | { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> };
export interface EmbeddedResource extends BlockBase {
  type: "resource";
  resource: ResourceContents;
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** The fields no block of each type is without (2025-11-25 schema), by which an object is known as one. */
export const BLOCK_FIELDS: ReadonlyMap<unknown, string[]> = new Map([
  ["text", ["text"]],
  ["image", ["data", "mimeType"]],
  ["audio", ["data", "mimeType"]],
  ["resource_link", ["uri", "name"]],
  ["resource", ["resource"]],
]);

/**
 * The content blocks `run` returned, to be checked (content/check.ts) and sent: a block, or a non-empty array of
 * objects with blocks' types, one at least a block; undefined otherwise. A block's fields count whatever they hold, so
 * `{ type: "image", data: 42, mimeType: "image/png" }` is a block gone wrong, which the check names, not a value; but a
 * resource must be an object, and an object with only a block's type (a row with a `type` column) is a value.
 */
export function contentOf(value: unknown): unknown[] | undefined {
  const items = Array.isArray(value) ? value : [value];
  return items.every(hasBlockType) && items.some(hasBlockFields) ? items : undefined;
}

function hasBlockType(value: unknown): value is Record<string, unknown> {
  return isObject(value) && BLOCK_FIELDS.has(value.type);
}

function hasBlockFields(block: Record<string, unknown>): boolean {
  return (
    BLOCK_FIELDS.get(block.type)?.every((field) => (field === "resource" ? isObject(block[field]) : field in block)) ===
    true
  );
}

export function text(value: string, options?: BlockBase): TextContent {
  return { type: "text", text: value, ...options };
}

/** An image block; `data` is raw bytes or an already base64-encoded string. */
export function image(data: Uint8Array | string, mimeType: string, options?: BlockBase): ImageContent {
  return { type: "image", data: toBase64(data), mimeType, ...options };
}

/** An audio block; `data` is raw bytes or an already base64-encoded string. */
export function audio(data: Uint8Array | string, mimeType: string, options?: BlockBase): AudioContent {
  return { type: "audio", data: toBase64(data), mimeType, ...options };
}

/** A `resource_link`: a reference the client can read or subscribe to, not the contents. */
export function link(uri: string, name: string, options?: Omit<ResourceLink, "type" | "uri" | "name">): ResourceLink {
  return { type: "resource_link", uri, name, ...options };
}

/** An embedded resource: the contents themselves, as text, or as bytes sent in base64. */
export function embed(
  uri: string,
  contents: string | Uint8Array,
  options?: BlockBase & { mimeType?: string },
): EmbeddedResource {
  const { mimeType, ...block } = options ?? {};
  const resource: ResourceContents =
    typeof contents === "string" ? { uri, text: contents } : { uri, blob: toBase64(contents) };
  if (mimeType !== undefined) resource.mimeType = mimeType;
  return { type: "resource", resource, ...block };
}

const CHUNK = 0x8000;

/** Base64 without Node's Buffer, so the helpers run on every runtime. */
export function toBase64(data: Uint8Array | string): string {
  if (typeof data === "string") return data;
  let binary = "";
  for (let i = 0; i < data.length; i += CHUNK) {
    binary += String.fromCharCode(...data.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

/** Icons must be https: or data: URIs (2025-11-25 "Icons"): clients reject anything else, so fail at registration. */
export function checkIcons(icons: Icon[] | undefined, owner: string): void {
  for (const icon of icons ?? []) {
    if (!/^(https|data):/i.test(icon.src)) {
      throw new TypeError(`${owner} has an icon with src "${icon.src}"; icon sources must be https: or data: URIs.`);
    }
  }
}

/** One message of a prompt (2025-11-25 "PromptMessage"): a role and one content block. */
export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}

/** A user message; text is wrapped in a text block. */
export function user(content: string | ContentBlock): PromptMessage {
  return { role: "user", content: typeof content === "string" ? { type: "text", text: content } : content };
}

/** An assistant message; text is wrapped in a text block. */
export function assistant(content: string | ContentBlock): PromptMessage {
  return { role: "assistant", content: typeof content === "string" ? { type: "text", text: content } : content };
}

/**
 * Throws if `options` has a key `known` does not: a misspelt option (`inputs`, `limts`) is said at start-up, since
 * ignoring it would drop what it asked for (validation, a limit) and, for `pico()`, send it to clients in `serverInfo`.
 */
export function checkOptions(options: object, known: Readonly<Record<string, 0>>, owner: string): void {
  const unknown = Object.keys(options).find((key) => !Object.hasOwn(known, key));
  if (unknown !== undefined) {
    throw new TypeError(`${owner} has no option "${unknown}". Its options are ${Object.keys(known).join(", ")}.`);
  }
}
