/** How a run's status change is retried against a shared store that is unreachable: a minute, every second. */
const MAX_KEEP_ATTEMPTS = 60;
const KEEP_RETRY_MS = 1000;

/** One status write of a run, applied to the store (a compare-and-swap there: trying it again is safe). */
type Write = () => Promise<unknown>;

/**
 * The status writes of a server's task runs (what each run did: asking, working, its end), tried
 * again while a shared store is unreachable, so that a status is not lost to an outage and clients
 * see it once the store is back (a memory store never fails). A run's writes come in the order of
 * what it did, each saying what it does now: a later one supersedes a failed earlier one, which is
 * tried no more (tried again, it would undo the later one: a "working" written over the next round's
 * questions). They end with the server (`close`): a closed server neither keeps the process alive
 * for them nor writes to the store afterwards.
 */
export class StatusWrites {
  /** The writes sent to the store and not answered yet. */
  readonly #sending = new Set<Promise<void>>();
  /** Each task's latest write, until it is recorded or given up. */
  readonly #latest = new Map<string, Write>();
  /** The latest writes that failed, waiting for their next try, by task, with its timer. */
  readonly #waiting = new Map<string, { timer: ReturnType<typeof setTimeout>; write: Write }>();
  /** Told of a task whose latest write was given up: the store may not show what its run did. */
  readonly #lost: (taskId: string) => void;
  #closed = false;

  constructor(lost: (taskId: string) => void) {
    this.#lost = lost;
  }

  /**
   * Sends `write` of the task's run, and again every KEEP_RETRY_MS while it fails, for a minute at
   * most, until `close`, or until the run's next write supersedes it.
   */
  keep(taskId: string, write: Write): void {
    if (this.#closed) return;
    clearTimeout(this.#waiting.get(taskId)?.timer);
    this.#waiting.delete(taskId);
    this.#latest.set(taskId, write);
    this.#send(taskId, write, 0);
  }

  #send(taskId: string, write: Write, attempt: number): void {
    const sending = write().then(
      () => this.#settled(taskId, write, false),
      () => {
        if (this.#latest.get(taskId) !== write) return;
        // After a minute the change is given up (or at the shutdown: close tried it a last time).
        if (this.#closed || attempt >= MAX_KEEP_ATTEMPTS) return this.#settled(taskId, write, true);
        const timer = setTimeout(() => {
          this.#waiting.delete(taskId);
          this.#send(taskId, write, attempt + 1);
        }, KEEP_RETRY_MS);
        // A retry alone does not keep a process alive (Deno's timer is a number, without unref).
        timer.unref?.();
        this.#waiting.set(taskId, { timer, write });
      },
    );
    this.#sending.add(sending);
    // Handled here, where it starts: a throw of `lost` rejects `sending`, and `finally` would hand
    // that rejection on to a promise nobody handles (close awaits `sending` settled, never rejecting).
    const sent = () => this.#sending.delete(sending);
    sending.then(sent, sent);
  }

  /** A write of the task is over; `lost`: given up. Only the task's latest counts: an earlier one says nothing now. */
  #settled(taskId: string, write: Write, lost: boolean): void {
    if (this.#latest.get(taskId) !== write) return;
    this.#latest.delete(taskId);
    if (lost) this.#lost(taskId);
  }

  /**
   * The server shuts down: each write waiting for its next try is tried once more now (the store may
   * be back: a run that ended keeps its end), none again after; resolves once every write sent has
   * been answered, so nothing reaches the store after the server closed. Never rejects.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const last = [...this.#waiting].map(([taskId, { timer, write }]) => {
      clearTimeout(timer);
      return write().then(
        () => this.#settled(taskId, write, false),
        () => this.#settled(taskId, write, true),
      );
    });
    this.#waiting.clear();
    await Promise.allSettled([...this.#sending, ...last]);
  }
}
