/**
 * The JWT access token verifier of `picomcp/jwt` (RFC 7519, RFC 7515, RFC 9068): Web Crypto
 * signatures, the algorithm allow list, issuer, expiry, not-before, clock skew, audience, and the
 * issuer's key set fetched, cached and refetched on rotation. Keys are made here; nothing goes on the network.
 */
import { getHeapSnapshot, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decodeBase64Url, encodeBase64Url } from "../src/auth/jwt.js";
import { type Identity, pico } from "../src/index.js";
import { jwtVerifier } from "../src/jwt.js";
import { harness } from "../src/testing.js";

const ISSUER = "https://auth.test";

/**
 * Whether a string is anywhere in this process's heap (a V8 heap snapshot, read a chunk at a time):
 * given as its UTF-8 bytes, so that the question itself is not a string in the heap.
 */
async function heapHolds(text: Buffer): Promise<boolean> {
  let tail = Buffer.alloc(0);
  for await (const chunk of getHeapSnapshot()) {
    const window = Buffer.concat([tail, Buffer.from(chunk)]);
    if (window.includes(text)) return true;
    tail = window.subarray(-text.length);
  }
  return false;
}
const now = () => Math.floor(Date.now() / 1000);

type Key = {
  jwk: JsonWebKey & { kid?: string };
  sign: (data: Uint8Array<ArrayBuffer>) => Promise<ArrayBuffer>;
  alg: string;
};

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
    sign: (data) => crypto.subtle.sign(signing as AlgorithmIdentifier, pair.privateKey, data),
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
        // A RegExp in toMatchObject matches any string: stringMatching tests it.
        message: expect.stringMatching(reason),
      });
    // Each says what to do (was: "comes from another issuer" and "expired" alone).
    await reject(
      { iss: "https://evil.test" },
      /^The access token comes from another issuer: sign in with this server's authorization server$/,
    );
    await reject({ exp: now() - 31 }, /^The access token expired: refresh it, or sign in again$/);
    // A time to come says which clocks to check, as introspectionVerifier does (was: the refusal alone).
    await reject(
      { nbf: now() + 31 },
      /^The access token is not valid yet \(nbf\): check that this server's clock agrees with the authorization server's, or use the token later$/,
    );
    await reject({ nbf: "later" }, /^The access token's nbf is not a number$/);
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
    // Nor one whose key_ops (RFC 7517 §4.3), as the issuer serves them, leave out verify or are malformed.
    const served = (key_ops: unknown) =>
      jwtVerifier({
        issuer: ISSUER,
        jwksUrl: "https://auth.test/jwks",
        fetch: (async () => Response.json({ keys: [{ ...signer.jwk, key_ops }] })) as typeof globalThis.fetch,
      });
    for (const key_ops of [["encrypt"], ["sign"], [], "verify"]) {
      await expect(served(key_ops)(good)).rejects.toThrow(/signing key is unknown/);
    }
    await expect(served(["sign", "verify"])(good)).resolves.toBeTruthy();
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

  it("fetches the key set at most once a second, however many tokens clients send, at the shortest jwksCacheSeconds", async () => {
    const signer = await key("ES256", "k1");
    let fetched = 0;
    const fetch = (async () => {
      fetched++;
      return Response.json({ keys: [signer.jwk] });
    }) as typeof globalThis.fetch;
    const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: "https://auth.test/jwks", fetch, jwksCacheSeconds: 1 });
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    // Each token is new (no verified token is reused), one after the other and at once, and some with a
    // key id the set does not have.
    const tokens = async (count: number, from: number) =>
      Promise.all(Array.from({ length: count }, (_, i) => jwt(signer, claims({ sub: `u${from + i}` }))));
    for (const token of await tokens(10, 0)) await verify(token);
    await Promise.all((await tokens(10, 10)).map(verify));
    const stranger = await key("ES256", "k9");
    await expect(verify(await jwt(stranger, claims()))).rejects.toThrow(/unknown/);
    expect(fetched).toBe(1);
    vi.setSystemTime(start + 999);
    for (const token of await tokens(10, 20)) await verify(token);
    expect(fetched).toBe(1);
    vi.setSystemTime(start + 1_000);
    await Promise.all((await tokens(10, 30)).map(verify));
    expect(fetched).toBe(2);
  });

  it("says so when the key set cannot be fetched, and keeps using the last one it had", async () => {
    const signer = await key("ES256", "k1");
    let up = false;
    const fetch = (async () =>
      up ? Response.json({ keys: [signer.jwk] }) : new Response("down", { status: 503 })) as typeof globalThis.fetch;
    const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: "https://auth.test/jwks", fetch, jwksCacheSeconds: 1 });
    await expect(verify(await jwt(signer, claims()))).rejects.toThrow(/could not be fetched \(HTTP 503\)/);
    up = true;
    // Fetched again once the 5 s after the failure have passed.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 5_000);
    await expect(verify(await jwt(signer, claims({ sub: "x" })))).resolves.toBeTruthy();
    up = false;
    vi.setSystemTime(Date.now() + 1_000);
    await expect(verify(await jwt(signer, claims({ sub: "y" })))).resolves.toBeTruthy();
  });

  it("answers 503 with Retry-After, not a 401, while the key set it needs cannot be fetched", async () => {
    const first = await key("ES256", "k1");
    const rotated = await key("ES256", "k2");
    let up = false;
    let served = [first.jwk];
    const fetch = (async () =>
      up ? Response.json({ keys: served }) : new Response("down", { status: 502 })) as typeof globalThis.fetch;
    const resource = "https://mcp.example.com/mcp";
    const server = pico({
      name: "t",
      version: "1",
      auth: {
        verify: jwtVerifier({ issuer: ISSUER, jwksUrl: "https://auth.test/jwks", fetch }),
        resource,
        authorizationServers: [ISSUER],
      },
    }).tool("whoami", { description: "Says who.", run: (_args, ctx) => ctx.auth!.subject });
    const list = async (signer: Key) =>
      harness(server, { url: resource, token: await jwt(signer, claims()) }).listTools();
    // No key set yet: the token cannot be checked, so the client is told to try again, not to sign in.
    const down = await list(first);
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("1");
    expect(down.challenge).toBeNull();
    expect(down.error?.message).toBe("The signing keys could not be fetched (HTTP 502)");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 5_000);
    up = true;
    expect((await list(first)).status).toBe(200);
    // The issuer rotated its keys and went down: a token signed with the new key cannot be checked.
    served = [first.jwk, rotated.jwk];
    up = false;
    vi.setSystemTime(Date.now() + 31_000);
    expect((await list(rotated)).status).toBe(503);
    // Within the 30 s before the next fetch, the key is still not known to be anyone's.
    expect((await list(rotated)).status).toBe(503);
    expect((await list(first)).status).toBe(200);
    vi.setSystemTime(Date.now() + 31_000);
    up = true;
    expect((await list(rotated)).status).toBe(200);
  });

  it("caches a verified token until it expires", async () => {
    const signer = await key("ES256");
    const verify = jwtVerifier({ issuer: ISSUER, keys: [signer.jwk], clockSkewSeconds: 0 });
    const token = await jwt(signer, claims());
    expect(await verify(token)).toBe(await verify(token));
  });

  it("keeps no verified token in memory: its cache holds the token's SHA-256", async () => {
    const signer = await key("ES256");
    const verify = jwtVerifier({ issuer: ISSUER, keys: [signer.jwk] });
    // Only the signature's bytes outlive this block: the token itself is the verifier's alone to keep.
    const signature = await (async () => {
      const token = await jwt(signer, claims({ jti: crypto.randomUUID() }));
      const verified = await verify(token);
      expect(await verify(token)).toBe(verified);
      return Buffer.from(token.split(".")[2]!);
    })();
    // RegExp's legacy statics (RegExp.input) keep the last string a regular expression read, whatever it was.
    /./.exec("another string");
    setFlagsFromString("--expose-gc");
    (runInNewContext("gc") as () => void)();
    expect(await heapHolds(signature)).toBe(false);
  });
});

