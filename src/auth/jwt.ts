import { messageOf } from "../core/errors.js";
import { isObject } from "../core/jsonrpc.js";
import { isSecureUrl, readJson } from "./fetched.js";
import { AuthorizationServerUnavailable, InvalidTokenError, type VerifiedToken } from "./identity.js";
import { getSecurely } from "./redirects.js";
import {
  audiencesOf,
  EXPIRED,
  ISSUED_IN_FUTURE,
  NOT_YET_VALID,
  OTHER_ISSUER,
  secondsOption,
  stringsOf,
  timeoutOption,
  tokenKey,
  VerifiedCache,
} from "./verified.js";

/** A JSON Web Key Set (RFC 7517 §5). */
export interface JsonWebKeySet {
  keys: PublicJwk[];
}

/**
 * A public JSON Web Key: its common parameters (RFC 7517 §4) and those of RSA, EC and OKP public
 * keys (RFC 7518 §6, RFC 8037 §2). Declared here, not as the DOM's `JsonWebKey`, which a project
 * whose `lib` has no "dom" (Node with @types/node) lacks; `kid` is one `JsonWebKey` leaves out.
 */
export interface PublicJwk {
  kty?: string;
  kid?: string;
  use?: string;
  alg?: string;
  key_ops?: string[];
  n?: string;
  e?: string;
  crv?: string;
  x?: string;
  y?: string;
}

export interface JwtVerifierOptions {
  /** The issuer (`iss`) tokens must name: your authorization server's issuer URL, or several. */
  issuer: string | string[];
  /** Where the issuer publishes its public keys (its `jwks_uri`). Fetched on first use, then cached. */
  jwksUrl?: string | URL;
  /** The public keys themselves, instead of `jwksUrl`: a JWKS document or a list of keys. */
  keys?: JsonWebKeySet | PublicJwk[];
  /**
   * Audiences (`aud`) to require here as well. picomcp's HTTP gate always checks the audience
   * against the server's `resource`; set this when the verifier is used on its own.
   */
  audience?: string | string[];
  /** Signature algorithms accepted. Default: RS256, PS256, ES256, ES384 and EdDSA. `none` and HS* never are. */
  algorithms?: string[];
  /** Leeway for `exp`, `nbf` and `iat`, in seconds, for clocks that disagree a little. Default: 60. */
  clockSkewSeconds?: number;
  /** How long fetched keys are used before they are fetched again, in seconds. Default: 600. */
  jwksCacheSeconds?: number;
  /** Reject tokens without `exp`. Default: true (a token that never expires cannot be contained). */
  requireExpiry?: boolean;
  /** The claim that lists the caller's roles. Default: "roles". */
  rolesClaim?: string;
  /** The fetch used for `jwksUrl` (for tests, or a runtime without a global fetch). */
  fetch?: typeof fetch;
  /** Timeout of a JWKS fetch, in milliseconds. Default: 5000. */
  timeoutMs?: number;
}

/** How Web Crypto imports and verifies with the keys of one JWS algorithm (RFC 7518 §3.1). */
interface Signing {
  kty: string;
  crv?: string;
  import: RsaHashedImportParams | EcKeyImportParams | Algorithm;
  verify: Algorithm;
}

/** An accepted algorithm: its JWS name and its Web Crypto parameters. */
type Accepted = Signing & { alg: string };

const ALGORITHMS: Record<string, Signing> = {
  RS256: rsa("RSASSA-PKCS1-v1_5", 256),
  RS384: rsa("RSASSA-PKCS1-v1_5", 384),
  RS512: rsa("RSASSA-PKCS1-v1_5", 512),
  PS256: rsa("RSA-PSS", 256),
  PS384: rsa("RSA-PSS", 384),
  PS512: rsa("RSA-PSS", 512),
  ES256: ec("P-256", 256),
  ES384: ec("P-384", 384),
  ES512: ec("P-521", 512),
  EdDSA: { kty: "OKP", crv: "Ed25519", import: { name: "Ed25519" }, verify: { name: "Ed25519" } },
};
const DEFAULT_ALGORITHMS = ["RS256", "PS256", "ES256", "ES384", "EdDSA"];

