/**
 * The check of a tool's result against its `output` schema, loaded with the first result of a tool
 * that has one (a tools-only server without output schemas never loads it). The parsed value is sent,
 * as `structuredContent` and as its JSON text copy, so fields the schema does not name never leak;
 * a value that does not match is a tool error, never malformed data.
 */
import type { RequestContext } from "../core/context.js";
import { safeMessage } from "../core/safe.js";
import { type Schema, type Validation, validate } from "../core/schema.js";
import { type CallToolResult, jsonResult, sendsStructured, type Tool, toolError } from "../core/tools.js";

/** The result of `tool`, whose output schema is `output`, for what its run returned. */
export function checkedOutput(
  { tool, output }: { tool: Tool; output: Schema },
  returned: unknown,
  ctx: RequestContext,
): CallToolResult | Promise<CallToolResult> {
  // What the output schema throws (a refine with a bug, or the value's getter it read) is said as
  // such: "cannot be sent as JSON" would send its author after a BigInt or a cycle.
  const unchecked = (thrown: unknown) =>
    toolError(`Tool "${tool.name}" failed while checking its result against its output schema: ${safeMessage(thrown)}`);
  let checked: Validation<unknown> | Promise<Validation<unknown>>;
  try {
    checked = validate(output, returned);
  } catch (thrown) {
    return unchecked(thrown);
  }
  return checked instanceof Promise
    ? checked.then((done) => structured(tool, done, ctx), unchecked)
    : structured(tool, checked, ctx);
}

function structured(tool: Tool, checked: Validation<unknown>, ctx: RequestContext): CallToolResult {
  if (!checked.ok) {
    return toolError(`Tool "${tool.name}" produced a result that does not match its output schema:\n${checked.issues}`);
  }
  // The parsed value is sent, so fields the schema does not name never leak.
  const result = jsonResult(checked.value, tool.name);
  if (!result.isError && sendsStructured(tool.descriptor, ctx.era)) result.structuredContent = checked.value;
  return result;
}
