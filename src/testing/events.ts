import { isObject } from "../core/jsonrpc.js";

/** A JSON-RPC message as the server under test sent it. */
export type Message = Record<string, unknown>;

/**
 * Reads the JSON-RPC messages of an SSE body one at a time, as they arrive (WHATWG "Server-sent
 * events": an event's `data:` lines joined by newlines; events without data, a priming event or a
 * comment, are skipped). A stream may stay open (`subscriptions/listen`, 2026-07-28 §4), so nothing
 * waits for its end.
 */
export class EventMessages {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = "";
  #ended = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }

  /** The next message, or undefined once the stream has ended. */
  async next(): Promise<Message | undefined> {
    for (;;) {
      const end = this.#buffer.indexOf("\n\n");
      if (end !== -1) {
        const data = dataOf(this.#buffer.slice(0, end));
        this.#buffer = this.#buffer.slice(end + 2);
        if (data.trim() === "") continue;
        const parsed: unknown = JSON.parse(data);
        if (isObject(parsed)) return parsed;
        continue;
      }
      if (this.#ended) return undefined;
      const { done, value } = await this.#reader.read();
      if (done) {
        this.#ended = true;
        // The last event may end with the stream rather than a blank line.
        this.#buffer = `${normal(`${this.#buffer}${this.#decoder.decode()}`)}\n\n`;
      } else this.#add(this.#decoder.decode(value, { stream: true }));
    }
  }

  /** Stops reading: the server sees its client leave (for a listen stream, the end of the subscription). */
  async cancel(): Promise<void> {
    this.#ended = true;
    await this.#reader.cancel();
  }

  /** Adds text with its line ends made `\n`; a `\r` at its end waits for the next text, which may bring its `\n`. */
  #add(text: string): void {
    const joined = this.#buffer + text;
    const held = joined.endsWith("\r") ? 1 : 0;
    this.#buffer = normal(joined.slice(0, joined.length - held)) + joined.slice(joined.length - held);
  }
}

function normal(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

/** The data of one event: its `data:` lines, joined by newlines. */
function dataOf(event: string): string {
  return event
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
    .join("\n");
}
