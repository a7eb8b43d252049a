import type { ExchangeAuth, GateSettings } from "../core/caller.js";
import type { Tool, ToolDescriptor } from "../core/tools.js";
import { type Access, type AnyAccess, checkAccess, scopesOf, securitySchemes } from "./access.js";
import type { IdentityInit, VerifiedToken } from "./identity.js";

type MaybePromise<T> = T | Promise<T>;

/** The parts of an HTTP request a verifier may look at (the token itself comes separately). */
export interface AuthRequest {
  readonly method: string;
  /** The absolute request URL as the server saw it. */
  readonly url: string;
  header(name: string): string | null;
}

/**
 * `pico({ auth })`: the server as an OAuth 2.1 resource server (MCP authorization, 2025-11-25 and
 * 2026-07-28), and the defaults of per-registration `auth`.
 */
export interface AuthOptions {
  /**
   * Checks the bearer token of an HTTP request. Answer the token's identity and audience, or
   * undefined (or throw `InvalidTokenError`) to reject it with a 401. `picomcp/jwt` and
   * `picomcp/introspection` have ready ones.
   */
  verify?: (token: string, request: AuthRequest) => MaybePromise<VerifiedToken | undefined>;
  /**
   * The canonical URL of the MCP endpoint, e.g. "https://mcp.example.com/mcp": published as the
   * protected resource metadata's `resource`, and the audience tokens must carry. Without it,
   * `serve({ port })` on a loopback address uses the URL it listens on; `serve()` on any other
   * address, `server.fetch` and `server.node` need it. Never taken from a request's Host header.
   */
  resource?: string;
  /** Issuer URLs of the authorization servers that issue tokens for this server (at least one). */
  authorizationServers?: string[];
  /** The minimal scopes for basic use, published as `scopes_supported` and asked for by a sign-in challenge. */
  scopesSupported?: string[];
  /** Audiences accepted besides `resource` (an API identifier your authorization server puts in `aud`). */
  audience?: string | string[];
  /**
   * Whether every HTTP request needs a valid token, answered with a 401 before its body is read.
   * Default: true. Set false to serve `"public"` registrations to anonymous callers; protected ones
   * then challenge per call.
   */
  required?: boolean;
  /** What a registration without `auth` needs. Default: `"signed-in"`. */
  default?: Access;
  /**
   * Rules for registrations that declare no `auth`, by tool or prompt name and resource URI: a way
   * to protect tools defined elsewhere (see `server.include`). A registration's own `auth` wins.
   */
  rules?: Record<string, Access>;
  /**
   * How a call refused for a missing token or scope is answered: `"http"`, a 401/403 with
   * `WWW-Authenticate` (what the spec and most clients expect); `"result"`, an `isError` result
   * carrying `_meta["mcp/www_authenticate"]` (what ChatGPT reads to offer sign-in); `"auto"` (the
   * default), `"result"` for ChatGPT (client name `openai-mcp`) and `"http"` for everyone else.
   */
  challenge?: "auto" | "http" | "result";
  /** Leave out of lists what the caller cannot use, and answer calls to it as if it did not exist. */
  hideUnauthorized?: boolean;
  /**
   * stdio has no HTTP headers: the spec says credentials come from the environment. This hook runs
   * once when `serve()` starts on stdio, and its identity is `ctx.auth` for every request.
   */
  stdio?: () => MaybePromise<IdentityInit | undefined>;
  /** More fields of the protected resource metadata (RFC 9728 §2), e.g. `resource_name`, `resource_documentation`. */
  metadata?: Record<string, unknown>;
}

/** The auth options, checked and normalised once. */
export class AuthSettings implements GateSettings {
  readonly options: AuthOptions;
  readonly verify: AuthOptions["verify"];
  readonly resource: string | undefined;
  /** Where challenges point when `resource` is configured; without it, the HTTP gate knows (see AuthGate). */
  readonly metadataUrl: string | undefined;
  readonly required: boolean;
  readonly default: Access | undefined;
  readonly challenge: "auto" | "http" | "result";
  readonly hide: boolean;
  /** Every scope the server deals in: supported ones and those registrations require. */
  readonly known: Set<string>;
  /** The gate of every request the transport says nothing about (most of them): made once. */
  readonly gate: {
    readonly settings: AuthSettings;
    readonly metadataUrl: string | undefined;
    readonly challenge: undefined;
  };

