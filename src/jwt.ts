/**
 * `picomcp/jwt`: a verifier for JWT access tokens, with Web Crypto and no dependency, for
 * `pico({ auth: { verify: jwtVerifier({ issuer, jwksUrl }) } })`. See docs/authorization.md.
 */
export { type JsonWebKeySet, type JwtVerifierOptions, jwtVerifier, type PublicJwk } from "./auth/jwt.js";
