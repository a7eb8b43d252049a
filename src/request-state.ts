/**
 * Sealed `requestState` for multi round-trip requests (2026-07-28 §3.4): the client echoes it
 * back untouched, so the server signs it (HMAC-SHA256 through Web Crypto) and binds it to the
 * method, a digest of the params, the principal and an expiry. Signed, not encrypted: put nothing
 * secret in it.
 */

/** The most state the server accepts back; larger is rejected rather than parsed. */
export const MAX_STATE_BYTES = 64 * 1024;

export interface StatePayload {
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

export type StateKey = string | Uint8Array;

const encoder = new TextEncoder();

export class StateSealer {
  readonly #key: Promise<CryptoKey>;
  readonly ttlMs: number;

  constructor(secret: StateKey | undefined, ttlMs = 10 * 60_000) {
    const bytes =
      secret === undefined
        ? crypto.getRandomValues(new Uint8Array(32))
        : typeof secret === "string"
          ? encoder.encode(secret)
          : secret;
    if (bytes.byteLength < 32) throw new TypeError("requestStateKey must be at least 32 bytes (256 bits) long.");
    this.#key = crypto.subtle.importKey(
      "raw",
      bytes as Uint8Array<ArrayBuffer>,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    this.ttlMs = ttlMs;
  }

  async seal(payload: StatePayload): Promise<string> {
    const body = base64url(encoder.encode(JSON.stringify(payload)));
    const signature = await crypto.subtle.sign("HMAC", await this.#key, encoder.encode(body));
    return `v1.${body}.${base64url(new Uint8Array(signature))}`;
  }

  /** The payload, or why the state is not acceptable; never trusts anything before the signature checks out. */
  async open(state: string): Promise<StatePayload | string> {
    if (state.length > MAX_STATE_BYTES) return `requestState is larger than ${MAX_STATE_BYTES} bytes`;
    const [version, body, signature] = state.split(".");
    if (version !== "v1" || body === undefined || signature === undefined)
      return "requestState is not one this server issued";
    const bytes = fromBase64url(signature);
    if (
      !bytes ||
      !(await crypto.subtle.verify("HMAC", await this.#key, bytes as Uint8Array<ArrayBuffer>, encoder.encode(body)))
    ) {
      return "requestState failed verification (it was altered, or issued by another server)";
    }
    const payload = JSON.parse(new TextDecoder().decode(fromBase64url(body))) as StatePayload;
    if (payload.e < Date.now()) return "requestState has expired; send the request again without it";
    return payload;
  }
}

/** SHA-256 of a value's canonical JSON (object keys sorted), so equal params give equal digests. */
export async function digest(value: unknown): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", encoder.encode(canonical(value)));
  return base64url(new Uint8Array(hash));
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array | undefined {
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}
