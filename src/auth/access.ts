import type { AccessCheck, AnyAccess } from "../core/caller.js";

export type { Access, AccessCheck, AnyAccess, Denial } from "../core/caller.js";

/** Any object: its fields can be read by name (an array's too), each of unknown type. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
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
  const { scopes, roles, allow, ...rest }: Record<string, unknown> = isRecord(access) ? access : {};
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