describe("jwtVerifier hardening", () => {
  it("refuses a token issued in the future (iat) beyond the clock skew, as it does nbf and exp", async () => {
    const signer = await key("ES256");
    const verify = jwtVerifier({ issuer: ISSUER, keys: [signer.jwk], clockSkewSeconds: 30 });
    await expect(verify(await jwt(signer, claims({ iat: now() + 3600 })))).rejects.toThrow(
      "The access token was issued in the future (iat): check that this server's clock agrees with the authorization server's, or use the token later",
    );
    await expect(verify(await jwt(signer, claims({ iat: "yesterday" })))).rejects.toThrow(
      "The access token's iat is not a number",
    );
    // Within the skew, a clock a little ahead of ours is accepted.
    await expect(verify(await jwt(signer, claims({ iat: now() + 20 })))).resolves.toMatchObject({ subject: "ada" });
    await expect(verify(await jwt(signer, claims({ iat: now() - 60 })))).resolves.toMatchObject({ subject: "ada" });
  });

  it("refuses a clock skew, key set lifetime or timeout that is no number of seconds (was: NaN accepted expired tokens, and fetched the keys for every token)", async () => {
    const signer = await key("ES256");
    const make = (options: Partial<Parameters<typeof jwtVerifier>[0]>) => () =>
      jwtVerifier({ issuer: ISSUER, jwksUrl: "https://auth.test/jwks", ...options });
    // Number(process.env.UNSET) is NaN.
    expect(make({ clockSkewSeconds: Number.NaN })).toThrow(
      "jwtVerifier's clockSkewSeconds must be a number of seconds, 0 or more (leave it out for 60); got NaN.",
    );
    expect(make({ clockSkewSeconds: Number.POSITIVE_INFINITY })).toThrow(/clockSkewSeconds must be a number/);
    expect(make({ clockSkewSeconds: -1 })).toThrow(/clockSkewSeconds must be a number of seconds, 0 or more/);
    expect(make({ clockSkewSeconds: "60" as never })).toThrow(/clockSkewSeconds .*got 60\./);
    expect(make({ jwksCacheSeconds: Number.NaN })).toThrow(
      "jwtVerifier's jwksCacheSeconds must be a number of seconds, 0 or more (leave it out for 600); got NaN.",
    );
    // Below a second, clients could have the key set fetched for nearly every request they send (was: 0 accepted, and did).
    for (const jwksCacheSeconds of [0, 0.5]) {
      expect(make({ jwksCacheSeconds })).toThrow(
        `jwtVerifier's jwksCacheSeconds must be 1 or more: the key set is fetched again once that old, so below a second clients could have the issuer asked for it on nearly every request (a new key id has it fetched sooner anyway); got ${jwksCacheSeconds}.`,
      );
    }
    expect(make({ timeoutMs: Number.NaN })).toThrow(
      "jwtVerifier's timeoutMs must be a whole number of milliseconds, 1 or more (leave it out for 5000); got NaN.",
    );
    for (const timeoutMs of [0, 1.5, -5]) expect(make({ timeoutMs })).toThrow(/timeoutMs must be a whole number/);
    for (const fine of [
      { clockSkewSeconds: 0 },
      { clockSkewSeconds: 2.5 },
      { jwksCacheSeconds: 1 },
      { timeoutMs: 1 },
    ]) {
      expect(make(fine)).not.toThrow();
    }
    // With a skew of 0, a token a second past its exp is refused.
    const strict = jwtVerifier({ issuer: ISSUER, keys: [signer.jwk], clockSkewSeconds: 0 });
    await expect(strict(await jwt(signer, claims({ exp: now() - 1 })))).rejects.toThrow("The access token expired");
  });

  it("refuses a token with critical header parameters, which it understands none of (RFC 7515 §4.1.11)", async () => {
    const signer = await key("ES256");
    const verify = jwtVerifier({ issuer: ISSUER, keys: [signer.jwk] });
    for (const header of [
      { crit: ["http://example/unknown"], "http://example/unknown": true },
      { crit: ["b64"], b64: false },
      { crit: "x" },
    ]) {
      await expect(verify(await jwt(signer, claims(), header))).rejects.toMatchObject({
        name: "InvalidTokenError",
        message: "The access token has critical header parameters (crit) this server does not support",
      });
    }
  });

  it("refuses a DPoP proof (typ dpop+jwt, RFC 9449 §4.2) however typ is spelled, and accepts other types", async () => {
    const signer = await key("ES256");
    const verify = jwtVerifier({ issuer: ISSUER, keys: [signer.jwk] });
    for (const typ of ["dpop+jwt", "DPoP+JWT", "application/dpop+jwt", "Application/DPoP+jwt"]) {
      await expect(verify(await jwt(signer, claims(), { typ }))).rejects.toMatchObject({
        name: "InvalidTokenError",
        message: "The access token is a DPoP proof (typ dpop+jwt), not an access token: send the access token itself",
      });
    }
    for (const typ of ["at+jwt", "application/at+jwt", "JWT", "dpop+jwt+x"]) {
      await expect(verify(await jwt(signer, claims({ sub: typ }), { typ })), typ).resolves.toBeTruthy();
    }
  });

  it("refuses a kid that is not a string (RFC 7515 §4.1.4), rather than trying every key", async () => {
    const signer = await key("ES256");
    const verify = jwtVerifier({ issuer: ISSUER, keys: [signer.jwk] });
    for (const kid of [7, null, ["ES256"], { id: "ES256" }, true]) {
      await expect(verify(await jwt(signer, claims(), { kid })), JSON.stringify(kid)).rejects.toMatchObject({
        name: "InvalidTokenError",
        message: "The access token's header is malformed: its key id (kid) is not a string",
      });
    }
    // No kid at all still tries the keys that fit.
    await expect(verify(await jwt(signer, claims(), { kid: undefined }))).resolves.toBeTruthy();
  });

  it("holds the clock skew over HTTP too: ctx.auth.expiresAt is exp plus the skew", async () => {
    const signer = await key("ES256");
    const seen: (Identity | undefined)[] = [];
    const server = pico({
      name: "jwt-test",
      version: "1.0.0",
      auth: {
        verify: jwtVerifier({ issuer: ISSUER, keys: [signer.jwk] }),
        resource: "https://mcp.example.com/mcp",
        authorizationServers: [ISSUER],
      },
    }).tool("whoami", {
      description: "Says who is signed in.",
      run: (_args, ctx) => {
        seen.push(ctx.auth);
        return "ok";
      },
    });
    const call = async (exp: number) =>
      harness(server, { url: "https://mcp.example.com/mcp", token: await jwt(signer, claims({ exp })) }).callTool(
        "whoami",
      );
    // Expired 20 s ago: within the default 60 s of skew, as the verifier alone accepts it.
    const exp = now() - 20;
    expect((await call(exp)).status).toBe(200);
    expect(seen[0]?.expiresAt).toBe(exp + 60);
    const late = await call(now() - 61);
    expect(late.status).toBe(401);
    expect(late.challenge).toContain('error_description="The access token expired: refresh it, or sign in again"');
  });

  it("does not fetch a key set that never loaded once per token: it waits 5 s after a failure", async () => {
    const signer = await key("ES256", "k1");
    let up = false;
    let fetches = 0;
    const fetch = (async () => {
      fetches++;
      return up ? Response.json({ keys: [signer.jwk] }) : new Response("down", { status: 503 });
    }) as typeof globalThis.fetch;
    const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: "https://auth.test/jwks", fetch });
    vi.useFakeTimers({ toFake: ["Date"] });
    for (let i = 0; i < 50; i++) {
      await expect(verify(await jwt(signer, claims({ sub: `user-${i}` })))).rejects.toMatchObject({
        name: "AuthorizationServerUnavailable",
        message: "The signing keys could not be fetched (HTTP 503)",
      });
    }
    expect(fetches).toBe(1);
    up = true;
    vi.setSystemTime(Date.now() + 4_999);
    await expect(verify(await jwt(signer, claims()))).rejects.toThrow(/HTTP 503/);
    expect(fetches).toBe(1);
    vi.setSystemTime(Date.now() + 1);
    expect((await verify(await jwt(signer, claims()))).subject).toBe("ada");
    expect(fetches).toBe(2);
  });

  it("refuses RSA keys under 2048 bits (RFC 7518 §3.3), leading zero octets not counted", async () => {
    const params = { name: "RSASSA-PKCS1-v1_5", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]) };
    const pair = await crypto.subtle.generateKey({ ...params, hash: "SHA-256" }, true, ["sign", "verify"]);
    const { kty, n, e } = await crypto.subtle.exportKey("jwk", pair.publicKey);
    const small: Key = {
      jwk: { kty, n, e, kid: "r" },
      alg: "RS256",
      sign: (data) => crypto.subtle.sign(params, pair.privateKey, data),
    };
    const token = await jwt(small, claims());
    const verify = jwtVerifier({ issuer: ISSUER, keys: [small.jwk] });
    await expect(verify(token)).rejects.toThrow(/signing key is unknown/);
    // The same modulus spelled with 128 leading zero octets, 256 in all, is still 1024 bits.
    const padded = encodeBase64Url(new Uint8Array([...new Uint8Array(128), ...decodeBase64Url(n!)!]));
    const zeros = jwtVerifier({ issuer: ISSUER, keys: [{ ...small.jwk, n: padded }] });
    await expect(zeros(token)).rejects.toThrow(/signing key is unknown/);
  });

  it("refuses base64url spelled with unused bits set, in the signature, header and payload (RFC 4648 §3.5)", async () => {
    const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    // The last character with its lowest bit flipped: an unused bit when the length is not a multiple of 4.
    const respelled = (part: string) => {
      expect(part.length % 4).not.toBe(0);
      return part.slice(0, -1) + ALPHABET[ALPHABET.indexOf(part.at(-1)!) ^ 1];
    };
    expect(decodeBase64Url("AA")).toEqual(new Uint8Array([0]));
    expect(decodeBase64Url("AB")).toBeUndefined();
    const signer = await key("ES256", "k");
    const verify = jwtVerifier({ issuer: ISSUER, keys: [signer.jwk] });
    // The header, {"alg":"ES256","kid":"k"}, is 25 octets and these claims 92: neither a multiple of 3.
    const token = await jwt(signer, claims({ exp: 2_000_000_000 }));
    const [head, body, signature] = token.split(".");
    await expect(verify(token)).resolves.toBeTruthy();
    await expect(verify(`${head}.${body}.${respelled(signature!)}`)).rejects.toThrow(/signature is malformed/);
    await expect(verify(`${respelled(head!)}.${body}.${signature}`)).rejects.toThrow(/header is malformed/);
    await expect(verify(`${head}.${respelled(body!)}.${signature}`)).rejects.toThrow(/payload is malformed/);
  });
});

