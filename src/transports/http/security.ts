import { ErrorCode } from "../../errors.js";
import { errorResponse } from "../../protocol/jsonrpc.js";
import { type HttpReply, type HttpRequest, jsonReply } from "./reply.js";

export interface SecurityOptions {
  /**
   * Host header values accepted (`"example.com"` matches any port, `"example.com:8443"` one).
   * `serve()` on a loopback address defaults this to the loopback names, against DNS rebinding.
   */
  allowedHosts?: string[];
  /**
   * Origins accepted when a browser sends `Origin` (`"*"`: any); the server's own origin is always
   * accepted, and so are the origins of the `cors` option.
   */
  allowedOrigins?: string[];
}

export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.includes(host) || host === "::1" || host.startsWith("127.");
}

/**
 * Host and Origin validation against DNS rebinding (2025-11-25 "Security Warning": servers MUST
 * validate Origin; 2026-07-28 §5.2: 403 for a present, disallowed Origin).
 */
export class Guard {
  readonly #hosts: Set<string> | undefined;
  readonly #origins: Set<string>;

  constructor(options: SecurityOptions) {
    this.#hosts = options.allowedHosts && new Set(options.allowedHosts.map((host) => host.toLowerCase()));
    this.#origins = new Set((options.allowedOrigins ?? []).map((origin) => origin.toLowerCase()));
  }

  check(request: HttpRequest): HttpReply | undefined {
    const host = request.header("host")?.toLowerCase() ?? "";
    if (this.#hosts && !this.#hostAllowed(host)) return forbidden(`Host "${host}" is not allowed`);
    const origin = request.header("origin");
    if (origin !== null && !this.#originAllowed(origin.toLowerCase(), host)) {
      return forbidden(`Origin "${origin}" is not allowed`);
    }
    return undefined;
  }

  #hostAllowed(host: string): boolean {
    return this.#hosts!.has(host) || this.#hosts!.has(hostname(host));
  }

  #originAllowed(origin: string, host: string): boolean {
    if (this.#origins.has(origin) || this.#origins.has("*")) return true;
    // Same origin: the page was served by this very host.
    const at = origin.indexOf("://");
    return at !== -1 && host !== "" && origin.slice(at + 3) === host;
  }
}

/** The host without its port; IPv6 literals keep their brackets. */
function hostname(host: string): string {
  const colon = host.lastIndexOf(":");
  return colon > host.lastIndexOf("]") ? host.slice(0, colon) : host;
}

function forbidden(message: string): HttpReply {
  return jsonReply(403, errorResponse(undefined, ErrorCode.InvalidRequest, `Forbidden: ${message}`));
}
