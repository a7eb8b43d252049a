import { messageOf } from "./errors.js";

/** What a secret, or a credential found in a message, is written as. */
export const REDACTED = "[redacted]";

/**
 * Absolute file paths of three or more segments (POSIX, not part of a URL) and Windows drive paths,
 * whose folders may have spaces (`C:\Program Files\…`) but whose last segment ends at one, so the
 * words after a path stay. A Windows path's separator may be doubled, as JSON writes it: a message
 * that embeds `JSON.stringify` of an object with such a path, as a key or a value, loses it whole.
 * A POSIX path of one or two segments stays (`/app/data.json`): it reads the same as a URL path the
 * model may need (`/api/users`); docs/tools.md says so, with examples. A `file://` URL is a path
 * too, counted the same way, a Windows drive apart: Deno names files so in its errors ("Module not
 * found \"file:///srv/app/…\""), where Node names their paths.
 */
const PATH =
  /\bfile:\/\/(?:\/[A-Za-z]:)?(?:\/[\w.@%+-]+){3,}\/?|(?<![\w:/.~-])(?:\/[\w.@+-]+){3,}\/?|\b[A-Za-z]:\\\\?(?:[\w.@+-]+(?: [\w.@+-]+)*\\\\?)*[\w.@+-]*/g;
/**
 * JSON Web Tokens (three base64url parts, the first a JSON header). One starts after no base64url
 * character, "-" included: `\b` would start a scan at each "eyJ" after a "-" of the same run,
 * quadratic in a message such as "eyJa-eyJa-…" (an argument echoed in an error: a stalled server).
 */
const JWT = /(?<![\w-])eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g;
/**
 * A `Bearer` or `Basic` credential: a token with a digit, a symbol or a capital inside it, as tokens
 * and base64 have and words do not ("the basic search", "Bearer tokens" stay as written). A Basic
 * one is base64 of a user and a password (RFC 7617 "user-pass"), padded as RFC 4648 §4 writes it:
 * whole groups of 4 characters, the last may end in `=` or `==`, 8 characters at least with the
 * padding counted ("ab:c" is `YWI6Yw==`), ending at no word character nor `+`, `/`, `=` or `-`.
 * "basic search-and-replace", "the basic v2 API", "basic HTTP/1.1" and "a basic TypeScript example"
 * are a message's words, which the seed Tools pages send to the model as written.
 */
const BEARER =
  /\b(?:([Bb]earer)\s+(?=[\w.~+/=-]*?(?:[\d.~+/=_-]|[a-z][A-Z]))[\w.~+/=-]+|([Bb]asic)\s+(?=[A-Za-z\d+/]*?(?:[\d+/=]|[a-z][A-Z]))(?=[A-Za-z\d+/=]{8})(?:[A-Za-z\d+/]{4})+(?:[A-Za-z\d+/]{2}==|[A-Za-z\d+/]{3}=)?(?![\w+/=-]))/g;
/**
 * Stack frames, in case a message embeds a stack: an indented `at` line that ends as a V8-style frame
 * does, at a `:line:column` or in `(<anonymous>)`, `(native)` or `(index 0)`. Node and Deno write
 * such frames, and so does Bun, on JavaScriptCore (its built-ins' frames end in `(native)`);
 * JavaScriptCore's own `fn@url:line:column` frames, as Safari writes them, are not matched.
 * A message's own indented lines stay ("  at least 6 seats are needed"): the seed Tools pages send
 * what `run` throws to the model as its message. The indent is spaces and tabs, never `\s`: that
 * would take in the newlines after it too and rescan them from each one, quadratic in a message of
 * blank lines (an argument echoed in an error: a client could stall the server).
 */
const FRAME = /\n[ \t]+at [^\n]*?(?::\d+:\d+\)?|\((?:<anonymous>|native|index \d+)\))(?=[ \t\r]*(?:\n|$))/g;

/**
 * The message of anything thrown, made safe for a client: never a stack (only the message is read),
 * and with stack frames, absolute file paths, JWTs and bearer credentials taken out. Write messages
 * for the model; this is the net under them, not a substitute.
 */
export function safeMessage(thrown: unknown): string {
  return messageOf(thrown)
    .replace(FRAME, "")
    .replace(JWT, REDACTED)
    .replace(BEARER, `$1$2 ${REDACTED}`)
    .replace(PATH, "[path]");
}

/**
 * What an error message shows of a name, a URI, an id or any other text the client sent: the message
 * goes into the model's context, and the client's text may be as long as a message (4 MiB), so a long
 * one is cut (the whole of it goes back in the error's data where it helps).
 */
const MAX_SHOWN = 200;

export function shown(text: string, max = MAX_SHOWN): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A value the client sent, as JSON in a message: a string cut as `shown` cuts it, in its quotes. */
export function quoted(value: string | number | boolean): string {
  return JSON.stringify(typeof value === "string" ? shown(value) : value);
}
