import { isObject } from "../core/jsonrpc.js";
import { isSecureUrl, readJson, redirectOf } from "./fetched.js";
import { AuthorizationServerUnavailable, InvalidTokenError, type VerifiedToken } from "./identity.js";
import {
  audiencesOf,
  EXPIRED,
  ISSUED_IN_FUTURE,
  NOT_YET_VALID,
  OTHER_ISSUER,
  secondsOption,
  stringsOf,
  timeoutOption,
  tokenKey,
  VerifiedCache,
} from "./verified.js";

export interface IntrospectionVerifierOptions {
  /**
   * Your authorization server's introspection endpoint (`introspection_endpoint` in its metadata,
   * RFC 8414). HTTPS; plain HTTP only on a loopback host (localhost, 127.0.0.1, [::1]), for development.
   */
  endpoint: string | URL;
  /** This resource server's own client id at the authorization server, sent with `clientSecret` as HTTP Basic. */
  clientId?: string;
  /** The secret of `clientId`. */
  clientSecret?: string;
  /** Instead of `clientId` and `clientSecret`: the whole Authorization header to send, e.g. "Bearer <your own token>". */
  authorization?: string;
  /** The issuer (`iss`) answers must name, or several. When set, an answer without `iss` is refused too. */
  issuer?: string | string[];
  /** The claim that lists the caller's roles. Default: "roles". */
  rolesClaim?: string;
  /**
   * Leeway for `nbf` and `iat`, in seconds, for clocks that disagree a little. Default: 60. `exp` gets
   * none: a token past it is refused at once, as the cache never outlives it.
   */
  clockSkewSeconds?: number;
  /**
   * How long an active answer is reused, in seconds, never past the token's `exp`. Default: 60. It is
   * also how long a revoked token may still be accepted here; 0 asks the endpoint on every request.
   */
  cacheSeconds?: number;
  /** The fetch used to call the endpoint (for tests, a custom agent, or a runtime without a global fetch). */
  fetch?: typeof fetch;
  /** Timeout of one introspection request, in milliseconds. Default: 5000. */
  timeoutMs?: number;
}

/**
 * How long a refusal is remembered, at most (and never longer than `cacheSeconds`): long enough that
 * a client retrying a dead token, or one sent again and again, costs the endpoint one request, short
 * enough that a token the authorization server had not yet made known (replication lag) works soon.
 */
const REFUSAL_MS = 10_000;

/**
 * After a request to the endpoint failed, how long the tokens it has not answered yet are refused
 * with that failure (503) without asking it: a client told the gate's `Retry-After: 1` comes back
 * after it, and an endpoint that is down or overloaded is asked once a second, not once per request.
 */
const RETRY_AFTER_FAILURE_MS = 1_000;

/** The `token_type`s, lower-cased, that name a refresh token: RFC 6749's name and RFC 8693 §3's URI. */
const REFRESH_TOKEN_TYPES = new Set(["refresh_token", "urn:ietf:params:oauth:token-type:refresh_token"]);

const INACTIVE = "The access token is not active: it expired or was revoked. Sign in again.";
const UNAVAILABLE =
  "The access token could not be checked: the authorization server did not answer. Try again shortly.";

/**
 * A verifier for opaque access tokens, for `pico({ auth: { verify } })`: it asks your authorization
 * server's introspection endpoint (RFC 7662) about each token, with this resource server's own
 * credentials, and maps the answer to the identity: `sub`, `scope`, `client_id`, `iss`, `exp`, `aud`
 * (which picomcp then checks against `resource`), roles, and the other claims. Refusals throw
 * `InvalidTokenError`, whose message becomes the 401's `error_description`.
 *
 * Active answers are cached by the token's SHA-256 (never the token itself) for `cacheSeconds`, and
 * concurrent checks of one token share one request. Refusals (an inactive token, or an answer that
 * cannot be accepted) are cached apart, for 10 s at most, so random or dead tokens sent again do not
 * each cost a request, nor push active answers out. After a failed request, tokens not cached are
 * refused with its failure for a second without asking (RETRY_AFTER_FAILURE_MS), then asked again.
 */
