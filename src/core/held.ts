import type { JsonRpcMessage } from "./jsonrpc.js";

export type Outgoing = JsonRpcMessage | JsonRpcMessage[];

/**
 * How long a resource update's read check may keep what is sent after it waiting (a 2025 session's
 * connection, a 2026 listen stream: each keeps the order of what it sends).
 */
const READ_CHECK_MS = 10_000;

/**
 * A read check that answers no once READ_CHECK_MS have passed without an answer (an `allow` stuck on
 * a store that does not answer), so that what waits behind it cannot pile up without bound. One that
 * fails is a no too, and only once those before it have answered: it may not overtake them.
 */
function boundedReadCheck(check: Promise<boolean>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(resolve, READ_CHECK_MS, false);
  });
  return Promise.race([check.catch(() => false), late]).finally(() => clearTimeout(timer));
}

/**
 * A message held back, sent or dropped in its turn: whether it may go (its read check while that has
 * not answered, then the answer), and what resolves the promise `send` answered for it.
 */
type Entry = [message: Outgoing, allowed: boolean | Promise<boolean>, done: () => void];

/**
 * What one stream holds back behind a resource update's read check (a 2025 session's connection, a
 * 2026-07-28 listen stream): the client reads a stream in the order it was written (2025-11-25
 * "Transports"), so what is sent after an update whose check waits goes after it, and a log that says
 * "updated X" never comes before the update of X, nor a response before its request's progress.
 * Nothing waits longer than 10 s for a check (`boundedReadCheck`); a check that fails, or says no,
 * sends nothing.
 */
export class HeldMessages {
  readonly #out: (message: Outgoing) => void;
  readonly #entries: Entry[] = [];

  /** `out` hands a message to the transport. */
  constructor(out: (message: Outgoing) => void) {
    this.#out = out;
  }

  /** How many messages are held. */
  get length(): number {
    return this.#entries.length;
  }

  /**
   * Sends `message` if `allowed`, after every message held before it: now (undefined) when nothing is
   * held and `allowed` is known, otherwise once it has gone (the promise resolves).
   */
  send(message: Outgoing, allowed: boolean | Promise<boolean>): Promise<void> | undefined {
    const entries = this.#entries;
    if (entries.length === 0 && !(allowed instanceof Promise)) {
      if (allowed) this.#out(message);
      return undefined;
    }
    return new Promise((done) => {
      const entry: Entry = [message, allowed, done];
      entries.push(entry);
      if (allowed instanceof Promise) {
        void boundedReadCheck(allowed).then((yes) => {
          entry[1] = yes;
          this.release();
        });
      }
    });
  }

  /**
   * Sends the messages held whose turn has come, in order: up to the first whose read check still
   * waits, or all of them when `cut` (the stream ends), those checks counting as a no.
   */
  release(cut?: boolean): void {
    const entries = this.#entries;
    while (entries.length > 0) {
      if (entries[0]![1] instanceof Promise && !cut) return;
      const [message, allowed, done] = entries.shift()!;
      try {
        if (allowed === true) this.#out(message);
      } catch {
        // A message the transport cannot take must not keep those behind it waiting.
      }
      done();
    }
  }

  /** Resolves once the messages held now have gone or been dropped; undefined when none is held. */
  sent(): Promise<void> | undefined {
    // An entry that sends nothing, in the last place.
    return this.#entries.length > 0 ? this.send([], false) : undefined;
  }
}
