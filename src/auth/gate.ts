import type { ExchangeAuth } from "../core/caller.js";
import { ErrorCode } from "../core/errors.js";
import { errorResponse, isObject, type JsonRpcMessage, serialize } from "../core/jsonrpc.js";
import type { HttpReply, HttpRequest } from "../transports/http/reply.js";
import type { HttpSession } from "../transports/http/sessions.js";
import type { Denial } from "./access.js";
import { challengeHeader } from "./enforce.js";
import { expiries } from "./expiries.js";
import { ownerKey } from "./owner.js";
import { type AuthRequest, type AuthSettings, canonicalResource, metadataUrlOf } from "./settings.js";
import { toIdentity } from "./to-identity.js";
import { EXPIRED } from "./verified.js";

const WELL_KNOWN = "/.well-known/oauth-protected-resource";
const REDACTED = "[redacted]";

/**
 * How many of a session's tokens are cut out of what it writes: the latest ones. A client presents
 * one at a time; the others cover a refresh while a question, a task or a notification that came
 * with an earlier token is still on its way.
 */
const SESSION_TOKENS = 8;

/** The raw token of each admitted request, for the session it presents it to (`AuthGate.presented`). */
const tokens = new WeakMap<ExchangeAuth, string>();

/** What the gate lets through: the request's auth for the core, and the last touch on its reply. */
export interface Admitted {
  readonly auth: ExchangeAuth;
  /** Turns a refusal the core recorded into a 401/403 challenge, and keeps the raw token out of the body. */
  finish(reply: HttpReply): HttpReply;
}

/**
 * The HTTP side of MCP authorization (2025-11-25 "Authorization"; RFC 9728, RFC 6750): the
 * protected resource metadata at its well-known URLs (never behind the gate), and the bearer
 * token of every other request checked before its body is read.
 *
 * The resource, which the metadata publishes and every token's audience must name (RFC 8707), is
 * `auth.resource`, or the URL `serve()` listens on. Never the request's Host: a client chooses
 * that, and a token issued for another server would open this one.
 */
export class AuthGate {
  readonly #settings: AuthSettings;
  /** The resource and its metadata URL; undefined until `serve()` binds when `auth.resource` is unset. */
  #resource: [resource: string, metadataUrl: string] | undefined;
  /** Who opened each legacy session: its owner key (auth/owner.ts's ownerKey, a digest of issuer and subject). */
  readonly #owners = new WeakMap<object, string>();
  /** The distinct tokens each legacy session's requests presented, the latest last (see `presented`). */
  readonly #presented = new WeakMap<HttpSession, Set<string>>();

  constructor(settings: AuthSettings) {
    this.#settings = settings;
    if (settings.resource !== undefined) this.#resource = [settings.resource, metadataUrlOf(settings.resource)];
  }