export function introspectionVerifier(
  options: IntrospectionVerifierOptions,
): (token: string) => Promise<VerifiedToken> {
  const endpoint = endpointOf(options.endpoint);
  const authorization = clientAuthorization(options);
  const issuers = options.issuer === undefined ? undefined : new Set([options.issuer].flat());
  const rolesClaim = options.rolesClaim ?? "roles";
  const skew = secondsOption("introspectionVerifier's clockSkewSeconds", options.clockSkewSeconds, 60);
  const cacheMs = secondsOption("introspectionVerifier's cacheSeconds", options.cacheSeconds, 60) * 1000;
  const timeoutMs = timeoutOption("introspectionVerifier's timeoutMs", options.timeoutMs);
  const cache = new VerifiedCache();
  const refusals = new VerifiedCache<InvalidTokenError>();
  const refusalMs = Math.min(cacheMs, REFUSAL_MS);
  const pending = new Map<string, Promise<VerifiedToken>>();
  /** The last failed request and when it failed; cleared by an answer. */
  let failure: { error: AuthorizationServerUnavailable; at: number } | undefined;

  /** The endpoint did not answer: remembered for RETRY_AFTER_FAILURE_MS, and thrown. */
  function failed(cause: unknown): never {
    const error = new AuthorizationServerUnavailable(UNAVAILABLE, { cause });
    failure = { error, at: Date.now() };
    throw error;
  }

  /** POSTs the token (RFC 7662 §2.1) and answers the JSON object of a 2xx reply; anything else fails closed. */
  async function ask(token: string): Promise<Record<string, unknown>> {
    const fetcher = options.fetch ?? fetch;
    let answer: unknown;
    try {
      const response = await fetcher(endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", authorization },
        body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
        // A redirect would carry the token somewhere else: treat it as a failure.
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      const location = redirectOf(response, endpoint);
      if (location !== undefined) {
        throw new Error(
          `${endpoint} redirected to ${location}: redirects are not followed, since the token and this server's credentials would go along; set endpoint to the URL that answers`,
        );
      }
      if (!response.ok) throw new Error(`${endpoint} answered HTTP ${response.status}`);
      answer = await readJson(response);
    } catch (cause) {
      // The endpoint's body is never repeated: it is not the client's to read.
      failed(cause);
    }
    if (!isObject(answer) || typeof answer.active !== "boolean") {
      failed(new Error(`${endpoint} did not answer an RFC 7662 object`));
    }
    failure = undefined;
    return answer;
  }

  async function introspect(token: string, key: string): Promise<VerifiedToken> {
    const answer = await ask(token);
    let result: VerifiedToken;
    try {
      if (answer.active !== true) throw new InvalidTokenError(INACTIVE);
      result = verifiedOf(answer, token, { issuers, rolesClaim, skew });
    } catch (refusal) {
      // verifiedOf throws nothing else: the authorization server's answer, which holds for a while.
      if (refusalMs > 0 && refusal instanceof InvalidTokenError) refusals.set(key, refusal, Date.now() + refusalMs);
      throw refusal;
    }
    if (cacheMs > 0) {
      // RFC 7662 §4: a cached answer must not outlive the token; how long it may outlive a revocation is cacheSeconds.
      const until = Math.min(Date.now() + cacheMs, result.expiresAt === undefined ? Infinity : result.expiresAt * 1000);
      cache.set(key, result, until);
    }
    return result;
  }

  return async (token) => {
    const key = await tokenKey(token);
    const cached = cache.get(key);
    if (cached) return cached;
    const refused = refusals.get(key);
    if (refused) throw refused;
    let request = pending.get(key);
    if (!request) {
      // A request already under way for this token is joined; a new one waits out a recent failure.
      if (failure && Date.now() - failure.at < RETRY_AFTER_FAILURE_MS) throw failure.error;
      request = introspect(token, key).finally(() => pending.delete(key));
      pending.set(key, request);
    }
    return request;
  };
}

/**
 * The identity in an active answer (RFC 7662 §2.2), checked: a subject, the issuer when required, a
 * numeric expiry, and `nbf` and `iat` not to come.
 */
function verifiedOf(
  answer: Record<string, unknown>,
  token: string,
  { issuers, rolesClaim, skew }: { issuers: Set<string> | undefined; rolesClaim: string; skew: number },
): VerifiedToken {
  const { sub, iss, exp, nbf, iat, aud, scope, client_id: clientId, token_type: type } = answer;
  // An endpoint may introspect refresh tokens too (RFC 7662 §2.1): one it says is a refresh token is
  // not an access token, whose use it is to be sent to the authorization server only (RFC 6749 §1.5).
  // It may say so with the name or with RFC 8693 §3's token type URI.
  if (typeof type === "string" && REFRESH_TOKEN_TYPES.has(type.toLowerCase())) {
    throw new InvalidTokenError(
      "The token is a refresh token, not an access token: send the access token, and the refresh token only to the authorization server",
    );
  }
  if (issuers && (typeof iss !== "string" || !issuers.has(iss))) {
    throw new InvalidTokenError(OTHER_ISSUER);
  }
  if (typeof sub !== "string" || sub === "") {
    throw new InvalidTokenError("The access token names no subject (sub): sign in as a user");
  }
  if (exp !== undefined && typeof exp !== "number")
    throw new InvalidTokenError("The access token's exp is not a number");
  if (exp !== undefined && exp * 1000 <= Date.now()) throw new InvalidTokenError(EXPIRED);
  // `active: true` with an `nbf` to come contradicts itself: RFC 7662 §2.2's nbf says "not to be used
  // before". It and an `iat` to come are checked as jwtVerifier checks a JWT's, with the same skew.
  const seconds = Date.now() / 1000;
  if (nbf !== undefined && typeof nbf !== "number")
    throw new InvalidTokenError("The access token's nbf is not a number");
  if (nbf !== undefined && seconds + skew < nbf) {
    throw new InvalidTokenError(NOT_YET_VALID);
  }
  if (iat !== undefined && typeof iat !== "number")
    throw new InvalidTokenError("The access token's iat is not a number");
  if (iat !== undefined && seconds + skew < iat) {
    throw new InvalidTokenError(ISSUED_IN_FUTURE);
  }
  const result: VerifiedToken = {
    subject: sub,
    audience: audiencesOf(aud),
    scopes: typeof scope === "string" ? scope.split(" ").filter(Boolean) : [],
    roles: stringsOf(answer[rolesClaim]),
    // Every claim but `active`, and none that is the token itself (an endpoint may echo it back).
    claims: Object.fromEntries(Object.entries(answer).filter(([name, value]) => name !== "active" && value !== token)),
  };
  if (typeof clientId === "string") result.clientId = clientId;
  if (typeof iss === "string") result.issuer = iss;
  if (exp !== undefined) result.expiresAt = exp;
  return result;
}

/** The endpoint as a URL string: HTTPS, or HTTP on a loopback host, since tokens and credentials travel in it. */
function endpointOf(value: string | URL): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(
      `introspectionVerifier needs endpoint, the absolute URL of your authorization server's introspection_endpoint; got "${value}".`,
    );
  }
  if (!isSecureUrl(url)) {
    throw new TypeError(
      `introspectionVerifier's endpoint must be an https URL (http only on localhost, for development): access tokens and credentials are sent to it. Got "${url.href}".`,
    );
  }
  return url.href;
}

