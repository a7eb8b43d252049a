export type { Access, AccessCheck, SecurityScheme } from "./auth/access.js";
export { type Identity, type IdentityInit, InvalidTokenError, type VerifiedToken } from "./auth/identity.js";
export type { AuthOptions, AuthRequest } from "./auth/settings.js";
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
export { ErrorCode, McpError } from "./errors.js";
export type { AskOptions, Context, Era, Logger } from "./handler-context.js";
export type { Limits } from "./limits.js";
export type { CallOptions } from "./local.js";
export type {
  MethodName,
  MethodTypes,
  Middleware,
  MiddlewareCall,
  MiddlewareFor,
  Next,
  ParamsOf,
  ResultOf,
  ToolMiddleware,
} from "./middleware.js";
export type { Plugin, PluginMethod } from "./plugin.js";
export { assistant, type PromptConfig, type PromptMessage, type PromptReturn, user } from "./prompts.js";
export type {
  ClientCapabilities,
  CreateMessageResult,
  ElicitResult,
  Implementation,
  InputRequest,
  Root,
  SamplingContent,
  SamplingMessage,
  SamplingRequest,
  ServerCapabilities,
  ToolResultContent,
  ToolUseContent,
} from "./protocol/types.js";
export type { ServerOptions } from "./registry.js";
export type { Completer, CompletionContext, ResourceConfig, ResourceInfo, ResourceReturn } from "./resources.js";
export { Secret, secret } from "./safe.js";
export type { Schema, StandardSchemaV1 } from "./schema.js";
export { pico, type ServeOptions, Server } from "./server.js";
export type { CallToolResult, ToolAnnotations, ToolConfig } from "./tools.js";
export type { CorsOptions, HttpOptions, SessionOptions } from "./transports/http/options.js";
export type { Listening } from "./transports/listening.js";
