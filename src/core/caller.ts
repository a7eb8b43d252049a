/**
 * Who calls, and what a registration needs of its caller: the core's words for authorization. The
 * auth layer (src/auth/) checks tokens and rules; the core only carries them, from the transport to
 * the request's context (`ctx.auth`) and to the caller checks.
 */

import type { JsonRpcMessage } from "./jsonrpc.js";
import type { MaybePromise } from "./types.js";

/**
 * Who is calling: the verified identity handlers read as `ctx.auth`. It is built by picomcp from what
 * a verifier returned, field by field, so the raw access token is never part of it.
 */
export interface Identity {
  /** The caller's stable id (the token's `sub`). */
  readonly subject: string;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** Application roles, when the verifier reports them (a `roles` claim, or your own mapping). */
  readonly roles: readonly string[];
  /** The OAuth client the token was issued to (`client_id` or `azp`), if known. */
  readonly clientId: string | undefined;
  /** The authorization server that issued the token (`iss`), if known. */
  readonly issuer: string | undefined;
  /** When the token expires, in seconds since the epoch (`exp`), if it does. */
  readonly expiresAt: number | undefined;
  /** The token's other claims, frozen. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** A check on the caller and the (validated) arguments; false refuses the call. */
export type AccessCheck<Args = unknown> = (identity: Identity, args: Args) => MaybePromise<boolean>;

/**
 * What a tool, resource or prompt needs from its caller, declared at registration as `auth`:
 *
 * - `"public"`: anyone, signed in or not (`ctx.auth` is set when a valid token came anyway);
 * - `"signed-in"`: any caller with a valid token;
 * - `{ scopes, roles, allow }`: a valid token with every scope and every role listed, and `allow`
 *   (if given) answering true for the caller and the validated arguments;
 * - a function: `allow` alone.
 *
 * Scopes are advertised (`securitySchemes`) and a missing one gets a step-up challenge; roles and
 * `allow` are enforced but not advertised, and a refusal is a plain "not permitted".
 */
export type Access<Args = unknown> =
  | "public"
  | "signed-in"
  | { scopes?: readonly string[]; roles?: readonly string[]; allow?: AccessCheck<Args> }
  | AccessCheck<Args>;

/** Any registration's rule, whatever its arguments (what the core handles). */
export type AnyAccess = Access<never>;

/** Why a call was refused, in the terms of RFC 6750 §3.1. */
export interface Denial {
  /** 401: no valid token; 403 with `insufficient_scope`: a token without the scopes; 403 alone: not permitted. */
  readonly status: 401 | 403;
  readonly error: "invalid_token" | "insufficient_scope" | undefined;
  /** The scopes to ask for (challenge `scope`): the ones needed plus the granted ones still relevant. */
  readonly scopes: readonly string[];
  readonly message: string;
}

/** How a transport hands a request's auth to the core. */
export interface ExchangeAuth {
  /** The verified caller, if any. */
  readonly identity?: Identity | undefined;
  /** Where challenges point: the resource's protected resource metadata. */
  readonly metadataUrl?: string | undefined;
  /**
   * Turns the answer to this request into a 401/403 challenge (HTTP only); false when it cannot,
   * because the reply's status went out already (a stream), and the refusal is to be said in-band.
   */
  readonly challenge?: ((denial: Denial) => boolean) | undefined;
  /** The message with the raw bearer token cut out, for what goes out on the request's stream (HTTP only). */
  readonly redact?: ((message: JsonRpcMessage) => JsonRpcMessage) | undefined;
  /**
   * The caller is whoever the server's environment says, for every request (stdio's `auth.stdio`):
   * it cannot sign in or step up, so a refusal says how the server must be run, and challenges nothing.
   */
  readonly environment?: boolean | undefined;
}

/** What the core knows about auth for one request, besides the identity (`ctx.auth`). */
export interface Gate extends ExchangeAuth {
  readonly settings: GateSettings | undefined;
}

/** The server's auth settings as requests see them (auth/settings.ts's AuthSettings). */
export interface GateSettings {
  /** What a registration without `auth` needs (`auth.default`); undefined without auth options. */
  readonly default: Access | undefined;
  /** `hideUnauthorized`. */
  readonly hide: boolean;
  /** Every scope the server deals in. */
  readonly known: ReadonlySet<string>;
  readonly challenge: "auto" | "http" | "result";
  /** Where challenges point, when `auth.resource` is configured. */
  readonly metadataUrl: string | undefined;
  /** The gate of every request the transport says nothing about (most of them): made once. */
  readonly gate: Gate;
  /** What a registration needs: what it declared, or the server's default. */
  accessOf(declared: AnyAccess | undefined): AnyAccess;
}
