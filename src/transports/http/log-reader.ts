import type { StreamLog, StreamReader } from "./history.js";
import { ReaderLag } from "./reader-lag.js";
import type { SseSink, SseStream, Streams } from "./sse.js";

export interface LogReaderOptions {
  /** Written first: the priming event of a new stream (SEP-1699). */
  prelude?: string | undefined;
  /** The endpoint's streams (`limits.maxSseStreams`, `limits.maxSseBufferBytes`). */
  streams?: Streams | undefined;
  /** Runs once when the reader stops, whatever the reason. */
  onEnd: () => void;
  /**
   * Whether its token's expiry ends it (`expire`): a stream the client resumes without loss (its
   * events kept, its client primed), or the GET stream, which clients open again; not the stream of
   * a request whose client cannot resume it (before 2025-11-25), which would lose its answer.
   */
  expires?: boolean | undefined;
}

/**
 * The reading end of one resumable stream of a session: it sends the events of its stream's log
 * from a cursor on, as fast as the reader takes them and no faster. The log is the buffer: nothing
 * is copied ahead of the reader, so a replay after `Last-Event-ID` streams from the history whatever
 * its size, and a reader that stops reading for a while is not dropped while the history keeps
 * what it has not read. Only an event the history forgets before this reader sent it is held here,
 * within `maxSseBufferBytes` as reader-lag.ts counts it (a burst written within one turn of the event
 * loop, which the history forgets before any reader could take it, does not count); past that the
 * notifications it holds are let go (`#shed`), and the answer and questions it holds are sent all
 * the same: a reader is never dropped for being behind, so no answer is lost with it.
 */
export class LogReader implements SseStream, StreamReader {
  readonly #log: StreamLog;
  /** The number of the last event sent or held. */
  #cursor: number;
  #sink: SseSink | undefined;
  #prelude: string | undefined;
  #closed = false;
  #feeding = false;
  /** The sink said it has enough: nothing more is written until it drains. */
  #full = false;
  /** How many times the sink drained: a drain during a write (a Web stream pulling at once) counts. */
  #drains = 0;
  /** Set by `finish`: the connection ends once the events up to this number are sent. */
  #until = Number.POSITIVE_INFINITY;
  /** Events the history forgot before they were sent, oldest first, each marked when it is a notification. */
  #held: { event: Uint8Array; notice: boolean }[] = [];
  #heldBytes = 0;
  #streams: Streams | undefined;
  readonly #lag: ReaderLag;
  readonly #onEnd: () => void;
  /** Its token expired: the connection ends now, and the client resumes the rest with a fresh token (`LogReaderOptions.expires`). */
  readonly expire: (() => void) | undefined;

  /** Reads `log` from the event after `after` on. */
  constructor(log: StreamLog, after: number, options: LogReaderOptions) {
    this.#log = log;
    this.#cursor = after;
    this.#prelude = options.prelude;
    this.#streams = options.streams;
    this.#lag = new ReaderLag({
      max: options.streams?.maxBuffer ?? Number.POSITIVE_INFINITY,
      held: () => this.#heldBytes + (this.#sink?.backlog?.() ?? 0),
      drop: () => this.#shed(),
    });
    this.#onEnd = options.onEnd;
    this.expire = options.expires ? () => this.close() : undefined;
    if (this.#streams) this.#streams.open++;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** The number of the last event this reader has sent or holds. */
  get cursor(): number {
    return this.#cursor;
  }

  attach(sink: SseSink): void {
    this.#sink = sink;
    const prelude = this.#prelude;
    this.#prelude = undefined;
    // Closed before anyone read it (SEP-1699 polling at once): the priming event still goes out.
    if (prelude !== undefined) sink.write(prelude);
    if (this.#closed) {
      sink.close();
      return;
    }
    sink.onDrain?.(() => {
      this.#drains++;
      this.#full = false;
      this.#feed();
    });
    this.#feed();
  }

  /** The log has a new event, or ended. */
  wake(): void {
    this.#feed();
  }

  /**
   * The history forgot the next event before it was sent: it is held here; a notification is let go
   * instead when the reader is too far behind (`#shed`), an answer or a question never.
   */
  adopt(event: Uint8Array, notice: boolean): void {
    if (this.#closed) return;
    this.#cursor++;
    if (!this.#lag.admit(event.byteLength) && notice) return;
    this.#held.push({ event, notice });
    this.#heldBytes += event.byteLength;
  }

  /**
   * Ends the connection once what the stream holds now is sent, keeping the stream resumable
   * (SEP-1699 polling): the events written later wait in the history for the client's resume.
   */
  finish(): void {
    if (this.#closed) return;
    this.#until = this.#log.seq;
    this.#feed();
  }

  /** Ends the connection now; what was not sent stays in the history, for a resume. */
  close(): void {
    if (this.#closed) return;
    this.#end();
    this.#sink?.close();
  }

  cancel(): void {
    if (this.#closed) return;
    this.#prelude = undefined;
    this.#end();
  }

  /** Sends what the reader can take now, held events first, then the log's; closes once all is sent of an ended log (or up to `finish`). */
  #feed(): void {
    const sink = this.#sink;
    // A write may drain the sink at once (a Web stream pulls for more): the loop below goes on then.
    if (!sink || this.#closed || this.#full || this.#feeding) return;
    this.#feeding = true;
    try {
      for (;;) {
        let event = this.#held.shift()?.event;
        if (event) this.#heldBytes -= event.byteLength;
        else if (this.#cursor >= this.#until) {
          this.close();
          return;
        } else {
          event = this.#log.after(this.#cursor);
          if (!event) {
            if (this.#log.done) this.close();
            return;
          }
          this.#cursor++;
        }
        const drains = this.#drains;
        const written = sink.write(event);
        // Every event up to the cursor is written once none is held back (see StreamLog.sent).
        if (this.#held.length === 0 && this.#cursor > this.#log.sent) this.#log.sent = this.#cursor;
        if (!written && this.#drains === drains) this.#full = true;
        if (this.#full || this.#closed) return;
      }
    } finally {
      this.#feeding = false;
    }
  }

  /**
   * The reader is too far behind (reader-lag.ts): the notifications held for it go, as stdio lets
   * logs and progress go for a client that does not read; what the client waits for, an answer or a
   * question, is kept whatever its size, since the history forgot it and nothing else could bring it
   * (2025-11-25 "Resumability and Redelivery": a dropped stream resumes only from what is kept). It
   * is bounded by the requests the stream carries; the stream itself goes on.
   */
  #shed(): void {
    this.#held = this.#held.filter((held) => !held.notice);
    this.#heldBytes = this.#held.reduce((bytes, held) => bytes + held.event.byteLength, 0);
  }

  #end(): void {
    this.#lag.stop();
    this.#closed = true;
    this.#held = [];
    this.#heldBytes = 0;
    if (this.#streams) this.#streams.open--;
    this.#streams = undefined;
    this.#onEnd();
  }
}
