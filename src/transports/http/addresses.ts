/**
 * Host names and IP addresses as the Host and Origin headers carry them (RFC 9110 §7.2, RFC 3986
 * §3.2.2): parsed strictly, and written one way whatever the spelling, as the WHATWG URL parser
 * writes them (`127.1` and `0x7f000001` are `127.0.0.1`, `[0:0:0:0:0:0:0:1]` is `[::1]`,
 * `[::ffff:127.0.0.1]` is `[::ffff:7f00:1]`).
 */

/** A Host header (or the authority of an Origin): the host written canonically, and the port if given. */
export interface Authority {
  readonly host: string;
  readonly port: number | undefined;
}

/** localhost, 127.0.0.0/8, ::1 and ::ffff:127.0.0.0/104, as canonical hosts. */
const LOOPBACK = /^(?:localhost|127\.\d+\.\d+\.\d+|\[::1\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\])$/;

/**
 * `uri-host [":" port]`: a name of unreserved characters or an IPv6 address in brackets, and a
 * numeric port. Undefined for anything else (userinfo, a second colon, an empty port, spaces).
 */
export function parseAuthority(value: string): Authority | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9._~-]+)(?::([0-9]{1,5}))?$/i.exec(value);
  const host = match ? canonical(match[1]!) : undefined;
  const port = match?.[2] === undefined ? undefined : Number(match[2]);
  return host === undefined || (port ?? 0) > 65_535 ? undefined : { host, port };
}

/** What two hosts that are the same share: the canonical host, and one key for every loopback address. */
export function hostKey(host: string): string {
  return host !== "localhost" && LOOPBACK.test(host) ? "127.0.0.1" : host;
}

/**
 * Whether a host or address names the loopback interface: `localhost`, all of 127.0.0.0/8 (in the
 * forms URLs accept: `127.1`, `0x7f000001`), and `::1` and `::ffff:127.x.y.z` in every IPv6
 * spelling, with or without brackets and zone (`::1%lo`).
 */
export function isLoopbackHost(host: string): boolean {
  const bare = /^\[(.*)\]$/.exec(host)?.[1] ?? host;
  const address = bare.split("%")[0]!;
  const name = /^[a-z0-9._~:-]+$/i.test(address)
    ? canonical(address.includes(":") ? `[${address}]` : address)
    : undefined;
  return name !== undefined && LOOPBACK.test(name);
}

/** The host as a URL writes it, or undefined when it is not a valid one (`127.0.0.256`, `[::1::]`). */
function canonical(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}
