import { ErrorCode } from "../core/errors.js";
import { deepJson } from "../state/stacked-json.js";
import { DEFAULT_MAX_TASKS, type TaskStore } from "../tasks/store.js";
import { isTerminal, type TaskRecord } from "../tasks/task.js";
import type { RedisLink } from "./client.js";

/** The record and whether its lease is held, at one instant. */
const READ = `
return { redis.call('GET', KEYS[1]), redis.call('EXISTS', KEYS[2]) }
`;

/**
 * Replaces the record only if it is still what the change was made from; the TTL stays. Through
 * `RedisLink.inTime`: a change that timed out was told failed (a tasks/cancel answered 503, a run's
 * status write tried again from what it reads then), and it must not happen afterwards.
 */
const SWAP = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
if ARGV[3] == '1' then redis.call('DEL', KEYS[2]) end
return 1
`;

/**
 * A new task and, unless it is finished, its lease, together: a read never sees the one without the
 * other. The task joins its owner's list (a sorted set by expiry time, for 2025-11-25's
 * `tasks/list`), which lives as long as the owner's longest-lived task, and from which the tasks
 * expired by now (ARGV[6]) leave: an owner who never lists (every 2026-07-28 caller; all anonymous
 * ones share one owner) keeps no more ids than live tasks. The list keeps the ARGV[7] tasks that
 * expire last, the server's limits.maxTasks (their records stay, for tasks/get; '0': all of them,
 * for a limit of Infinity): `tasks/list` reads each task listed, so an owner who made tasks without
 * end would make each listing cost as many reads, as one instance's store bounds the tasks it holds.
 * Through `RedisLink.inTime`: a creation that timed out told its client it failed, and run late it
 * would make a task that nothing runs, listed as working until its lease ran out.
 */
const PUT = `
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return 0 end
if ARGV[3] ~= '0' then redis.call('SET', KEYS[2], '1', 'PX', ARGV[3]) end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
if ARGV[7] ~= '0' then redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -1 - tonumber(ARGV[7])) end
if redis.call('PTTL', KEYS[3]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[3], ARGV[2]) end
return 1
`;

/**
 * Renews the lease of a task this instance runs while the task is still running, answering 1; once
 * it has ended (another instance cancelled it) or expired, drops the lease, so nobody renews it
 * again, and answers the record ('' once gone), for the run to stop. SET, not PEXPIRE: a lease lost
 * while Redis was away comes back with its instance. A record cjson cannot decode (nested past its
 * 1,000 levels: a question's schema, which only a running task has) is taken as still running: its
 * end, if it came, reaches the run by the bus or at its next status write. Run late (its command
 * timed out; Redis got to it after, maybe after this instance closed), it holds the lease one lease
 * more from then, as a renewal just before a crash would, and never past the task's end.
 */
const RENEW = `
local text = redis.call('GET', KEYS[1])
local status = false
if text then
  local read, record = pcall(cjson.decode, text)
  status = read and record.status or 'working'
end
if status ~= 'working' and status ~= 'input_required' then
  redis.call('DEL', KEYS[2])
  return text or ''
