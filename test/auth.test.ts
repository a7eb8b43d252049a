/**
 * MCP authorization from the resource server's side (2025-11-25 "Authorization", RFC 9728, RFC 6750,
 * RFC 8707), through `server.fetch` with real signed tokens: the protected resource metadata, the
 * token gate, per-registration `auth` in both eras, challenges shaped per client, and `ctx.auth`.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AuthorizationServerUnavailable, type Identity, InvalidTokenError, pico } from "../src/index.js";
import { harness, type TestIssuer, testIssuer } from "../src/testing.js";

const RESOURCE = "http://localhost/mcp";
const METADATA = "http://localhost/.well-known/oauth-protected-resource/mcp";
const issuer: TestIssuer = await testIssuer({ audience: RESOURCE });

interface Made {
  server: ReturnType<typeof build>;
  runs: string[];
  seen: (Identity | undefined)[];
}

/** A server with one tool per kind of rule; `runs` records every run that executed. */
function build(
  auth: Partial<Parameters<typeof pico>[0]["auth"]> = {},
  runs: string[] = [],
  seen: (Identity | undefined)[] = [],
) {
  const ran = (name: string) => (_args: unknown, ctx: { auth: Identity | undefined }) => {
    runs.push(name);
    seen.push(ctx.auth);
    return `${name} ran for ${ctx.auth?.subject ?? "anonymous"}`;
  };
  return (
    pico({
      name: "auth-test",
      version: "1.0.0",
      auth: {
        verify: issuer.verify,
        resource: RESOURCE,
        authorizationServers: [issuer.issuer],
        scopesSupported: ["projects:read"],
        required: false,
        ...auth,
      },
    })
      // A public tool cannot exist where every request needs a token.
      .tool("hello", { description: "Greets anyone.", auth: auth.required ? "signed-in" : "public", run: ran("hello") })
      .tool("whoami", { description: "Says who is signed in.", run: ran("whoami") })
      .tool("read", { description: "Reads.", auth: { scopes: ["projects:read"] }, run: ran("read") })
      .tool("write", {
        description: "Writes.",
        auth: { scopes: ["projects:read", "projects:write"] },
        input: z.object({ n: z.number() }),
        run: ran("write"),
      })
      .tool("admin", { description: "Administers.", auth: { roles: ["admin"] }, run: ran("admin") })
      .tool("own", {
        description: "Only the owner's records.",
        input: z.object({ owner: z.string() }),
        auth: (identity, { owner }) => identity.subject === owner,
        run: ran("own"),
      })
  );
}

function made(auth: Partial<Parameters<typeof pico>[0]["auth"]> = {}): Made {
  const runs: string[] = [];
  const seen: (Identity | undefined)[] = [];
  return { server: build(auth, runs, seen), runs, seen };
}

