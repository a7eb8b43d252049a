/**
 * The JWT access token verifier of `picomcp/jwt` (RFC 7519, RFC 7515, RFC 9068): Web Crypto
 * signatures, the algorithm allow list, issuer, expiry, not-before, clock skew, audience, and the
 * issuer's key set fetched, cached and refetched on rotation. Keys are made here; nothing goes on the network.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { encodeBase64Url } from "../src/auth/jwt.js";
import { jwtVerifier } from "../src/jwt.js";

const ISSUER = "https://auth.test";
const now = () => Math.floor(Date.now() / 1000);

type Key = { jwk: JsonWebKey & { kid?: string }; sign: (data: Uint8Array) => Promise<ArrayBuffer>; alg: string };

async function key(alg: "RS256" | "PS256" | "ES256" | "ES384" | "EdDSA", kid: string = alg): Promise<Key> {
  const params: Record<string, [RsaHashedKeyGenParams | EcKeyGenParams | { name: string }, object]> = {
    RS256: [
      { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
      { name: "RSASSA-PKCS1-v1_5" },
    ],
    PS256: [
      { name: "RSA-PSS", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
      { name: "RSA-PSS", saltLength: 32 },
    ],
    ES256: [
      { name: "ECDSA", namedCurve: "P-256" },
      { name: "ECDSA", hash: "SHA-256" },
    ],
    ES384: [
      { name: "ECDSA", namedCurve: "P-384" },
      { name: "ECDSA", hash: "SHA-384" },
    ],
    EdDSA: [{ name: "Ed25519" }, { name: "Ed25519" }],
  };
  const [generate, signing] = params[alg]!;
  const pair = (await crypto.subtle.generateKey(generate, true, ["sign", "verify"])) as CryptoKeyPair;
  const { kty, n, e, crv, x, y } = await crypto.subtle.exportKey("jwk", pair.publicKey);
  const jwk = Object.fromEntries(Object.entries({ kty, n, e, crv, x, y, kid, alg, use: "sig" }).filter(([, v]) => v));
  return {
    jwk,
    alg,
    sign: (data) => crypto.subtle.sign(signing as AlgorithmIdentifier, pair.privateKey, data as BufferSource),
  };
}

async function jwt(
  signer: Key,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = {},
): Promise<string> {
  const head = `${encodeBase64Url(JSON.stringify({ alg: signer.alg, kid: signer.jwk.kid, ...header }))}.${encodeBase64Url(JSON.stringify(claims))}`;
  return `${head}.${encodeBase64Url(new Uint8Array(await signer.sign(new TextEncoder().encode(head))))}`;
}

const claims = (extra: Record<string, unknown> = {}) => ({
  iss: ISSUER,
  sub: "ada",
  aud: "https://mcp.example.com/mcp",
  exp: now() + 600,
  ...extra,
});

describe("jwtVerifier", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(["RS256", "PS256", "ES256", "ES384", "EdDSA"] as const)(
    "verifies %s tokens and reports the identity",
    async (alg) => {
      const signer = await key(alg);
      const verify = jwtVerifier({ issuer: ISSUER, keys: [signer.jwk] });
      const token = await jwt(signer, claims({ scope: "read write", roles: ["admin"], client_id: "app" }));
      expect(await verify(token)).toMatchObject({
        subject: "ada",
        audience: ["https://mcp.example.com/mcp"],
        scopes: ["read", "write"],
        roles: ["admin"],
        clientId: "app",
        issuer: ISSUER,
        claims: { sub: "ada" },
      });
    },
  );

  it("reads scp lists, azp, and a roles claim of another name", async () => {
    const signer = await key("ES256");
    const verify = jwtVerifier({ issuer: ISSUER, keys: { keys: [signer.jwk] }, rolesClaim: "groups" });
    const identity = await verify(await jwt(signer, claims({ scp: ["a", "b"], azp: "web", groups: ["staff"] })));
    expect(identity).toMatchObject({ scopes: ["a", "b"], clientId: "web", roles: ["staff"] });
  });

  it("checks issuer, expiry, not-before and audience, with clock skew", async () => {
    const signer = await key("ES256");
    const verify = jwtVerifier({
      issuer: [ISSUER, "https://other-issuer.test"],
      keys: [signer.jwk],
      clockSkewSeconds: 30,
      audience: "https://mcp.example.com/mcp",
    });
    const reject = async (extra: Record<string, unknown>, reason: RegExp) =>
      expect(verify(await jwt(signer, claims(extra)))).rejects.toMatchObject({
        name: "InvalidTokenError",
        message: reason,
      });
    await reject({ iss: "https://evil.test" }, /another issuer/);
    await reject({ exp: now() - 31 }, /expired/);
    await reject({ nbf: now() + 31 }, /not valid yet/);
    await reject({ exp: undefined }, /no expiry/);
    await reject({ exp: "soon" }, /exp is not a number/);
    await reject({ aud: "https://other.example/mcp" }, /another audience/);
    await reject({ sub: undefined }, /no subject/);
    // Within the leeway, and from the second issuer.
    await expect(verify(await jwt(signer, claims({ exp: now() - 20, nbf: now() + 20 })))).resolves.toBeTruthy();
    await expect(verify(await jwt(signer, claims({ iss: "https://other-issuer.test" })))).resolves.toBeTruthy();
    const lenient = jwtVerifier({ issuer: ISSUER, keys: [signer.jwk], requireExpiry: false });
    await expect(lenient(await jwt(signer, claims({ exp: undefined })))).resolves.toBeTruthy();
  });

  it("refuses unaccepted algorithms, tampered tokens, unknown keys and malformed input", async () => {
    const signer = await key("ES256");
    const other = await key("ES256");
    const verify = jwtVerifier({ issuer: ISSUER, keys: [signer.jwk], algorithms: ["ES256"] });
    const good = await jwt(signer, claims());
    const [head, , signature] = good.split(".");
    const tampered = `${head}.${encodeBase64Url(JSON.stringify(claims({ sub: "root" })))}.${signature}`;
    await expect(verify(tampered)).rejects.toThrow(/signature is not valid/);
    await expect(verify(await jwt(other, claims()))).rejects.toThrow(/signature is not valid/);
    await expect(verify(await jwt(other, claims(), { kid: "nobody" }))).rejects.toThrow(/signing key is unknown/);
    await expect(verify(`${encodeBase64Url(JSON.stringify({ alg: "none" }))}.${good.split(".")[1]}.`)).rejects.toThrow(
      /"none", which is not accepted/,
    );
    await expect(
      verify(`${encodeBase64Url(JSON.stringify({ alg: "HS256" }))}.${good.split(".")[1]}.abc`),
    ).rejects.toThrow(/not accepted/);
    await expect(verify("a.b")).rejects.toThrow(/not a JWT/);
    await expect(verify("!!!.e30.e30")).rejects.toThrow(/header is malformed/);
    // A key for encryption is never used to verify.
    const encryption = jwtVerifier({ issuer: ISSUER, keys: [{ ...signer.jwk, use: "enc" }] });
    await expect(encryption(good)).rejects.toThrow(/signing key is unknown/);
    expect(() => jwtVerifier({ issuer: ISSUER, keys: [], algorithms: ["HS256"] })).toThrow(/HS\* and none are refused/);
    expect(() => jwtVerifier({ issuer: ISSUER })).toThrow(/jwksUrl or keys/);
    expect(() => jwtVerifier({ issuer: "", keys: [] })).toThrow(/issuer/);
  });

  it("fetches the key set once, caches it, and refetches on a new key id (rotation)", async () => {
    const first = await key("ES256", "k1");
    const second = await key("RS256", "k2");
    let served: JsonWebKey[] = [first.jwk];
    const fetched: string[] = [];
    const fetch = (async (url: string | URL | Request) => {
      fetched.push(String(url));
      return Response.json({ keys: served });
    }) as typeof globalThis.fetch;
    const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: "https://auth.test/jwks", fetch });
    // Concurrent first calls share one fetch.
    await Promise.all([verify(await jwt(first, claims())), verify(await jwt(first, claims({ sub: "bob" })))]);
    expect(fetched).toEqual(["https://auth.test/jwks"]);
    served = [first.jwk, second.jwk];
    // A key id not seen yet refetches, once the last fetch is more than 30 s old (no refetch storms).
    await expect(verify(await jwt(second, claims({ sub: "carol" })))).rejects.toThrow(/unknown/);
    expect(fetched).toHaveLength(1);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 31_000);
    expect((await verify(await jwt(second, claims({ sub: "carol" })))).subject).toBe("carol");
    expect(fetched).toHaveLength(2);
    // Another unknown key soon after: no refetch storm, just a refusal.
    const stranger = await key("ES256", "k3");
    await expect(verify(await jwt(stranger, claims()))).rejects.toThrow(/unknown/);
    expect(fetched).toHaveLength(2);
  });

  it("says so when the key set cannot be fetched, and keeps using the last one it had", async () => {
    const signer = await key("ES256", "k1");
    let up = false;
    const fetch = (async () =>
      up ? Response.json({ keys: [signer.jwk] }) : new Response("down", { status: 503 })) as typeof globalThis.fetch;
    const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: "https://auth.test/jwks", fetch, jwksCacheSeconds: 0 });
    await expect(verify(await jwt(signer, claims()))).rejects.toThrow(/could not be fetched \(HTTP 503\)/);
    up = true;
    await expect(verify(await jwt(signer, claims({ sub: "x" })))).resolves.toBeTruthy();
    up = false;
    await expect(verify(await jwt(signer, claims({ sub: "y" })))).resolves.toBeTruthy();
  });

  it("caches a verified token until it expires", async () => {
    const signer = await key("ES256");
    const verify = jwtVerifier({ issuer: ISSUER, keys: [signer.jwk], clockSkewSeconds: 0 });
    const token = await jwt(signer, claims());
    expect(await verify(token)).toBe(await verify(token));
  });
});