  constructor(options: AuthOptions | undefined) {
    const { verify, resource, required = true, challenge = "auto" } = options ?? {};
    if (verify !== undefined && typeof verify !== "function") throw new TypeError("auth.verify must be a function.");
    if (verify && !options?.authorizationServers?.length) {
      throw new TypeError(
        "auth.authorizationServers needs at least one issuer URL: clients find where to sign in from it.",
      );
    }
    if (!["auto", "http", "result"].includes(challenge))
      throw new TypeError(`auth.challenge cannot be "${challenge}".`);
    checkAccess(options?.default, "auth.default");
    this.options = options ?? {};
    this.verify = verify;
    this.resource = resource === undefined ? undefined : canonicalResource(resource);
    this.metadataUrl = this.resource === undefined ? undefined : metadataUrlOf(this.resource);
    this.required = required;
    // Without any auth options, nothing is protected unless a registration says so.
    this.default = options === undefined ? undefined : (options.default ?? "signed-in");
    this.challenge = challenge;
    this.hide = options?.hideUnauthorized === true;
    this.known = new Set(options?.scopesSupported);
    this.gate = { settings: this, metadataUrl: this.metadataUrl, challenge: undefined };
  }

  /** The rule of a registration: its own, or the one `auth.rules` gives its name. */
  ruleFor(key: string, declared: AnyAccess | undefined): AnyAccess | undefined {
    return declared ?? (Object.hasOwn(this.options.rules ?? {}, key) ? this.options.rules![key] : undefined);
  }

  /** What a registration needs: what it declared, or the server's default. */
  accessOf(declared: AnyAccess | undefined): AnyAccess {
    return declared ?? this.default ?? "public";
  }

  /**
   * Checks the `auth` of a new registration and notes its scopes (step-up challenges repeat them).
   * A tool's descriptor gets `securitySchemes`, and the copy in `_meta` ChatGPT reads, whenever the
   * server or the tool says anything about auth.
   */
  register(what: string, declared: AnyAccess | undefined, descriptor?: ToolDescriptor): void {
    checkAccess(declared, what);
    const access = this.accessOf(declared);
    if (access === "public" && this.verify && this.required) {
      throw new TypeError(
        `${what} is public, but auth.required makes every HTTP request need a token: set auth.required to false to serve it to anonymous callers.`,
      );
    }
    for (const scope of scopesOf(access)) this.known.add(scope);
    if (descriptor && (declared !== undefined || this.default !== undefined)) {
      const schemes = securitySchemes(access);
      descriptor.securitySchemes = schemes;
      descriptor._meta = { ...descriptor._meta, securitySchemes: schemes };
    }
  }

  /** A tool under these settings: its rule (its own `auth`, or the one `auth.rules` gives its name) checked and noted. */
  ruleTool(tool: Tool): Tool {
    const auth = this.ruleFor(tool.name, tool.auth);
    const ruled = auth === tool.auth ? tool : { ...tool, auth, descriptor: { ...tool.descriptor } };
    this.register(`Tool "${tool.name}"`, ruled.auth, ruled.descriptor);
    return ruled;
  }

  /** A resource (by URI or template) or a prompt (by name) under these settings, as `ruleTool`: its rule is its config's `auth`. */
  ruleEntry<T extends { readonly config: { readonly auth?: AnyAccess } }>(
    entry: T,
    key: string,
    kind: "Resource" | "Prompt",
  ): T {
    const declared = entry.config.auth;
    const auth = this.ruleFor(key, declared);
    const ruled = auth === declared ? entry : { ...entry, config: { ...entry.config, auth } };
    this.register(`${kind} "${key}"`, auth);
    return ruled;
  }

  /**
   * The caller of a stdio connection, as the stdio transport takes it: the identity of the
   * `auth.stdio` hook (credentials from the environment), anonymous without the hook or credentials;
   * the environment's either way, so refusals say how to run the server rather than to sign in.
   */
  async stdioAuth(): Promise<ExchangeAuth> {
    const init = await this.options.stdio?.();
    const identity = init === undefined ? undefined : await (await import("./to-identity.js")).toIdentity(init);
    return { identity, environment: true };
  }
}

/**
 * The canonical form of a resource URL (MCP authorization, "Canonical Server URI"; RFC 8707 §2):
 * lowercase scheme and host, no fragment, no default port, and no trailing slash added.
 */
export function canonicalResource(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`auth.resource must be an absolute URL such as "https://mcp.example.com/mcp"; got "${value}".`);
  }
  if (url.hash) throw new TypeError(`auth.resource must not have a fragment; got "${value}".`);
  // "https://host" stays without a slash; URL would add one.
  const path = url.pathname === "/" && !value.split(/[?#]/)[0]!.endsWith("/") ? "" : url.pathname;
  return `${url.protocol}//${url.host}${path}${url.search}`;
}

/**
 * The path-suffixed metadata URL of a resource (RFC 9728 §3.1), the one challenges point at: the
 * well-known path between the host and the resource's path and query, a terminating slash after the
 * host removed. The query stays: without it, the URL would name another resource.
 */
export function metadataUrlOf(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === "/" ? "" : url.pathname;
  return `${url.protocol}//${url.host}/.well-known/oauth-protected-resource${path}${url.search}`;
}