function challengeOf(header: string | null): Record<string, string> {
  const params: Record<string, string> = {};
  for (const match of (header ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) params[match[1]!] = match[2]!;
  return params;
}

describe("protected resource metadata (RFC 9728)", () => {
  it("is served at the path-suffixed and the root well-known URLs, with the canonical resource, never behind the gate", async () => {
    const { server } = made({ required: true });
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const response = await server.fetch(new Request(`http://localhost${path}`));
      expect(response.status, path).toBe(200);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        authorization_servers: ["https://auth.test"],
        bearer_methods_supported: ["header"],
        scopes_supported: ["projects:read"],
      });
    }
    const preflight = await server.fetch(
      new Request("http://localhost/.well-known/oauth-protected-resource/mcp", { method: "OPTIONS" }),
    );
    expect(preflight.status).toBe(204);
    expect(
      (await server.fetch(new Request("http://localhost/.well-known/oauth-protected-resource/other"))).status,
    ).toBe(404);
  });

  it("canonicalises the configured resource, and adds the metadata fields given", async () => {
    const configured = pico({
      name: "t",
      version: "1",
      auth: {
        verify: issuer.verify,
        resource: "HTTPS://MCP.Example.COM:443/mcp",
        authorizationServers: ["https://a"],
        metadata: { resource_name: "Tracker" },
      },
    }).tool("t", { description: "A tool.", run: () => "" });
    const document = await (
      await configured.fetch(new Request("https://mcp.example.com/.well-known/oauth-protected-resource"))
    ).json();
    expect(document).toMatchObject({ resource: "https://mcp.example.com/mcp", resource_name: "Tracker" });
  });

  it("keeps a resource's query in its metadata URL, advertised and served (RFC 9728 §3.1)", async () => {
    const serving = (resource: string) =>
      pico({
        name: "t",
        version: "1",
        auth: { verify: issuer.verify, resource, authorizationServers: ["https://a"] },
      }).tool("t", { description: "A tool.", run: () => "" });
    const server = serving("https://mcp.example.com/mcp?tenant=acme");
    const metadataUrl = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp?tenant=acme";
    const refused = await harness(server, { url: "https://mcp.example.com/mcp?tenant=acme" }).callTool("t");
    expect(refused.status).toBe(401);
    expect(challengeOf(refused.challenge).resource_metadata).toBe(metadataUrl);
    expect((await server.call("t"))._meta?.["mcp/www_authenticate"]).toEqual([
      expect.stringContaining(`resource_metadata="${metadataUrl}"`),
    ]);
    const get = (url: string) => server.fetch(new Request(url));
    for (const url of [metadataUrl, "https://mcp.example.com/.well-known/oauth-protected-resource"]) {
      const served = await get(url);
      expect(served.status, url).toBe(200);
      expect((await served.json()).resource).toBe("https://mcp.example.com/mcp?tenant=acme");
    }
    // The suffixed form without the query, or with another one, names another resource (§3.3).
    for (const url of [metadataUrl.replace("?tenant=acme", ""), metadataUrl.replace("acme", "other")]) {
      const missing = await get(url);
      expect(missing.status, url).toBe(404);
      expect((await missing.json()).error.message).toBe(
        "Not found: the protected resource metadata is at /.well-known/oauth-protected-resource/mcp?tenant=acme",
      );
    }
    // A resource at the root keeps its query after the well-known path.
    const root = serving("https://mcp.example.com/?tenant=acme");
    const rootChallenge = await harness(root, { url: "https://mcp.example.com/?tenant=acme" }).callTool("t");
    expect(challengeOf(rootChallenge.challenge).resource_metadata).toBe(
      "https://mcp.example.com/.well-known/oauth-protected-resource?tenant=acme",
    );
    const rootDocument = await root.fetch(
      new Request("https://mcp.example.com/.well-known/oauth-protected-resource?tenant=acme"),
    );
    expect((await rootDocument.json()).resource).toBe("https://mcp.example.com/?tenant=acme");
    // A resource without a query is served whatever query a client adds (a cache buster).
    const plain = await serving("https://mcp.example.com/mcp").fetch(
      new Request("https://mcp.example.com/.well-known/oauth-protected-resource/mcp?nocache=1"),
    );
    expect(plain.status).toBe(200);
    expect((await plain.json()).resource).toBe("https://mcp.example.com/mcp");
  });

  it("rejects a configuration without an authorization server, or with an invalid resource, when it gets ready", async () => {
    const noServers = pico({ name: "t", version: "1", auth: { verify: issuer.verify } });
    await expect(noServers.ready()).rejects.toThrow(
      "auth.authorizationServers needs at least one issuer URL: clients find where to sign in from it.",
    );
    await expect(noServers.serve({ port: 0 })).rejects.toThrow(/authorizationServers/);
    // server.fetch answers 500 and logs the mistake (http-start-failure.test.ts): never a rejection.
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const response = await noServers.fetch(new Request("http://127.0.0.1/mcp", { method: "POST" }));
      expect(response.status).toBe(500);
      expect(String(logged.mock.calls[0]?.[1])).toMatch(/authorizationServers/);
    } finally {
      logged.mockRestore();
    }
    const relative = pico({
      name: "t",
      version: "1",
      auth: { verify: issuer.verify, authorizationServers: ["https://a"], resource: "/mcp" },
    });
    await expect(relative.ready()).rejects.toThrow(/absolute URL/);
  });
});

