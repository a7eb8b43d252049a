import type { RedisLink } from "./client.js";

/**
 * Readers' leaves (events.ts's `leave`: a reader's mark taken out of its session's readers,
 * `hr:<session>`), tried again when Redis did not take them. A mark counts as live while its
 * instance's lease is there (VICTIM's `followed`), and the lease is renewed for as long as the
 * instance runs, not per reader: a mark left by a leave that failed (Redis away) would hold what
 * its reader did not send past the history's caps for the instance's life, however many readers
 * ended so. So each is tried again every `periodMs` (the lease's renewal period) until Redis takes
 * it, or the state closes, after which the lease runs out and the marks left count no more.
 * Bounded: one field per reader that ended while Redis was away; a HDEL is the same done twice.
 */
export class RetriedLeaves {
  readonly #link: RedisLink;
  readonly #periodMs: number;
  /** The marks still to take away, by their session's readers hash. */
  readonly #left = new Map<string, Set<string>>();
  #retrying: ReturnType<typeof setInterval> | undefined;
  /** A round of tries is under way: the next waits for it (a command may take up to its timeout). */
  #trying = false;
  #closed = false;

  constructor(link: RedisLink, periodMs: number) {
    this.#link = link;
    this.#periodMs = periodMs;
  }

  /** Takes mark `field` out of readers hash `key`; rejects if Redis did not take it now, and tries again. */
  async leave(key: string, field: string): Promise<void> {
    try {
      await this.#link.command(["HDEL", key, field]);
    } catch (thrown) {
      this.#later(key, field);
      throw thrown;
    }
  }

  close(): void {
    this.#closed = true;
    clearInterval(this.#retrying);
    this.#retrying = undefined;
    this.#left.clear();
  }

  #later(key: string, field: string): void {
    if (this.#closed) return;
    const fields = this.#left.get(key) ?? new Set<string>();
    fields.add(field);
    this.#left.set(key, fields);
    if (this.#retrying) return;
    this.#retrying = setInterval(() => void this.#retry(), this.#periodMs);
    // Alone, it does not keep a process alive (Node, Bun and Deno timers have unref).
    const timer: { unref?: () => void } | number = this.#retrying;
    if (typeof timer === "object") timer.unref?.();
  }

  async #retry(): Promise<void> {
    if (this.#trying) return;
    this.#trying = true;
    const tries = [...this.#left].map(async ([key, fields]) => {
      const sent = [...fields];
      await this.#link.command(["HDEL", key, ...sent]);
      // Only those sent: another may have been added meanwhile.
      for (const field of sent) fields.delete(field);
      if (fields.size === 0) this.#left.delete(key);
    });
    await Promise.allSettled(tries);
    this.#trying = false;
    if (this.#left.size > 0) return;
    clearInterval(this.#retrying);
    this.#retrying = undefined;
  }
}
