/**
 * A chunk of stdin that is not all UTF-8, read again: its text, and which of its lines hold bytes
 * that are not UTF-8. Messages are UTF-8, one per line (2025-11-25 "Transports", stdio), and a
 * TextDecoder that is not fatal reads other bytes as U+FFFD: a Latin-1 "café" would reach a tool as
 * "caf\uFFFD", run as if the client had sent that, and a request whose id held such a byte would be
 * answered under another id, which its client never matches. So stdio decodes with a fatal decoder,
 * which costs what the usual one does while the bytes are UTF-8, and this module, loaded with the
 * first chunk it refuses, tells which lines to refuse: only those, so that a U+FFFD sent as UTF-8
 * (EF BF BD) in the same chunk is text like any other. A newline byte is never inside a character,
 * so lines split the same in bytes as in text.
 */
/** What a line that holds bytes that are not UTF-8 is answered (-32700, its parse error). */
export const NOT_UTF8 =
  "the line holds bytes that are not UTF-8; send each JSON-RPC message as one line of JSON, encoded in UTF-8";

export interface Reread {
  text: string;
  /** Whether each of the chunk's pieces between newlines holds bytes that are not UTF-8: the first continues the line before it, the last starts the next. */
  broken: boolean[];
  /** The decoder of the chunks after it: it holds the character this chunk ends inside of. */
  decoder: TextDecoder;
}

/**
 * `chunk`, which the fatal decoder refused (its state is then unknown), read from the character
 * `previous` ended inside of; `offset`: how many bytes were read before `chunk`. Where what is read
 * again starts the input (nothing was read before it but the start of its first character), a byte
 * order mark is skipped, as the decoder skips it there.
 */
export function reread(previous: Uint8Array | undefined, chunk: Uint8Array, offset: number): Reread {
  const before = previous ? unfinished(previous) : NONE;
  const first = offset === before.length;
  const whole = before.length > 0 ? joined(before, chunk) : chunk;
  const after = unfinished(whole);
  let decoder = strict();
  if (!reads(decoder, after, true)) decoder = strict();
  const broken: boolean[] = [];
  for (let start = 0; ; ) {
    const newline = whole.indexOf(NEWLINE, start);
    broken.push(!reads(strict(), whole.subarray(start, newline === -1 ? whole.length : newline), newline === -1));
    if (newline === -1) break;
    start = newline + 1;
  }
  const text = new TextDecoder("utf-8", { ignoreBOM: !first }).decode(whole.subarray(0, whole.length - after.length));
  return { text, broken, decoder };
}

const NEWLINE = 0x0a;
const NONE: Uint8Array = new Uint8Array(0);

/** A fatal decoder after the start of the input, where a byte order mark is a character (docs/limits.md). */
function strict(): TextDecoder {
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
}

function reads(decoder: TextDecoder, bytes: Uint8Array, stream: boolean): boolean {
  try {
    decoder.decode(bytes, { stream });
    return true;
  } catch {
    return false;
  }
}

/** The end of `bytes` that starts a character without finishing it: a lead byte and fewer continuations than it announces. */
function unfinished(bytes: Uint8Array): Uint8Array {
  for (let at = bytes.length - 1; at >= Math.max(0, bytes.length - 3); at--) {
    const byte = bytes[at]!;
    // A continuation byte (10xxxxxx): the lead is further back.
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return bytes.length - at < length ? bytes.subarray(at) : NONE;
  }
  return NONE;
}

function joined(first: Uint8Array, second: Uint8Array): Uint8Array {
  const both = new Uint8Array(first.length + second.length);
  both.set(first);
  both.set(second, first.length);
  return both;
}
