import { quoted } from "../../core/safe.js";
import { type Authority, hostKey, parseAuthority } from "./addresses.js";
import type { SecurityOptions } from "./options.js";
import { errorReply, type HttpReply, type HttpRequest } from "./reply.js";

export { isLoopbackHost } from "./addresses.js";

/** An accepted host: its key (see hostKey), and the one port it is limited to, if any. */
interface AllowedHost {
  readonly key: string;
  readonly port: number | undefined;
}

/**
 * Host and Origin validation against DNS rebinding (2025-11-25 "Security Warning": servers MUST
 * validate Origin; 2026-07-28 §5.2: 403 for a present, disallowed Origin). Host comes first, on
 * every route; a Host that is not `host[:port]` is refused whether or not hosts are restricted
 * (RFC 9112 §3.2: 400 for an invalid Host). A refusal names the option that would allow it: the client
 * developer reading it is often the operator, whose proxy or page the default refused.
 */
export class Guard {
  readonly #hosts: AllowedHost[] | undefined;
  readonly #any: boolean;
  readonly #origins: Set<string>;
  /** The last Host header found allowed: nearly every request names the same host, allowed again at once. */
  #allowed: string | undefined;

  constructor(options: SecurityOptions) {
    this.#hosts = options.allowedHosts?.map(allowedHost);
    const origins = options.allowedOrigins ?? [];
    this.#any = origins.includes("*");
    this.#origins = new Set(origins.map((origin) => originKey(origin) ?? origin.toLowerCase()));
  }

  /** Refuses a Host that is malformed, or not among `allowedHosts` when those are set. */
  checkHost(request: HttpRequest): HttpReply | undefined {
    const value = request.header("host");
    if (value !== null && value === this.#allowed) return undefined;
    const authority = value === null ? undefined : parseAuthority(value);
    if (value !== null && !authority) {
      return errorReply(
        400,
        `Bad Request: the Host header ${quoted(value)} is not a host name or address with an optional numeric port`,
      );
    }
    if (this.#hosts && !(authority && this.#hostAllowed(authority))) {
      return forbidden(
        `Host ${quoted(value?.toLowerCase() ?? "")} is not allowed; send the request to a host name this server accepts (its operator lists them in http.allowedHosts)`,
      );
    }
    if (value !== null) this.#allowed = value;
    return undefined;
  }

  /** Refuses a present Origin that is neither the server's own nor allowed. */
  checkOrigin(request: HttpRequest): HttpReply | undefined {
    const origin = request.header("origin");
    if (origin === null || this.#any) return undefined;
    const key = originKey(origin) ?? origin.toLowerCase();
    if (this.#origins.has(key) || key === ownOrigin(request)) return undefined;
    return forbidden(
      `Origin ${quoted(origin)} is not allowed; this server answers only pages of its own origin and of those its operator lists in http.allowedOrigins or http.cors`,
    );
  }

  #hostAllowed(authority: Authority): boolean {
    const key = hostKey(authority.host);
    return this.#hosts!.some((allowed) => allowed.key === key && (allowed.port ?? authority.port) === authority.port);
  }
}

/** An `allowedHosts` entry; an IPv6 address may come without brackets. */
function allowedHost(entry: string): AllowedHost {
  const authority = parseAuthority(entry) ?? parseAuthority(`[${entry}]`);
  return authority ? { key: hostKey(authority.host), port: authority.port } : { key: entry, port: undefined };
}

const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };

/**
 * An origin as `scheme://host-key:port` (RFC 6454 §4: scheme, host and port, the port made
 * explicit), or undefined when it is not an origin (`null`, a path, userinfo).
 */
export function originKey(origin: string): string | undefined {
  const match = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(origin);
  const authority = match && parseAuthority(match[2]!);
  if (!authority) return undefined;
  const scheme = match[1]!.toLowerCase();
  return `${scheme}://${hostKey(authority.host)}:${authority.port ?? DEFAULT_PORTS[scheme] ?? ""}`;
}

/**
 * The origin this request was sent to: its scheme, and the Host it names. The scheme is matched
 * whatever its case (RFC 3986 §3.1): an absolute-form target `HTTPS://host/mcp` is the URL itself on
 * Node and Deno, as it was sent.
 */
function ownOrigin(request: HttpRequest): string | undefined {
  const host = request.header("host");
  if (host === null) return undefined;
  const scheme = /^https:/i.test(request.url ?? "") ? "https" : "http";
  return originKey(`${scheme}://${host}`);
}

function forbidden(message: string): HttpReply {
  return errorReply(403, `Forbidden: ${message}`);
}
