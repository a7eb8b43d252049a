import { isObject, type JsonRpcMessage, modernCode } from "../core/jsonrpc.js";
import type { InputRequest } from "../core/types.js";

/**
 * One task of the 2026-07-28 Tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`), as the
 * store keeps it: plain data (times in epoch milliseconds), so that a shared store can hold it as it
 * is. What only the running process has (the run, its signal, the answers it waits for) is kept
 * apart, in run.ts.
 */

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** `completed`, `failed` and `cancelled` never change again (SEP-2663 "Task Status"). */
export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** A JSON-RPC error as a failed task carries it. */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

export interface TaskRecord {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** From creation; the task may be discarded once it has passed. */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** Who created it (auth/owner.ts's ownerKey, a digest of issuer and subject; "" for anonymous callers): nobody else can see it. */
  readonly owner: string;
  /** The questions not answered yet, by key (status `input_required`). */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
  /** The tool's result (status `completed`, also for a result with `isError`). */
  readonly result?: object;
  /** The JSON-RPC error the call ended with (status `failed`). */
  readonly error?: TaskError;
  /**
   * With shared state, the instance running the task (its relay's id, tasks/relay.ts), which holds
   * a 2025-11-25 task's messages for a `tasks/result`; none once that instance is known gone.
   */
  readonly runner?: string;
}

/** The `Task` fields every shape carries: `CreateTaskResult`, `tasks/get`, `notifications/tasks`. */
export function taskFields(record: TaskRecord): Record<string, unknown> {
  const task: Record<string, unknown> = {
    taskId: record.taskId,
    status: record.status,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  return task;
}

/**
 * `DetailedTask`: the fields of its status inlined (SEP-2663 "Tasks"), what `tasks/get` answers and
 * `notifications/tasks` carries. A completed task's `result` is "the CallToolResult structure" of
 * 2026-07-28, whose `resultType` is required (schema `Result`), so it is added where the tool's
 * result has none: the record keeps the result as the run made it, which a 2025-11-25 `tasks/result`
 * returns as it is.
 */
export function detailed(record: TaskRecord): Record<string, unknown> {
  const task = taskFields(record);
  if (record.status === "input_required") task.inputRequests = record.inputRequests ?? {};
  else if (record.status === "completed") task.result = { resultType: "complete", ...record.result };
  else if (record.status === "failed" && record.error) {
    // The error a response would carry: in the code 2026-07-28 allows (the record keeps it as thrown).
    task.error = { ...record.error, code: modernCode(record.error.code) };
  }
  return task;
}

/** The `_meta` key that ties a 2025-11-25 message to its task ("Tasks": related-task metadata). */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** `params` with the related-task `_meta` of `taskId` added (2025-11-25 "Tasks": every message of a task MUST carry it). */
export function related(params: Record<string, unknown> | undefined, taskId: string): Record<string, unknown> {
  const meta = isObject(params?._meta) ? params._meta : {};
  return { ...params, _meta: { ...meta, [RELATED_TASK]: { taskId } } };
}

export function withRelated(message: JsonRpcMessage, taskId: string): JsonRpcMessage {
  return "method" in message ? { ...message, params: related(message.params, taskId) } : message;
}

/**
 * The 2025-11-25 `Task` (its experimental tasks): taskFields' fields, with `ttl` and `pollInterval`
 * (in milliseconds) for `ttlMs` and `pollIntervalMs`, and no inlined result, error or questions
 * (`tasks/result` and side-channel requests carry those).
 */
export function legacyTask(record: TaskRecord): Record<string, unknown> {
  const { ttlMs, pollIntervalMs, ...task } = taskFields(record);
  return { ...task, ttl: ttlMs, pollInterval: pollIntervalMs };
}