describe("the token gate", () => {
  it("answers a request without a token with 401 and a challenge pointing at the metadata, on every method", async () => {
    const { server, runs } = made({ required: true });
    const client = harness(server);
    const answer = await client.callTool("hello");
    expect(answer.status).toBe(401);
    expect(answer.challenge).toBe(`Bearer resource_metadata="${METADATA}", scope="projects:read"`);
    for (const method of ["GET", "DELETE"]) {
      const response = await server.fetch(new Request(RESOURCE, { method, headers: { accept: "text/event-stream" } }));
      expect(response.status, method).toBe(401);
    }
    expect(runs).toEqual([]);
  });

  it.each([
    ["expired", () => issuer.bad.expired(), "expired"],
    ["not valid yet", () => issuer.bad.notYetValid(), "not valid yet"],
    ["for another resource", () => issuer.bad.wrongAudience(), "another resource"],
    ["from another issuer", () => issuer.bad.wrongIssuer(), "another issuer"],
    ["without expiry", () => issuer.bad.noExpiry(), "no expiry"],
    ["with a bad signature", () => issuer.bad.badSignature(), "signature"],
    ["unsigned (alg none)", () => issuer.bad.unsigned(), "not accepted"],
    ["not a JWT", async () => "opaque-token", "not a JWT"],
  ])("refuses a token %s with 401 invalid_token, and runs nothing", async (_, token, reason) => {
    const { server, runs } = made();
    const answer = await harness(server, { token: await token() }).callTool("hello");
    expect(answer.status).toBe(401);
    const challenge = challengeOf(answer.challenge);
    expect(challenge).toMatchObject({ resource_metadata: METADATA, error: "invalid_token" });
    expect(challenge.error_description).toContain(reason);
    expect(runs).toEqual([]);
  });

  it("refuses a token in the query string and a malformed Authorization header with 400 invalid_request", async () => {
    const { server } = made();
    const token = await issuer.mint();
    const query = await harness(server, { url: `${RESOURCE}?access_token=${token}` }).callTool("hello");
    expect(query.status).toBe(400);
    expect(challengeOf(query.challenge).error).toBe("invalid_request");
    // The parameter's name as a query parser reads it: percent-encoded (in either hex case), or in another case.
    const spellings = ["access%5Ftoken", "access%5ftoken", "%61ccess_token", "ACCESS_TOKEN", "Access%5FToken"];
    for (const name of spellings) {
      const encoded = await harness(server, { url: `${RESOURCE}?tenant=a&${name}=${token}` }).callTool("hello");
      expect(encoded.status, name).toBe(400);
      expect(challengeOf(encoded.challenge).error, name).toBe("invalid_request");
    }
    // A query with other percent-encoded parameters is no token in the URL.
    const other = await harness(server, { url: `${RESOURCE}?tenant=a%20b&access=token`, token }).callTool("hello");
    expect(other.status).toBe(200);
    for (const authorization of ["Bearer", "Bearer ", "Bearer a,b", "Bearer two tokens", "Bearer\tx", ",,,"]) {
      const malformed = await harness(server).callTool("hello", {}, { headers: { authorization } });
      expect(malformed.status, authorization).toBe(400);
      expect(challengeOf(malformed.challenge).error, authorization).toBe("invalid_request");
    }
  });

  it("answers credentials of another scheme as no credentials: 401 with the plain challenge, or anonymous (RFC 6750 §3.1)", async () => {
    const others = ["Basic dXNlcjpwYXNz", "DPoP eyJhbGciOiJFUzI1NiJ9.e30.sig", 'Digest username="ada"', "Negotiate"];
    const required = made({ required: true });
    for (const authorization of others) {
      const answer = await harness(required.server).callTool("hello", {}, { headers: { authorization } });
      expect(answer.status, authorization).toBe(401);
      expect(answer.challenge, authorization).toBe(`Bearer resource_metadata="${METADATA}", scope="projects:read"`);
      expect(answer.error?.message).toContain("Authorization: Bearer");
    }
    expect(required.runs).toEqual([]);
    // Without auth.required, the caller is anonymous: a public tool runs, a protected one challenges as for no header.
    const { server, runs, seen } = made();
    const anonymous = await harness(server).callTool("read");
    for (const authorization of others) {
      const basic = harness(server);
      expect((await basic.callTool("hello", {}, { headers: { authorization } })).result, authorization).toEqual({
        content: [{ type: "text", text: "hello ran for anonymous" }],
      });
      const read = await basic.callTool("read", {}, { headers: { authorization } });
      expect([read.status, read.challenge]).toEqual([401, anonymous.challenge]);
    }
    expect(runs).toEqual(others.map(() => "hello"));
    expect(seen.every((identity) => identity === undefined)).toBe(true);
  });

  it("checks the audience a custom verifier reports, and uses InvalidTokenError's message as the description", async () => {
    const verify = async (token: string) => {
      // A token that is a word of the message would be cut out of it (test/auth-header.test.ts).
      if (token === "revoked-token") throw new InvalidTokenError("The token was revoked");
      if (token === "broken") throw new Error("database at /srv/secret/db.sqlite is down");
      return { subject: "u", audience: token === "other" ? "https://other.example/mcp" : `${RESOURCE}/` };
    };
    const server = pico({
      name: "t",
      version: "1",
      auth: { verify, resource: RESOURCE, authorizationServers: ["https://a"] },
    }).tool("t", { description: "A tool.", run: (_args, ctx) => ctx.auth!.subject });
    const client = harness(server);
    expect((await client.callTool("t", {}, { token: "fine" })).result).toEqual({
      content: [{ type: "text", text: "u" }],
    });
    const other = await harness(server).callTool("t", {}, { token: "other" });
    expect(challengeOf(other.challenge).error_description).toBe(
      `The access token was issued for another resource: sign in again, asking for a token for ${RESOURCE} (the resource parameter, RFC 8707)`,
    );
    const revoked = await harness(server).callTool("t", {}, { token: "revoked-token" });
    expect(challengeOf(revoked.challenge).error_description).toBe("The token was revoked");
    const broken = await harness(server).callTool("t", {}, { token: "broken" });
    expect(broken.status).toBe(401);
    expect(challengeOf(broken.challenge).error_description).toBe("The access token is not valid");
    expect(broken.challenge).not.toContain("/srv");
  });

  it("refuses a token whose expiresAt, as a custom verifier answers it, is no number (was: NaN never expired)", async () => {
    const server = pico({
      name: "t",
      version: "1",
      auth: {
        // Date.parse of what is no date is NaN.
        verify: async () => ({ subject: "u", audience: RESOURCE, expiresAt: Date.parse("someday") / 1000 }),
        resource: RESOURCE,
        authorizationServers: ["https://a"],
      },
    }).tool("t", { description: "A tool.", run: () => "ran" });
    const refused = await harness(server, { token: "any" }).callTool("t", {});
    expect(refused.status).toBe(401);
    expect(challengeOf(refused.challenge)).toMatchObject({ error: "invalid_token" });
  });

  it("answers 503 with Retry-After, not 401, when a custom verifier throws AuthorizationServerUnavailable", async () => {
    let storeUp = false;
    const verify = async (token: string) => {
      if (!storeUp) throw new AuthorizationServerUnavailable("The token store did not answer. Try again shortly.");
      return token === "fine" ? { subject: "u", audience: RESOURCE } : undefined;
    };
    const server = pico({
      name: "t",
      version: "1",
      auth: { verify, resource: RESOURCE, authorizationServers: ["https://a"] },
    }).tool("t", { description: "A tool.", run: (_args, ctx) => ctx.auth!.subject });
    const initialize = () =>
      server.fetch(
        new Request(RESOURCE, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            authorization: "Bearer fine",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
          }),
        }),
      );
    const down = await initialize();
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("1");
    // Not a challenge: the token is not bad, so the client keeps it rather than signing in again.
    expect(down.headers.get("www-authenticate")).toBeNull();
    expect(await down.json()).toMatchObject({
      error: { code: -32603, message: "The token store did not answer. Try again shortly." },
    });
    storeUp = true;
    expect((await initialize()).status).toBe(200);
  });

  it("keeps error_description within what RFC 6750 §3 allows: no quote, no backslash, printable ASCII only", async () => {
    const verify = async (): Promise<undefined> => {
      throw new InvalidTokenError('The key "k1" at C:\\keys is revoked — ask\nagain');
    };
    const server = pico({
      name: "t",
      version: "1",
      auth: { verify, resource: RESOURCE, authorizationServers: ["https://a"] },
    }).tool("t", { description: "A tool.", run: () => "" });
    const answer = await harness(server).callTool("t", {}, { token: "any" });
    expect(answer.status).toBe(401);
    expect(answer.challenge).toBe(
      `Bearer resource_metadata="${METADATA}", error="invalid_token", error_description="The key 'k1' at C:/keys is revoked ? ask?again"`,
    );
    // The JSON body is no header: it keeps the message as written.
    expect(answer.error?.message).toContain('"k1"');
  });

  it("gives handlers the identity — subject, scopes, claims, expiry — and never the token", async () => {
    const { server, seen } = made();
    const token = await issuer.mint({
      subject: "ada",
      scopes: ["projects:read"],
      claims: { client_id: "app", echo: "x" },
    });
    const answer = await harness(server, { token }).callTool("read");
    expect(answer.status).toBe(200);
    const identity = seen[0]!;
    expect(identity).toMatchObject({
      subject: "ada",
      scopes: ["projects:read"],
      clientId: "app",
      issuer: "https://auth.test",
    });
    expect(identity.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(identity.claims.echo).toBe("x");
    expect(Object.isFrozen(identity)).toBe(true);
    expect(JSON.stringify(identity)).not.toContain(token);
  });

  it("binds a 2025 session to the caller who opened it: to anyone else it does not exist", async () => {
    const { server, runs } = made();
    const ada = harness(server, { token: await issuer.mint({ subject: "ada", scopes: ["projects:read"] }) });
    expect((await ada.callTool("read")).status).toBe(200);
    const bob = await issuer.mint({ subject: "bob", scopes: ["projects:read"] });
    const headers = {
      authorization: `Bearer ${bob}`,
      "mcp-session-id": ada.sessionId!,
      "mcp-protocol-version": "2025-11-25",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const body = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "read" } });
    expect((await server.fetch(new Request(RESOURCE, { method: "POST", headers, body }))).status).toBe(404);
    expect((await server.fetch(new Request(RESOURCE, { method: "GET", headers }))).status).toBe(404);
    expect((await server.fetch(new Request(RESOURCE, { method: "DELETE", headers }))).status).toBe(404);
    expect((await ada.callTool("read")).status).toBe(200);
    expect(runs).toEqual(["read", "read"]);
  });

  it("keeps a session opened anonymously to anonymous callers: a signed-in caller's answers never go into it", async () => {
    const { server, runs } = made();
    const send = (body: object, session?: string, token?: string) =>
      server.fetch(
        new Request(RESOURCE, {
          method: "POST",
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
            "content-type": "application/json",
            accept: "application/json",
          },
          body: JSON.stringify(body),
        }),
      );
    const opened = await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "anon", version: "1" } },
    });
    const session = opened.headers.get("mcp-session-id")!;
    await send({ jsonrpc: "2.0", method: "notifications/initialized" }, session);
    const call = (name: string) => ({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name } });
    const ada = await issuer.mint({ subject: "ada", scopes: ["projects:read"] });
    const signedIn = await send(call("read"), session, ada);
    expect(signedIn.status).toBe(404);
    expect((await signedIn.json()).error.message).toBe(
      "Session not found: it ended or expired; send initialize to start a new session",
    );
    const anonymous = await send(call("hello"), session);
    expect(anonymous.status).toBe(200);
    expect(runs).toEqual(["hello"]);
  });

  it("runs each request of a 2025-03-26 batch as the caller whose token the POST carries", async () => {
    const { server, runs, seen } = made();
    const ada = await issuer.mint({ subject: "ada", scopes: ["projects:read"] });
    const send = (body: unknown, session?: string) =>
      server.fetch(
        new Request(RESOURCE, {
          method: "POST",
          headers: {
            authorization: `Bearer ${ada}`,
            ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-03-26" } : {}),
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify(body),
        }),
      );
    const opened = await send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "batcher", version: "1" } },
    });
    const session = opened.headers.get("mcp-session-id")!;
    expect((await send({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);
    const call = (id: number, name: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name } });
    const batch = await send([call(2, "read"), call(3, "whoami")], session);
    expect(batch.status).toBe(200);
    // Was: the batch ran without the caller, so "read" asked ada to sign in and "whoami" saw nobody.
    expect(await batch.json()).toEqual([
      { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "read ran for ada" }] } },
      { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "whoami ran for ada" }] } },
    ]);
    expect(runs).toEqual(["read", "whoami"]);
    expect(seen.map((identity) => identity?.subject)).toEqual(["ada", "ada"]);
  });

  it("redacts the raw token from identities and from response bodies", async () => {
    let leaked = "";
    const server = pico({
      name: "t",
      version: "1",
      auth: {
        // A careless verifier that keeps the token in a claim.
        verify: async (token) => ({
          subject: "u",
          audience: RESOURCE,
          claims: { raw: token, nested: { deeper: [`Bearer ${token}`, "kept"] }, keyed: { [token]: "a value" } },
        }),
        resource: RESOURCE,
        authorizationServers: ["https://a"],
      },
    }).tool("leak", {
      description: "Returns what it should not.",
      run: (_args, ctx) => `${ctx.auth!.claims.raw} ${leaked}`,
    });
    const nested = server.tool("nested", {
      description: "Shows a nested claim.",
      run: (_args, ctx) => JSON.stringify(ctx.auth!.claims.nested),
    });
    const token = "tok-abcdef123456";
    leaked = token;
    const answer = await harness(server, { token }).callTool("leak");
    expect(answer.result).toEqual({ content: [{ type: "text", text: "[redacted] [redacted]" }] });
    // Nested claims too, each string that holds the token whole (the body's redaction would replace only the token).
    leaked = "";
    const shown = await harness(nested, { token }).callTool("nested");
    expect(shown.result).toEqual({ content: [{ type: "text", text: '{"deeper":["[redacted]","kept"]}' }] });
    // A key that holds the token, as a value does (was: kept, so the handler had the token).
    const keyed = server.tool("keyed", {
      description: "Says whether a claim's key holds the token.",
      run: (_args, ctx) =>
        Object.keys(ctx.auth!.claims.keyed as object)
          .map((key) => (key.includes(token) ? "the token" : key))
          .join(" "),
    });
    const keys = await harness(keyed, { token }).callTool("keyed");
    expect(keys.result).toEqual({ content: [{ type: "text", text: "[redacted]" }] });
  });

  it("keeps a claim named __proto__ as a claim, with a token present (was: it set the copy's prototype)", async () => {
    const server = pico({
      name: "t",
      auth: {
        // JSON.parse makes "__proto__" an own key, as a token's payload may carry it.
        verify: async () => ({
          subject: "u",
          audience: RESOURCE,
          claims: JSON.parse('{"__proto__": {"admin": true}}'),
        }),
        resource: RESOURCE,
        authorizationServers: ["https://a"],
      },
    }).tool("claims", {
      description: "Lists the claims' own keys and whether admin is inherited.",
      run: (_args, ctx) => {
        const claims = ctx.auth!.claims;
        return `${Object.keys(claims).join(",")} ${"admin" in claims}`;
      },
    });
    const answer = await harness(server, { token: "tok-abcdef123456" }).callTool("claims");
    expect(answer.result).toEqual({ content: [{ type: "text", text: "__proto__ false" }] });
  });
});