function rsa(name: string, bits: number) {
  const hash = `SHA-${bits}`;
  return { kty: "RSA", import: { name, hash }, verify: name === "RSA-PSS" ? { name, saltLength: bits / 8 } : { name } };
}

function ec(crv: string, bits: number) {
  return { kty: "EC", crv, import: { name: "ECDSA", namedCurve: crv }, verify: { name: "ECDSA", hash: `SHA-${bits}` } };
}

/** A key id that is not in the set triggers a refetch (key rotation), but at most this often. */
const REFETCH_COOLDOWN_MS = 30_000;

/**
 * The shortest `jwksCacheSeconds`: every path to a fetch waits at least this long after the last one
 * began, so whatever clients send, the issuer is asked at most once a second.
 */
const MIN_JWKS_CACHE_SECONDS = 1;

/**
 * After a failed load while no keys were ever loaded, tokens are refused with that failure's reason
 * for this long before the key set is fetched again: an issuer that is down is not asked once per request.
 */
const RETRY_AFTER_FAILURE_MS = 5_000;

/**
 * A verifier for JWT access tokens (RFC 9068) signed by your authorization server, for
 * `pico({ auth: { verify } })`. It checks the signature with the issuer's keys (Web Crypto: RSA,
 * RSA-PSS, ECDSA, Ed25519), the algorithm against an allow list, `iss`, `exp`, `nbf` and `iat` with clock
 * skew, and `aud` when asked; it reads scopes from `scope` or `scp`, roles from `roles`. Rejections
 * throw `InvalidTokenError` with a short reason, which becomes the 401's `error_description`.
 */
