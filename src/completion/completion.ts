import { checkCaller, type Entry } from "../auth/entries.js";
import type { RequestContext } from "../core/context.js";
import { ErrorCode, McpError } from "../core/errors.js";
import type { Context } from "../core/handler-context.js";
import { isObject } from "../core/jsonrpc.js";
import type { Method, Registry } from "../core/registry.js";
import { shown } from "../core/safe.js";

type MaybePromise<T> = T | Promise<T>;

/** What a completer gets besides the typed prefix. */
export interface CompletionContext {
  /** The other arguments (or template variables) the user has filled in so far, by name. */
  arguments: Record<string, string>;
  /**
   * The request: `ctx.auth` is the caller, already checked against the entry's `auth` (token,
   * scopes, roles) before the completer runs; check anything more here, such as what `allow` would.
   */
  ctx: Context;
}

/**
 * Suggests values for one prompt argument or template variable (`completion/complete`): the typed
 * prefix, the other arguments and the request.
 */
export type Completer = (value: string, context: CompletionContext) => MaybePromise<string[]>;

/** At most this many values per answer (2025-11-25 "Completion": MUST NOT exceed 100). */
const MAX_VALUES = 100;

/** The prompt or resource template a completion refers to: an entry the caller checks name, and its completers. */
interface Completable extends Entry {
  readonly complete: Partial<Record<string, Completer>> | undefined;
}

/**
 * `completion/complete` for prompt arguments and resource template variables: the registered
 * completer's values, kept to those starting with what was typed, capped at 100 with `hasMore`.
 * The entry's `auth` is checked first, as `prompts/get` and `resources/read` check it: a refused
 * caller gets the same challenge, or with `hideUnauthorized` the error of an unknown reference.
 */
export async function complete(
  registry: Registry,
  params: Record<string, unknown> | undefined,
  ctx: RequestContext,
): Promise<Record<string, unknown>> {
  const ref = params?.ref;
  const argument = params?.argument;
  if (
    !isObject(ref) ||
    !isObject(argument) ||
    typeof argument.name !== "string" ||
    typeof argument.value !== "string"
  ) {
    throw new McpError(
      ErrorCode.InvalidParams,
      "completion/complete needs params.ref and params.argument { name, value }",
    );
  }
  const entry = completableOf(registry, ref);
  await checkCaller(ctx, entry);
  const context = contextArguments(params?.context);
  // Own completers only: a name such as "constructor" must not find Object.prototype's.
  const completer =
    entry.complete && Object.hasOwn(entry.complete, argument.name) ? entry.complete[argument.name] : undefined;
  let values: string[] = [];
  if (completer) {
    let suggested: unknown = completer(argument.value, { arguments: context, ctx });
    if (suggested instanceof Promise) suggested = await suggested;
    checkSuggested(suggested, `The completer of "${argument.name}" in ${entry.what}`);
    const typed = argument.value.toLowerCase();
    values = suggested.filter((value) => value.toLowerCase().startsWith(typed));
  }
  return {
    completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES },
  };
}

/**
 * A completer's values are strings (2025-11-25 "CompleteResult"): what else it returns would fail as
 * "suggested.filter is not a function", or be sent for the client to refuse; the author is told what
 * it returned instead.
 */
function checkSuggested(suggested: unknown, completer: string): asserts suggested is string[] {
  const fix = "return an array of strings, the values to suggest.";
  if (!Array.isArray(suggested)) {
    const what = suggested === null ? "null" : `a value of type ${typeof suggested}`;
    throw new TypeError(`${completer} returned ${what}, not an array; ${fix}`);
  }
  const bad = suggested.findIndex((value) => typeof value !== "string");
  if (bad !== -1) {
    const value: unknown = suggested[bad];
    const what = value === null ? "null" : `of type ${typeof value}`;
    throw new TypeError(`${completer} returned value ${bad}, ${what}, where a string belongs; ${fix}`);
  }
}

/**
 * A `ref` field that is not a string names nothing, and is not quoted back: JSON.stringify of a value
 * nested 100,000 deep overflows the stack (the answer was -32603 "Maximum call stack size exceeded").
 */
function notText(field: string, what: string): McpError {
  return new McpError(ErrorCode.InvalidParams, `completion/complete ${field} must be a string, ${what}`);
}

function completableOf(registry: Registry, ref: Record<string, unknown>): Completable {
  if (ref.type === "ref/prompt") {
    const name = ref.name;
    if (typeof name !== "string") throw notText("ref.name", "the name of a prompt");
    const unknown = () =>
      new McpError(
        ErrorCode.InvalidParams,
        `Unknown prompt ${JSON.stringify(shown(name))}. Call prompts/list to see the available prompts.`,
      );
    const prompt = registry.prompts.get(name);
    if (!prompt) throw unknown();
    const { auth, complete } = prompt.config;
    return { declared: auth, what: `prompt "${prompt.name}"`, notFound: unknown, complete };
  }
  if (ref.type === "ref/resource") {
    const uri = ref.uri;
    if (typeof uri !== "string") throw notText("ref.uri", "the URI template of a resource");
    const unknown = () =>
      new McpError(
        ErrorCode.InvalidParams,
        `Unknown resource template ${JSON.stringify(shown(uri))}. Call resources/templates/list to see them.`,
      );
    const resource = registry.resources.get(uri);
    if (!resource?.template) throw unknown();
    const { auth, complete } = resource.config;
    return { declared: auth, what: `resource template ${resource.uri}`, notFound: unknown, complete };
  }
  throw new McpError(ErrorCode.InvalidParams, `completion/complete ref.type must be "ref/prompt" or "ref/resource"`);
}

/** `params.context.arguments` (2025-11-25 "CompleteRequest"): names to the strings already chosen. */
function contextArguments(context: unknown): Record<string, string> {
  const given = isObject(context) ? context.arguments : undefined;
  if (given === undefined) return {};
  const entries = isObject(given) ? Object.entries(given) : undefined;
  if (!entries?.every((entry): entry is [string, string] => typeof entry[1] === "string")) {
    throw new McpError(
      ErrorCode.InvalidParams,
      "completion/complete params.context.arguments must map names to strings",
    );
  }
  // Own properties: "__proto__" stays an argument name, not the copy's prototype.
  return Object.fromEntries(entries);
}

/**
 * The row of `completion/complete` in the method table, which the resources layer and the prompts
 * layer each install with their first registration (resources/run.ts, prompts/run.ts): the
 * `completions` capability comes with either.
 */
export const completionMethod: Method = { modern: true, legacy: true, capability: "completions", run: complete };
