/**
 * What the token verifiers fetch from the authorization server (a key set, an introspection
 * answer): only over a transport no one in between can rewrite, and only as much as such a document
 * can need, so a misbehaving or compromised server cannot fill this one's memory.
 */

/** The most a verifier reads of one answer: a key set or an introspection answer is a few kilobytes. */
const MAX_ANSWER_BYTES = 1024 * 1024;

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
