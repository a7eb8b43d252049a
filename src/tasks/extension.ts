/**
 * What a request declared of the 2026-07-28 Tasks extension (SEP-2663 "Capability Negotiation"),
 * and the refusal of one that needs it and did not.
 */
import { ErrorCode, McpError } from "../core/errors.js";
import type { Context } from "../core/handler-context.js";
import { isObject } from "../core/jsonrpc.js";
import { TASKS } from "../core/tools.js";

/** Whether the request declared the Tasks extension (per request in 2026-07-28, SEP-2575). */
export function declaresTasks(ctx: Context): boolean {
  return isObject(ctx.client.capabilities.extensions?.[TASKS]);
}

/**
 * Whether a 2026-07-28 request declared 2025-11-25's `tasks` client capability and not the extension:
 * SEP-2663 "Backward Compatibility" treats it as not declaring the extension (MUST), but SHOULD let
 * it `tasks/get` and `tasks/cancel` the tasks made in 2025-11-25 sessions (layer.ts, owners.ts's `reaches`).
 */
export function declaresOnlyLegacyTasks(ctx: Context): boolean {
  return ctx.era === "modern" && isObject(ctx.client.capabilities.tasks) && !declaresTasks(ctx);
}

/**
 * -32021 naming the extension (SEP-2663 "Capability Negotiation" and "Protocol Errors", SEP-2575
 * "Missing Required Capabilities"). Older drafts of the extension say -32003, the code's number before
 * 2026-07-28 renumbered it: docs/tasks.md.
 */
export function missingTasks(what: string): McpError {
  return new McpError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${what} needs the "${TASKS}" extension; declare it in _meta["io.modelcontextprotocol/clientCapabilities"].extensions`,
    { requiredCapabilities: { extensions: { [TASKS]: {} } } },
  );
}
