import { ErrorCode, McpError } from "../core/errors.js";

/**
 * The longest URI read or subscribed to, in UTF-16 code units: more than the request line HTTP asks
 * every party to support (RFC 9110 §4.1: at least 8000 octets), so no URI a client can build is
 * refused, and a bound on the work of matching one against each template and on what a subscription
 * (a 2025 session's, or a 2026-07-28 listen's) holds for its life.
 */
const MAX_URI_LENGTH = 8192;

/** The URI, if it is within MAX_URI_LENGTH; else the error that says so. `where`: what named it. */
export function checkUriLength(uri: string, where: string): string {
  if (uri.length > MAX_URI_LENGTH) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid params: ${where} is ${uri.length} characters long; resource URIs are limited to ${MAX_URI_LENGTH}.`,
    );
  }
  return uri;
}
