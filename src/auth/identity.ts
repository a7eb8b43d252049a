export type { Identity } from "../core/caller.js";
/** What describes an identity: for `server.call(..., { auth })`, the stdio hook, and verifiers. */
export interface IdentityInit {
  subject: string;
  /** A list, or a space-separated string as in the `scope` claim. */
  scopes?: readonly string[] | string;
  roles?: readonly string[];
  clientId?: string;
  issuer?: string;
  /** Seconds since the epoch. */
  expiresAt?: number;
  claims?: Record<string, unknown>;
}

/**
 * What `verify` answers for a valid token. `audience` is required: picomcp accepts the token only
 * when it names this server (the canonical `resource`, or one of `auth.audience`), so a token issued
 * for another service is never accepted (MCP authorization, "Token Audience Binding").
 */
export interface VerifiedToken extends IdentityInit {
  audience: string | readonly string[];
}

/**
 * Thrown by a verifier for a token it rejects; the message becomes the `error_description` of the
 * 401 challenge, so keep it short and free of the token itself. Other exceptions from `verify` also
 * reject the token, with a generic description, except `AuthorizationServerUnavailable`.
 */
export class InvalidTokenError extends Error {
  override name = "InvalidTokenError";
}

/**
 * Thrown by a verifier that cannot check a token now (its authorization server or token store is
 * unreachable, answers an error status, or answers what is not an answer): the token is neither good
 * nor bad. The HTTP gate answers 503 with Retry-After: 1 and this message (write it for the client:
 * what failed and to try again; never the token, never internals), so the client keeps its token and
 * tries again, rather than 401, which would have it sign in again. `jwtVerifier` and
 * `introspectionVerifier` throw it; a custom `verify` may too.
 */
export class AuthorizationServerUnavailable extends Error {
  override readonly name = "AuthorizationServerUnavailable";
}
