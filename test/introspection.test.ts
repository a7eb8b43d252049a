/**
 * The opaque access token verifier of `picomcp/introspection` (RFC 7662 token introspection): the
 * request and the resource server's credentials (RFC 6749 §2.3.1), the answer mapped to an identity,
 * issuer and audience binding end to end through `server.fetch` (RFC 8707), the cache, single flight,
 * and failing closed. The introspection endpoint is a node:http server on 127.0.0.1.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InvalidTokenError, pico } from "../src/index.js";
import { introspectionVerifier } from "../src/introspection.js";
import { harness } from "../src/testing.js";
import { signal, within } from "./http-helpers.js";
import { listenLoopback } from "./loopback-server.js";

const RESOURCE = "http://localhost/mcp";
const ISSUER = "https://auth.test";
const INACTIVE = "The access token is not active: it expired or was revoked. Sign in again.";
const UNAVAILABLE = /^The access token could not be checked: the authorization server did not answer/;
const now = () => Math.floor(Date.now() / 1000);

/** An active answer (RFC 7662 §2.2) for a token issued to this server. */
const active = (extra: Record<string, unknown> = {}) => ({
  active: true,
  sub: "ada",
  aud: RESOURCE,
  iss: ISSUER,
  exp: now() + 600,
  scope: "notes:read notes:write",
  client_id: "app",
  ...extra,
});

/** A reply that is not an answer object: a status and a raw body. */
class Raw {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Record<string, string> = { "content-type": "application/json" },
  ) {}
}
type Reply = Record<string, unknown> | Raw | "hang";

interface Seen {
  method: string | undefined;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

const endpoints: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(endpoints.splice(0).map((close) => close()));
});

/** A fake introspection endpoint: answers each token with `reply`, and records every request in `seen`. */
async function endpoint(reply: (token: string) => Reply | Promise<Reply>) {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const form = new URLSearchParams(raw);
    seen.push({ method: req.method, headers: req.headers, form });
    const answer = await reply(form.get("token") ?? "");
    if (answer === "hang") return;
    if (answer instanceof Raw) {
      res.writeHead(answer.status, answer.headers).end(answer.body);
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
  });
  const origin = await listenLoopback(server, endpoints);
  return { url: `${origin}/introspect`, seen };
}

const credentials = { clientId: "mcp-server", clientSecret: "s3cret" };

