/** How long a reader more than `max` behind has to get back within it before its stream is dropped. */
const CATCH_UP_MS = 1000;

export interface ReaderLagOptions {
  /** How far the reader may be behind (`limits.maxSseBufferBytes`). */
  max: number;
  /** The bytes the stream holds for its reader now (queued in the sink, or held apart). */
  held: () => number;
  /** The reader is too far behind: the stream is dropped (sse.ts), or lets go of its notifications (log-reader.ts). */
  drop: () => void;
  /**
   * The stream lets its logs and progress go rather than queue them past `max` (`offer`: a request's own
   * stream), so nothing but its answer grows its queue after a burst: a reader a burst left more than
   * twice `max` behind gets `CATCH_UP_MS` too, rather than being dropped, its answer with it, at once.
   */
  patient?: boolean;
}

/**
 * How far the reader of one SSE stream is behind, and when it is too far (sse.ts's SseChannel,
 * log-reader.ts's LogReader). Behind is counted from what the reader could have taken: the bytes
 * queued in this turn of the event loop are not, since no reader takes any before the turn ends
 * (Node even corks the socket until then), so a burst larger than `max` (a tool logging in a loop,
 * updates of many resources) does not drop a reader that keeps up. Once the turn ends (and Node
 * has handed the socket what it takes), one behind by more than `max` has `CATCH_UP_MS` to get back
 * within it, and is dropped at once past twice that: a burst to a reader that does not read is
 * dropped then, not held until something more is written.
 */
export class ReaderLag {
  readonly #options: ReaderLagOptions;
  /** The bytes queued in this turn of the event loop: no reader could take them yet. */
  #turn = 0;
  /** Ends this turn's count, and checks what the turn left the reader. */
  #turnEnd: ReturnType<typeof setTimeout> | undefined;
  /** Drops the stream unless its reader got back within `max` meanwhile. */
  #catchUp: ReturnType<typeof setTimeout> | undefined;

  constructor(options: ReaderLagOptions) {
    this.#options = options;
  }

  /** Before `bytes` more are queued for the reader: false when the reader was found too far behind (`drop`) instead. */
  admit(bytes: number): boolean {
    if (!this.#check()) return false;
    this.#count(bytes);
    return true;
  }

  /**
   * Before `bytes` of what the reader may miss (a log, a progress report: best-effort, 2025-11-25
   * "Logging", "Progress"): false, and nothing dropped, while the reader is more than `max` behind.
   */
  offer(bytes: number): boolean {
    if (this.#behind() > this.#options.max) {
      this.#wait();
      return false;
    }
    this.#count(bytes);
    return true;
  }

  /** Before `bytes` the reader must get (a request's answer): queued however far behind it is. */
  keep(bytes: number): void {
    this.#count(bytes);
  }

  #count(bytes: number): void {
    // Counted once the turn ends: a burst the reader could not take yet is judged then, not left unchecked.
    this.#turnEnd ??= setTimeout(() => {
      this.#turnEnd = undefined;
      this.#turn = 0;
      if (this.#options.patient) this.#wait();
      else this.#check();
    });
    this.#turn += bytes;
  }

  /** The stream ended: nothing more is checked. */
  stop(): void {
    clearTimeout(this.#turnEnd);
    clearTimeout(this.#catchUp);
  }

  /** Drops the stream past twice `max` behind, gives its reader `CATCH_UP_MS` past `max`; false once dropped. */
  #check(): boolean {
    const { max, drop } = this.#options;
    const behind = this.#behind();
    if (behind > 2 * max) {
      drop();
      return false;
    }
    this.#wait();
    return true;
  }

  /** Gives a reader more than `max` behind `CATCH_UP_MS` to get back within it, then drops the stream. */
  #wait(): void {
    const { max, drop } = this.#options;
    if (this.#behind() <= max) return;
    this.#catchUp ??= setTimeout(() => {
      this.#catchUp = undefined;
      if (this.#behind() > max) drop();
    }, CATCH_UP_MS);
  }

  /** What the reader has not taken of what it could have: all but this turn's bytes. */
  #behind(): number {
    return this.#options.held() - this.#turn;
  }
}
