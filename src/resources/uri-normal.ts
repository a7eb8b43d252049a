/**
 * The normal form in which picomcp compares resource URIs (RFC 3986 §6.2.2, syntax-based
 * normalisation): spellings a client or the server may use for the same resource are one URI. It is
 * for comparing only: lists and reads answer a resource's URI as the server registered it.
 *
 * - §6.2.2.2: an escaped unreserved character is written as itself ("%69" is "i", "%7E" is "~");
 * - §6.2.2.1: any other escape has uppercase hex ("%c3" is "%C3"), and the scheme and the host are
 *   lowercase ("Notes://Index/A" is "notes://index/A": the path keeps its case).
 *
 * A template's expressions (`{id}`, `{+path}`) are kept as they are, so a template's literal parts
 * are normalised the same way and its variable names are not.
 */

/** RFC 3986 §2.3. */
const UNRESERVED = /[A-Za-z0-9._~-]/;
/** A template's expression, or an escape. */
const ESCAPE = /\{[^}]*\}|%([0-9A-Fa-f]{2})/g;
/** The scheme, and the authority's userinfo and host (with its port) when there is one (§3). */
const HEAD = /^([A-Za-z][A-Za-z0-9+.-]*:)(?:\/\/([^/?#]*@)?([^/?#]*))?/;
/** What lowercasing leaves as it is (an escape, an expression), or a run of other characters. */
const PARTS = /%[0-9A-F]{2}|\{[^}]*\}|[^%{]+/g;

export function normalUri(uri: string): string {
  const escaped = uri.replace(ESCAPE, (match, hex: string | undefined) => {
    if (hex === undefined) return match;
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : match.toUpperCase();
  });
  const head = HEAD.exec(escaped);
  if (!head) return escaped;
  const [whole, scheme = "", userinfo = "", host] = head;
  const authority = host === undefined ? "" : `//${userinfo}${lowercase(host)}`;
  return `${scheme.toLowerCase()}${authority}${escaped.slice(whole.length)}`;
}

function lowercase(host: string): string {
  return host.replace(PARTS, (part) => (part[0] === "%" || part[0] === "{" ? part : part.toLowerCase()));
}
