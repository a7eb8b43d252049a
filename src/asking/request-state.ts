import type { StateKey } from "../core/types.js";
/**
 * Sealed `requestState` for multi round-trip requests (2026-07-28 §3.4): the client echoes it
 * back untouched, so the server signs it (HMAC-SHA256 through Web Crypto) and binds it to the
 * method, a digest of the params, the principal and an expiry. Signed, not encrypted: put nothing
 * secret in it. Each state has an id, so that it is accepted once (see used-states.ts).
 */

import { isObject } from "../core/jsonrpc.js";
import { deepJson, stackedJson } from "../state/stacked-json.js";

/** The most state the server accepts back; larger is rejected rather than parsed. */
export const MAX_STATE_BYTES = 64 * 1024;

export interface StatePayload {
  /** The state's own id: random, never reused (see `stateId`). */
  i: string;
  /** The method the state belongs to. */
  m: string;
  /** SHA-256 of the request's params without `_meta`, `inputResponses` and `requestState`. */
  d: string;
  /** The authenticated principal, or "" when there is none. */
  p: string;
  /** Expiry, in milliseconds since the epoch. */
  e: number;
  /** Every answer collected so far, by key. */
  a: Record<string, unknown>;
  /** The keys asked in the round this state ends: only those are read from `inputResponses`. */
  q: string[];
  /** Rounds so far. */
  r: number;
}

const encoder = new TextEncoder();

/**
 * `v1.<payload>.<signature>`, both base64url without padding; the signature is HMAC-SHA256's 32
 * bytes, 43 characters. Nothing else parses: no other segment, padding, space or character.
 */
const STATE = /^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;

/** A fresh id for a state: 128 random bits. */
export function stateId(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}

export class StateSealer {
  readonly #key: Promise<CryptoKey>;
  readonly ttlMs: number;

  constructor(secret: StateKey | undefined, ttlMs = 10 * 60_000) {
    const bytes =
      secret === undefined
        ? crypto.getRandomValues(new Uint8Array(32))
        : typeof secret === "string"
          ? encoder.encode(secret)
          : // A copy: Web Crypto takes no view of a SharedArrayBuffer, which a Uint8Array may be.
            new Uint8Array(secret);
    if (bytes.byteLength < 32) throw new TypeError("requestStateKey must be at least 32 bytes (256 bits) long.");
    this.#key = crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    this.ttlMs = ttlMs;
  }

  async seal(payload: StatePayload): Promise<string> {
    // The answers it carries are the client's, and may nest deeper than JSON.stringify recurses.
    const body = base64url(encoder.encode(deepJson(payload)));
    const signature = await crypto.subtle.sign("HMAC", await this.#key, encoder.encode(body));
    return `v1.${body}.${base64url(new Uint8Array(signature))}`;
  }

  /**
   * The payload, or why the state is not acceptable; never trusts anything before the signature
   * checks out. Parsed strictly: exactly the form `seal` writes, the signature in its one spelling
   * (base64url has others for the same bytes), the payload of the shape `seal` was given.
   */
  async open(state: string): Promise<StatePayload | string> {
    if (state.length > MAX_STATE_BYTES) return `requestState is larger than ${MAX_STATE_BYTES} bytes`;
    if (!state.startsWith("v1.") || state.split(".").length !== 3) {
      return "requestState is not one this server issued (it must be v1.<payload>.<signature>, exactly as sent)";
    }
    const [, body = "", signature = ""] = STATE.exec(state) ?? [];
    const bytes = fromBase64url(signature);
    if (
      !bytes ||
      base64url(bytes) !== signature ||
      !(await crypto.subtle.verify("HMAC", await this.#key, bytes, encoder.encode(body)))
    ) {
      return "requestState failed verification (it was altered, or issued by another server)";
    }
    const payload = readPayload(body);
    if (!payload) return "requestState is not one this server issued (its contents have another form)";
    if (payload.e < Date.now()) return "requestState has expired; send the request again without it";
    return payload;
  }
}

/** The payload of a verified state, if it has the shape `seal` writes (a key shared with something else might not). */
function readPayload(body: string): StatePayload | undefined {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(fromBase64url(body)));
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const { i, m, d, p, e, a, q, r } = value;
  if (typeof i !== "string" || typeof m !== "string" || typeof d !== "string" || typeof p !== "string")
    return undefined;
  if (typeof e !== "number" || typeof r !== "number" || !Number.isSafeInteger(r) || !isObject(a)) return undefined;
  if (!Array.isArray(q) || !q.every((key): key is string => typeof key === "string")) return undefined;
  return { i, m, d, p, e, a, q, r };
}

/**
 * SHA-256 of a value's canonical JSON (object keys sorted), so equal params give equal digests. A
 * stack writes it, not recursion: params nested 100,000 deep, which JSON.parse reads, overflowed the
 * call stack (the request was answered -32603 "Maximum call stack size exceeded").
 */
export async function digest(value: unknown): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", encoder.encode(stackedJson(value, true)));
  return base64url(new Uint8Array(hash));
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}
