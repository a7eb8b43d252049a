/**
 * Auth at run time, loaded with the first registration a caller must be checked against (wired in
 * by server.ts): the caller checks of `auth` rules, refusals and their challenges, and the identities
 * handlers see. What is checked at registration (the rules themselves) lives in access.ts and
 * settings.ts.
 */
import type { RequestContext } from "../core/context.js";
import { ErrorCode, McpError } from "../core/errors.js";
import { unknownTool } from "../core/methods.js";
import { type Validation, validate } from "../core/schema.js";
import {
  accessOf,
  type CallToolResult,
  invalidArguments,
  namedArguments,
  runTool,
  type Tool,
  uncheckedArguments,
} from "../core/tools.js";
import { type AnyAccess, type Denial, parts } from "./access.js";

type MaybePromise<T> = T | Promise<T>;

/** The `_meta` key of an in-band auth challenge (OpenAI Apps SDK; MCP SEP issue #1489). */
export const WWW_AUTHENTICATE_META = "mcp/www_authenticate";

const NONE: ReadonlySet<string> = new Set();

/**
 * Checks the caller of a registration under `declared` (token, scopes, roles) before anything else
 * runs; validation comes after. A step-up challenge repeats the granted scopes among those this server
 * deals in (`known`), so a client that replaces its scopes with the challenged set keeps what it had
 * (MCP authorization, "Scope Challenge Handling").
 */
export function checkCallerOf(ctx: RequestContext, declared: AnyAccess | undefined, what: string): Denial | undefined {
  const access = accessOf(ctx, declared);
  if (access === "public") return undefined;
  const { scopes, roles } = parts(access);
  const identity = ctx.auth;
  // Over stdio the caller is the identity the server runs as (auth.stdio): no sign-in can change it.
  const environment = ctx.gate?.environment === true;
  if (!identity) {
    if (environment) {
      const message = `${capitalized(what)} needs a signed-in caller, and this stdio server has no identity: the user must run the server with credentials (its auth.stdio hook reads them from the environment).`;
      return { status: 401, error: undefined, scopes: [], message };
    }
    return { status: 401, error: "invalid_token", scopes, message: `Sign in to use ${what}.` };
  }
  const missing = scopes.filter((scope) => !identity.scopes.includes(scope));
  if (missing.length > 0) {
    if (environment) return lacking(what, listed("scope", missing));
    const known = ctx.gate?.settings?.known ?? NONE;
    const kept = identity.scopes.filter((scope) => known.has(scope) && !scopes.includes(scope));
    const [needed, them] = listed("scope", missing);
    return {
      status: 403,
      error: "insufficient_scope",
      scopes: [...scopes, ...kept],
      message: `${capitalized(what)} needs ${needed}: sign in again and grant ${them}.`,
    };
  }
  const absent = roles.filter((role) => !identity.roles.includes(role));
  // Over HTTP roles are not advertised (securitySchemes has no place for them), so a refusal does not
  // name them; over stdio the one told is the user who runs the server, who must know what to grant.
  if (absent.length > 0) return environment ? lacking(what, listed("role", absent)) : forbidden(what);
  return undefined;
}

/** "the scope a" or "the scopes a, b", and the pronoun that refers back to it. */
function listed(kind: "scope" | "role", names: readonly string[]): [needed: string, them: string] {
  return names.length > 1 ? [`the ${kind}s ${names.join(", ")}`, "them"] : [`the ${kind} ${names[0]}`, "it"];
}

/**
 * The refusal of a stdio caller whose identity lacks what `what` needs: only running the server with
 * other credentials gives it, so there is nothing to challenge.
 */
function lacking(what: string, [needed, them]: [needed: string, them: string]): Denial {
  return {
    status: 403,
    error: undefined,
    scopes: [],
    message: `${capitalized(what)} needs ${needed}, which this stdio server's identity (from its auth.stdio hook) lacks: the user must run the server with credentials that grant ${them}.`,
  };
}

/**
 * Whether the `allow` check of the rule, if it has one, lets the caller use the registration with
 * these validated arguments (synchronously when there is none). A refusal is `forbidden(what)`.
 */
export function allows(ctx: RequestContext, declared: AnyAccess | undefined, args: unknown): MaybePromise<boolean> {
  const access = accessOf(ctx, declared);
  const identity = ctx.auth;
  if (access === "public" || !identity) return true;
  const allow = parts(access).allow;
  if (!allow) return true;
  // The rule is stored without its arguments' type (AnyAccess); `args` passed the same registration's schema.
  const allowed = allow(identity, args as never);
  return allowed instanceof Promise ? allowed.then((value) => value === true) : allowed === true;
}