describe.each(["legacy", "modern"] as const)("per-tool authorization (%s era)", (era) => {
  it("serves public tools anonymously and challenges protected ones with 401 and the tool's scopes", async () => {
    const { server, runs, seen } = made();
    const client = harness(server, { era });
    expect((await client.callTool("hello")).status).toBe(200);
    expect(seen).toEqual([undefined]);
    const refused = await client.callTool("write", { n: 1 });
    expect(refused.status).toBe(401);
    // No credentials, no error code nor description (RFC 6750 §3.1), as the server-wide 401 (was: error="invalid_token").
    expect(refused.challenge).toBe(`Bearer resource_metadata="${METADATA}", scope="projects:read projects:write"`);
    expect(refused.error?.message).toMatch(/^Unauthorized: Sign in/);
    expect((await client.callTool("whoami")).status).toBe(401);
    expect(runs).toEqual(["hello"]);
  });

  it("steps up with 403 insufficient_scope, repeating the granted scopes it knows", async () => {
    const { server, runs } = made();
    const token = await issuer.mint({ scopes: ["projects:read", "email"] });
    const refused = await harness(server, { era, token }).callTool("write", { n: 1 });
    expect(refused.status).toBe(403);
    expect(challengeOf(refused.challenge)).toMatchObject({
      error: "insufficient_scope",
      scope: "projects:read projects:write",
      resource_metadata: METADATA,
    });
    expect(challengeOf(refused.challenge).error_description).toContain("projects:write");
    // The caller is signed in and lacks a permission: forbidden, not unauthorized (was: "Unauthorized: …").
    expect(refused.error?.message).toBe(
      'Forbidden: Tool "write" needs the scope projects:write: sign in again and grant it.',
    );
    const granted = await issuer.mint({ scopes: ["projects:read", "projects:write"] });
    expect((await harness(server, { era, token: granted }).callTool("write", { n: 1 })).status).toBe(200);
    expect(runs).toEqual(["write"]);
  });

  it("refuses missing roles and failed checks with a plain 'not permitted' tool error, no challenge", async () => {
    const { server, runs } = made();
    const client = harness(server, { era, token: await issuer.mint({ subject: "ada" }) });
    for (const [name, args] of [
      ["admin", {}],
      ["own", { owner: "bob" }],
    ] as const) {
      const answer = await client.callTool(name, args);
      expect(answer.status).toBe(200);
      expect(answer.challenge).toBeNull();
      expect(answer.result).toMatchObject({
        isError: true,
        content: [{ text: expect.stringMatching(/^Not permitted/) }],
      });
    }
    expect((await client.callTool("own", { owner: "ada" })).result?.isError).toBeUndefined();
    const admin = harness(server, { era, token: await issuer.mint({ roles: ["admin"] }) });
    expect((await admin.callTool("admin")).result?.isError).toBeUndefined();
    expect(runs).toEqual(["own", "admin"]);
  });

  it("answers ChatGPT in-band: an isError result carrying _meta['mcp/www_authenticate']", async () => {
    const { server, runs } = made();
    const chatgpt = harness(server, { era, clientInfo: { name: "openai-mcp", version: "1.0.0" } });
    const answer = await chatgpt.callTool("write", { n: 1 });
    expect(answer.status).toBe(200);
    expect(answer.challenge).toBeNull();
    expect(answer.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringContaining("Sign in") }],
    });
    const [challenge] = (answer.result!._meta as Record<string, string[]>)["mcp/www_authenticate"]!;
    expect(challengeOf(challenge!)).toMatchObject({
      resource_metadata: METADATA,
      scope: "projects:read projects:write",
      error: "invalid_token",
      error_description: expect.stringContaining("Sign in"),
    });
    expect(runs).toEqual([]);
  });

  it('follows challenge: "result" and "http" whatever the client', async () => {
    const inBand = harness(made({ challenge: "result" }).server, { era });
    expect((await inBand.callTool("read")).result?._meta).toHaveProperty(["mcp/www_authenticate"]);
    const http = harness(made({ challenge: "http" }).server, { era, clientInfo: { name: "openai-mcp", version: "1" } });
    expect((await http.callTool("read")).status).toBe(401);
  });

  it("hides what the caller cannot use with hideUnauthorized, in lists and calls", async () => {
    const { server, runs } = made({ hideUnauthorized: true });
    const names = async (token?: string) =>
      ((await harness(server, { era, token }).listTools()).result!.tools as { name: string }[]).map(
        (tool) => tool.name,
      );
    expect(await names()).toEqual(["hello"]);
    expect(await names(await issuer.mint({ scopes: ["projects:read"] }))).toEqual(["hello", "whoami", "read", "own"]);
    const hidden = await harness(server, { era }).callTool("read");
    expect(hidden.status).toBe(200);
    expect(hidden.error).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool "read"') });
    expect(runs).toEqual([]);
  });
});

