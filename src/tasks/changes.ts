import type { TaskRecord } from "./task.js";

/** What a watcher of one task is told: the task as it now is, or undefined once it is gone (its TTL passed). */
export type TaskWatcher = (record: TaskRecord | undefined) => void;

/**
 * The one place every change of a task's record goes through (tasks.ts applies them, then tells
 * this): `notifications/tasks` on 2026-07-28 listen streams, `notifications/tasks/status` and
 * waiting `tasks/result` requests of 2025-11-25 sessions read it. In this process only; a shared
 * store's bus (issue 15) can carry `publish` to every instance.
 */
export class TaskChanges {
  readonly #watchers = new Map<string, Set<TaskWatcher>>();

  /** Tells the task's watchers what it now is (undefined: gone). */
  publish(taskId: string, record: TaskRecord | undefined): void {
    for (const watcher of [...(this.#watchers.get(taskId) ?? [])]) watcher(record);
  }

  /** Whether anything watches the task (a task nobody here watches needs no reading of its record). */
  watched(taskId: string): boolean {
    return this.#watchers.has(taskId);
  }

  /** The tasks something watches. */
  watchedIds(): IterableIterator<string> {
    return this.#watchers.keys();
  }

  /** Watches one task until the answered function is called. */
  watch(taskId: string, watcher: TaskWatcher): () => void {
    let watchers = this.#watchers.get(taskId);
    if (!watchers) {
      watchers = new Set();
      this.#watchers.set(taskId, watchers);
    }
    watchers.add(watcher);
    return () => {
      watchers.delete(watcher);
      if (watchers.size === 0 && this.#watchers.get(taskId) === watchers) this.#watchers.delete(taskId);
    };
  }
}
