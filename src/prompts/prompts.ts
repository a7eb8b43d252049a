import type { Access } from "../auth/access.js";
import { type ContentBlock, checkIcons, checkOptions, type Icon, type PromptMessage } from "../core/content.js";

export type { PromptMessage } from "../core/content.js";

import { checkCompleters } from "../completion/completers.js";
import type { Completer } from "../completion/completion.js";
import { promptProblem } from "../content/check.js";
import type { Context } from "../core/handler-context.js";
import { isObject } from "../core/jsonrpc.js";
import { type Schema, type StandardSchemaV1, toJsonSchema } from "../core/schema.js";

type MaybePromise<T> = T | Promise<T>;

/** What `get` may return: text (a user message), a block, messages, or a full result with a description. */
export type PromptReturn =
  | string
  | ContentBlock
  | PromptMessage
  | (string | ContentBlock | PromptMessage)[]
  | { description?: string; messages: PromptMessage[] };

export type PromptArgs<I> = I extends Schema ? StandardSchemaV1.InferOutput<I> : Record<string, never>;

export interface PromptConfig<I extends Schema | undefined> {
  title?: string;
  description?: string;
  /** Arguments schema: an object whose fields are strings (prompt arguments always are). Validated before `get`. */
  input?: I;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  /** Completion of each argument for `completion/complete`. */
  complete?: Partial<Record<I extends Schema ? keyof StandardSchemaV1.InferInput<I> & string : never, Completer>>;
  /** What the caller needs to get it (see `ToolConfig.auth`); `allow` gets the validated arguments. */
  auth?: Access<PromptArgs<I>>;
  get: (args: PromptArgs<I>, ctx: Context) => MaybePromise<PromptReturn>;
}

export interface Prompt {
  readonly name: string;
  readonly descriptor: Record<string, unknown>;
  readonly config: PromptConfig<Schema | undefined>;
}

/** What a prompt's config may hold (PromptConfig), each key once. */
const PROMPT_OPTIONS: Record<keyof PromptConfig<undefined>, 0> = {
  title: 0,
  description: 0,
  input: 0,
  icons: 0,
  _meta: 0,
  complete: 0,
  auth: 0,
  get: 0,
};

export function compilePrompt(name: string, config: PromptConfig<Schema | undefined>): Prompt {
  if (typeof name !== "string" || name.length === 0) throw new TypeError("A prompt name must be a non-empty string.");
  if (typeof config?.get !== "function") throw new TypeError(`Prompt "${name}" needs a get function.`);
  checkOptions(config, PROMPT_OPTIONS, `Prompt "${name}"`);
  checkIcons(config.icons, `Prompt "${name}"`);
  const descriptor: Record<string, unknown> = { name };
  if (config.title !== undefined) descriptor.title = config.title;
  if (config.description !== undefined) descriptor.description = config.description;
  const args = config.input ? argumentsOf(toJsonSchema(config.input, "input", `Prompt "${name}" input`), name) : [];
  if (config.input) descriptor.arguments = args;
  const names = args.map((argument) => argument.name);
  checkCompleters(config.complete, { owner: `Prompt "${name}"`, names, kind: "arguments" });
  if (config.icons !== undefined) descriptor.icons = config.icons;
  if (config._meta !== undefined) descriptor._meta = config._meta;
  // The official clients refuse the whole of prompts/list for one bad field: checked as they read it.
  const problem = promptProblem(descriptor);
  if (problem !== undefined) throw new TypeError(`Prompt "${name}" ${problem}.`);
  return { name, descriptor, config };
}

/** Prompt arguments are advertised as a flat list (2025-11-25 "PromptArgument"), read off the JSON Schema. */
function argumentsOf(json: Record<string, unknown>, name: string): ({ name: string } & Record<string, unknown>)[] {
  if (json.type !== "object" || !isObject(json.properties)) {
    throw new TypeError(`Prompt "${name}" input must describe an object of string arguments.`);
  }
  const required = Array.isArray(json.required) ? json.required : [];
  return Object.entries(json.properties).map(([key, property]) => {
    const argument: { name: string } & Record<string, unknown> = { name: key };
    if (isObject(property) && typeof property.title === "string") argument.title = property.title;
    if (isObject(property) && typeof property.description === "string") argument.description = property.description;
    argument.required = required.includes(key);
    return argument;
  });
}

declare module "../core/registry.js" {
  interface Registrations {
    prompt: Prompt;
  }
}
