import type { Identity } from "./identity.js";

type MaybePromise<T> = T | Promise<T>;

/** A check on the caller and the (validated) arguments; false refuses the call. */
export type AccessCheck<Args = unknown> = (identity: Identity, args: Args) => MaybePromise<boolean>;

/**
 * What a tool, resource or prompt needs from its caller, declared at registration as `auth`:
 *
 * - `"public"`: anyone, signed in or not (`ctx.auth` is set when a valid token came anyway);
 * - `"signed-in"`: any caller with a valid token;
 * - `{ scopes, roles, allow }`: a valid token with every scope and every role listed, and `allow`
 *   (if given) answering true for the caller and the validated arguments;
 * - a function: `allow` alone.
 *
 * Scopes are advertised (`securitySchemes`) and a missing one gets a step-up challenge; roles and
 * `allow` are enforced but not advertised, and a refusal is a plain "not permitted".
 */
export type Access<Args = unknown> =
  | "public"
  | "signed-in"
  | { scopes?: readonly string[]; roles?: readonly string[]; allow?: AccessCheck<Args> }
  | AccessCheck<Args>;

/** Any registration's rule, whatever its arguments (what the core handles). */
export type AnyAccess = Access<never>;

/** Why a call was refused, in the terms of RFC 6750 §3.1. */
export interface Denial {
  /** 401: no valid token; 403 with `insufficient_scope`: a token without the scopes; 403 alone: not permitted. */
  readonly status: 401 | 403;
  readonly error: "invalid_token" | "insufficient_scope" | undefined;
  /** The scopes to ask for (challenge `scope`): the ones needed plus the granted ones still relevant. */
  readonly scopes: readonly string[];
  readonly message: string;
}

/** A `securitySchemes` entry (OpenAI Apps SDK, SEP-1488). */
export type SecurityScheme = { type: "noauth" } | { type: "oauth2"; scopes: string[] };

/** A rule taken apart. */
export function parts(access: AnyAccess): {
  scopes: readonly string[];
  roles: readonly string[];
  allow?: AccessCheck<never>;
} {
  if (typeof access === "function") return { scopes: [], roles: [], allow: access };
  if (typeof access === "string") return { scopes: [], roles: [] };
  return { scopes: access.scopes ?? [], roles: access.roles ?? [], allow: access.allow };
}

/** The scopes an access rule requires. */
export function scopesOf(access: AnyAccess | undefined): readonly string[] {
  return access === undefined ? [] : parts(access).scopes;
}

/** Checks an access rule when it is declared, so a typo fails at start-up rather than on a call. */
export function checkAccess(access: unknown, what: string): void {
  if (access === undefined || access === "public" || access === "signed-in" || typeof access === "function") return;
  const { scopes, roles, allow, ...rest } = (access ?? {}) as Record<string, unknown>;
  const list = (value: unknown) =>
    value === undefined || (Array.isArray(value) && value.every((v) => v && typeof v === "string"));
  if (
    typeof access !== "object" ||
    Object.keys(rest).length > 0 ||
    !list(scopes) ||
    !list(roles) ||
    !["undefined", "function"].includes(typeof allow)
  ) {
    throw new TypeError(
      `${what} has an invalid auth: use "public", "signed-in", { scopes?, roles?, allow? }, or a function (identity, args) => boolean.`,
    );
  }
}

/** What clients are told a registration needs: `noauth`, or `oauth2` with its scopes. */
export function securitySchemes(access: AnyAccess | undefined): SecurityScheme[] {
  if (access === undefined || access === "public") return [{ type: "noauth" }];
  return [{ type: "oauth2", scopes: [...scopesOf(access)] }];
}