export function jwtVerifier(options: JwtVerifierOptions): (token: string) => Promise<VerifiedToken> {
  const issuers = new Set(Array.isArray(options.issuer) ? options.issuer : [options.issuer]);
  if (issuers.size === 0 || [...issuers].some((issuer) => typeof issuer !== "string" || issuer === "")) {
    throw new TypeError("jwtVerifier needs the issuer URL of your authorization server.");
  }
  if (!options.jwksUrl === !options.keys) throw new TypeError("jwtVerifier needs either jwksUrl or keys.");
  if (options.jwksUrl && !isSecureUrl(new URL(options.jwksUrl))) {
    throw new TypeError(
      `jwtVerifier's jwksUrl must be https (http only on localhost): keys fetched over http could be anyone's. Got "${options.jwksUrl}".`,
    );
  }
  const algorithms = new Map<string, Accepted>();
  for (const alg of options.algorithms ?? DEFAULT_ALGORITHMS) {
    const signing = ALGORITHMS[alg];
    if (!signing) {
      throw new TypeError(
        `jwtVerifier cannot verify ${alg}; use ${Object.keys(ALGORITHMS).join(", ")} (shared-secret HS* and none are refused).`,
      );
    }
    algorithms.set(alg, { ...signing, alg });
  }
  const audiences = options.audience === undefined ? undefined : new Set([options.audience].flat());
  const skew = secondsOption("jwtVerifier's clockSkewSeconds", options.clockSkewSeconds, 60);
  const requireExpiry = options.requireExpiry ?? true;
  const rolesClaim = options.rolesClaim ?? "roles";
  const keys = new KeyStore(options);
  // Verified tokens by their SHA-256, so a client's next request does not pay for the signature check again.
  const verified = new VerifiedCache();

  return async (token) => {
    const key = await tokenKey(token);
    const now = Date.now();
    const cached = verified.get(key);
    if (cached) return cached;
    const parts = token.split(".");
    if (parts.length !== 3) throw new InvalidTokenError("The access token is not a JWT");
    const header = decodeJson(parts[0]!, "header");
    const payload = decodeJson(parts[1]!, "payload");
    // An extension named in `crit` that is not understood makes the JWS invalid (RFC 7515 §4.1.11),
    // and this verifier understands none.
    if (header.crit !== undefined) {
      throw new InvalidTokenError(
        "The access token has critical header parameters (crit) this server does not support",
      );
    }
    // A DPoP proof (RFC 9449 §4.2) is a JWT a client signs to show it holds a key, never an access
    // token. `typ` is a media type: case-insensitive, its "application/" optional (RFC 7515 §4.1.9).
    if (typeof header.typ === "string" && /^(application\/)?dpop\+jwt$/i.test(header.typ)) {
      throw new InvalidTokenError(
        "The access token is a DPoP proof (typ dpop+jwt), not an access token: send the access token itself",
      );
    }
    const alg = header.alg;
    const accepted = typeof alg === "string" ? algorithms.get(alg) : undefined;
    if (!accepted) {
      throw new InvalidTokenError(`The access token is signed with ${JSON.stringify(alg)}, which is not accepted`);
    }
    // A key id is a string (RFC 7515 §4.1.4); any other kid is malformed, not absent, which would try every key.
    if (header.kid !== undefined && typeof header.kid !== "string") {
      throw new InvalidTokenError("The access token's header is malformed: its key id (kid) is not a string");
    }
    const kid = header.kid;
    const candidates = await keys.find(accepted, kid);
    if (candidates.length === 0) throw new InvalidTokenError("The access token's signing key is unknown");
    const signed = new TextEncoder().encode(`${parts[0]}.${parts[1]}`);
    const signature = decodeBase64Url(parts[2]!);
    if (!signature) throw new InvalidTokenError("The access token's signature is malformed");
    let good = false;
    for (const key of candidates) {
      if (await crypto.subtle.verify(accepted.verify, key, signature, signed)) {
        good = true;
        break;
      }
    }
    if (!good) throw new InvalidTokenError("The access token's signature is not valid");

    const seconds = now / 1000;
    if (typeof payload.iss !== "string" || !issuers.has(payload.iss)) {
      throw new InvalidTokenError(OTHER_ISSUER);
    }
    const exp = payload.exp;
    if (exp !== undefined && typeof exp !== "number")
      throw new InvalidTokenError("The access token's exp is not a number");
    if (exp === undefined && requireExpiry) throw new InvalidTokenError("The access token has no expiry (exp)");
    if (exp !== undefined && seconds > exp + skew) throw new InvalidTokenError(EXPIRED);
    const nbf = payload.nbf;
    if (nbf !== undefined && typeof nbf !== "number")
      throw new InvalidTokenError("The access token's nbf is not a number");
    if (nbf !== undefined && seconds + skew < nbf) throw new InvalidTokenError(NOT_YET_VALID);
    // A token issued later than now, past the skew, was not issued by a clock to trust (RFC 7519
    // §4.1.6 leaves iat's use to the application; this is the check nbf and exp get).
    const iat = payload.iat;
    if (iat !== undefined && typeof iat !== "number")
      throw new InvalidTokenError("The access token's iat is not a number");
    if (iat !== undefined && seconds + skew < iat) throw new InvalidTokenError(ISSUED_IN_FUTURE);
    const aud = payload.aud;
    const tokenAudiences = audiencesOf(aud);
    if (audiences && !tokenAudiences.some((audience) => audiences.has(audience))) {
      throw new InvalidTokenError("The access token was issued for another audience");
    }
    if (typeof payload.sub !== "string" || payload.sub === "")
      throw new InvalidTokenError("The access token has no subject (sub)");

    const result: VerifiedToken = {
      subject: payload.sub,
      audience: tokenAudiences,
      scopes: scopesOf(payload),
      roles: stringsOf(payload[rolesClaim]),
      issuer: payload.iss,
      claims: payload,
    };
    const clientId = payload.client_id ?? payload.azp;
    if (typeof clientId === "string") result.clientId = clientId;
    // When this verifier stops accepting the token, `exp` plus the clock skew (RFC 7519 §4.1.4 allows
    // "some small leeway"): picomcp's HTTP gate refuses a token whose `expiresAt` has passed.
    if (exp !== undefined) result.expiresAt = exp + skew;
    verified.set(key, result, Math.min(exp === undefined ? Infinity : (exp + skew) * 1000, now + 300_000));
    return result;
  };
}