describe("jwtVerifier's key set, from a server that misbehaves", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A body of `size` bytes in 64 KiB chunks, counting what was read of it: the key set, then spaces. */
  const padded = (json: string, size: number) => {
    const read = { bytes: 0 };
    const chunk = new TextEncoder().encode(" ".repeat(65_536));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = sent === 0 ? new TextEncoder().encode(json) : chunk;
        if (sent >= size) return controller.close();
        sent += next.byteLength;
        read.bytes = sent;
        controller.enqueue(next);
      },
    });
    return { body, read };
  };

  it("reads at most 1 MiB of it, declared or streamed, and keeps the keys it had", async () => {
    const signer = await key("ES256", "k1");
    const json = JSON.stringify({ keys: [signer.jwk] });
    let served = padded(json, 2 * 1024 * 1024);
    let declare = false;
    const fetch = (async () =>
      new Response(served.body, {
        headers: declare ? { "content-length": String(2 * 1024 * 1024) } : {},
      })) as typeof globalThis.fetch;
    const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: "https://auth.test/jwks", fetch, jwksCacheSeconds: 1 });
    await expect(verify(await jwt(signer, claims()))).rejects.toThrow(
      "The signing keys could not be fetched: the answer is larger than 1048576 bytes",
    );
    expect(served.read.bytes).toBeLessThan(1024 * 1024 + 2 * 65_536);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 5_000);
    served = padded(json, 2 * 1024 * 1024);
    declare = true;
    await expect(verify(await jwt(signer, claims()))).rejects.toThrow(/larger than 1048576 bytes/);
    expect(served.read.bytes).toBeLessThanOrEqual(json.length);
    // Under the bound, the same key set is used; past it later, the last one is kept.
    vi.setSystemTime(Date.now() + 5_000);
    served = padded(json, 512 * 1024);
    declare = false;
    expect((await verify(await jwt(signer, claims()))).subject).toBe("ada");
    vi.setSystemTime(Date.now() + 1_000);
    served = padded(json, 2 * 1024 * 1024);
    expect((await verify(await jwt(signer, claims({ sub: "bob" })))).subject).toBe("bob");
  });

  it("fetches keys over https only (http on a loopback host), wherever a redirect leads", async () => {
    expect(() => jwtVerifier({ issuer: ISSUER, jwksUrl: "http://auth.example.com/jwks" })).toThrow(
      /jwksUrl must be https/,
    );
    for (const url of ["https://auth.example.com/jwks", "http://localhost:8080/jwks", "http://127.0.0.1/jwks"]) {
      expect(() => jwtVerifier({ issuer: ISSUER, jwksUrl: url })).not.toThrow();
    }
    const signer = await key("ES256", "k1");
    let landed = "http://keys.example.com/jwks";
    const fetch = (async () => {
      const response = Response.json({ keys: [signer.jwk] });
      // Where fetch's redirects ended, as `Response.url` reports it.
      Object.defineProperty(response, "url", { value: landed });
      return response;
    }) as typeof globalThis.fetch;
    const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: "https://auth.test/jwks", fetch });
    await expect(verify(await jwt(signer, claims()))).rejects.toThrow(
      "The signing keys could not be fetched: https://auth.test/jwks redirected to http://keys.example.com/jwks, which is not https (http only on a loopback host): a document fetched over plain http could be anyone's",
    );
    landed = "https://keys.example.com/jwks";
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 5_000);
    expect((await verify(await jwt(signer, claims()))).subject).toBe("ada");
  });

  it("ignores entries of the key set that are not objects", async () => {
    const signer = await key("ES256", "k1");
    const fetch = (async () => Response.json({ keys: [null, 7, "k", signer.jwk] })) as typeof globalThis.fetch;
    const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: "https://auth.test/jwks", fetch });
    expect((await verify(await jwt(signer, claims()))).subject).toBe("ada");
    expect((await verify(await jwt(signer, claims({ sub: "bob" }), { kid: undefined }))).subject).toBe("bob");
  });
});
