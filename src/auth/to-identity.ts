import { isObject } from "../core/jsonrpc.js";
import type { Identity, IdentityInit } from "./identity.js";
import { keyOwner } from "./owner.js";

const REDACTED = "[redacted]";

/**
 * Builds the frozen identity handlers see, with its owner key (owner.ts's `keyOwner`). Only
 * known fields are copied; any string in the claims, at any depth, that holds the raw token (a
 * verifier that kept it) is redacted, a key as a value.
 */
export async function toIdentity(init: IdentityInit, token?: string): Promise<Identity> {
  if (typeof init?.subject !== "string" || init.subject === "") {
    throw new TypeError("An identity needs a non-empty subject (the token's sub).");
  }
  const scopes = typeof init.scopes === "string" ? init.scopes.split(" ").filter(Boolean) : [...(init.scopes ?? [])];
  return keyOwner(
    Object.freeze({
      subject: init.subject,
      scopes: Object.freeze(scopes),
      roles: Object.freeze([...(init.roles ?? [])]),
      clientId: init.clientId,
      issuer: init.issuer,
      expiresAt: init.expiresAt,
      claims: Object.freeze(token === undefined ? { ...init.claims } : withoutToken(init.claims ?? {}, token)),
    }),
  );
}

function withoutToken(claims: Record<string, unknown>, token: string): Record<string, unknown> {
  // A key is a string of the claims too: one that holds the token is redacted as a value is.
  // fromEntries defines each key as its own property: a claim named "__proto__" stays a claim, where
  // an assignment would set the copy's prototype.
  return Object.fromEntries(
    Object.entries(claims).map(([key, value]) => [key.includes(token) ? REDACTED : key, redacted(value, token)]),
  );
}

/** `value` with every string that holds the raw token replaced, at any depth (a claim may nest it). */
function redacted(value: unknown, token: string): unknown {
  if (typeof value === "string") return value.includes(token) ? REDACTED : value;
  if (Array.isArray(value)) return value.map((item) => redacted(item, token));
  return isObject(value) ? withoutToken(value, token) : value;
}