describe("introspectionVerifier", () => {
  it("POSTs the token as a form with the access_token hint, and maps an active answer to the identity", async () => {
    const fake = await endpoint(() =>
      active({ aud: [RESOURCE, "api://notes"], roles: ["admin", 7], username: "ada@example.com", tenant: "t1" }),
    );
    const verify = introspectionVerifier({ endpoint: fake.url, ...credentials });
    const identity = await verify("opaque-token-1");
    expect(identity).toEqual({
      subject: "ada",
      audience: [RESOURCE, "api://notes"],
      scopes: ["notes:read", "notes:write"],
      roles: ["admin"],
      clientId: "app",
      issuer: ISSUER,
      expiresAt: expect.any(Number),
      claims: {
        sub: "ada",
        aud: [RESOURCE, "api://notes"],
        iss: ISSUER,
        exp: identity.expiresAt,
        scope: "notes:read notes:write",
        client_id: "app",
        roles: ["admin", 7],
        username: "ada@example.com",
        tenant: "t1",
      },
    });
    const [request] = fake.seen;
    expect(request!.method).toBe("POST");
    expect(request!.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request!.headers.accept).toBe("application/json");
    expect([...request!.form]).toEqual([
      ["token", "opaque-token-1"],
      ["token_type_hint", "access_token"],
    ]);
  });

  it("reads a single audience string, roles from another claim, and leaves out what the answer lacks", async () => {
    const fake = await endpoint(() => ({ active: true, sub: "bob", aud: RESOURCE, groups: ["staff"] }));
    const identity = await introspectionVerifier({ endpoint: fake.url, ...credentials, rolesClaim: "groups" })("t");
    expect(identity).toEqual({
      subject: "bob",
      audience: [RESOURCE],
      scopes: [],
      roles: ["staff"],
      claims: { sub: "bob", aud: RESOURCE, groups: ["staff"] },
    });
  });

  it("authenticates with HTTP Basic, id and secret form-encoded first (RFC 6749 §2.3.1)", async () => {
    const fake = await endpoint(() => active());
    const clientId = "mcp server";
    const clientSecret = "p@ss:w+rd/é&=%~*";
    await introspectionVerifier({ endpoint: fake.url, clientId, clientSecret })("t");
    // Written out by hand: space is "+", reserved characters and UTF-8 bytes are percent-encoded.
    const encoded = "mcp+server:p%40ss%3Aw%2Brd%2F%C3%A9%26%3D%25%7E*";
    expect(fake.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from(encoded).toString("base64")}`);
    // And the endpoint gets the originals back the way RFC 6749 says to decode them.
    const [user, password] = Buffer.from(fake.seen[0]!.headers.authorization!.slice(6), "base64")
      .toString()
      .split(":")
      .map((part) => decodeURIComponent(part.replace(/\+/g, " ")));
    expect([user, password]).toEqual([clientId, clientSecret]);
  });

  it("sends a static Authorization header as given", async () => {
    const fake = await endpoint(() => active());
    await introspectionVerifier({ endpoint: fake.url, authorization: "Bearer rs-token" })("t");
    expect(fake.seen[0]!.headers.authorization).toBe("Bearer rs-token");
  });

  it("refuses an inactive token, and remembers the refusal for 10 seconds (cacheSeconds at most)", async () => {
    const fake = await endpoint(() => ({ active: false }));
    const verify = introspectionVerifier({ endpoint: fake.url, ...credentials });
    const refused = verify("revoked-token");
    await expect(refused).rejects.toBeInstanceOf(InvalidTokenError);
    await expect(refused).rejects.toThrow(INACTIVE);
    // A client that retries a dead token costs the endpoint nothing for a while.
    await expect(verify("revoked-token")).rejects.toThrow(INACTIVE);
    expect(fake.seen).toHaveLength(1);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10_000);
    await expect(verify("revoked-token")).rejects.toThrow(INACTIVE);
    expect(fake.seen).toHaveLength(2);
    // With cacheSeconds: 0 (revocation at once), nothing is remembered either way.
    const strict = introspectionVerifier({ endpoint: fake.url, ...credentials, cacheSeconds: 0 });
    await expect(strict("revoked-token")).rejects.toThrow(INACTIVE);
    await expect(strict("revoked-token")).rejects.toThrow(INACTIVE);
    expect(fake.seen).toHaveLength(4);
  });

  it("keeps refusals apart from active answers: random tokens never push a caller's answer out", async () => {
    const asked: string[] = [];
    const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
      const token = new URLSearchParams(init!.body as string).get("token")!;
      asked.push(token);
      return Response.json(token === "good" ? active() : { active: false });
    }) as typeof globalThis.fetch;
    const verify = introspectionVerifier({ endpoint: "https://auth.test/introspect", ...credentials, fetch });
    await verify("good");
    for (let i = 0; i <= 1000; i++) await expect(verify(`random-${i}`)).rejects.toThrow(INACTIVE);
    await verify("good");
    expect(asked).toHaveLength(1002);
    // At most 1000 refusals are kept, the oldest dropped first.
    await expect(verify("random-1000")).rejects.toThrow(INACTIVE);
    expect(asked).toHaveLength(1002);
    await expect(verify("random-0")).rejects.toThrow(INACTIVE);
    expect(asked.slice(1002)).toEqual(["random-0"]);
  });

  it("refuses an answer without a subject, from another issuer, with a bad or past expiry, or for a refresh token", async () => {
    let answer: Record<string, unknown> = {};
    const fake = await endpoint(() => answer);
    const verify = introspectionVerifier({ endpoint: fake.url, ...credentials, issuer: [ISSUER, "https://b.test"] });
    const refuse = async (extra: Record<string, unknown>, reason: RegExp) => {
      answer = active(extra);
      await expect(verify(`t${fake.seen.length}`)).rejects.toMatchObject({
        name: "InvalidTokenError",
        // A RegExp in toMatchObject matches any string: stringMatching tests it.
        message: expect.stringMatching(reason),
      });
    };
    await refuse({ sub: undefined }, /names no subject \(sub\)/);
    await refuse({ sub: "" }, /names no subject/);
    await refuse({ iss: "https://evil.test" }, /comes from another issuer/);
    await refuse({ iss: undefined }, /comes from another issuer/);
    await refuse({ exp: "tomorrow" }, /exp is not a number/);
    await refuse({ exp: now() - 1 }, /^The access token expired: refresh it, or sign in again$/);
    // A refresh token is no access token, however the endpoint spells its type (RFC 7662 §2.2 token_type).
    // RFC 8693 §3's token type URI names it too.
    for (const token_type of [
      "refresh_token",
      "Refresh_Token",
      "REFRESH_TOKEN",
      "urn:ietf:params:oauth:token-type:refresh_token",
      "URN:IETF:params:oauth:token-type:Refresh_Token",
    ]) {
      await refuse({ token_type }, /^The token is a refresh token, not an access token: send the access token/);
    }
    for (const token_type of [
      "Bearer",
      "bearer",
      "DPoP",
      "N_A",
      "access_token",
      "urn:ietf:params:oauth:token-type:access_token",
      7,
    ]) {
      answer = active({ token_type });
      expect((await verify(`typed-${String(token_type)}`)).subject, String(token_type)).toBe("ada");
    }
    answer = active({ iss: "https://b.test" });
    expect((await verify("second-issuer")).issuer).toBe("https://b.test");
    // Without `issuer`, any issuer is reported, not checked.
    answer = active({ iss: "https://elsewhere.test" });
    const unchecked = introspectionVerifier({ endpoint: fake.url, ...credentials });
    expect((await unchecked("any-issuer")).issuer).toBe("https://elsewhere.test");
  });

  it("refuses an answer whose nbf or iat is in the future beyond clockSkewSeconds (RFC 7662 §2.2), as jwtVerifier does", async () => {
    let answer: Record<string, unknown> = {};
    const fake = await endpoint(() => answer);
    const check = (verify: ReturnType<typeof introspectionVerifier>, extra: Record<string, unknown>) => {
      answer = active(extra);
      return verify(`t${fake.seen.length}`);
    };
    const verify = introspectionVerifier({ endpoint: fake.url, ...credentials });
    const refuse = async (extra: Record<string, unknown>, reason: RegExp) =>
      expect(check(verify, extra)).rejects.toMatchObject({
        name: "InvalidTokenError",
        message: expect.stringMatching(reason),
      });
    await refuse({ nbf: now() + 120 }, /^The access token is not valid yet \(nbf\): .*clock/);
    await refuse({ nbf: "soon" }, /^The access token's nbf is not a number/);
    await refuse({ iat: now() + 120 }, /^The access token was issued in the future \(iat\): .*clock/);
    await refuse({ iat: "now" }, /^The access token's iat is not a number/);
    // Within the default 60 seconds of skew, and in the past, both are accepted, and kept in claims.
    expect((await check(verify, { nbf: now() + 30, iat: now() + 30 })).subject).toBe("ada");
    expect((await check(verify, { nbf: now() - 600, iat: now() - 600 })).claims).toMatchObject({
      nbf: expect.any(Number),
      iat: expect.any(Number),
    });
    // clockSkewSeconds sets the leeway, both ways.
    const strict = introspectionVerifier({ endpoint: fake.url, ...credentials, clockSkewSeconds: 0 });
    await expect(check(strict, { nbf: now() + 30 })).rejects.toThrow(/not valid yet \(nbf\)/);
    await expect(check(strict, { iat: now() + 30 })).rejects.toThrow(/issued in the future \(iat\)/);
    const lenient = introspectionVerifier({ endpoint: fake.url, ...credentials, clockSkewSeconds: 300 });
    expect((await check(lenient, { nbf: now() + 120, iat: now() + 120 })).subject).toBe("ada");
  });

  it("refuses bad configurations when it is made, saying what to pass", () => {
    const make = (options: Partial<Parameters<typeof introspectionVerifier>[0]>) => () =>
      introspectionVerifier({ endpoint: "https://auth.test/introspect", ...credentials, ...options });
    expect(make({ endpoint: "http://auth.test/introspect" })).toThrow(/must be an https URL.*"http:\/\/auth.test/);
    expect(make({ endpoint: "/introspect" })).toThrow(/absolute URL .*introspection_endpoint/);
    expect(make({ endpoint: undefined as never })).toThrow(TypeError);
    expect(make({ clientId: undefined, clientSecret: undefined })).toThrow(
      /clientId and clientSecret.*or authorization/,
    );
    expect(make({ authorization: "Bearer x" })).toThrow(/one kind of credentials/);
    expect(make({ clientSecret: undefined })).toThrow(/both clientId and clientSecret/);
    expect(make({ clientId: undefined, clientSecret: undefined, authorization: " " })).toThrow(/whole header value/);
    // Number(process.env.UNSET) is NaN (was: accepted, and a NaN clock skew let a token whose nbf is to come through).
    expect(make({ clockSkewSeconds: Number.NaN })).toThrow(
      "introspectionVerifier's clockSkewSeconds must be a number of seconds, 0 or more (leave it out for 60); got NaN.",
    );
    expect(make({ cacheSeconds: Number.NaN })).toThrow(
      "introspectionVerifier's cacheSeconds must be a number of seconds, 0 or more (leave it out for 60); got NaN.",
    );
    expect(make({ cacheSeconds: -1 })).toThrow(/cacheSeconds must be a number of seconds, 0 or more/);
    expect(make({ timeoutMs: 2.5 })).toThrow(
      "introspectionVerifier's timeoutMs must be a whole number of milliseconds, 1 or more (leave it out for 5000); got 2.5.",
    );
    expect(make({ clockSkewSeconds: 0, cacheSeconds: 0, timeoutMs: 100 })).not.toThrow();
    for (const endpoint of [
      "http://localhost:9/i",
      "http://127.0.0.1:9/i",
      "http://[::1]:9/i",
      new URL("https://a.test"),
    ]) {
      expect(make({ endpoint })).not.toThrow();
    }
  });

  it("caches an active answer for cacheSeconds, by the token, never past its exp", async () => {
    const start = Date.now();
    const [shortExp, longExp] = [now() + 5, now() + 600];
    const fake = await endpoint((token) => active({ sub: token, exp: token === "short" ? shortExp : longExp }));
    const verify = introspectionVerifier({ endpoint: fake.url, ...credentials, cacheSeconds: 60 });
    const first = await verify("long");
    expect(await verify("long")).toBe(first);
    expect((await verify("short")).subject).toBe("short");
    expect(fake.seen).toHaveLength(2);
    vi.useFakeTimers({ toFake: ["Date"] });
    // Past "short"'s exp but within cacheSeconds: asked again (and the endpoint's stale answer is refused).
    vi.setSystemTime(start + 10_000);
    expect(await verify("long")).toBe(first);
    await expect(verify("short")).rejects.toThrow(/expired/);
    expect(fake.seen).toHaveLength(3);
    // Past cacheSeconds: asked again.
    vi.setSystemTime(start + 61_000);
    expect(await verify("long")).not.toBe(first);
    expect(fake.seen).toHaveLength(4);
  });

  it("asks every time with cacheSeconds: 0", async () => {
    const fake = await endpoint(() => active());
    const verify = introspectionVerifier({ endpoint: fake.url, ...credentials, cacheSeconds: 0 });
    await verify("t");
    await verify("t");
    expect(fake.seen).toHaveLength(2);
  });

  it("keeps at most 1000 answers, dropping the oldest first", async () => {
    const asked: string[] = [];
    const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
      asked.push(new URLSearchParams(init!.body as string).get("token")!);
      return Response.json(active());
    }) as typeof globalThis.fetch;
    const verify = introspectionVerifier({ endpoint: "https://auth.test/introspect", ...credentials, fetch });
    for (let i = 0; i <= 1000; i++) await verify(`token-${i}`);
    expect(asked).toHaveLength(1001);
    await verify("token-1000");
    await verify("token-1");
    expect(asked).toHaveLength(1001);
    // token-0 was dropped to make room for token-1000; asking for it again drops token-1.
    await verify("token-0");
    await verify("token-1");
    expect(asked.slice(1001)).toEqual(["token-0", "token-1"]);
  });

  it("shares one request between concurrent checks of the same token", async () => {
    const arrived = signal();
    const release = signal();
    const fake = await endpoint(async () => {
      arrived.resolve();
      await release.promise;
      return active();
    });
    const verify = introspectionVerifier({ endpoint: fake.url, ...credentials });
    const checks = [verify("same"), verify("same"), verify("same")];
    await within(arrived.promise, 2000, "the introspection request");
    release.resolve();
    const [a, b, c] = await Promise.all(checks);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(fake.seen).toHaveLength(1);
  });

  it.each([
    ["HTTP 500 with a body", new Raw(500, '{"error":"db at /srv/secret is down"}'), /HTTP 500/],
    ["a redirect", new Raw(302, "", { location: "https://evil.test/" }), /redirected to https:\/\/evil\.test\//],
    ["invalid JSON", new Raw(200, "<html>/srv/secret</html>"), /JSON/],
    ["JSON without active", { sub: "ada", aud: RESOURCE }, /RFC 7662 object/],
    ["active that is not a boolean", { active: "true", sub: "ada" }, /RFC 7662 object/],
  ])(
    "fails closed on %s, as unavailable (not as a bad token), without repeating the body, and asks again a second later",
    async (_, reply, cause) => {
      let healthy = false;
      const fake = await endpoint(() => (healthy ? active() : reply));
      const verify = introspectionVerifier({ endpoint: fake.url, ...credentials });
      const error = await verify("opaque-token").catch((thrown: Error) => thrown);
      expect(error).toMatchObject({ name: "AuthorizationServerUnavailable" });
      expect((error as Error).message).toMatch(UNAVAILABLE);
      expect((error as Error).message).not.toMatch(/srv|opaque-token|127\.0\.0\.1/);
      expect(String((error as Error).cause)).toMatch(cause);
      healthy = true;
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 1_000);
      expect((await verify("opaque-token")).subject).toBe("ada");
      expect(fake.seen).toHaveLength(2);
    },
  );

  it("follows no redirect, which would carry the token and the credentials along, and says where it led", async () => {
    const elsewhere = await endpoint(() => active());
    for (const status of [301, 302, 303, 307, 308]) {
      const moved = await endpoint(() => new Raw(status, "", { location: elsewhere.url }));
      const verify = introspectionVerifier({ endpoint: moved.url, ...credentials });
      const error = await verify("opaque-token").catch((thrown: Error) => thrown);
      expect(error).toMatchObject({ name: "AuthorizationServerUnavailable" });
      expect(String((error as Error).cause)).toBe(
        `Error: ${moved.url} redirected to ${elsewhere.url}: redirects are not followed, since the token and this server's credentials would go along; set endpoint to the URL that answers`,
      );
      expect(moved.seen).toHaveLength(1);
    }
    expect(elsewhere.seen).toEqual([]);
  });

  it("gives up on a hung endpoint after timeoutMs, and asks again a second later", async () => {
    let hang = true;
    const fake = await endpoint(() => (hang ? "hang" : active()));
    const verify = introspectionVerifier({ endpoint: fake.url, ...credentials, timeoutMs: 100 });
    // within() bounds the wait below the 5 s default, so only timeoutMs can have ended it; the cause says so.
    const error = await within(verify("t"), 2000, "the timeout").catch((thrown: Error) => thrown);
    expect(error).toMatchObject({ name: "AuthorizationServerUnavailable", message: UNAVAILABLE });
    expect((error as Error).cause).toMatchObject({ name: "TimeoutError" });
    hang = false;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 1_000);
    expect((await verify("t")).subject).toBe("ada");
    expect(fake.seen).toHaveLength(2);
  });

  it("asks an endpoint that failed at most once a second, whatever the tokens (was: once per request)", async () => {
    let down = true;
    const fake = await endpoint(() => (down ? new Raw(502, "upstream down") : active()));
    const verify = introspectionVerifier({ endpoint: fake.url, ...credentials });
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    await expect(verify("first-token")).rejects.toThrow(UNAVAILABLE);
    // Other tokens, and the same one again, within the second: refused with that failure, the endpoint not asked.
    for (const token of ["second-token", "third-token", "first-token"]) {
      const error = await verify(token).catch((thrown: Error) => thrown);
      expect(error).toMatchObject({ name: "AuthorizationServerUnavailable", message: UNAVAILABLE });
      expect(String((error as Error).cause)).toBe(`Error: ${fake.url} answered HTTP 502`);
    }
    expect(fake.seen).toHaveLength(1);
    down = false;
    vi.setSystemTime(start + 999);
    await expect(verify("second-token")).rejects.toThrow(UNAVAILABLE);
    vi.setSystemTime(start + 1_000);
    expect((await verify("second-token")).subject).toBe("ada");
    // An answer ends it: the next token is asked about at once.
    expect((await verify("third-token")).subject).toBe("ada");
    expect(fake.seen.map(({ form }) => form.get("token"))).toEqual(["first-token", "second-token", "third-token"]);
  });

  it("fails closed when the endpoint cannot be reached", async () => {
    const fake = await endpoint(() => active());
    await endpoints.pop()!();
    await expect(introspectionVerifier({ endpoint: fake.url, ...credentials })("t")).rejects.toThrow(UNAVAILABLE);
  });

  it("never puts the token in the identity, even when the endpoint echoes it", async () => {
    const token = "tok-Zq8vXk2LmN4pR7sT";
    const fake = await endpoint((sent) => active({ token: sent, jti: "j1" }));
    const identity = await introspectionVerifier({ endpoint: fake.url, ...credentials })(token);
    expect(JSON.stringify(identity)).not.toContain(token);
    expect(identity.claims).toMatchObject({ jti: "j1" });
  });
});

