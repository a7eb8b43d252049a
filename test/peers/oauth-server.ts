/**
 * A small OAuth 2.1 authorization server for the peer tests, on 127.0.0.1: RFC 8414 metadata,
 * dynamic client registration (RFC 7591), the authorization endpoint (which approves at once, as if
 * the user clicked "Allow"), PKCE S256, the token endpoint with resource indicators (RFC 8707), and
 * the JWKS its ES256 access tokens verify against. Not for anything but tests.
 */
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { type TestIssuer, testIssuer } from "../../src/testing.js";

export interface AuthorizationServer {
  readonly url: string;
  readonly issuer: TestIssuer;
  /** Every authorization request, as the client sent it (scope, resource, PKCE, …). */
  readonly authorizations: URLSearchParams[];
  /** Every token request. */
  readonly tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scope: string;
  resource: string;
}

export async function startAuthorizationServer(): Promise<AuthorizationServer> {
  const codes = new Map<string, Grant>();
  const authorizations: URLSearchParams[] = [];
  const tokenRequests: URLSearchParams[] = [];
  let url = "";
  let issuer: TestIssuer | undefined;

  const server: Server = createServer((req, res) => {
    void handle(req).then(
      ({ status, body, headers }) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(body === undefined ? "" : JSON.stringify(body));
      },
      (thrown: unknown) => {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "server_error", error_description: String(thrown) }));
      },
    );
  });

  async function handle(
    req: IncomingMessage,
  ): Promise<{ status: number; body?: unknown; headers?: Record<string, string> }> {
    const requestUrl = new URL(req.url ?? "/", url);
    const path = requestUrl.pathname;
    if (req.method === "GET" && path === "/.well-known/oauth-authorization-server") {
      return {
        status: 200,
        body: {
          issuer: url,
          authorization_endpoint: `${url}/authorize`,
          token_endpoint: `${url}/token`,
          registration_endpoint: `${url}/register`,
          jwks_uri: `${url}/jwks`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
          scopes_supported: ["notes:read", "notes:write"],
        },
      };
    }
    if (req.method === "GET" && path === "/jwks") return { status: 200, body: issuer!.jwks };
    if (req.method === "POST" && path === "/register") {
      const metadata = JSON.parse(await read(req)) as Record<string, unknown>;
      return {
        status: 201,
        body: { ...metadata, client_id: `client-${randomUUID()}`, client_id_issued_at: Math.floor(Date.now() / 1000) },
      };
    }
    if (req.method === "GET" && path === "/authorize") {
      const query = requestUrl.searchParams;
      authorizations.push(query);
      const redirect = new URL(query.get("redirect_uri")!);
      if (query.get("code_challenge_method") !== "S256" || !query.get("code_challenge")) {
        redirect.searchParams.set("error", "invalid_request");
      } else {
        const code = randomUUID();
        codes.set(code, {
          clientId: query.get("client_id")!,
          redirectUri: query.get("redirect_uri")!,
          challenge: query.get("code_challenge")!,
          scope: query.get("scope") ?? "",
          resource: query.get("resource") ?? "",
        });
        redirect.searchParams.set("code", code);
      }
      if (query.get("state")) redirect.searchParams.set("state", query.get("state")!);
      return { status: 302, headers: { location: redirect.href } };
    }
    if (req.method === "POST" && path === "/token") {
      const form = new URLSearchParams(await read(req));
      tokenRequests.push(form);
      const grant = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      if (
        form.get("grant_type") !== "authorization_code" ||
        !grant ||
        grant.challenge !== challenge ||
        grant.clientId !== form.get("client_id") ||
        grant.redirectUri !== form.get("redirect_uri")
      ) {
        return { status: 400, body: { error: "invalid_grant" } };
      }
      // The token is bound to the resource the client named (RFC 8707): it becomes the audience.
      const resource = form.get("resource") ?? grant.resource;
      const scopes = grant.scope.split(" ").filter(Boolean);
      const accessToken = await issuer!.mint({ subject: "user-42", scopes, audience: resource, expiresIn: 600 });
      return {
        status: 200,
        body: { access_token: accessToken, token_type: "Bearer", expires_in: 600, scope: scopes.join(" ") },
        headers: { "cache-control": "no-store" },
      };
    }
    return { status: 404, body: { error: "not_found" } };
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  issuer = await testIssuer({ issuer: url });
  return {
    url,
    issuer,
    authorizations,
    tokenRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.once("end", () => resolve(body));
    req.once("error", reject);
  });
}