describe("advertising and registering", () => {
  it("puts securitySchemes on each tool, and the copy in _meta that ChatGPT reads", async () => {
    const { server } = made();
    const answer = await harness(server, { token: await issuer.mint() }).listTools();
    const tools = Object.fromEntries(
      (answer.result!.tools as Record<string, unknown>[]).map((tool) => [tool.name, tool]),
    ) as Record<string, { securitySchemes: unknown; _meta: { securitySchemes: unknown } }>;
    expect(tools.hello!.securitySchemes).toEqual([{ type: "noauth" }]);
    expect(tools.whoami!.securitySchemes).toEqual([{ type: "oauth2", scopes: [] }]);
    expect(tools.write!.securitySchemes).toEqual([{ type: "oauth2", scopes: ["projects:read", "projects:write"] }]);
    for (const tool of Object.values(tools)) expect(tool._meta.securitySchemes).toEqual(tool.securitySchemes);
  });

  it("advertises nothing on a server and tool that say nothing about auth", async () => {
    const server = pico({ name: "t", version: "1" }).tool("t", {
      description: "A tool.",
      _meta: { x: 1 },
      run: () => "",
    });
    const answer = await harness(server).listTools();
    expect((answer.result!.tools as object[])[0]).toEqual({
      name: "t",
      description: "A tool.",
      inputSchema: { type: "object", additionalProperties: false },
      _meta: { x: 1 },
    });
  });

  it("refuses a public registration when every request needs a token, and a malformed rule", async () => {
    const make = () =>
      pico({ name: "t", version: "1", auth: { verify: issuer.verify, authorizationServers: ["https://a"] } });
    const publicTool =
      /Tool "t" is public, but auth.required makes every HTTP request need a token: set auth.required to false/;
    const malformed = /Tool "u" has an invalid auth: use "public", "signed-in", \{ scopes\?, roles\?, allow\? \}/;
    // Before the auth settings have loaded, the mistake rejects ready(); once they have, it throws at the call.
    await expect(
      make()
        .tool("t", { auth: "public", run: () => "" })
        .ready(),
    ).rejects.toThrow(publicTool);
    await expect(
      make()
        .tool("u", { auth: { scope: ["x"] } as never, run: () => "" })
        .ready(),
    ).rejects.toThrow(malformed);
    const server = make();
    await server.ready();
    expect(() => server.tool("t", { auth: "public", run: () => "" })).toThrow(publicTool);
    expect(() => server.tool("u", { auth: { scope: ["x"] } as never, run: () => "" })).toThrow(malformed);
    // A tool-level rule on a server without auth options loads the settings too.
    await expect(
      pico({ name: "t" })
        .tool("u", { auth: { scope: ["x"] } as never, run: () => "" })
        .ready(),
    ).rejects.toThrow(malformed);
  });
});