/** `scope` (RFC 9068 §2.2.3, space-separated) or `scp` (a list, or a string, as some providers send). */
function scopesOf(payload: Record<string, unknown>): string[] {
  const value = payload.scope ?? payload.scp;
  if (typeof value === "string") return value.split(" ").filter(Boolean);
  return stringsOf(value);
}

/** The issuer's public keys: fetched and cached, refetched when a token names a key not seen yet. */
class KeyStore {
  readonly #options: JwtVerifierOptions;
  /** How long fetched keys are used before they are fetched again, in milliseconds (`jwksCacheSeconds`). */
  readonly #ttl: number;
  readonly #timeoutMs: number;
  #keys: PublicJwk[] | undefined;
  #fetchedAt = 0;
  /** Why and when the last load failed; cleared by one that succeeds. */
  #failure: { error: AuthorizationServerUnavailable; at: number } | undefined;
  #pending: Promise<PublicJwk[]> | undefined;
  readonly #imported = new Map<PublicJwk, Map<Accepted, Promise<CryptoKey | undefined>>>();

  constructor(options: JwtVerifierOptions) {
    this.#options = options;
    const seconds = secondsOption("jwtVerifier's jwksCacheSeconds", options.jwksCacheSeconds, 600);
    if (seconds < MIN_JWKS_CACHE_SECONDS) {
      throw new TypeError(
        `jwtVerifier's jwksCacheSeconds must be ${MIN_JWKS_CACHE_SECONDS} or more: the key set is fetched again once that old, so below a second clients could have the issuer asked for it on nearly every request (a new key id has it fetched sooner anyway); got ${seconds}.`,
      );
    }
    this.#ttl = seconds * 1000;
    this.#timeoutMs = timeoutOption("jwtVerifier's timeoutMs", options.timeoutMs);
    if (options.keys) this.#keys = Array.isArray(options.keys) ? options.keys : options.keys.keys;
  }

