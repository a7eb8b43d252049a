import type { RequestContext } from "../core/context.js";
import { ErrorCode, McpError } from "../core/errors.js";
import { streamOf } from "./channel.js";
import { unknownTask } from "./refusals.js";
import { isTerminal, legacyTask, related, type TaskRecord } from "./task.js";
import type { Tasks } from "./tasks.js";

type Result = Record<string, unknown>;

/** A `tasks/result` waiting for a task of another instance reads it at most this often. */
const MIN_REREAD_MS = 1000;

/** How many tasks one `tasks/list` page holds at most. */
const PAGE_SIZE = 50;

/**
 * The experimental tasks of 2025-11-25 ("Tasks", SEP-1686), on the same tasks as 2026-07-28's:
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` for a session's tasks. A task belongs
 * to its session (and caller), so a session sees and lists only its own; without sessions, to its
 * caller alone, which no list is offered to.
 */
export class LegacyTasks {
  readonly #tasks: Tasks;

  constructor(tasks: Tasks) {
    this.#tasks = tasks;
  }

  /** `tasks/get`: the Task. */
  async get(params: Result | undefined, ctx: RequestContext): Promise<Result> {
    return legacyTask(await this.#tasks.find(params, ctx));
  }

  /**
   * `tasks/result`: waits until the task is terminal, then answers exactly what the call would have
   * answered (its result, or its JSON-RPC error), tied to the task by related-task `_meta` (MUST).
   * While it waits, the task's questions and notifications travel on this request's stream.
   */
  async result(params: Result | undefined, ctx: RequestContext): Promise<Result> {
    const found = await this.#tasks.find(params, ctx);
    const taskId = found.taskId;
    const channel = this.#tasks.channelOf(taskId);
    const release = channel?.attach(streamOf(ctx));
    // No run here: with shared state, the instance running the task sends its messages here (relay.ts).
    const following = channel ? undefined : this.#tasks.relay?.follow(found, ctx);
    let record: TaskRecord;
    let delivered = false;
    try {
      // Read again now and then while another instance runs it, or while a store that keeps leases
      // (`release`) does: a read is what finds a task whose lease ran out (its instance died, or this
      // one let it go, its end unwritable: tasks.ts `#unrecorded`) and records it failed, which ends
      // this wait. No change here would tell of it.
      const leased = following !== undefined || this.#tasks.store.release !== undefined;
      const reread = leased ? Math.max(found.pollIntervalMs, MIN_REREAD_MS) : undefined;
      record = isTerminal(found.status) ? found : await this.#terminal(taskId, ctx.signal, reread);
      // What the task sent before it ended goes out before its result, as it would here.
      await following?.flushed(record);
      delivered = true;
    } finally {
      release?.();
      following?.end(delivered);
    }
    this.#tasks.delivered(taskId);
    if (record.status === "cancelled") {
      throw new McpError(ErrorCode.InvalidParams, `Task "${taskId}" was cancelled, so it has no result`);
    }
    if (record.error) throw new McpError(record.error.code, record.error.message, record.error.data);
    return related({ ...record.result }, taskId);
  }

  /** `tasks/list`: the session's tasks, oldest first, a page at a time (`nextCursor` while more remain). */
  async list(params: Result | undefined, ctx: RequestContext): Promise<Result> {
    // Nothing tells one caller without a session from another: not offered there (http/sessionless.ts;
    // 2025-11-25 "Tasks": receivers that cannot identify requestors SHOULD NOT declare tasks.list).
    if (ctx.session?.oneRequest) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        "Method not found: tasks/list needs a session, which this server does not keep (http.sessions: false); read each task you created with tasks/get, by its taskId.",
      );
    }
    const cursor = params?.cursor;
    if (cursor !== undefined && typeof cursor !== "string") {
      throw new McpError(
        ErrorCode.InvalidParams,
        "Invalid params: cursor must be the nextCursor of a tasks/list result; list again without one",
      );
    }
    const mine = (await this.#tasks.store.list(this.#tasks.ownerOf(ctx))).sort(byCreation);
    const after = cursor === undefined ? undefined : positionOf(cursor);
    const start = after === undefined ? 0 : countUpTo(mine, after);
    const page = mine.slice(start, start + PAGE_SIZE);
    const result: Result = { tasks: page.map(legacyTask) };
    const last = page.at(-1);
    if (last && start + PAGE_SIZE < mine.length) result.nextCursor = `${last.createdAt}:${last.taskId}`;
    return result;
  }

