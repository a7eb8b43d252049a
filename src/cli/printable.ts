/**
 * Text from the server (a tool's result or error, a log line, a progress message, what an
 * elicitation asks and the URL it sends the user to) as the terminal may show it: each control
 * character written out as `\u001b`, line breaks and tabs kept. A server's text is not the
 * terminal's to run: an escape sequence could clear the screen, set the window title or the
 * clipboard, and a carriage return or a right-to-left override could show one URL for another,
 * where 2025-11-25 "Elicitation" (URL mode) has the client show the user the URL it would open.
 */

/** C0 controls but tab and line feed, DEL, C1 controls, and the bidirectional embeddings, overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's purpose.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text
    .replace(/\r\n/g, "\n")
    .replace(CONTROL, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
