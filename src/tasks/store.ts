import { isTerminal, type TaskRecord } from "./task.js";

type MaybePromise<T> = T | Promise<T>;

/**
 * Where tasks are kept. Small on purpose, so that a store shared by several instances (Redis, issue
 * 15) can implement it: a record is put once, read by id, and changed through `update`, which the
 * store applies atomically. A record is gone once its TTL (`createdAt + ttlMs`) has passed.
 */
export interface TaskStore {
  get(taskId: string): MaybePromise<TaskRecord | undefined>;
  /**
   * Adds a new task; throws when the store cannot take one more. `listed`: how many of the owner's
   * tasks `list` must still find (the server's limits.maxTasks, what one instance keeps): a store
   * that bounds an owner's list (Redis: the tasks that expire last) keeps at least that many.
   */
  put(record: TaskRecord, listed?: { readonly maxListed: number }): MaybePromise<void>;
  /** Replaces a task with what `change` makes of it (undefined: unchanged); answers the task as it now is. */
  update(taskId: string, change: (record: TaskRecord) => TaskRecord | undefined): MaybePromise<TaskRecord | undefined>;
  /**
   * The tasks of one owner that have not expired, oldest first (at least the `maxListed` given to
   * `put` that expire last). Added for 2025-11-25's `tasks/list` (the 2026-07-28 extension has no
   * listing); owners are a caller and a session, so lists are short.
   */
  list(owner: string): MaybePromise<TaskRecord[]>;
  /**
   * This server runs the task no more, and may not have recorded its end (its server closed, or the
   * write was given up while the store was unreachable): a store that keeps the task alive for its
   * runner (Redis: by renewing its lease) stops, so that it reads as failed rather than running.
   */
  release?(taskId: string): void;
  /**
   * Calls `ended` with each task this server runs that the store, keeping it alive for its runner
   * (Redis: renewing its lease), finds ended by someone else (cancelled on another instance, whose
   * message to this one was lost), or gone (`undefined`): the run stops, as that message would have
   * stopped it. Called as the server is made; answers what stops the calls, called at its close
   * (neither may throw). Optional: without it, such a run stops at its next status write, or its TTL.
   */
  watchEnds?(ended: (taskId: string, record: TaskRecord | undefined) => void): () => void;
}

/**
 * What `MemoryTaskStore` keeps at most, unless told otherwise: the default of the instance's bound of
 * running tasks (limits.maxTasks; test/limits.test.ts checks they are the same). A server gives its
 * store its own bound (layer.ts), so that the store never refuses a task the instance would run.
 * Written out rather than read from DEFAULT_LIMITS: importing the limits here splits them into a
 * chunk of their own, which every server would load (test/size.test.ts).
 */
export const DEFAULT_MAX_TASKS = 1000;

/**
 * Tasks in this process's memory, bounded: expired tasks are dropped when read, listed, and when the
 * store is full; at `maxTasks` with none expired, the owner keeping the most tasks makes room with the
 * first of its tasks that finished (an owner with none finished passes its turn to the next), and when every task
 * kept is still running, a new one is refused, so a client cannot grow the server's memory without
 * bound. The owner keeping the most, not the oldest task of anyone: a client running many quick tasks
 * drops its own results, not another's that it has yet to read.
 */