  async find(accepted: Accepted, kid: string | undefined): Promise<CryptoKey[]> {
    let keys = await this.#current();
    let matching = this.#matching(keys, accepted, kid);
    if (matching.length === 0 && this.#options.jwksUrl) {
      // A key not seen yet may be the issuer's newest (rotation): asked for at most every 30 s, and
      // while the issuer cannot be reached, whether it is one of its keys cannot be told. A fetch
      // under way may be bringing it: the tokens signed with it wait for that one.
      if (this.#pending || Date.now() - this.#fetchedAt > REFETCH_COOLDOWN_MS) keys = await this.#fetch();
      else if (this.#failure) throw this.#failure.error;
      matching = this.#matching(keys, accepted, kid);
    }
    const imported = await Promise.all(matching.map((jwk) => this.#import(jwk, accepted)));
    return imported.filter((key): key is CryptoKey => key !== undefined);
  }

  #matching(keys: PublicJwk[], spec: Accepted, kid: string | undefined): PublicJwk[] {
    return keys.filter((jwk) => {
      if (kid !== undefined && jwk.kid !== kid) return false;
      if (jwk.use !== undefined && jwk.use !== "sig") return false;
      // Operations the key is for (RFC 7517 §4.3): when listed, verifying must be one.
      if (jwk.key_ops !== undefined && !(Array.isArray(jwk.key_ops) && jwk.key_ops.includes("verify"))) return false;
      if (jwk.alg !== undefined && jwk.alg !== spec.alg) return false;
      if (jwk.kty !== spec.kty || (spec.crv !== undefined && jwk.crv !== spec.crv)) return false;
      return jwk.kty !== "RSA" || rsaBytes(jwk.n) >= 256;
    });
  }

  #current(): Promise<PublicJwk[]> {
    const keys = this.#keys;
    if (keys && (!this.#options.jwksUrl || Date.now() - this.#fetchedAt < this.#ttl)) return Promise.resolve(keys);
    if (!keys && this.#failure && Date.now() - this.#failure.at < RETRY_AFTER_FAILURE_MS)
      return Promise.reject(this.#failure.error);
    // Keys past their time are still the issuer's while it cannot be reached: they are kept.
    return keys ? this.#fetch().catch(() => keys) : this.#fetch();
  }

  #fetch(): Promise<PublicJwk[]> {
    this.#pending ??= this.#load().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #load(): Promise<PublicJwk[]> {
    const fetcher = this.#options.fetch ?? fetch;
    this.#fetchedAt = Date.now();
    let response: Response;
    let body: unknown;
    try {
      // Every URL a redirect leads to must be https too, or the keys could be anyone's.
      response = await getSecurely(String(this.#options.jwksUrl), {
        fetch: fetcher,
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      body = response.ok ? await readJson(response) : undefined;
    } catch (thrown) {
      return this.#fail(`The signing keys could not be fetched: ${messageOf(thrown)}`);
    }
    // The keys are the issuer's JSON: each object is checked field by field before it is used (#matching).
    const keys = isObject(body) && Array.isArray(body.keys) ? (body.keys.filter(isObject) as PublicJwk[]) : undefined;
    if (!keys) return this.#fail(`The signing keys could not be fetched (HTTP ${response.status})`);
    this.#keys = keys;
    this.#failure = undefined;
    this.#imported.clear();
    return keys;
  }

  /** The load failed: remembered, so that a key it could have brought is not called unknown (`find`). */
  #fail(reason: string): never {
    const error = new AuthorizationServerUnavailable(reason);
    this.#failure = { error, at: Date.now() };
    throw error;
  }

  #import(jwk: PublicJwk, accepted: Accepted): Promise<CryptoKey | undefined> {
    let byAlg = this.#imported.get(jwk);
    if (!byAlg) {
      byAlg = new Map();
      this.#imported.set(jwk, byAlg);
    }
    let key = byAlg.get(accepted);
    if (!key) {
      // Only the public parameters: `alg`, `use` and `key_ops` were checked above and would only trip importKey.
      const { kty, n, e, crv, x, y } = jwk;
      const bare = Object.fromEntries(Object.entries({ kty, n, e, crv, x, y }).filter(([, v]) => v !== undefined));
      key = crypto.subtle.importKey("jwk", bare, accepted.import, false, ["verify"]).catch(() => undefined);
      byAlg.set(accepted, key);
    }
    return key;
  }
}

/**
 * The size in octets of an RSA modulus `n`, without leading zero octets (RFC 7518 §6.3.1.1); 0 if
 * it is malformed. RS* and PS* keys MUST be 2048 bits (256 octets) or larger (RFC 7518 §3.3, §3.5).
 */
function rsaBytes(n: unknown): number {
  const bytes = typeof n === "string" ? decodeBase64Url(n) : undefined;
  const first = bytes?.findIndex((byte) => byte !== 0) ?? -1;
  return bytes && first !== -1 ? bytes.length - first : 0;
}

function decodeJson(part: string, what: string): Record<string, unknown> {
  const bytes = decodeBase64Url(part);
  let value: unknown;
  try {
    value = bytes && JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    value = undefined;
  }
  if (!isObject(value)) throw new InvalidTokenError(`The access token's ${what} is malformed`);
  return value;
}

/**
 * Base64url (RFC 4648 §5) without padding, as JWS uses it (RFC 7515 §2); undefined for anything
 * else, including a spelling whose unused low bits are not zero (RFC 4648 §3.5), so that one token
 * has one spelling.
 */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(
    text
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .padEnd(Math.ceil(text.length / 4) * 4, "="),
  );
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return encodeBase64Url(bytes) === text ? bytes : undefined;
}

export function encodeBase64Url(bytes: Uint8Array | string): string {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  let binary = "";
  for (const byte of data) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
