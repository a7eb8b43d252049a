/**
 * `picomcp/introspection`: a verifier for opaque access tokens, asking your authorization server's
 * introspection endpoint (RFC 7662) with Web APIs only, for
 * `pico({ auth: { verify: introspectionVerifier({ endpoint, clientId, clientSecret }) } })`. See docs/authorization.md.
 */
export { type IntrospectionVerifierOptions, introspectionVerifier } from "./auth/introspection.js";