  /** The URL `serve()` is bound to: the resource, unless `auth.resource` says otherwise. */
  listeningAt(url: string): void {
    if (this.#settings.resource !== undefined) return;
    const resource = canonicalResource(url);
    this.#resource = [resource, metadataUrlOf(resource)];
  }

  /**
   * Serves `GET /.well-known/oauth-protected-resource` and its path-suffixed form (RFC 9728 §3.1;
   * clients try the suffixed one first), with CORS for browser clients. Undefined for other paths.
   * The suffixed form is the resource's path and query after the well-known path: one with another
   * path, or for a resource with a query another query, names another resource (§3.3), so it is a
   * 404; a resource without a query is served whatever query a client adds (a cache buster).
   */
  metadata(request: HttpRequest): HttpReply | undefined {
    if (request.path !== WELL_KNOWN && !request.path.startsWith(`${WELL_KNOWN}/`)) return undefined;
    if (!this.#resource) return NO_RESOURCE;
    const suffix = request.path.slice(WELL_KNOWN.length);
    const [resource] = this.#resource;
    const { pathname, search } = new URL(resource);
    if (suffix !== "" && (suffix !== pathname || (search !== "" && queryOf(request) !== search))) {
      return plain(
        404,
        `Not found: the protected resource metadata is at ${WELL_KNOWN}${pathname === "/" ? "" : pathname}${search}`,
      );
    }
    const cors = { "access-control-allow-origin": "*" };
    if (request.method === "OPTIONS") {
      return {
        status: 204,
        headers: {
          ...cors,
          "access-control-allow-methods": "GET",
          "access-control-allow-headers": "*, MCP-Protocol-Version",
        },
      };
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return { status: 405, headers: { allow: "GET", ...cors } };
    }
    return {
      status: 200,
      headers: { "content-type": "application/json", "cache-control": "public, max-age=300", ...cors },
      body: JSON.stringify(this.#document(resource)),
    };
  }

  /** The RFC 9728 document (§2) for a resource. */
  #document(resource: string): Record<string, unknown> {
    const { authorizationServers, scopesSupported, metadata } = this.#settings.options;
    const document: Record<string, unknown> = {
      resource,
      authorization_servers: authorizationServers,
      bearer_methods_supported: ["header"],
    };
    if (scopesSupported?.length) document.scopes_supported = scopesSupported;
    return { ...document, ...metadata, resource };
  }

  /** Binds a new legacy session to the caller who opened it (2025-11-25 "Session Hijacking"). */
  bind(session: HttpSession, auth: ExchangeAuth | undefined): void {
    const owner = ownerOf(auth);
    if (owner !== undefined) this.#owners.set(session, owner);
    this.presented(session, auth);
  }

  /**
   * A request of a legacy session presented its token: from now on the session cuts it out of all it
   * keeps and writes, with the others its requests presented (the last SESSION_TOKENS). A request's
   * own stream has its token cut out already (`redact` below), but a token is per request and the
   * session's GET stream is per session: what goes there (a question of a request whose client takes
   * no stream on its POST, a task's message, a notification) may have come with any of them, and so
   * may a task's message on the stream of a later `tasks/result` sent with a refreshed token.
   */
  presented(session: HttpSession, auth: ExchangeAuth | undefined): void {
    const token = auth && tokens.get(auth);
    if (token === undefined) return;
    let recent = this.#presented.get(session);
    if (!recent) {
      const made = new Set<string>();
      recent = made;
      this.#presented.set(session, made);
    }
    // Added again, it is the latest (a Set keeps the order added); past SESSION_TOKENS the earliest goes.
    recent.delete(token);
    recent.add(token);
    if (recent.size > SESSION_TOKENS) recent.delete(recent.values().next().value!);
  }

  /**
   * `message` with the tokens the requests of `session` presented cut out (see `presented`), before
   * the session keeps and writes it, on every stream of it: the message itself when none did.
   */
  readonly redacted = (session: HttpSession, message: JsonRpcMessage): JsonRpcMessage => {
    const recent = this.#presented.get(session);
    return recent ? redactedAll(message, recent) : message;
  };

  /** Who opened a session (undefined: anonymously), as a shared session records it (src/state/). */
  ownerOf(session: object): string | undefined {
    return this.#owners.get(session);
  }

  /** Binds a shared session another instance opened to the owner it recorded. */
  adopt(session: object, owner: string | undefined): void {
    if (owner !== undefined) this.#owners.set(session, owner);
  }

  /**
   * Whether the caller may use a session: the one who opened it. A session opened anonymously is
   * anonymous callers' only: a signed-in caller's results never go where a tokenless request with its
   * id could read them (2025-11-25 "Session Hijacking"); signed in, a client opens a session of its own.
   */
  owns(session: object, auth: ExchangeAuth | undefined): boolean {
    return this.isOwner(this.#owners.get(session), auth);
  }

  /** Whether the caller is `owner`, as a shared session's record names who opened it (undefined: anonymously). */
  isOwner(owner: string | undefined, auth: ExchangeAuth | undefined): boolean {
    return owner === ownerOf(auth);
  }

  /** Checks the request's bearer token; answers the challenge reply when it is refused. */
  async admit(request: HttpRequest): Promise<Admitted | HttpReply> {
    const settings = this.#settings;
    if (!this.#resource) return NO_RESOURCE;
    const [resource, metadataUrl] = this.#resource;
    const url = request.url ?? `${originOf(request)}${request.path}`;
    const scopes = settings.options.scopesSupported ?? [];
    const reject = (status: number, error: string | undefined, description: string) =>
      challenge(status, challengeHeader(metadataUrl, { scopes, error, message: description }), description);

    // Tokens travel in the Authorization header only, never in the URL (2025-11-25 "Token Requirements").
    if (tokenInQuery(url)) {
      return reject(400, "invalid_request", "Send the access token in the Authorization header, never in the URL");
    }
    const header = request.header("authorization") ?? "";
    const other = otherScheme(header);
    // No Bearer credentials (none, or another scheme's: Basic, DPoP) is no authentication at all: the
    // request is anonymous, and its challenge carries no error code (RFC 6750 §3.1).
    if (header.trim() === "" || other) {
      if (!settings.required) return admitted(undefined, metadataUrl, undefined);
      const message = other
        ? "Unauthorized: this server takes an access token as Authorization: Bearer <token>, no other scheme; sign in to use it"
        : "Unauthorized: sign in to use this server";
      return challenge(401, challengeHeader(metadataUrl, { scopes }), message);
    }
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match) return reject(400, "invalid_request", 'The Authorization header must be "Bearer <access token>"');
    const token = match[1]!; // The pattern's one group, which a match always fills.

    const info: AuthRequest = { method: request.method, url, header: (name) => request.header(name) };
    let verified: Awaited<ReturnType<NonNullable<AuthSettings["verify"]>>>;
    try {
      // A gate is made only for settings with `verify` (transports/http/web.ts).
      verified = await settings.verify!(token, info);
    } catch (thrown) {
      // A verifier's message goes to the client, and a challenge may be logged on its way there: one
      // that repeats the token has it cut out, as a reply's body has (`finish`).
      const said = thrown instanceof Error ? thrown.message.replaceAll(token, REDACTED) : "";
      // The token could not be checked now (its authorization server is unreachable): neither it nor
      // the client is at fault, and a 401 would have the client drop a good token and sign in again.
      // Known by its name, as InvalidTokenError is: an import of core's Unavailable would cost every
      // server's core chunk an export (+19 B on stdio) for a class only the verifiers throw.
      if (thrown instanceof Error && thrown.name === "AuthorizationServerUnavailable") return unavailable(said);
      const reason = thrown instanceof Error && thrown.name === "InvalidTokenError" ? said : "";
      return reject(401, "invalid_token", reason || "The access token is not valid");
    }
    if (!verified) return reject(401, "invalid_token", "The access token is not valid");
    // Audience binding (RFC 8707): a token issued for another resource is never accepted.
    const accepted = new Set([resource, ...[settings.options.audience ?? []].flat()].map(canonicalAudience));
    const audiences = typeof verified.audience === "string" ? [verified.audience] : [...(verified.audience ?? [])];
    if (!audiences.some((audience) => typeof audience === "string" && accepted.has(canonicalAudience(audience)))) {
      // Which resource to ask for is public (the metadata's `resource`): saying it is what fixes the token.
      const fix = `sign in again, asking for a token for ${resource} (the resource parameter, RFC 8707)`;
      return reject(401, "invalid_token", `The access token was issued for another resource: ${fix}`);
    }
    // Not `expiresAt * 1000 <= now`: an expiry that is no number (a verifier's NaN, from a date it could
    // not parse) is false in every comparison, and would be a token that never expires.
    if (verified.expiresAt !== undefined && !(verified.expiresAt * 1000 > Date.now())) {
      return reject(401, "invalid_token", EXPIRED);
    }
    let identity: Awaited<ReturnType<typeof toIdentity>>;
    try {
      identity = await toIdentity(verified, token);
    } catch {
      return reject(401, "invalid_token", "The access token names no subject");
    }
    return admitted(identity, metadataUrl, token);
  }
}

/**
 * Whether the URL's query has an `access_token` parameter (RFC 6750 §2.3) however its name is spelled:
 * percent-encoded (`access%5Ftoken`) or in another case, as a query parser would read it. A URL
 * with neither the name nor a `%` in its query, as most are, is answered without parsing it.
 */
function tokenInQuery(url: string): boolean {
  const start = url.indexOf("?");
  if (start === -1 || !/access_token|%/i.test(url)) return false;
  return [...new URLSearchParams(url.slice(start + 1)).keys()].some((name) => /^access_token$/i.test(name));
}

function admitted(identity: ExchangeAuth["identity"], metadataUrl: string, token: string | undefined): Admitted {
  let denial: Denial | undefined;
  /** Set once the reply is handed to the runtime: its status is then on its way. */
  let sent = false;
  const auth: ExchangeAuth = {
    identity,
    metadataUrl,
    challenge: (refused) => {
      if (sent) return false;
      denial = refused;
      return true;
    },
    redact: token === undefined ? undefined : (message) => redactedAll(message, [token]),
  };
  if (token !== undefined) tokens.set(auth, token);
  return {
    auth,
    finish(reply) {
      sent = true;
      // A stream's messages had the token cut out as they were written (transports/http/respond.ts).
      let body = "body" in reply ? reply.body : undefined;
      // Defence in depth: nothing gives handlers the token, and should one echo it anyway, it is cut out.
      if (token !== undefined && body?.includes(token)) body = body.replaceAll(token, REDACTED);
      // A stream outlives its request: it must not outlive the token it was opened with (expiries.ts).
      const expiresAt = identity?.expiresAt;
      if ("stream" in reply && expiresAt !== undefined) expiries.watch(reply.stream, expiresAt);
      if (denial === undefined) return body === undefined ? reply : { ...reply, body };
      // A refusal before the status went out is the status, whatever the body: JSON, or the event
      // stream of a client that takes only those, or of a request that had sent a notification.
      // A request that carried no credentials gets a challenge without an error code or description
      // (RFC 6750 §3.1), as the gate's own 401 above; the in-band form keeps them, which ChatGPT needs.
      const said = identity === undefined ? { scopes: denial.scopes } : denial;
      const headers = { ...reply.headers, "www-authenticate": challengeHeader(metadataUrl, said) };
      return "stream" in reply
        ? { ...reply, status: denial.status, headers }
        : { status: denial.status, headers, body };
    },
  };
}

/**
 * The message with each token cut out of each of its strings, an object's keys as its values (a
 * handler's log of `{ [token]: … }`); the message itself when it holds none (nearly always).
 */
function redactedAll(message: JsonRpcMessage, secrets: Iterable<string>): JsonRpcMessage {
  const text = serialize(message);
  // The longest first: a token inside another must not leave the rest of that one behind.
  const found = [...secrets].filter((token) => text?.includes(token)).sort((a, b) => b.length - a.length);
  if (found.length === 0) return message;
  const cut = (string: string) => found.reduce((kept, token) => kept.replaceAll(token, REDACTED), string);
  return JSON.parse(text!, (_key, value: unknown) => {
    if (typeof value === "string") return cut(value);
    return isObject(value) ? Object.fromEntries(Object.entries(value).map(([key, item]) => [cut(key), item])) : value;
  });
}

/**
 * Whether an Authorization header holds credentials of a scheme other than Bearer: its auth-scheme,
 * a token (RFC 9110 §11.4), is followed by a space or nothing. A header that is no credentials at all
 * is not: a malformed Bearer header, or garbage, is a 400 (RFC 6750 §3.1 "invalid_request").
 */
function otherScheme(header: string): boolean {
  const scheme = /^([!#$%&'*+.^`|~\w-]+)(?: |$)/.exec(header)?.[1];
  return scheme !== undefined && scheme.toLowerCase() !== "bearer";
}

function ownerOf(auth: ExchangeAuth | undefined): string | undefined {
  const identity = auth?.identity;
  return identity && ownerKey(identity);
}

/**
 * The answer of a gate that has no resource: `server.fetch` and `server.node` without
 * `auth.resource`. The server's own mistake, said to whoever reads its responses.
 */
const NO_RESOURCE: HttpReply = {
  status: 500,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(
    errorResponse(
      undefined,
      ErrorCode.InternalError,
      'Internal Server Error: auth.resource is not set, and server.fetch and server.node cannot know the URL access tokens are issued for. Set auth.resource to the URL clients connect to, such as "https://mcp.example.com/mcp".',
    ),
  ),
};

/** The query of the request, "?" and all as `URL.search` spells it; "" without one. */
function queryOf(request: HttpRequest): string {
  return request.url === undefined ? "" : new URL(request.url).search;
}

/** The scheme and host of the request, as the client addressed it (what `verify` is told). */
function originOf(request: HttpRequest): string {
  if (request.url !== undefined) return new URL(request.url).origin;
  return `http://${request.header("host") ?? "localhost"}`;
}

function challenge(status: number, header: string, message: string): HttpReply {
  return {
    status,
    headers: { "content-type": "application/json", "www-authenticate": header },
    body: JSON.stringify(errorResponse(undefined, ErrorCode.InvalidRequest, message)),
  };
}

/** 503 with Retry-After, as the endpoint answers a request it cannot serve for now (core/refusal.ts's Refusal). */
function unavailable(message: string): HttpReply {
  return {
    status: 503,
    headers: { "content-type": "application/json", "retry-after": "1" },
    body: JSON.stringify(errorResponse(undefined, ErrorCode.InternalError, message)),
  };
}

function plain(status: number, message: string): HttpReply {
  return {
    status,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(errorResponse(undefined, ErrorCode.InvalidRequest, message)),
  };
}

/** Audiences compare canonically when they are URLs, exactly otherwise (e.g. "api://projects"). */
function canonicalAudience(value: string): string {
  if (!/^https?:\/\//i.test(value)) return value;
  try {
    return canonicalResource(value).replace(/\/$/, "");
  } catch {
    return value;
  }
}