describe("introspectionVerifier behind a picomcp server", () => {
  const answers: Record<string, Reply> = {
    "good-token": active(),
    "elsewhere-token": active({ aud: "https://other.example/mcp" }),
    "revoked-token": { active: false },
    "refresh-token": active({ token_type: "refresh_token" }),
    "refresh-uri-token": active({ token_type: "urn:ietf:params:oauth:token-type:refresh_token" }),
    "early-token": active({ nbf: now() + 600 }),
    "broken-token": new Raw(500, "stack trace at /srv/introspect.js"),
    "busy-token": new Raw(503, "overloaded"),
  };

  async function protectedServer() {
    const fake = await endpoint((token) => answers[token] ?? { active: false });
    const server = pico({
      name: "notes",
      version: "1.0.0",
      auth: {
        verify: introspectionVerifier({ endpoint: fake.url, ...credentials }),
        resource: RESOURCE,
        authorizationServers: [ISSUER],
      },
    }).tool("whoami", {
      description: "The signed-in user.",
      auth: { scopes: ["notes:read"] },
      run: (_args, ctx) => `${ctx.auth!.subject} via ${ctx.auth!.clientId}`,
    });
    return { server, fake };
  }

  it("serves a caller whose token names this resource, asking the endpoint once for the whole session", async () => {
    const { server, fake } = await protectedServer();
    const answer = await harness(server, { token: "good-token" }).callTool("whoami");
    expect(answer.status).toBe(200);
    expect(answer.result).toEqual({ content: [{ type: "text", text: "ada via app" }] });
    // initialize, notifications/initialized and tools/call carried the token; the cache answered twice.
    expect(fake.seen).toHaveLength(1);
  });

  it.each([
    ["issued for another resource", "elsewhere-token", "The access token was issued for another resource"],
    ["inactive", "revoked-token", INACTIVE],
    ["that is a refresh token", "refresh-token", /^The token is a refresh token, not an access token/],
    ["typed by RFC 8693's refresh token URI", "refresh-uri-token", /^The token is a refresh token, not an access/],
    ["whose nbf is to come", "early-token", /^The access token is not valid yet \(nbf\)/],
  ])("answers 401 with a challenge for a token %s", async (_, token, description) => {
    const { server } = await protectedServer();
    const answer = await harness(server, { token }).listTools();
    expect(answer.status).toBe(401);
    expect(answer.challenge).toContain('resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp"');
    expect(answer.challenge).toContain('error="invalid_token"');
    const said = /error_description="([^"]*)"/.exec(answer.challenge!)?.[1];
    expect(said).toMatch(description);
    expect(answer.challenge).not.toContain("/srv");
  });

  it.each([
    ["answers 500", "broken-token"],
    ["answers 503", "busy-token"],
  ])("answers 503 with Retry-After, not a 401, while the endpoint %s: the client keeps its token", async (_, token) => {
    const { server } = await protectedServer();
    const answer = await harness(server, { token }).listTools();
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("1");
    expect(answer.challenge).toBeNull();
    expect(answer.error?.message).toMatch(UNAVAILABLE);
    expect(answer.error?.message).not.toContain("/srv");
  });

  it("answers 503 with Retry-After while the endpoint cannot be reached", async () => {
    const { server, fake } = await protectedServer();
    await endpoints.pop()!();
    const down = await harness(server, { token: "good-token" }).listTools();
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("1");
    expect(down.error?.message).toMatch(UNAVAILABLE);
    expect(fake.seen).toHaveLength(0);
  });
});

