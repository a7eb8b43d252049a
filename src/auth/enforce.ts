import type { RequestContext } from "../context.js";
import { ErrorCode, McpError } from "../errors.js";
import type { CallToolResult } from "../tools.js";
import { type AnyAccess, challengeHeader, checkArguments, checkCaller, type Denial } from "./access.js";
import type { AuthSettings, ExchangeAuth } from "./settings.js";

/** What the core knows about auth for one request, besides the identity (`ctx.auth`). */
export interface Gate extends ExchangeAuth {
  readonly settings: AuthSettings | undefined;
}

/** The `_meta` key of an in-band auth challenge (OpenAI Apps SDK; MCP SEP issue #1489). */
export const WWW_AUTHENTICATE_META = "mcp/www_authenticate";

const NONE: ReadonlySet<string> = new Set();

/** The gate of one request: the server's settings, and what the transport says about challenges. */
export function openGate(settings: AuthSettings | undefined, auth: ExchangeAuth | undefined): Gate | undefined {
  if (!auth) {
    // Most requests carry nothing from the transport: their gate is the same for all, made once.
    if (!settings) return undefined;
    let gate = plain.get(settings);
    if (!gate) {
      gate = { settings, metadataUrl: settings.metadataUrl, challenge: undefined };
      plain.set(settings, gate);
    }
    return gate;
  }
  return { settings, metadataUrl: auth.metadataUrl ?? settings?.metadataUrl, challenge: auth.challenge };
}

const plain = new WeakMap<AuthSettings, Gate>();

function accessOf(ctx: RequestContext, declared: AnyAccess | undefined): AnyAccess {
  const settings = ctx.gate?.settings;
  return settings ? settings.accessOf(declared) : (declared ?? "public");
}

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
