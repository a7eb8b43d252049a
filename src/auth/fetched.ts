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
