import type { RedisLink } from "./client.js";

/**
 * That this instance is alive, for the streams it writes (its requests', its sessions' GET streams):
 * a key (`<prefix>i:<instance>`, `PX leaseMs`) set with each such stream's record (events.ts's OPEN)
 * and renewed three times a lease from the first until the state closes, as tasks' leases are
 * (tasks.ts). A crashed instance stops renewing it, and once it has run out, a reader elsewhere of a
 * stream it left open answers its request for it (events.ts's ABANDON), or, of a GET stream, carries
 * it on as its own instance's (remote-reader.ts). One key and one timer per instance, whatever it runs.
 */
export class InstanceLease {
  /** The key of this instance's lease. */
  readonly key: string;
  readonly ms: number;
  readonly #link: RedisLink;
  #renewing: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(link: RedisLink, options: { prefix: string; instance: string; ms: number }) {
    this.#link = link;
    this.key = `${options.prefix}i:${options.instance}`;
    this.ms = options.ms;
  }

  /** Renews the lease from now on (it was set with the stream's record). */
  start(): void {
    if (this.#renewing || this.#closed) return;
    // SET, not PEXPIRE: a lease run out while Redis was away comes back with the next renewal. One
    // run late (Redis got to it after its timeout, after the close too) holds the lease one lease
    // more from then, as a renewal just before a crash would: readers see the streams stop that much later.
    this.#renewing = setInterval(
      () => this.#link.command(["SET", this.key, "1", "PX", String(this.ms)]).catch(() => {}),
      this.ms / 3,
    );
    // The lease alone does not keep a process alive (Node, Bun and Deno timers have unref).
    const timer: { unref?: () => void } | number = this.#renewing;
    if (typeof timer === "object") timer.unref?.();
  }

  /** Stops renewing: the streams still open of this instance end, or go on elsewhere, once the lease runs out, as after a crash. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#renewing);
    this.#renewing = undefined;
  }
}
