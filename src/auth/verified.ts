import type { VerifiedToken } from "./identity.js";

/**
 * What the token verifiers share: reading a checked token's lists, the same for a JWT payload
 * (RFC 9068) and an introspection answer (RFC 7662 §2.2), and remembering verified tokens.
 */

/** The strings of a claim that should be a list of them; anything else in it is ignored. */
export function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** `aud`: one audience or a list of them (RFC 7519 §4.1.3). */
export function audiencesOf(aud: unknown): string[] {
  return typeof aud === "string" ? [aud] : stringsOf(aud);
}

/**
 * A number of seconds a verifier is configured with (a clock skew, a cache's lifetime), checked when
 * the verifier is made: finite and not negative, or `fallback` when not given. `name` says whose
 * option it is, for the message. NaN, as `Number(process.env.UNSET)` gives, is false in every
 * comparison it is in: as a clock skew it would accept expired tokens, as the key set's lifetime
 * fetch the keys again for every request.
 */
export function secondsOption(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  // Number.isFinite is false for anything but a number, "60" included.
  if (!Number.isFinite(value) || value < 0) {
    throw new TypeError(
      `${name} must be a number of seconds, 0 or more (leave it out for ${fallback}); got ${String(value)}.`,
    );
  }
  return value;
}

/** A verifier's `timeoutMs`, checked as `secondsOption` checks seconds: a whole number of milliseconds (AbortSignal.timeout takes no other), at least 1; 5000 when not given. */
export function timeoutOption(name: string, value: number | undefined): number {
  if (value === undefined) return 5000;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(
      `${name} must be a whole number of milliseconds, 1 or more (leave it out for 5000); got ${String(value)}.`,
    );
  }
  return value;
}

/** The refusal of a token from an issuer the verifier does not trust, as both verifiers say it. */
export const OTHER_ISSUER =
  "The access token comes from another issuer: sign in with this server's authorization server";

/** The refusal of a token past its expiry, as both verifiers and the gate say it. */
export const EXPIRED = "The access token expired: refresh it, or sign in again";

/** What to do about an `nbf` or `iat` still to come: one of the two clocks is wrong, or the token is early. */
const CHECK_CLOCK = ": check that this server's clock agrees with the authorization server's, or use the token later";

/** The refusal of a token whose `nbf` is still to come, past the clock skew, as both verifiers say it. */
export const NOT_YET_VALID = `The access token is not valid yet (nbf)${CHECK_CLOCK}`;

/** The refusal of a token whose `iat` is still to come, past the clock skew, as both verifiers say it. */
export const ISSUED_IN_FUTURE = `The access token was issued in the future (iat)${CHECK_CLOCK}`;

/** Verified tokens kept: enough for the callers of a busy server, bounded so random tokens cannot grow it. */
const CACHE_SIZE = 1000;

/**
 * Verified tokens (or, for introspection, refusals) by key, each until a time in milliseconds, so a
 * client's next requests skip the verification; at `CACHE_SIZE` entries the oldest goes first.
 */
export class VerifiedCache<T = VerifiedToken> {
  readonly #entries = new Map<string, { result: T; until: number }>();

  get(key: string): T | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.until > Date.now()) return entry.result;
    if (entry) this.#entries.delete(key);
    return undefined;
  }

  set(key: string, result: T, until: number): void {
    if (this.#entries.size >= CACHE_SIZE) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { result, until });
  }
}

/**
 * The cache key of a token: its SHA-256 (Web Crypto), so that a cache holds no token a memory dump
 * could replay, for as long as it keeps its answer.
 */
export async function tokenKey(token: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  return String.fromCharCode(...hash);
}
