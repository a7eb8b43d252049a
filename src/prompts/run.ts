/**
 * Prompts at run time: the handlers of `prompts/list` and `prompts/get`, whose rows the first
 * `.prompt()` installs in the method table (wired in by server.ts), with `completion/complete` for
 * prompt arguments. What is checked at registration stays in prompts.ts.
 */
import { checkAllowed, checkCaller } from "../auth/entries.js";
import { completionMethod } from "../completion/completion.js";
import { invalidParams, isContentBlock, messageProblem, PROMPT_ARGUMENTS, problemOf } from "../content/check.js";
import { type ContentBlock, user } from "../core/content.js";
import type { RequestContext } from "../core/context.js";
import { ErrorCode, McpError } from "../core/errors.js";
import { isObject } from "../core/jsonrpc.js";
import { page, visible } from "../core/methods.js";
import type { Method, Registry } from "../core/registry.js";
import { shown } from "../core/safe.js";
import { validate } from "../core/schema.js";
import type { Prompt, PromptMessage, PromptReturn } from "./prompts.js";

type Params = Record<string, unknown> | undefined;
type Result = Record<string, unknown>;

/** `prompts/list`, in registration order. */
export function listPrompts(registry: Registry, params: Params, ctx: RequestContext): Result | Promise<Result> {
  return visible(ctx, (shows) =>
    page(registry, params, {
      key: "prompts",
      items: [...registry.prompts.values()].filter((prompt) => shows(ctx, prompt.config.auth)),
      describe: (prompt) => prompt.descriptor,
    }),
  );
}

/** `prompts/get`: the caller checked before the arguments, as for tools; unknown and hidden prompts look the same. */
async function promptsGet(registry: Registry, params: Params, ctx: RequestContext): Promise<Result> {
  const name = params?.name;
  // Not quoted back unless a string: JSON.stringify of a value nested 100,000 deep overflows the stack.
  if (typeof name !== "string") {
    throw new McpError(
      ErrorCode.InvalidParams,
      "prompts/get needs params.name: the name of a prompt from prompts/list",
    );
  }
  const prompt = registry.prompts.get(name);
  const unknown = () =>
    new McpError(
      ErrorCode.InvalidParams,
      `Unknown prompt ${JSON.stringify(shown(name))}. Call prompts/list to see the available prompts.`,
    );
  if (!prompt) throw unknown();
  // The caller first: a prompt `hideUnauthorized` hides is an unknown one, whatever its arguments.
  await checkCaller(ctx, { declared: prompt.config.auth, what: `prompt "${prompt.name}"`, notFound: unknown });
  // `arguments: null` is none, as before middleware (middleware/params.ts); other values are refused
  // with the same words, so a server answers alike with middleware or without.
  const args = params?.arguments ?? undefined;
  const problem = problemOf({ arguments: args }, [PROMPT_ARGUMENTS], "params.");
  if (problem !== undefined) throw invalidParams("prompts/get", problem);
  return getPrompt(prompt, isObject(args) ? args : undefined, ctx);
}

/** Runs `prompts/get`: arguments validated (a failure is -32602 naming each field), the return value normalised. */
export async function getPrompt(
  prompt: Prompt,
  args: Record<string, unknown> | undefined,
  ctx: RequestContext,
): Promise<Record<string, unknown>> {
  let value: unknown = {};
  if (prompt.config.input) {
    let checked = validate(prompt.config.input, args ?? {});
    if (checked instanceof Promise) checked = await checked;
    if (!checked.ok)
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for prompt "${prompt.name}":\n${checked.issues}`);
    value = checked.value;
  }
  await checkAllowed(ctx, { declared: prompt.config.auth, what: `prompt "${prompt.name}"` }, value);
  let returned = prompt.config.get(value, ctx);
  if (returned instanceof Promise) returned = await returned;
  const messages: unknown[] = isFullResult(returned)
    ? returned.messages
    : (Array.isArray(returned) ? returned : [returned]).map(toMessage);
  let problem: string | undefined;
  const wrong = messages.findIndex((message) => {
    problem = messageProblem(message);
    return problem !== undefined;
  });
  if (wrong !== -1) {
    const what = returned === undefined ? "nothing" : `message ${wrong}, ${problem}`;
    throw new TypeError(
      `Prompt "${prompt.name}" get returned ${what}; return text, a content block, messages made with user() or assistant(), or { description?, messages }.`,
    );
  }
  const result: Record<string, unknown> = { messages };
  if (isFullResult(returned) && typeof returned.description === "string") result.description = returned.description;
  return result;
}

/** `get` returned the full result (`{ description?, messages }`) rather than what makes its messages. */
function isFullResult(value: PromptReturn): value is Extract<PromptReturn, { messages: PromptMessage[] }> {
  return isObject(value) && Array.isArray(value.messages);
}

function toMessage(item: string | ContentBlock | PromptMessage): PromptMessage {
  if (typeof item === "string" || isContentBlock(item)) return user(item);
  return item;
}

/** The methods of prompts, added to the method table with the first prompt registered (see `Registry.install`). */
export const methods: Record<string, Method> = {
  "prompts/list": { modern: true, legacy: true, capability: "prompts", cacheable: true, run: listPrompts },
  "prompts/get": { modern: true, legacy: true, capability: "prompts", interactive: true, run: promptsGet },
  "completion/complete": completionMethod,
};
