import type { SseStream } from "../transports/http/sse.js";

/** The longest a timer waits (2^31 - 1 ms, 24 days): a longer delay would fire at once. */
const LONGEST_TIMER = 2 ** 31 - 1;

/**
 * The event streams opened with an access token that expires, each ended once its token has:
 * a token is checked on every request (2025-11-25 and 2026-07-28 "Authorization", "Token
 * Handling"), and a stream outlives its request, so without this one would go on carrying a
 * session's notifications (resource updates, logs, questions) to a caller whose access ended.
 * Each stream ends as its kind ends early (`SseStream.expire`); the client opens it again with a
 * fresh token, as clients do when an event stream ends.
 *
 * One timer for every stream, set for the earliest expiry; a stream that ended on its own is
 * forgotten as its expiry passes, or sooner once many have (`#prune`).
 */
class Expiries {
  /** Each stream watched, with when its token expires (ms since the epoch). */
  readonly #streams = new Map<SseStream, number>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires; Infinity without one. */
  #next = Number.POSITIVE_INFINITY;
  /** The number of streams past which those that ended are forgotten. */
  #prunedAt = 64;

  /** How many streams are watched: those open, and those that ended since the last prune. */
  get watched(): number {
    return this.#streams.size;
  }

  /**
   * Ends `stream` once `expiresAt` (seconds since the epoch, as `Identity.expiresAt`) has passed. A
   * stream its expiry does not end (no `expire`: one that goes on to its answer) is not kept.
   */
  watch(stream: SseStream, expiresAt: number): void {
    if (!stream.expire) return;
    const at = expiresAt * 1000;
    if (this.#streams.size >= this.#prunedAt) this.#prune();
    this.#streams.set(stream, at);
    if (at < this.#next) this.#arm(at);
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#next = at;
    const timer = setTimeout(() => this.#sweep(), Math.min(Math.max(at - Date.now(), 0), LONGEST_TIMER));
    // An expiry never keeps a process alive on its own (Node, Bun; Deno's timer is a number, without unref).
    timer.unref?.();
    this.#timer = timer;
  }

  /** Ends every stream whose token expired, and sets the timer for the next expiry. */
  #sweep(): void {
    this.#timer = undefined;
    this.#next = Number.POSITIVE_INFINITY;
    const now = Date.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [stream, at] of this.#streams) {
      if (at <= now) {
        this.#streams.delete(stream);
        if (!stream.closed) stream.expire?.();
      } else if (at < next) next = at;
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  }

  /** Forgets the streams that ended on their own: the map stays within twice the streams open. */
  #prune(): void {
    for (const stream of this.#streams.keys()) if (stream.closed) this.#streams.delete(stream);
    this.#prunedAt = Math.max(64, this.#streams.size * 2);
  }
}

/** The event streams of every endpoint of the process that are opened with a token that expires: one timer for all. */
export const expiries = new Expiries();