  /**
   * `tasks/cancel`: the task, now cancelled; -32602 for a task that has ended already (2025-11-25
   * "Tasks": MUST), also when it ended while the cancel was being applied (its record then stays as
   * it ended, and the cancel did nothing).
   */
  async cancel(params: Result | undefined, ctx: RequestContext): Promise<Result> {
    const cancelled = await this.#tasks.cancel(params, ctx);
    if (cancelled) return legacyTask(cancelled);
    const ended = await this.#tasks.find(params, ctx);
    throw new McpError(ErrorCode.InvalidParams, `Cannot cancel task "${ended.taskId}": it is ${ended.status} already`);
  }

  /** The task once it is terminal; -32602 if it is gone first. `rereadMs`: read the store again that often too. */
  #terminal(taskId: string, signal: AbortSignal, rereadMs?: number): Promise<TaskRecord> {
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setInterval> | undefined;
      const unwatch = this.#tasks.changes.watch(taskId, (record) => {
        if (record && !isTerminal(record.status)) return;
        stop();
        if (record) resolve(record);
        else reject(unknownTask(taskId));
      });
      const stop = () => {
        unwatch();
        clearInterval(timer);
      };
      signal.addEventListener(
        "abort",
        () => {
          stop();
          reject(signal.reason);
        },
        { once: true },
      );
      // Read after watching, so that a change in between is not missed; a store that is away now
      // fails the request with its retryable error (never a rejection nobody handles); away at a
      // later read, the next read tries again.
      const read = (first: boolean) =>
        Promise.resolve()
          .then(() => this.#tasks.store.get(taskId))
          .then(
            (record) => {
              if (!record) {
                stop();
                reject(unknownTask(taskId));
              } else if (isTerminal(record.status)) {
                stop();
                resolve(record);
              }
            },
            (thrown: unknown) => {
              if (!first) return;
              stop();
              reject(thrown);
            },
          );
      void read(true);
      if (rereadMs !== undefined) timer = setInterval(() => read(false), rereadMs);
    });
  }
}

/** Where a page ended: the creation time and id of its last task. */
type Position = Pick<TaskRecord, "createdAt" | "taskId">;

/** Oldest first, ties by id: the order both stores keep (Redis: a sorted set by creation time). */
function byCreation(a: Position, b: Position): number {
  return a.createdAt - b.createdAt || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0);
}

/**
 * A `nextCursor` read back: a position in the order, not a task, so the next page starts after it
 * even once that task has expired or been dropped (2025-11-25 "Pagination": stable cursors).
 */
function positionOf(cursor: string): Position {
  const colon = cursor.indexOf(":");
  const createdAt = Number(cursor.slice(0, colon));
  if (colon <= 0 || !Number.isSafeInteger(createdAt) || colon === cursor.length - 1) {
    throw new McpError(
      ErrorCode.InvalidParams,
      "Invalid params: cursor must be the nextCursor of a tasks/list result; list again without one",
    );
  }
  return { createdAt, taskId: cursor.slice(colon + 1) };
}

/** How many of the sorted tasks come at or before `position`: where the next page starts. */
function countUpTo(sorted: readonly TaskRecord[], position: Position): number {
  const index = sorted.findIndex((record) => byCreation(record, position) > 0);
  return index === -1 ? sorted.length : index;
}