/** The Authorization header of the introspection request: RFC 7662 §2.1 requires the caller to authenticate. */
function clientAuthorization({ clientId, clientSecret, authorization }: IntrospectionVerifierOptions): string {
  const basic = clientId !== undefined || clientSecret !== undefined;
  if (basic === (authorization !== undefined)) {
    throw new TypeError(
      "introspectionVerifier needs one kind of credentials for the introspection endpoint: clientId and clientSecret (this server's own client at the authorization server), or authorization (a whole Authorization header).",
    );
  }
  if (!basic) {
    if (typeof authorization !== "string" || authorization.trim() === "") {
      throw new TypeError(
        'introspectionVerifier\'s authorization must be a whole header value, such as "Bearer <token>".',
      );
    }
    return authorization;
  }
  if (typeof clientId !== "string" || clientId === "" || typeof clientSecret !== "string" || clientSecret === "") {
    throw new TypeError("introspectionVerifier needs both clientId and clientSecret, as non-empty strings.");
  }
  // RFC 6749 §2.3.1: the id and secret are form-encoded (Appendix B) before they become Basic's user and password.
  return `Basic ${btoa(`${formEncode(clientId)}:${formEncode(clientSecret)}`)}`;
}

/** application/x-www-form-urlencoded encoding of one value (ASCII out, so btoa takes it). */
function formEncode(value: string): string {
  return new URLSearchParams({ "": value }).toString().slice(1);
}
