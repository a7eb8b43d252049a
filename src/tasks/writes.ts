/** How a run's status change is retried against a shared store that is unreachable: a minute, every second. */
const MAX_KEEP_ATTEMPTS = 60;
const KEEP_RETRY_MS = 1000;

/** One status write of a run, applied to the store (a compare-and-swap there: trying it again is safe). */
type Write = () => Promise<unknown>;

/**
 * The status writes of a server's task runs (what each run did: asking, working, its end), tried
 * again while a shared store is unreachable, so that a status is not lost to an outage and clients
 * see it once the store is back (a memory store never fails). They end with the server (`close`):
 * a closed server neither keeps the process alive for them nor writes to the store afterwards.
 */
export class StatusWrites {
  /** The writes sent to the store and not answered yet. */
  readonly #sending = new Set<Promise<void>>();
  /** The writes that failed, waiting for their next try, by its timer. */
  readonly #waiting = new Map<ReturnType<typeof setTimeout>, Write>();
  #closed = false;

  /** Sends `write`, and again every KEEP_RETRY_MS while it fails, for a minute at most or until `close`. */
  keep(write: Write): void {
    this.#send(write, 0);
  }

  #send(write: Write, attempt: number): void {
    if (this.#closed) return;
    const sending = write().then(
      () => {},
      () => {
        // After a minute the change is given up: the task keeps its last recorded status until its TTL.
        if (this.#closed || attempt >= MAX_KEEP_ATTEMPTS) return;
        const timer = setTimeout(() => {
          this.#waiting.delete(timer);
          this.#send(write, attempt + 1);
        }, KEEP_RETRY_MS);
        // A retry alone does not keep a process alive (Deno's timer is a number, without unref).
        timer.unref?.();
        this.#waiting.set(timer, write);
      },
    );
    this.#sending.add(sending);
    void sending.finally(() => this.#sending.delete(sending));
  }

  /**
   * The server shuts down: each write waiting for its next try is tried once more now (the store may
   * be back: a run that ended keeps its end), none again after; resolves once every write sent has
   * been answered, so nothing reaches the store after the server closed. Never rejects.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const last = [...this.#waiting].map(([timer, write]) => {
      clearTimeout(timer);
      return write();
    });
    this.#waiting.clear();
    await Promise.allSettled([...this.#sending, ...last]);
  }
}