end
redis.call('SET', KEYS[2], '1', 'PX', ARGV[1])
return 1
`;

/** Attempts of one update against concurrent ones before it gives up. */
const MAX_ATTEMPTS = 16;

/**
 * Tasks on Redis: each record a JSON string that expires with the task's TTL (`SET … PX`), changed
 * by compare-and-swap so that concurrent updates from several instances are applied one after the
 * other. A task not finished yet has a lease (`l:<taskId>`, `PX leaseMs`) that the instance running
 * it renews; once an instance dies its leases run out, and the next read records the task `failed`
 * rather than leaving it `working` for ever.
 */
export class RedisTaskStore implements TaskStore {
  readonly #link: RedisLink;
  readonly #prefix: string;
  readonly #leaseMs: number;
  readonly #publish: (record: TaskRecord) => void;
  /** The tasks this instance runs: their leases are renewed here until they end, wherever they are ended. */
  readonly #leased = new Set<string>();
  /** Told of a leased task found ended, or gone, by a renewal (`watchEnds`): the servers on this state. */
  readonly #watchers = new Set<(taskId: string, record: TaskRecord | undefined) => void>();
  #renewing: ReturnType<typeof setInterval> | undefined;

  constructor(link: RedisLink, options: { prefix: string; leaseMs: number; publish: (record: TaskRecord) => void }) {
    this.#link = link;
    this.#prefix = options.prefix;
    this.#leaseMs = options.leaseMs;
    this.#publish = options.publish;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    // The reply of READ (above): the task's JSON, or nil, and whether its lease is held.
    const [text, leased] = (await this.#link.script(READ, this.#keys(taskId), [])) as [string | null, number];
    if (typeof text !== "string") return undefined;
    // This store alone writes the key, with deepJson of a TaskRecord.
    const record = JSON.parse(text) as TaskRecord;
    if (isTerminal(record.status) || Number(leased) === 1) return record;
    // Nobody renews its lease: the instance that ran it stopped.
    const failed = await this.#swap(taskId, text, orphaned(record));
    return failed ?? (await this.get(taskId));
  }

  /** `listed`: how many of the owner's tasks its list keeps, those that expire last (PUT); without it, DEFAULT_MAX_TASKS. */
  async put(record: TaskRecord, listed?: { readonly maxListed: number }): Promise<void> {
    const now = Date.now();
    const expiry = record.createdAt + record.ttlMs;
    const ms = Math.max(1, Math.ceil(expiry - now));
    const finished = isTerminal(record.status);
    const lease = finished ? "0" : String(this.#leaseMs);
    const keys = [...this.#keys(record.taskId), this.#ownerKey(record.owner)];
    const most = listed?.maxListed ?? DEFAULT_MAX_TASKS;
    const kept = most === Infinity ? "0" : String(most);
    const args = [deepJson(record), String(ms), lease, String(expiry), record.taskId, String(now), kept];
    const added = await this.#link.inTime(PUT, keys, args);
    if (Number(added) !== 1) throw new Error(`a task ${record.taskId} exists already`);
    if (finished) return;
    this.#leased.add(record.taskId);
    this.#renew();
  }

  async update(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const text = await this.#link.command(["GET", this.#keys(taskId)[0]]);
      if (typeof text !== "string") return undefined;
      // This store alone writes the key, with deepJson of a TaskRecord.
      const current = JSON.parse(text) as TaskRecord;
      const changed = change(current);
      if (changed === undefined) return current;
      const swapped = await this.#swap(taskId, text, changed);
      if (swapped) return swapped;
    }
    throw new Error(`task ${taskId} is being changed by too many requests at once; try again`);
  }

  /** The owner's tasks that have not expired, oldest first; ids whose task expired leave the list. */
  async list(owner: string): Promise<TaskRecord[]> {
    const key = this.#ownerKey(owner);
    const listed = await this.#link.command(["ZRANGE", key, "0", "-1"]);
    const ids = Array.isArray(listed) ? listed.map(String) : [];
    const records = await Promise.all(ids.map((taskId) => this.get(taskId)));
    const expired = ids.filter((_, index) => records[index] === undefined);
    if (expired.length > 0) await this.#link.command(["ZREM", key, ...expired]);
    const mine = records.filter((record): record is TaskRecord => record?.owner === owner);
    // The set is by expiry (PUT): the list is by creation.
    return mine.sort((a, b) => a.createdAt - b.createdAt);
  }

  /** Stops renewing the task's lease (its server let it go): it reads as failed once the lease runs out, unless it ended meanwhile. */
  release(taskId: string): void {
    this.#leased.delete(taskId);
  }

  watchEnds(ended: (taskId: string, record: TaskRecord | undefined) => void): () => void {
    this.#watchers.add(ended);
    return () => this.#watchers.delete(ended);
  }

  /** Stops renewing leases: this instance's running tasks fail once their leases run out (a crash does the same). */
  close(): void {
    clearInterval(this.#renewing);
    this.#renewing = undefined;
    this.#leased.clear();
  }

  async #swap(taskId: string, from: string, change: TaskRecord): Promise<TaskRecord | undefined> {
    const done = isTerminal(change.status);
    // What a run records is JSON already: a result or error JSON cannot carry is recorded as what the
    // call would answer (tasks/run.ts), and a question as JSON carried it when asked (asking/ask.ts).
    const swapped = await this.#link.inTime(SWAP, this.#keys(taskId), [from, deepJson(change), done ? "1" : "0"]);
    if (Number(swapped) !== 1) return undefined;
    if (done) this.#leased.delete(taskId);
    this.#publish(change);
    return change;
  }

  /** Renews this instance's leases three times a lease: one missed renewal does not fail a task. */
  #renew(): void {
    if (this.#renewing) return;
    this.#renewing = setInterval(() => {
      if (this.#leased.size === 0) {
        clearInterval(this.#renewing);
        this.#renewing = undefined;
        return;
      }
      for (const taskId of this.#leased) {
        this.#link.script(RENEW, this.#keys(taskId), [String(this.#leaseMs)]).then(
          (reply) => typeof reply === "string" && this.#ended(taskId, reply),
          () => {},
        );
      }
    }, this.#leaseMs / 3);
    // A lease timer alone does not keep a process alive (Node, Bun and Deno timers have unref).
    const timer: { unref?: () => void } | number = this.#renewing;
    if (typeof timer === "object") timer.unref?.();
  }

  /**
   * A renewal found the task ended, or gone (`text`, RENEW's answer): another instance cancelled it,
   * and its message to this one may never come (held past a minute while Redis was away, or missed
   * while this instance's subscription was): the servers on this state stop its run.
   */
  #ended(taskId: string, text: string): void {
    this.#leased.delete(taskId);
    // This store alone writes the key, with deepJson of a TaskRecord.
    const record = text === "" ? undefined : (JSON.parse(text) as TaskRecord);
    for (const watcher of this.#watchers) watcher(taskId, record);
  }

  #ownerKey(owner: string): string {
    return `${this.#prefix}o:${owner}`;
  }

  #keys(taskId: string): [string, string] {
    return [`${this.#prefix}t:${taskId}`, `${this.#prefix}l:${taskId}`];
  }
}

/** What a task whose instance died becomes: failed, saying so. */
function orphaned(record: TaskRecord): TaskRecord {
  const message = "The server instance running this task stopped before it finished; call the tool again";
  // Nobody holds its messages any more: a tasks/result answers without waiting for them (tasks/relay.ts).
  const { inputRequests: _, runner: __, ...rest } = record;
  return {
    ...rest,
    status: "failed",
    statusMessage: message,
    error: { code: ErrorCode.InternalError, message },
    lastUpdatedAt: Date.now(),
  };
}
