/** Coalesces the lines of one turn of the event loop into one write: a write per message is a measurable cost. */
const later: (callback: () => void) => void =
  (globalThis as { setImmediate?: (callback: () => void) => void }).setImmediate ??
  ((callback) => setTimeout(callback, 0));

/** The most text one write joins from several lines (a longer line is written on its own). */
const BATCH = 64 * 1024;

/**
 * The lines a stdio server writes, queued one string per message and written in batches of at most
 * `BATCH` characters: joining a turn's answers into one string would outgrow V8's longest string
 * (about 512 MiB) and lose every answer past it. Writes respect backpressure: once `write` answers
 * false, nothing more is written until `drained` resolves, and `blocked` tells the reader to stop
 * reading requests meanwhile, so a client that stops reading bounds what the server holds.
 */
export class LineOutput {
  readonly #write: (chunk: string) => unknown;
  readonly #drained: (() => Promise<void>) | undefined;
  /**
   * Lines not yet written, with their newlines, in order, and their length in all. A line another
   * superseded (see `send`) stays in its place as "", which writes nothing: the queue of a plain
   * array costs a response nothing more than a push (a Map per line cost every call CPU and memory).
   */
  readonly #lines: string[] = [];
  #queued = 0;
  /** How many lines have left the queue (written): a line's place in `#lines` is its number less this. */
  #written = 0;
  /** The number of the line of each key still waiting (made by the first line with a key). */
  #keyed: Map<string, number> | undefined;
  #scheduled = false;
  /** Resolves once the output takes writes again; set while it does not. */
  #ready: Promise<void> | undefined;

  constructor(write: (chunk: string) => unknown, drained?: () => Promise<void>) {
    this.#write = write;
    this.#drained = drained;
  }

  /** While the output takes no more writes (the client is not reading): resolves once it takes them again. */
  get blocked(): Promise<void> | undefined {
    return this.#ready;
  }

  /** The length of the lines queued and not yet written: what this output holds for a client that does not read. */
  get queued(): number {
    return this.#queued;
  }

  /**
   * Queues one line (without its newline). `key`: what the line is about; a line of the same key still
   * waiting says something older, so it is dropped and this one goes last (the order of what is sent holds).
   */
  send(line: string, key?: string): void {
    const text = `${line}\n`;
    const lines = this.#lines;
    if (key !== undefined) {
      this.#keyed ??= new Map();
      const older = this.#keyed.get(key);
      if (older !== undefined) {
        const place = older - this.#written;
        this.#queued -= lines[place]!.length;
        lines[place] = "";
      }
      this.#keyed.set(key, this.#written + lines.length);
    }
    lines.push(text);
    this.#queued += text.length;
    // A full batch need not wait for the end of the turn, and the reader learns at once if it blocked.
    if (this.#queued >= BATCH) this.#flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      later(this.#flush);
    }
  }

  /** Writes everything queued, waiting for the output to drain as often as it must. */
  async finish(): Promise<void> {
    this.#flush();
    while (this.#ready) await this.#ready;
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    const lines = this.#lines;
    while (this.#ready === undefined && lines.length > 0) {
      // As many whole lines as fit in a batch, and at least one.
      let count = 1;
      let length = lines[0]!.length;
      while (count < lines.length && length + lines[count]!.length <= BATCH) length += lines[count++]!.length;
      this.#queued -= length;
      this.#written += count;
      const chunk = lines.splice(0, count).join("");
      // The keys of lines written are no longer waiting.
      const keyed = this.#keyed;
      if (keyed?.size) for (const [key, number] of keyed) if (number < this.#written) keyed.delete(key);
      if (chunk !== "" && this.#write(chunk) === false && this.#drained) {
        this.#ready = this.#drained().then(this.#unblock, this.#unblock);
      }
    }
  };

  readonly #unblock = (): void => {
    this.#ready = undefined;
    this.#flush();
  };
}
