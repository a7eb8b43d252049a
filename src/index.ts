export type { Access, AccessCheck, SecurityScheme } from "./auth/access.js";
export {
  AuthorizationServerUnavailable,
  type Identity,
  type IdentityInit,
  InvalidTokenError,
  type VerifiedToken,
} from "./auth/identity.js";
export type { AuthOptions, AuthRequest } from "./auth/settings.js";
export type { Completer, CompletionContext } from "./completion/completion.js";
export {
  type Annotations,
  type AudioContent,
  assistant,
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
  user,
} from "./core/content.js";
export { ErrorCode, McpError } from "./core/errors.js";
export type { AskOptions, Context, Era, Logger } from "./core/handler-context.js";
export type { Schema, StandardSchemaV1 } from "./core/schema.js";
export type { CallToolResult, ToolAnnotations, ToolConfig } from "./core/tools.js";
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
} from "./core/types.js";
export type { Limits } from "./limits/options.js";
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
} from "./middleware/middleware.js";
export type { Plugin, PluginMethod } from "./middleware/plugin.js";
export type { PromptConfig, PromptMessage, PromptReturn } from "./prompts/prompts.js";
export type { ResourceConfig, ResourceInfo, ResourceReturn } from "./resources/resources.js";
export { Secret, secret } from "./secret.js";
export { pico, Server, type ServerOptions } from "./server.js";
export type { CorsOptions, HttpOptions, ServeOptions, SessionOptions } from "./transports/http/options.js";
export type { Listening } from "./transports/listening.js";
