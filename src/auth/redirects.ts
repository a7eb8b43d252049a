/**
 * A key set's redirects, followed one hop at a time so that each is checked before it is asked: it
 * must be secure (fetched.ts's isSecureUrl), and may reach a network only this server can reach
 * (this machine, a private network, a link-local address) only from a key set URL on that network.
 */
import { isSecureUrl, redirectOf } from "./fetched.js";

const INSTEAD = "; set jwksUrl to the issuer's public key set URL";

/** A hop to this machine, as `hopProblem` refuses it. */
const THIS_MACHINE = `this machine (loopback): only a key set URL on this machine itself may lead there, for local development${INSTEAD}`;

/** A hop to a private network (RFC 1918, RFC 4193), as `hopProblem` refuses it. */
const PRIVATE_NETWORK = `a private network address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7): only a key set URL on a private network itself may lead there${INSTEAD}`;

/** A hop to a link-local address (RFC 3927, RFC 4291 §2.5.6), as `hopProblem` refuses it. */
const LINK_LOCAL = `a link-local address (169.254.0.0/16, fe80::/10, where cloud metadata services answer): only a key set URL on a link-local address itself may lead there${INSTEAD}`;

/**
 * Which network that only this server can reach a host is on (THIS_MACHINE, PRIVATE_NETWORK,
 * LINK_LOCAL), or undefined for any other host. The host is as a URL writes it: the URL parser
 * writes an IPv4 address dotted (127.1, 0x7f.1 and 2130706433 are 127.0.0.1) and an IPv6 one
 * compressed and lower-case. This machine: localhost and its subdomains (RFC 6761 §6.3),
 * 127.0.0.0/8, ::1, and 0.0.0.0 and ::, which connect here too. A name is not resolved: one whose
 * DNS answer is such an address is not told apart.
 */
function networkOf(host: string): string | undefined {
  if (/^(?:[^.]+\.)*localhost\.?$/i.test(host) || host === "[::]" || host === "[::1]") return THIS_MACHINE;
  if (/^\[f[cd][0-9a-f]{2}:/.test(host)) return PRIVATE_NETWORK;
  if (/^\[fe[89ab][0-9a-f]:/.test(host)) return LINK_LOCAL;
  const ip = ipv4Of(host);
  if (!ip) return undefined;
  const [a = 0, b = 0] = ip;
  if (a === 127 || ip.every((byte) => byte === 0)) return THIS_MACHINE;
  if (a === 10 || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168)) return PRIVATE_NETWORK;
  return a === 169 && b === 254 ? LINK_LOCAL : undefined;
}

/**
 * The four bytes of an IPv4 host, written dotted or IPv4-mapped (::ffff:0:0/96, which reaches the
 * IPv4 address it holds; the URL parser writes it in hex, [::ffff:a00:1]); undefined for any other host.
 */
function ipv4Of(host: string): number[] | undefined {
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(host);
  if (!mapped) return /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host)?.slice(1).map(Number);
  return mapped.slice(1).flatMap((half) => {
    const bits = Number.parseInt(half, 16);
    return [bits >> 8, bits & 255];
  });
}

/** The most redirects a GET of a document follows: an issuer's key set moves once or twice, not more. */
const MAX_REDIRECTS = 5;

/**
 * GETs `url`, following its redirects here rather than in fetch, so that every hop is checked with
 * `isSecureUrl`: fetch tells only where its redirects ended, and a plain http hop on the way is
 * where anyone on the network path could send the request on to a document of their choosing. A
 * hop to this machine, a private network or a link-local address (`networkOf`) is refused unless
 * `url` is on that network too (local development, a key server on the same private network): a
 * server elsewhere that redirects there would have this one fetch what only it can reach, an admin
 * port or a cloud metadata service at 169.254.169.254 (server-side request forgery). At most
 * `MAX_REDIRECTS`; a fetch that follows redirects anyway (a custom one) has its last URL checked.
 */
export async function getSecurely(
  url: string,
  init: { fetch: typeof fetch; headers: Record<string, string>; signal: AbortSignal },
): Promise<Response> {
  const from = networkOf(new URL(url).hostname);
  let asked = url;
  for (let hops = 0; ; hops++) {
    const response = await init.fetch(asked, { headers: init.headers, signal: init.signal, redirect: "manual" });
    const next = redirectOf(response, asked);
    // A custom fetch may follow redirects itself: where it ended is checked all the same.
    const landed = next ?? response.url;
    const problem = landed === "" ? undefined : hopProblem(new URL(landed), from);
    if (problem !== undefined) {
      await response.body?.cancel();
      throw new Error(`${asked} redirected to ${landed}, which is ${problem}`);
    }
    if (next === undefined) return response;
    await response.body?.cancel();
    if (hops === MAX_REDIRECTS) {
      throw new Error(`${url} redirected more than ${MAX_REDIRECTS} times: set the URL the redirects lead to instead`);
    }
    asked = next;
  }
}

/** Why a redirect may not lead to `hop` (`getSecurely`), or undefined when it may; `from`: the network of the URL asked first (`networkOf`). */
function hopProblem(hop: URL, from: string | undefined): string | undefined {
  const network = networkOf(hop.hostname);
  if (network !== undefined && network !== from) return network;
  if (!isSecureUrl(hop)) {
    return "not https (http only on a loopback host): a document fetched over plain http could be anyone's";
  }
  return undefined;
}
