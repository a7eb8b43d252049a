import type { ContentBlock, PromptMessage } from "../core/content.js";

/*
 * The message helpers of prompts' `get`, a module of their own: prompts.ts loads only with a
 * server's first prompt, and these are exported from the package's index, which every server loads.
 */

/** A user message; text is wrapped in a text block. */
export function user(content: string | ContentBlock): PromptMessage {
  return { role: "user", content: typeof content === "string" ? { type: "text", text: content } : content };
}

/** An assistant message; text is wrapped in a text block. */
export function assistant(content: string | ContentBlock): PromptMessage {
  return { role: "assistant", content: typeof content === "string" ? { type: "text", text: content } : content };
}
