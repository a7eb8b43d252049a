/**
 * Auth at run time, loaded with the first registration a caller must be checked against (wired in
 * by server.ts): the caller checks of `auth` rules, refusals and their challenges, and the identities
 * handlers see. What is checked at registration (the rules themselves) lives in access.ts and
 * settings.ts.
 */
import type { RequestContext } from "../core/context.js";
import { ErrorCode, McpError } from "../core/errors.js";
import { validate } from "../core/schema.js";
import { accessOf, type CallToolResult, invalidArguments, runTool, type Tool } from "../core/tools.js";
import { type AnyAccess, type Denial, parts } from "./access.js";

import type { Identity } from "./identity.js";

type MaybePromise<T> = T | Promise<T>;

/** The `_meta` key of an in-band auth challenge (OpenAI Apps SDK; MCP SEP issue #1489). */
export const WWW_AUTHENTICATE_META = "mcp/www_authenticate";

const NONE: ReadonlySet<string> = new Set();

/** Checks the caller (token, scopes, roles) before anything else runs; validation comes after. */
export function checkCallerOf(ctx: RequestContext, declared: AnyAccess | undefined, what: string): Denial | undefined {
  return checkCaller(accessOf(ctx, declared), ctx.auth, what, ctx.gate?.settings?.known ?? NONE);
}

/** Runs the `allow` check of a rule on the validated arguments. */
export function checkArgumentsOf(
  ctx: RequestContext,
  declared: AnyAccess | undefined,
  args: unknown,
  what: string,
): Denial | undefined | Promise<Denial | undefined> {
  return checkArguments(accessOf(ctx, declared), ctx.auth, args, what);
}

/** A tool with an `auth` rule: its caller checked before validation, its `allow` check after. */
export async function callChecked(
  tool: Tool,
  args: Record<string, unknown> | undefined,
  ctx: RequestContext,
): Promise<CallToolResult> {
  const what = `tool "${tool.name}"`;
  const refused = checkCallerOf(ctx, tool.auth, what);
  if (refused) return refuseTool(ctx, refused, tool.name, true);
  let value: unknown = {};
  if (tool.input) {
    let checked = validate(tool.input, args ?? {});
    if (checked instanceof Promise) checked = await checked;
    if (!checked.ok) return invalidArguments(tool, checked.issues);
    value = checked.value;
  }
  let denied = checkArgumentsOf(ctx, tool.auth, value, what);
  if (denied instanceof Promise) denied = await denied;
  if (denied) return refuseTool(ctx, denied, tool.name, false);
  return runTool(tool, value, ctx);
}

/** Whether a list shows this registration to the caller (`hideUnauthorized` hides what they cannot use). */
export function shows(ctx: RequestContext, declared: AnyAccess | undefined): boolean {
  return !ctx.gate?.settings?.hide || checkCallerOf(ctx, declared, "") === undefined;
}

/** Whether a caller the checks refused is told the registration does not exist (`hideUnauthorized`). */
export function hides(ctx: RequestContext): boolean {
  return ctx.gate?.settings?.hide === true;
}

/**
 * Over HTTP, for clients that handle transport challenges, records the denial so the transport
 * answers 401/403 with `WWW-Authenticate`, and throws the JSON-RPC error that goes in its body.
 */
export function challengeOverHttp(ctx: RequestContext, denial: Denial): void {
  const gate = ctx.gate;
  if (!gate?.challenge || denial.error === undefined) return;
  const mode = gate.settings?.challenge ?? "auto";
  if (mode === "result" || (mode === "auto" && ctx.client.info?.name === "openai-mcp")) return;
  gate.challenge(denial);
  throw new McpError(ErrorCode.InvalidRequest, `Unauthorized: ${denial.message}`);
}

/** The in-band form: `_meta["mcp/www_authenticate"]` with a challenge ChatGPT can act on, when there is metadata to point at. */
export function challengeMeta(ctx: RequestContext, denial: Denial): Record<string, unknown> | undefined {
  const metadataUrl = ctx.gate?.metadataUrl;
  if (denial.error === undefined || metadataUrl === undefined) return undefined;
  return { [WWW_AUTHENTICATE_META]: [challengeHeader(metadataUrl, denial.scopes, denial.error, denial.message)] };
}

