/**
 * What the token verifiers fetch from the authorization server (a key set, an introspection
 * answer): only over a transport no one in between can rewrite, and only as much as such a document
 * can need, so a misbehaving or compromised server cannot fill this one's memory.
 */

/** The most a verifier reads of one answer: a key set or an introspection answer is a few kilobytes. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * Whether a URL is one a verifier may fetch from: https, or http on a loopback host (localhost,
 * 127.0.0.0/8, [::1]), for development. A key set fetched over plain http could be swapped for the
 * keys of whoever sits in between, and tokens and credentials sent to an introspection endpoint read.
 */
export function isSecureUrl(url: URL): boolean {
  if (url.protocol === "https:") return true;
  const loopback = url.hostname === "localhost" || url.hostname === "[::1]" || /^127(\.\d+){3}$/.test(url.hostname);
  return url.protocol === "http:" && loopback;
}

/**
 * The hosts that reach this machine, as a URL writes them (127.1 is 127.0.0.1): localhost and its
 * subdomains (RFC 6761 §6.3), 127.0.0.0/8, ::1, ::ffff:127.0.0.0/104, and 0.0.0.0 and ::, which
 * connect to this machine too.
 */
const THIS_MACHINE =
  /^(?:(?:[^.]+\.)*localhost\.?|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1?\]|\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\])$/i;

/** The most redirects a GET of a document follows: an issuer's key set moves once or twice, not more. */
const MAX_REDIRECTS = 5;

/** Fetch's redirect statuses (WHATWG Fetch, "redirect status"). */
const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/**
 * Where a redirect answer sends the request, resolved against the URL asked; undefined for any
 * other answer, and for a redirect status without a Location, which is the answer itself (Fetch,
 * "HTTP-redirect fetch" step 3). Throws when the Location is not a URL.
 */
export function redirectOf(response: Response, asked: string): string | undefined {
  const location = response.headers.get("location");
  if (!REDIRECT_STATUSES.includes(response.status) || location === null) return undefined;
  try {
    return new URL(location, asked).href;
  } catch {
    throw new Error(`${asked} redirected to "${location}", which is not a URL`);
  }
}

/**
 * GETs `url`, following its redirects here rather than in fetch, so that every hop is checked with
 * `isSecureUrl`: fetch tells only where its redirects ended, and a plain http hop on the way is
 * where anyone on the network path could send the request on to a document of their choosing. A
 * hop to this machine (`THIS_MACHINE`) is refused unless `url` is on it too (local development):
 * a server elsewhere that redirects there would have this one fetch what only it can reach, an
 * admin port or a metadata service (server-side request forgery). At most `MAX_REDIRECTS`; a fetch
 * that follows redirects anyway (a custom one) has its last URL checked.
 */
export async function getSecurely(
  url: string,
  init: { fetch: typeof fetch; headers: Record<string, string>; signal: AbortSignal },
): Promise<Response> {
  const local = THIS_MACHINE.test(new URL(url).hostname);
  let asked = url;
  for (let hops = 0; ; hops++) {
    const response = await init.fetch(asked, { headers: init.headers, signal: init.signal, redirect: "manual" });
    const next = redirectOf(response, asked);
    // A custom fetch may follow redirects itself: where it ended is checked all the same.
    const landed = next ?? response.url;
    const problem = landed === "" ? undefined : hopProblem(new URL(landed), local);
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

/** Why a redirect may not lead to `hop` (`getSecurely`), or undefined when it may; `local`: the URL asked first is on this machine. */
function hopProblem(hop: URL, local: boolean): string | undefined {
  if (!local && THIS_MACHINE.test(hop.hostname)) {
    return "this machine (loopback): only a key set URL on this machine itself may lead there, for local development; set jwksUrl to the issuer's public key set URL";
  }
  if (!isSecureUrl(hop)) {
    return "not https (http only on a loopback host): a document fetched over plain http could be anyone's";
  }
  return undefined;
}

/**
 * The JSON of a response body, read up to `MAX_ANSWER_BYTES` (a declared length past it is refused
 * before reading, and a body that grows past it is cancelled there). Throws an Error saying what
 * was wrong, which never repeats the body: it is not the client's to read.
 */
export async function readJson(response: Response): Promise<unknown> {
  const tooLarge = new Error(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
  const reader = response.body?.getReader();
  if (Number(response.headers.get("content-length")) > MAX_ANSWER_BYTES) {
    await reader?.cancel();
    throw tooLarge;
  }
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
    size += read.value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader?.cancel();
      throw tooLarge;
    }
    text += decoder.decode(read.value, { stream: true });
  }
  try {
    return JSON.parse(text + decoder.decode());
  } catch {
    throw new Error("the answer is not JSON");
  }
}
