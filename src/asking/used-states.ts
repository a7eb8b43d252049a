/**
 * The requestStates a server has accepted, so that each is accepted once. Sealing binds a state to
 * its request, caller and expiry, which limits replay but does not make it single-use (2026-07-28
 * §3.4: where single use matters, as for a confirmation, the server MUST keep a record itself).
 */
export interface UsedStates {
  /**
   * Records the state `id`, valid until `expiresAt` (ms since the epoch), as used: true the first
   * time, false if it was used already or can no longer be told apart from one that was. Atomic: of
   * two claims of one id, one wins. Several instances need one shared store implementing this, so
   * that a state used on one is refused on the others.
   */
  claim(id: string, expiresAt: number): boolean | Promise<boolean>;
}

/**
 * The record of one process, in memory, bounded by `max` ids (about 130 bytes each). An id is kept
 * until its state expires. When the record is full the oldest id is forgotten, and from then on no
 * state that expires as early as that one is accepted: a state whose id might have been forgotten is
 * refused, never accepted twice. Under a flood of retries states thus live shorter, memory stays put.
 */
export class MemoryUsedStates implements UsedStates {
  /** Expiry by id, oldest claim first. */
  readonly #expiries = new Map<string, number>();
  readonly #max: number;
  /** The latest expiry of an id forgotten: states expiring by then are refused. */
  #floor = -Infinity;

  constructor(max: number) {
    this.#max = max;
  }

  get size(): number {
    return this.#expiries.size;
  }

  claim(id: string, expiresAt: number): boolean {
    this.#forgetExpired(Date.now());
    if (expiresAt <= this.#floor || this.#expiries.has(id)) return false;
    if (this.#expiries.size >= this.#max) {
      const [oldest] = this.#expiries;
      if (oldest) this.#forget(...oldest);
    }
    this.#expiries.set(id, expiresAt);
    return true;
  }

  /** Drops expired ids from the oldest claims on: each claim does a little, so no timer is needed. */
  #forgetExpired(now: number): void {
    for (const [id, expiry] of this.#expiries) {
      if (expiry >= now) return;
      this.#forget(id, expiry);
    }
  }

  #forget(id: string, expiry: number): void {
    // Raising the floor also covers a clock that goes back: a forgotten id never becomes acceptable.
    this.#floor = Math.max(this.#floor, expiry);
    this.#expiries.delete(id);
  }
}

/** The shared record of a server's states (`pico({ state })`), by its `states`: every instance refuses a state used on another. */
export const sharedUsedStates = new WeakMap<object, UsedStates>();
