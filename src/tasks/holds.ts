import type { Session, TaskHolds } from "../sessions/peer.js";

/**
 * The 2025-11-25 tasks that keep their sessions in use (Session.tasks): a task's result is read in its
 * session alone, within its TTL, so its session must outlive a client that polls less often than the
 * session's idle timeout. Kept by taskId, for the task to let go (`unhold`: its result taken, it was
 * cancelled, its TTL passed), and by session (SessionHolds), which its transport asks whether it is
 * held and tells when it ends: each hold is in both or in neither, so a session that ends, however it
 * does, takes all its holds with it. Holds past their TTL that nobody asks about are walked out once
 * their number has doubled (`#prune`), so each hold costs a constant.
 */
export class Holds {
  /** Every session's holds, by taskId. */
  readonly #all = new Map<string, SessionHolds>();
  /** The fewest holds `#prune` waits for: it walks them once there are twice as many, at least. */
  readonly #floor: number;
  /** How many holds `#prune` left (the floor at least): it walks them again once there are twice as many. */
  #pruned: number;

  constructor(floor: number) {
    this.#floor = floor;
    this.#pruned = floor;
  }

  /** How many holds are kept, of every session. */
  get size(): number {
    return this.#all.size;
  }

  /** The task keeps `session` in use until `until` (a Date.now()), or `unhold`, or the session's end. */
  hold(session: Session, taskId: string, until: number): void {
    const holds = session.tasks instanceof SessionHolds ? session.tasks : new SessionHolds(this.#all);
    session.tasks = holds;
    holds.add(taskId, until);
    if (this.#all.size >= 2 * this.#pruned) this.#prune();
  }

  /** The task keeps its session in use no more. */
  unhold(taskId: string): void {
    this.#all.get(taskId)?.delete(taskId);
  }

  /** Forgets the holds past their TTL: a finished task has no timer (tasks.ts's `#start`), and one whose result is never taken would stay. */
  #prune(): void {
    const now = Date.now();
    for (const [taskId, holds] of this.#all) if (!holds.holds(taskId, now)) holds.delete(taskId);
    this.#pruned = Math.max(this.#floor, this.#all.size);
  }
}

/** One session's holds (Session.tasks): when each task's TTL ends (a Date.now()), by taskId. */
class SessionHolds implements TaskHolds {
  readonly #until = new Map<string, number>();
  /** Every session's, by taskId (Holds): a hold leaves it with this session's. */
  readonly #all: Map<string, SessionHolds>;
  /** Set as the session ends: a task made by a request it was still serving holds it no more. */
  #ended = false;

  constructor(all: Map<string, SessionHolds>) {
    this.#all = all;
  }

  add(taskId: string, until: number): void {
    if (this.#ended) return;
    this.#until.set(taskId, until);
    this.#all.set(taskId, this);
  }

  delete(taskId: string): void {
    this.#until.delete(taskId);
    this.#all.delete(taskId);
  }

  /** Whether the task holds the session at `now`: its TTL has not passed. */
  holds(taskId: string, now: number): boolean {
    return (this.#until.get(taskId) ?? 0) > now;
  }

  /** Those past their TTL are forgotten as they are walked: a session whose results are never taken keeps no more than its tasks within theirs. */
  held(): boolean {
    const now = Date.now();
    for (const taskId of this.#until.keys()) {
      if (this.holds(taskId, now)) return true;
      this.delete(taskId);
    }
    return false;
  }

  end(): void {
    this.#ended = true;
    for (const taskId of this.#until.keys()) this.#all.delete(taskId);
    this.#until.clear();
  }
}
