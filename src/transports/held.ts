import { serialize } from "../core/jsonrpc.js";
import type { Holder, Outgoing, ReadCheck } from "../sessions/peer.js";

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
function boundedReadCheck(check: Promise<boolean>, ms = READ_CHECK_MS): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(resolve, ms, false);
  });
  return Promise.race([check.catch(() => false), late]).finally(() => clearTimeout(timer));
}

/**
 * The read check of the last change merged into an entry while the entry's own check waited: its
 * answer once it has one, and when its 10 s end (counted from its update, as for any other).
 */
type Later = [allowed: boolean | Promise<boolean>, until: number];

/**
 * A message held back, sent or dropped in its turn: whether it may go (its read check while that has
 * not answered, then the answer), the bytes it counts for (a notification's; 0 for the rest), what it
 * is the same as (a change notification's text), what resolves the promise `send` answered for it,
 * the request a response answers (for the transport: stdio writes it after that request's progress),
 * and the `Later` check that decides instead if its own says no.
 */
type Entry = [
  message: Outgoing,
  allowed: boolean | Promise<boolean>,
  bytes: number,
  same: string,
  done: () => void,
  request: unknown,
  later?: Later,
];

/** The notifications that say a list or a resource changed: the client lists or reads after one. */
const CHANGE = /^notifications\/(?:\w+\/list_changed|resources\/updated)$/;

/**
 * What one stream holds back behind a resource update's read check (a 2025 session's connection, a
 * 2026-07-28 listen stream): the client reads a stream in the order it was written (2025-11-25
 * "Transports"), so what is sent after an update whose check waits goes after it, and a log that says
 * "updated X" never comes before the update of X, nor a response before its request's progress.
 * Nothing waits longer than 10 s for a check (`boundedReadCheck`); a check that fails, or says no,
 * sends nothing.
 *
 * What is held is bounded by bytes too, not only by time: a server may emit without end while a check
 * waits (logs, progress, list changes, updates of the many resources under one subscription). A change
 * notification the same as one still held is not held again: the client lists or reads after the
 * first, and so sees both changes (2025-11-25 "Tools", "Resources"; 2026-07-28 §4); so no more list
 * changes are held than there are lists. Merged into one whose check still waits, it keeps its own
 * check: should the first say no (or not answer within 10 s), the later one is sent in its place if
 * its check allows, so a change the client may read is never lost to an earlier check's no. Past
 * `maxBytes` of other notifications held, later ones are dropped: a notification expects no answer
 * and may be lost (servers SHOULD rate-limit logs and progress: 2025-11-25 "Logging", "Progress").
 * Responses and requests are never dropped: what sends them bounds them (stdio reads no more requests
 * meanwhile; a handler's question waits for its answer).
 */
export class HeldMessages implements Holder {
  readonly #out: (message: Outgoing, request?: unknown) => void;
  readonly #maxBytes: number;
  readonly #entries: Entry[] = [];
  /** The bytes of the notifications held. */
  #bytes = 0;
  /** The change notifications held and not known to be refused, by their text. */
  readonly #changes = new Map<string, Entry>();

  /** `out` hands a message to the transport; `maxBytes`: of the notifications held (see above). */
  constructor(out: (message: Outgoing, request?: unknown) => void, maxBytes: number) {
    this.#out = out;
    this.#maxBytes = maxBytes;
  }

  /** How many messages are held. */
  get length(): number {
    return this.#entries.length;
  }

  /**
   * Sends `message` if `allowed`, after every message held before it: now (undefined) when nothing is
   * held and `allowed` is known, otherwise once it has gone (the promise resolves). A notification that
   * one still held already says, or that the bound drops, is not sent (undefined).
   */
  send(message: Outgoing, allowed: boolean | Promise<boolean>, request?: unknown): Promise<void> | undefined {
    const entries = this.#entries;
    if (entries.length === 0 && !(allowed instanceof Promise)) {
      if (allowed) this.#out(message, request);
      return undefined;
    }
    let bytes = 0;
    let same = "";
    if (!Array.isArray(message) && "method" in message && !("id" in message)) {
      const text = serialize(message) ?? "";
      if (CHANGE.test(message.method)) {
        const held = this.#changes.get(text);
        if (held) {
          // Merged: the client reads after the one held, so sees this change too, if that one is
          // sent. While its check waits, this one's is kept: a no there (a timeout, or a permission
          // since granted) must not lose this change when its own check allows it.
          if (held[1] !== true && allowed !== false) {
            const later: Later = [allowed, Date.now() + READ_CHECK_MS];
            held[6] = later;
            // Its answer is kept as it comes, so that one already given decides at once.
            if (allowed instanceof Promise)
              void allowed.then(
                (yes) => (later[0] = yes),
                () => (later[0] = false),
              );
          }
          return undefined;
        }
        same = text;
      }
      // A list change is never dropped: no more of them are held than there are lists.
      if (!message.method.endsWith("list_changed")) {
        bytes = text.length;
        if (this.#bytes + bytes > this.#maxBytes) return undefined;
        this.#bytes += bytes;
      }
    }
    return new Promise((done) => {
      const entry: Entry = [message, allowed, bytes, same, done, request];
      entries.push(entry);
      if (same && allowed !== false) this.#changes.set(same, entry);
      if (allowed instanceof Promise) this.#check(entry, allowed, READ_CHECK_MS);
    });
  }

  /**
   * Waits `ms` at most for `entry`'s read check, then sends what its answer lets go. On a no, the
   * check of the last identical change merged into it meanwhile decides instead, within what is
   * left of that one's own 10 s.
   */
  #check(entry: Entry, check: Promise<boolean>, ms: number): void {
    void boundedReadCheck(check, ms).then((yes) => {
      const later = entry[6];
      entry[6] = undefined;
      let allowed: boolean | Promise<boolean> = yes;
      if (!yes && later) {
        const left = later[1] - Date.now();
        allowed = later[0];
        if (allowed instanceof Promise && left > 0) return this.#check(entry, allowed, left);
        // Its own 10 s are over too: a no.
        if (allowed instanceof Promise) allowed = false;
      }
      entry[1] = allowed;
      // A refused one is not the same as a later one, which may be allowed.
      if (entry[1] === false) this.#forget(entry);
      this.release();
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
      const entry = entries.shift()!;
      const [message, allowed, bytes, , done, request] = entry;
      this.#bytes -= bytes;
      this.#forget(entry);
      // Cut or sent: no later check decides for it any more.
      entry[6] = undefined;
      try {
        if (allowed === true) this.#out(message, request);
      } catch {
        // A message the transport cannot take must not keep those behind it waiting.
      }
      done();
    }
  }

  /** `entry` is no longer held as the change it says. */
  #forget(entry: Entry): void {
    if (this.#changes.get(entry[3]) === entry) this.#changes.delete(entry[3]);
  }

  /** Resolves once the messages held now have gone or been dropped; undefined when none is held. */
  sent(): Promise<void> | undefined {
    // An entry that sends nothing, in the last place.
    return this.#entries.length > 0 ? this.send([], false) : undefined;
  }
}

/** `ReadCheck.hold`, for what sets a session's read check (the resources layer, a shared session's copy). */
export const holdMessages: ReadCheck["hold"] = (out, maxBytes) => new HeldMessages(out, maxBytes);
