import type { AudioContent, ContentBlock, Icon, ImageContent, TextContent } from "./content.js";

/** Who a peer is (`clientInfo`, `serverInfo`). */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

/** What the client can do for the server; open-ended, so unknown keys are kept. */
export interface ClientCapabilities {
  roots?: { listChanged?: boolean };
  sampling?: { context?: object; tools?: object };
  elicitation?: { form?: object; url?: object };
  extensions?: Record<string, object>;
  experimental?: Record<string, object>;
  [key: string]: unknown;
}

export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  logging?: object;
  completions?: object;
  experimental?: Record<string, object>;
  extensions?: Record<string, object>;
}

export type Meta = Record<string, unknown>;

/** A request's params and a method's result, as JSON-RPC carries them. */
export type Params = Record<string, unknown> | undefined;
export type Result = Record<string, unknown>;
export type MaybePromise<T> = T | Promise<T>;

/** The prefix MCP reserves for its own `_meta` keys (2025-11-25 "_meta"). */
const RESERVED = "io.modelcontextprotocol/";

/** Reserved `_meta` keys of the 2026-07-28 per-request envelope (§1.1). */
export const META = {
  protocolVersion: `${RESERVED}protocolVersion`,
  clientCapabilities: `${RESERVED}clientCapabilities`,
  clientInfo: `${RESERVED}clientInfo`,
  logLevel: `${RESERVED}logLevel`,
  serverInfo: `${RESERVED}serverInfo`,
  subscriptionId: `${RESERVED}subscriptionId`,
} as const;

// Asking the client (2025-11-25 "Elicitation", "Sampling", "Roots"; 2026-07-28 §3.3): the requests
// and what the client answers, as `ctx.elicit`, `ctx.sample` and `ctx.roots` hand them over.

/** One embedded request of an `input_required` result, or one server-to-client request. */
export interface InputRequest {
  method: "elicitation/create" | "sampling/createMessage" | "roots/list";
  params?: Record<string, unknown>;
}

export type ElicitResult<T> = { action: "accept"; content: T } | { action: "decline" } | { action: "cancel" };

/** The model's request to call one of the sampling request's `tools` (2025-11-25 "Sampling": tool use). */
export interface ToolUseContent {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
  _meta?: Meta;
}

/** The result of a tool the model called, sent back in the next sampling request's messages. */
export interface ToolResultContent {
  type: "tool_result";
  toolUseId: string;
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Meta;
}

/** What a sampling message holds (2025-11-25 `SamplingContent`): tool use and results only with `tools`. */
export type SamplingContent = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;

export interface SamplingMessage {
  role: "user" | "assistant";
  content: SamplingContent | SamplingContent[];
}

export interface SamplingRequest {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  includeContext?: "none" | "thisServer" | "allServers";
  /** Tools the client's model may call (needs the client's `sampling.tools` capability). */
  tools?: Record<string, unknown>[];
  toolChoice?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

/**
 * The client's answer to `ctx.sample()`: the model's message. `content` is one block, or several
 * when the request offered `tools` (text beside `tool_use` blocks); narrow it by `type`.
 */
export interface CreateMessageResult {
  role: "assistant";
  content: SamplingContent | SamplingContent[];
  model: string;
  /** "endTurn", "stopSequence", "maxTokens", "toolUse", or another reason the client names. */
  stopReason?: string;
  [key: string]: unknown;
}

export interface Root {
  uri: string;
  name?: string;
}

/** A `requestStateKey`: text (UTF-8) or bytes, at least 32 bytes long. */
export type StateKey = string | Uint8Array;
