/**
 * The official v1 client's OAuth flow (@modelcontextprotocol/sdk 1.x) against a picomcp server
 * protected with `picomcp/jwt`, and a local authorization server, all on 127.0.0.1: the 401
 * challenge, protected resource metadata discovery, authorization server metadata, dynamic client
 * registration, PKCE, the resource indicator bound into the token's audience, the JWKS fetched by
 * the verifier, and step-up on 403 insufficient_scope.
 */
import { type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { jwtVerifier } from "../../src/jwt.js";
import type { Listening } from "../../src/transports/listen.js";
import { type AuthorizationServer, startAuthorizationServer } from "./oauth-server.js";

/** A client-side provider that keeps everything in memory and "redirects" by remembering the URL. */
class MemoryProvider implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  redirectedTo: URL | undefined;
  readonly redirectUrl = "http://127.0.0.1:1/callback";
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: "picomcp peer test",
    redirect_uris: ["http://127.0.0.1:1/callback"],
    grant_types: ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.redirectedTo = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** What the user's browser would do: open the authorization URL and come back with the code. */
async function approve(provider: MemoryProvider): Promise<string> {
  const response = await fetch(provider.redirectedTo!, { redirect: "manual" });
  const location = new URL(response.headers.get("location")!);
  provider.redirectedTo = undefined;
  return location.searchParams.get("code")!;
}

describe("v1 client: the OAuth flow against a protected picomcp server", () => {
  let as: AuthorizationServer;
  let listening: Listening;
  const runs: string[] = [];
  const open: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    as = await startAuthorizationServer();
    const server = pico({
      name: "notes",
      version: "1.0.0",
      auth: {
        verify: jwtVerifier({ issuer: as.url, jwksUrl: `${as.url}/jwks` }),
        authorizationServers: [as.url],
        scopesSupported: ["notes:read"],
      },
    })
      .tool("read_notes", {
        description: "Reads the signed-in user's notes.",
        auth: { scopes: ["notes:read"] },
        run: (_args, ctx) => {
          runs.push("read_notes");
          return `notes of ${ctx.auth!.subject}`;
        },
      })
      .tool("write_note", {
        description: "Adds a note to the signed-in user's notes.",
        input: z.object({ text: z.string().describe("The note.") }),
        auth: { scopes: ["notes:read", "notes:write"] },
        run: ({ text }, ctx) => {
          runs.push("write_note");
          return `${ctx.auth!.subject} wrote ${text}`;
        },
      });
    listening = await server.serve({ port: 0 });
  });

  afterAll(async () => {
    for (const each of open.reverse()) await each.close();
    await listening?.close();
    await as?.close();
  });

  async function connect(provider: MemoryProvider): Promise<Client> {
    const client = new Client({ name: "oauth-peer", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url), { authProvider: provider }));
    open.push(client);
    return client;
  }

  it("signs in, calls with the token, and steps up when a tool needs more scope", async () => {
    const provider = new MemoryProvider();

    // 1. No token: 401, and the client starts the authorization code flow with what the challenge said.
    const first = new StreamableHTTPClientTransport(new URL(listening.url), { authProvider: provider });
    await expect(new Client({ name: "oauth-peer", version: "1.0.0" }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(provider.information?.client_id).toMatch(/^client-/);
    const request = provider.redirectedTo!.searchParams;
    expect(request.get("resource")).toBe(listening.url);
    expect(request.get("scope")).toBe("notes:read");
    expect(request.get("code_challenge_method")).toBe("S256");
    await first.finishAuth(await approve(provider));
    expect(as.tokenRequests.at(-1)?.get("resource")).toBe(listening.url);
    expect(provider.saved?.scope).toBe("notes:read");

    // 2. Signed in: the handler sees the token's subject.
    const client = await connect(provider);
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(["read_notes", "write_note"]);
    expect(await client.callTool({ name: "read_notes" })).toEqual({
      content: [{ type: "text", text: "notes of user-42" }],
    });

    // 3. Step-up: 403 insufficient_scope names the scopes to ask for, the old ones included.
    await expect(client.callTool({ name: "write_note", arguments: { text: "hi" } })).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(provider.redirectedTo!.searchParams.get("scope")).toBe("notes:read notes:write");
    const upgrade = new StreamableHTTPClientTransport(new URL(listening.url), { authProvider: provider });
    await upgrade.finishAuth(await approve(provider));
    expect(provider.saved?.scope).toBe("notes:read notes:write");
    const upgraded = await connect(provider);
    expect(await upgraded.callTool({ name: "write_note", arguments: { text: "hi" } })).toEqual({
      content: [{ type: "text", text: "user-42 wrote hi" }],
    });
    expect(runs).toEqual(["read_notes", "write_note"]);
  });

  it("is refused a token minted for another resource", async () => {
    const stolen = await as.issuer.mint({ scopes: ["notes:read"], audience: "http://127.0.0.1:1/other" });
    const response = await fetch(listening.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${stolen}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(response.status).toBe(401);
    // It says what to do: ask for a token for this server's resource (was: the refusal alone).
    expect(response.headers.get("www-authenticate")).toContain(
      `error_description="The access token was issued for another resource: sign in again, asking for a token for ${listening.url} (the resource parameter, RFC 8707)"`,
    );
    await response.body?.cancel();
  });
});