describe("resources and prompts", () => {
  const notes = (hideUnauthorized: boolean) =>
    pico({
      name: "t",
      version: "1",
      auth: {
        verify: issuer.verify,
        resource: RESOURCE,
        authorizationServers: ["https://a"],
        required: false,
        hideUnauthorized,
      },
    })
      .resource("notes://public", { auth: "public", read: () => "hello" })
      .resource("notes://{owner}/private", {
        auth: { scopes: ["notes:read"], allow: (identity, { owner }) => identity.subject === owner },
        read: ({ owner }) => `notes of ${owner}`,
      })
      .prompt("review", { auth: { scopes: ["prompts"] }, get: () => "Review this." });
  const server = notes(false);

  it("challenges anonymous and under-scoped readers, and applies allow to the template variables", async () => {
    const anonymous = await harness(server).request("resources/read", { uri: "notes://ada/private" });
    expect(anonymous.status).toBe(401);
    expect(challengeOf(anonymous.challenge).scope).toBe("notes:read");
    const ada = harness(server, { token: await issuer.mint({ subject: "ada", scopes: ["notes:read"] }) });
    expect((await ada.request("resources/read", { uri: "notes://ada/private" })).result).toMatchObject({
      contents: [{ text: "notes of ada" }],
    });
    const other = await ada.request("resources/read", { uri: "notes://bob/private" });
    expect(other.error?.message).toMatch(/^Not permitted/);
    const prompt = await harness(server, { token: await issuer.mint({ scopes: [] }) }).request("prompts/get", {
      name: "review",
    });
    expect(prompt.status).toBe(403);
    expect(challengeOf(prompt.challenge)).toMatchObject({ error: "insufficient_scope", scope: "prompts" });
    expect(prompt.error?.message).toBe(
      'Forbidden: Prompt "review" needs the scope prompts: sign in again and grant it.',
    );
  });

  it("hides resource templates and prompts from callers who cannot use them", async () => {
    const anonymous = harness(notes(true));
    expect((await anonymous.request("resources/read", { uri: "notes://ada/private" })).error?.message).toMatch(
      /^Resource not found/,
    );
    expect((await anonymous.request("resources/templates/list")).result?.resourceTemplates).toEqual([]);
    expect((await anonymous.request("prompts/list")).result?.prompts).toEqual([]);
    expect((await anonymous.request("resources/list")).result?.resources).toHaveLength(1);
  });
});

