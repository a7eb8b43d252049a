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
  readonly #waiting = new Map<ReturnType<typeof setTimeout>, { taskId: string; write: Write }>();
  /** How many writes of each task are sent or waiting. */
  readonly #pending = new Map<string, number>();
  /** Told of a task whose last write pending was given up: the store may not show what its run did. */
  readonly #lost: (taskId: string) => void;
  #closed = false;

  constructor(lost: (taskId: string) => void) {
    this.#lost = lost;
  }

  /** Sends `write` of the task's run, and again every KEEP_RETRY_MS while it fails, for a minute at most or until `close`. */
  keep(taskId: string, write: Write): void {
    if (this.#closed) return;
    this.#pending.set(taskId, (this.#pending.get(taskId) ?? 0) + 1);
    this.#send(taskId, write, 0);
  }

  #send(taskId: string, write: Write, attempt: number): void {
    const sending = write().then(
      () => this.#settled(taskId, false),
      () => {
        // After a minute the change is given up (or at the shutdown: close tried it a last time).
        if (this.#closed || attempt >= MAX_KEEP_ATTEMPTS) return this.#settled(taskId, true);
        const timer = setTimeout(() => {
          this.#waiting.delete(timer);
          this.#send(taskId, write, attempt + 1);
        }, KEEP_RETRY_MS);
        // A retry alone does not keep a process alive (Deno's timer is a number, without unref).
        timer.unref?.();
        this.#waiting.set(timer, { taskId, write });
      },
    );
    this.#sending.add(sending);
    void sending.finally(() => this.#sending.delete(sending));
  }

  /**
   * A write of the task is over; `lost`: given up. The loss is told once none of the task's writes is
   * left: one still going may yet record what the run did.
   */
  #settled(taskId: string, lost: boolean): void {
    const left = (this.#pending.get(taskId) ?? 1) - 1;
    if (left > 0) this.#pending.set(taskId, left);
    else this.#pending.delete(taskId);
    if (lost && left === 0) this.#lost(taskId);
  }

  /**
   * The server shuts down: each write waiting for its next try is tried once more now (the store may
   * be back: a run that ended keeps its end), none again after; resolves once every write sent has
   * been answered, so nothing reaches the store after the server closed. Never rejects.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const last = [...this.#waiting].map(([timer, { taskId, write }]) => {
      clearTimeout(timer);
      return write().then(
        () => this.#settled(taskId, false),
        () => this.#settled(taskId, true),
      );
    });
    this.#waiting.clear();
    await Promise.allSettled([...this.#sending, ...last]);
  }
}
