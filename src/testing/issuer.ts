import type { VerifiedToken } from "../auth/identity.js";
import { encodeBase64Url, type JsonWebKeySet, jwtVerifier } from "../auth/jwt.js";

export interface TestIssuerOptions {
  /** The `iss` of minted tokens. Default: "https://auth.test". */
  issuer?: string;
  /** The `aud` of minted tokens: the server's resource URL. Default: "http://localhost/mcp", the harness's URL. */
  audience?: string;
}

/** What goes into a minted token; anything else goes in `claims`. */
export interface MintOptions {
  /** `sub`. Default: "user-1". */
  subject?: string;
  /** `scope`, space-separated in the token. */
  scopes?: string[];
  roles?: string[];
  /** `aud`. Default: the issuer's audience. */
  audience?: string | string[];
  /** `iss`. Default: the issuer's. */
  issuer?: string;
  /** Seconds from now until `exp`; negative for a token that already expired. Default: 3600. */
  expiresIn?: number;
  /** Seconds from now until `nbf`. */
  notBefore?: number;
  /** More claims, e.g. `client_id`. */
  claims?: Record<string, unknown>;
}

/** An authorization server in memory: an ES256 key pair, its JWKS, and tokens signed with it. */
export interface TestIssuer {
  readonly issuer: string;
  readonly audience: string;
  /** The public keys, as the issuer's `jwks_uri` would serve them. */
  readonly jwks: JsonWebKeySet;
  /** A `jwtVerifier` that trusts this issuer, for `pico({ auth: { verify } })`. */
  readonly verify: (token: string) => Promise<VerifiedToken>;
  /** A signed access token. */
  mint(options?: MintOptions): Promise<string>;
  /** Tokens that must be refused, one per way a token can be wrong. */
  readonly bad: {
    expired(options?: MintOptions): Promise<string>;
    notYetValid(options?: MintOptions): Promise<string>;
    wrongAudience(options?: MintOptions): Promise<string>;
    wrongIssuer(options?: MintOptions): Promise<string>;
    noExpiry(options?: MintOptions): Promise<string>;
    /** Signed by another key with the same key id. */
    badSignature(options?: MintOptions): Promise<string>;
    /** `alg: none`, no signature. */
    unsigned(options?: MintOptions): Promise<string>;
  };
}

const ES256: EcKeyGenParams = { name: "ECDSA", namedCurve: "P-256" };
const SIGN = { name: "ECDSA", hash: "SHA-256" };

/** Makes a test issuer: real signed JWTs, with no network and no authorization server. */
export async function testIssuer(options: TestIssuerOptions = {}): Promise<TestIssuer> {
  const issuer = options.issuer ?? "https://auth.test";
  const audience = options.audience ?? "http://localhost/mcp";
  const kid = "test-key-1";
  const pair = await crypto.subtle.generateKey(ES256, true, ["sign", "verify"]);
  const other = await crypto.subtle.generateKey(ES256, true, ["sign", "verify"]);
  const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", pair.publicKey);
  const jwks: JsonWebKeySet = { keys: [{ kty, crv, x, y, kid, alg: "ES256", use: "sig" }] };

  const claimsOf = (mint: MintOptions, drop?: string): Record<string, unknown> => {
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: mint.issuer ?? issuer,
      sub: mint.subject ?? "user-1",
      aud: mint.audience ?? audience,
      iat: now,
      exp: now + (mint.expiresIn ?? 3600),
      ...(mint.scopes ? { scope: mint.scopes.join(" ") } : {}),
      ...(mint.roles ? { roles: mint.roles } : {}),
      ...(mint.notBefore !== undefined ? { nbf: now + mint.notBefore } : {}),
      ...mint.claims,
    };
    if (drop) delete claims[drop];
    return claims;
  };
  const sign = async (claims: Record<string, unknown>, key = pair.privateKey, alg = "ES256") => {
    const head = `${encodeBase64Url(JSON.stringify({ alg, typ: "at+jwt", kid }))}.${encodeBase64Url(JSON.stringify(claims))}`;
    if (alg === "none") return `${head}.`;
    const signature = await crypto.subtle.sign(SIGN, key, new TextEncoder().encode(head));
    return `${head}.${encodeBase64Url(new Uint8Array(signature))}`;
  };

  return {
    issuer,
    audience,
    jwks,
    verify: jwtVerifier({ issuer, keys: jwks }),
    mint: (mint = {}) => sign(claimsOf(mint)),
    bad: {
      expired: (mint = {}) => sign(claimsOf({ ...mint, expiresIn: -3600 })),
      notYetValid: (mint = {}) => sign(claimsOf({ ...mint, notBefore: 3600 })),
      wrongAudience: (mint = {}) => sign(claimsOf({ ...mint, audience: "https://another.example/mcp" })),
      wrongIssuer: (mint = {}) => sign(claimsOf({ ...mint, issuer: "https://evil.example" })),
      noExpiry: (mint = {}) => sign(claimsOf(mint, "exp")),
      badSignature: (mint = {}) => sign(claimsOf(mint), other.privateKey),
      unsigned: (mint = {}) => sign(claimsOf(mint), undefined, "none"),
    },
  };
}