/**
 * A refused tool call as the client understands it: a 401/403 challenge over HTTP, or an `isError`
 * result (with the in-band challenge when the caller can sign in or step up). `caller` says the
 * refusal came from the caller checks, which `hideUnauthorized` turns into "no such tool".
 */
export function refuseTool(ctx: RequestContext, denial: Denial, name: string, caller: boolean): CallToolResult {
  if (caller && hides(ctx)) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}". Call tools/list to see the available tools.`);
  }
  challengeOverHttp(ctx, denial);
  const result: CallToolResult = { content: [{ type: "text", text: denial.message }], isError: true };
  const meta = challengeMeta(ctx, denial);
  if (meta) result._meta = meta;
  return result;
}

/**
 * A refusal as a JSON-RPC error, for resources and prompts (they have no `isError` lane): a
 * challenge over HTTP when the client handles one, otherwise an error carrying the in-band challenge.
 * `notFound` is the error of a registration that does not exist, for hidden ones.
 */
export function refuse(ctx: RequestContext, denial: Denial, notFound?: () => McpError): never {
  if (notFound && hides(ctx)) throw notFound();
  challengeOverHttp(ctx, denial);
  throw new McpError(ErrorCode.InvalidRequest, denial.message, challengeMeta(ctx, denial));
}

/**
 * Checks the parts of a rule that need no arguments: a token, its scopes, its roles. `known` are the
 * scopes this server deals in: a step-up challenge repeats the granted ones among them, so a client
 * that replaces its scopes with the challenged set keeps what it had (MCP authorization, "Scope
 * Challenge Handling").
 */
export function checkCaller(
  access: AnyAccess,
  identity: Identity | undefined,
  what: string,
  known: ReadonlySet<string>,
): Denial | undefined {
  if (access === "public") return undefined;
  const { scopes, roles } = parts(access);
  if (!identity) {
    return { status: 401, error: "invalid_token", scopes, message: `Sign in to use ${what}.` };
  }
  const missing = scopes.filter((scope) => !identity.scopes.includes(scope));
  if (missing.length > 0) {
    const kept = identity.scopes.filter((scope) => known.has(scope) && !scopes.includes(scope));
    return {
      status: 403,
      error: "insufficient_scope",
      scopes: [...scopes, ...kept],
      message: `${capitalized(what)} needs the scope${missing.length > 1 ? "s" : ""} ${missing.join(", ")}: sign in again and grant ${missing.length > 1 ? "them" : "it"}.`,
    };
  }
  if (roles.some((role) => !identity.roles.includes(role))) return forbidden(what);
  return undefined;
}

/** Runs the rule's `allow` check, if it has one, on the validated arguments (synchronously when there is none). */
export function checkArguments(
  access: AnyAccess,
  identity: Identity | undefined,
  args: unknown,
  what: string,
): MaybePromise<Denial | undefined> {
  if (access === "public" || !identity) return undefined;
  const allow = parts(access).allow;
  if (!allow) return undefined;
  // The rule is stored without its arguments' type (AnyAccess); `args` passed the same registration's schema.
  const allowed = allow(identity, args as never);
  if (allowed instanceof Promise) return allowed.then((value) => (value === true ? undefined : forbidden(what)));
  return allowed === true ? undefined : forbidden(what);
}

function forbidden(what: string): Denial {
  return { status: 403, error: undefined, scopes: [], message: `Not permitted: you do not have access to ${what}.` };
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A `WWW-Authenticate` Bearer challenge (RFC 6750 §3, RFC 9728 §5.1). */
export function challengeHeader(
  metadataUrl: string | undefined,
  scopes: readonly string[],
  error?: string,
  description?: string,
): string {
  const params: string[] = [];
  if (metadataUrl !== undefined) params.push(`resource_metadata="${quoted(metadataUrl)}"`);
  if (scopes.length > 0) params.push(`scope="${quoted(scopes.join(" "))}"`);
  if (error !== undefined) params.push(`error="${error}"`);
  if (description !== undefined) params.push(`error_description="${quoted(description)}"`);
  return params.length > 0 ? `Bearer ${params.join(", ")}` : "Bearer";
}

/** Quoted-string content (RFC 9110 §5.6.4); descriptions stay within printable ASCII (RFC 6750 §3). */
function quoted(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, "?").replace(/["\\]/g, "\\$&");
}
