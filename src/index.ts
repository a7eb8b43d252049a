export {
  type Annotations,
  type AudioContent,
  audio,
  type ContentBlock,
  type EmbeddedResource,
  embed,
  type Icon,
  type ImageContent,
  image,
  link,
  type ResourceContents,
  type ResourceLink,
  type TextContent,
  text,
} from "./content.js";
export type { Context, Era } from "./context.js";
export { ErrorCode, McpError } from "./errors.js";
export type { ClientCapabilities, Implementation, ServerCapabilities } from "./protocol/types.js";
export type { ServerOptions } from "./registry.js";
export type { Schema, StandardSchemaV1 } from "./schema.js";
export { type CallOptions, pico, Server } from "./server.js";
export type { CallToolResult, ToolAnnotations, ToolConfig } from "./tools.js";