describe("in-process calls", () => {
  it("server.call takes an identity, refuses without one, and never runs a refused tool", async () => {
    const { server, runs } = made();
    expect(await server.call("read", undefined, { auth: { subject: "ada", scopes: ["projects:read"] } })).toEqual({
      content: [{ type: "text", text: "read ran for ada" }],
    });
    const refused = await server.call("read");
    expect(refused).toMatchObject({ isError: true, content: [{ text: 'Sign in to use tool "read".' }] });
    // The configured resource tells the caller where to sign in, in-band.
    expect(refused._meta?.["mcp/www_authenticate"]).toEqual([
      `Bearer resource_metadata="${METADATA}", scope="projects:read", error="invalid_token", error_description="Sign in to use tool 'read'."`,
    ]);
    expect(runs).toEqual(["read"]);
  });

  it("checks declared rules on a server without auth options (stdio), with the identity it is given", async () => {
    const runs: string[] = [];
    const server = pico({ name: "t", version: "1" })
      .tool("open", { description: "Anyone.", run: () => "open" })
      .tool("admin", { description: "Admins.", auth: { roles: ["admin"] }, run: () => void runs.push("admin") });
    expect(await server.call("open")).toEqual({ content: [{ type: "text", text: "open" }] });
    expect((await server.call("admin")).isError).toBe(true);
    expect(
      (await server.call("admin", undefined, { auth: { subject: "root", roles: ["admin"] } })).isError,
    ).toBeUndefined();
    expect(runs).toEqual(["admin"]);
  });
});