/** A tool with an `auth` rule: its caller checked before validation, its `allow` check after. */
export async function callChecked(tool: Tool, args: unknown, ctx: RequestContext): Promise<CallToolResult> {
  const refused = refusedCall(tool, ctx);
  if (refused) return refused;
  const named = namedArguments(args);
  let value: unknown = {};
  if (tool.input) {
    let checked: Validation<unknown> | Promise<Validation<unknown>>;
    try {
      checked = validate(tool.input, named ?? {});
      if (checked instanceof Promise) checked = await checked;
    } catch (thrown) {
      return uncheckedArguments(tool, thrown);
    }
    if (!checked.ok) return invalidArguments(tool, checked.issues);
    value = checked.value;
  }
  let allowed = allows(ctx, tool.auth, value);
  if (allowed instanceof Promise) allowed = await allowed;
  if (!allowed) return refuseTool(ctx, forbidden(`tool "${tool.name}"`));
  return runTool(tool, value, ctx);
}

/** The refusal of a caller the tool's rule does not admit (token, scopes, roles); undefined admits them. */
export function refusedCall(tool: Tool, ctx: RequestContext): CallToolResult | undefined {
  const refused = checkCallerOf(ctx, tool.auth, `tool "${tool.name}"`);
  if (!refused) return undefined;
  // `hideUnauthorized`: a tool the caller may not use is one that does not exist.
  if (hides(ctx)) throw unknownTool(tool.name);
  return refuseTool(ctx, refused);
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
 * answers 401/403 with `WWW-Authenticate`, and throws the JSON-RPC error that goes in its body;
 * returns where the transport cannot (a stream already under way), for the in-band form.
 */
function challengeOverHttp(ctx: RequestContext, denial: Denial): void {
  const gate = ctx.gate;
  if (!gate?.challenge || denial.error === undefined) return;
  const mode = gate.settings?.challenge ?? "auto";
  if (mode === "result" || (mode === "auto" && ctx.client.info?.name === "openai-mcp")) return;
  // A streamed reply whose 200 went out already cannot become a 401/403: the in-band form says it.
  if (!gate.challenge(denial)) return;
  // The body's message starts with the status's reason phrase, as the endpoint's own 401s and 403s do: a
  // 403's caller is signed in and lacks a scope, which is no want of authentication (RFC 9110 §15.5.4).
  throw new McpError(
    ErrorCode.InvalidRequest,
    `${denial.status === 401 ? "Unauthorized" : "Forbidden"}: ${denial.message}`,
  );
}

/** The in-band form: `_meta["mcp/www_authenticate"]` with a challenge ChatGPT can act on, when there is metadata to point at. */
function challengeMeta(ctx: RequestContext, denial: Denial): Record<string, unknown> | undefined {
  const metadataUrl = ctx.gate?.metadataUrl;
  if (denial.error === undefined || metadataUrl === undefined) return undefined;
  return { [WWW_AUTHENTICATE_META]: [challengeHeader(metadataUrl, denial)] };
}

/**
 * A refused tool call as the client understands it: a 401/403 challenge over HTTP, or an `isError`
 * result (with the in-band challenge when the caller can sign in or step up).
 */
function refuseTool(ctx: RequestContext, denial: Denial): CallToolResult {
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

/** The refusal of a caller whose roles or `allow` check do not admit them to `what`. */
export function forbidden(what: string): Denial {
  return { status: 403, error: undefined, scopes: [], message: `Not permitted: you do not have access to ${what}.` };
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What a challenge says: the scopes to ask for, and the error and its description, if any. */
export interface Challenge {
  readonly scopes: readonly string[];
  readonly error?: string | undefined;
  readonly message?: string | undefined;
}

/** A `WWW-Authenticate` Bearer challenge (RFC 6750 §3, RFC 9728 §5.1). */
export function challengeHeader(metadataUrl: string | undefined, { scopes, error, message }: Challenge): string {
  const params: string[] = [];
  if (metadataUrl !== undefined) params.push(`resource_metadata="${quoted(metadataUrl)}"`);
  if (scopes.length > 0) params.push(`scope="${quoted(scopes.join(" "))}"`);
  if (error !== undefined) params.push(`error="${error}"`);
  if (message !== undefined) params.push(`error_description="${described(message)}"`);
  return params.length > 0 ? `Bearer ${params.join(", ")}` : "Bearer";
}

/** Quoted-string content (RFC 9110 §5.6.4), within printable ASCII. */
function quoted(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, "?").replace(/["\\]/g, "\\$&");
}

/**
 * An `error_description` as RFC 6750 §3 allows it: %x20-21 / %x23-5B / %x5D-7E, so no `"` or `\`,
 * not even escaped (a client parsing by that grammar may reject the whole challenge). Quotes become
 * apostrophes, a backslash a slash, and anything else outside printable ASCII "?".
 */
function described(value: string): string {
  return value
    .replace(/"/g, "'")
    .replace(/\\/g, "/")
    .replace(/[^\x20-\x7e]/g, "?");
}