describe("introspectionVerifier, against an endpoint that answers too much", () => {
  /** An endpoint whose answer is an active one padded with spaces: `size` bytes, or endless. */
  async function flooding(size: number, declare: boolean) {
    const written = { bytes: 0 };
    const head = JSON.stringify(active());
    const chunk = " ".repeat(65_536);
    const server = createServer(async (req, res) => {
      for await (const _ of req);
      res.writeHead(200, { "content-type": "application/json", ...(declare && { "content-length": String(size) }) });
      res.write(head);
      written.bytes = head.length;
      // Bounded, in case a reader never stops: 64 MiB.
      const limit = Math.min(size, 64 * 1024 * 1024);
      while (written.bytes + chunk.length <= limit && !res.destroyed) {
        written.bytes += chunk.length;
        if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve).once("close", resolve));
      }
      if (!res.destroyed) res.end(" ".repeat(limit - written.bytes));
    });
    const origin = await listenLoopback(server, endpoints);
    return { url: `${origin}/introspect`, written };
  }

  it("reads at most 1 MiB of an answer, declared or streamed, and fails closed past it", async () => {
    const big = await flooding(2 * 1024 * 1024, false);
    const verify = introspectionVerifier({ endpoint: big.url, ...credentials, timeoutMs: 60_000 });
    await expect(verify("t")).rejects.toThrow(UNAVAILABLE);
    const declared = await flooding(2 * 1024 * 1024, true);
    await expect(introspectionVerifier({ endpoint: declared.url, ...credentials })("t")).rejects.toThrow(UNAVAILABLE);
    const small = await flooding(512 * 1024, false);
    expect((await introspectionVerifier({ endpoint: small.url, ...credentials })("t")).subject).toBe("ada");
  });

  it("stops reading an endless answer at the bound, long before timeoutMs", async () => {
    const endless = await flooding(Number.POSITIVE_INFINITY, false);
    const verify = introspectionVerifier({ endpoint: endless.url, ...credentials, timeoutMs: 60_000 });
    const refused = await within(
      verify("t").catch((thrown: unknown) => thrown),
      10_000,
      "the refusal",
    );
    expect(refused).toMatchObject({ message: expect.stringMatching(UNAVAILABLE) });
    expect((refused as InvalidTokenError).cause).toMatchObject({ message: "the answer is larger than 1048576 bytes" });
  });
});