describe("stdio: the caller comes from the environment", () => {
  const lines = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami" } },
    { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "purge" } },
    { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "ping" } },
  ];

  async function run(env: Record<string, string>): Promise<Record<number, unknown>> {
    const fixture = fileURLToPath(new URL("fixtures/stdio-auth-server.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", fixture], { env: { ...process.env, ...env } });
    child.stdin.end(`${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    await new Promise((resolve) => child.once("close", resolve));
    const answers: Record<number, unknown> = {};
    for (const line of out.split("\n").filter(Boolean)) {
      const message = JSON.parse(line) as { id: number; result: unknown };
      answers[message.id] = message.result;
    }
    return answers;
  }

  it("gives ctx.auth the identity of the auth.stdio hook, and checks each tool against it", async () => {
    const answers = await run({ PICO_TOKEN: "let-me-in" });
    expect(answers[2]).toEqual({ content: [{ type: "text", text: "local-user" }] });
    expect(answers[3]).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("notes:admin") }] });
    expect(answers[4]).toEqual({ content: [{ type: "text", text: "pong" }] });
  });

  it("treats a process without credentials as anonymous", async () => {
    const answers = await run({ PICO_TOKEN: "" });
    expect(answers[2]).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("no identity") }] });
    expect(answers[4]).toEqual({ content: [{ type: "text", text: "pong" }] });
  });
});

describe("server.include and auth.rules", () => {
  const definitions = () =>
    pico({ name: "defs", version: "1", auth: { required: false } })
      .tool("read", { description: "Reads.", run: (_args, ctx) => `read by ${ctx.auth?.subject}` })
      .tool("wipe", { description: "Wipes.", auth: { roles: ["admin"] }, run: () => "wiped" })
      .resource("notes://all", { read: () => "all notes" })
      .prompt("summary", { get: () => "Summarize." });

  it("serves another server's registrations under this server's auth, with rules by name", async () => {
    const server = pico({
      name: "protected",
      version: "1",
      auth: {
        verify: issuer.verify,
        resource: RESOURCE,
        authorizationServers: [issuer.issuer],
        rules: { read: { scopes: ["notes:read"] }, wipe: "signed-in", "notes://all": { scopes: ["notes:read"] } },
      },
    }).include(definitions());
    const reader = harness(server, { token: await issuer.mint({ subject: "ada", scopes: ["notes:read"] }) });
    expect((await reader.callTool("read")).result).toEqual({ content: [{ type: "text", text: "read by ada" }] });
    // The tool's own rule wins over auth.rules.
    expect((await reader.callTool("wipe")).result?.isError).toBe(true);
    const stranger = harness(server, { token: await issuer.mint({ subject: "bob" }) });
    expect((await stranger.callTool("read")).status).toBe(403);
    expect((await stranger.request("resources/read", { uri: "notes://all" })).status).toBe(403);
    // Not in the rules: the default, signed in.
    expect((await stranger.request("prompts/get", { name: "summary" })).status).toBe(200);
    const tools = (await reader.listTools()).result!.tools as { name: string; securitySchemes: unknown }[];
    expect(tools.map((tool) => tool.securitySchemes)).toEqual([
      [{ type: "oauth2", scopes: ["notes:read"] }],
      [{ type: "oauth2", scopes: [] }],
    ]);
    // The server's typed call covers the included tools too.
    expect(await server.call("read", undefined, { auth: { subject: "carol", scopes: ["notes:read"] } })).toEqual({
      content: [{ type: "text", text: "read by carol" }],
    });
  });

  it("leaves the included server as it was, and refuses clashing names", async () => {
    const defs = definitions();
    pico({ name: "p", version: "1", auth: { rules: { read: { scopes: ["x"] } } } }).include(defs);
    // Its own rules stand: signed in is enough, no scope (the including server's rule stays there).
    expect(await defs.call("read", undefined, { auth: { subject: "dan" } })).toEqual({
      content: [{ type: "text", text: "read by dan" }],
    });
    const clash = pico({ name: "p", version: "1" }).tool("read", { description: "Mine.", run: () => "" });
    expect(() => clash.include(definitions())).toThrow(/already registered/);
  });
});