export class MemoryTaskStore implements TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();
  /** How many tasks each owner keeps here (`#makeRoom` takes from the one keeping the most). */
  readonly #kept = new Map<string, number>();
  /**
   * The finished tasks of each owner that has one, in the order they finished: `#makeRoom` walks the
   * owners, not every task kept (was: a pass over them all at each `put` at the cap, 2 ms with
   * `maxTasks` at 100,000).
   */
  readonly #finished = new Map<string, Set<string>>();
  readonly #maxTasks: number;
  readonly #now: () => number;
  /**
   * No task kept expires before this time (a lower bound: a task that left may have set it): a full
   * store looks for expired tasks only once one may be, so that each `put` at the cap costs a step,
   * not a pass over every task kept.
   */
  #firstExpiry = Number.POSITIVE_INFINITY;

  constructor(options: { maxTasks?: number; now?: () => number } = {}) {
    this.#maxTasks = options.maxTasks ?? DEFAULT_MAX_TASKS;
    this.#now = options.now ?? Date.now;
  }

  get size(): number {
    return this.#tasks.size;
  }

  get(taskId: string): TaskRecord | undefined {
    const record = this.#tasks.get(taskId);
    if (record && this.#expired(record)) {
      this.#drop(taskId, record.owner);
      return undefined;
    }
    return record;
  }

  put(record: TaskRecord): void {
    if (this.#tasks.size >= this.#maxTasks) this.#makeRoom();
    if (this.#tasks.size >= this.#maxTasks) {
      throw new Error(
        `The server is running ${this.#maxTasks} tasks already (its limit); try again once one has finished.`,
      );
    }
    this.#tasks.set(record.taskId, record);
    this.#kept.set(record.owner, (this.#kept.get(record.owner) ?? 0) + 1);
    this.#noteFinished(record);
    this.#firstExpiry = Math.min(this.#firstExpiry, expiry(record));
  }

  update(taskId: string, change: (record: TaskRecord) => TaskRecord | undefined): TaskRecord | undefined {
    const record = this.get(taskId);
    if (!record) return undefined;
    const changed = change(record);
    if (changed === undefined) return record;
    this.#tasks.set(taskId, changed);
    this.#noteFinished(changed);
    this.#firstExpiry = Math.min(this.#firstExpiry, expiry(changed));
    return changed;
  }

  list(owner: string): TaskRecord[] {
    this.#dropExpired();
    const mine: TaskRecord[] = [];
    for (const record of this.#tasks.values()) if (record.owner === owner) mine.push(record);
    return mine;
  }

  #expired(record: TaskRecord): boolean {
    return this.#now() >= expiry(record);
  }

  /** Drops the expired tasks, and learns when the next one expires. */
  #dropExpired(): void {
    const now = this.#now();
    let first = Number.POSITIVE_INFINITY;
    for (const [id, record] of this.#tasks) {
      const expires = expiry(record);
      if (now >= expires) this.#drop(id, record.owner);
      else first = Math.min(first, expires);
    }
    this.#firstExpiry = first;
  }

  /**
   * Drops the expired tasks, if one may be, else the first finished task of the owner keeping the
   * most of those that have one (Sets keep insertion order). One pass over the owners, only at the cap.
   */
  #makeRoom(): void {
    if (this.#now() >= this.#firstExpiry) {
      const before = this.#tasks.size;
      this.#dropExpired();
      if (this.#tasks.size < before) return;
    }
    let chosen: string | undefined;
    let most = 0;
    for (const owner of this.#finished.keys()) {
      const kept = this.#kept.get(owner) ?? 0;
      if (kept > most) {
        chosen = owner;
        most = kept;
      }
    }
    if (chosen === undefined) return;
    const [first] = this.#finished.get(chosen) ?? [];
    if (first !== undefined) this.#drop(first, chosen);
  }

  /** A finished task may make room (`#makeRoom`); a task's status never goes back to running. */
  #noteFinished(record: TaskRecord): void {
    if (!isTerminal(record.status)) return;
    const finished = this.#finished.get(record.owner) ?? new Set();
    this.#finished.set(record.owner, finished.add(record.taskId));
  }

  /** Forgets a task kept, and counts it out of its owner's. */
  #drop(taskId: string, owner: string): void {
    this.#tasks.delete(taskId);
    const left = (this.#kept.get(owner) ?? 1) - 1;
    if (left > 0) this.#kept.set(owner, left);
    else this.#kept.delete(owner);
    const finished = this.#finished.get(owner);
    if (finished?.delete(taskId) && finished.size === 0) this.#finished.delete(owner);
  }
}

/** When a task may be discarded: its `ttlMs` counts from its creation. */
function expiry(record: TaskRecord): number {
  return record.createdAt + record.ttlMs;
}
