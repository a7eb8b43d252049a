import { ErrorCode, McpError } from "./errors.js";
import { isObject } from "./protocol/jsonrpc.js";
import type { Registry } from "./registry.js";
import type { Completer } from "./resources.js";

/** At most this many values per answer (2025-11-25 "Completion": MUST NOT exceed 100). */
const MAX_VALUES = 100;

/**
 * `completion/complete` for prompt arguments and resource template variables: the registered
 * completer's values, kept to those starting with what was typed, capped at 100 with `hasMore`.
 */
export async function complete(
  registry: Registry,
  params: Record<string, unknown> | undefined,
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
  const completer = completerFor(registry, ref, argument.name);
  const context = isObject(params?.context) && isObject(params.context.arguments) ? params.context.arguments : {};
  let values: string[] = [];
  if (completer) {
    let suggested = completer(argument.value, { arguments: context as Record<string, string> });
    if (suggested instanceof Promise) suggested = await suggested;
    const typed = argument.value.toLowerCase();
    values = suggested.filter((value) => value.toLowerCase().startsWith(typed));
  }
  return {
    completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES },
  };
}

function completerFor(registry: Registry, ref: Record<string, unknown>, name: string): Completer | undefined {
  if (ref.type === "ref/prompt") {
    const prompt = typeof ref.name === "string" ? registry.prompts.get(ref.name) : undefined;
    if (!prompt)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown prompt ${JSON.stringify(ref.name)}. Call prompts/list to see the available prompts.`,
      );
    return (prompt.config.complete as Record<string, Completer> | undefined)?.[name];
  }
  if (ref.type === "ref/resource") {
    const resource = typeof ref.uri === "string" ? registry.resources.get(ref.uri) : undefined;
    if (!resource?.template) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown resource template ${JSON.stringify(ref.uri)}. Call resources/templates/list to see them.`,
      );
    }
    return (resource.config.complete as Record<string, Completer> | undefined)?.[name];
  }
  throw new McpError(ErrorCode.InvalidParams, `completion/complete ref.type must be "ref/prompt" or "ref/resource"`);
}
