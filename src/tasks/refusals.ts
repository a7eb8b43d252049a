/** Refusals of task requests, written for the model (what went wrong, what to do); the extension's is extension.ts's `missingTasks`. */
import { ErrorCode, McpError, Unavailable } from "../core/errors.js";
import { shown } from "../core/safe.js";
import { ANONYMOUS } from "./owners.js";

/** -32602 for a task that cannot be found (SEP-2663 and 2025-11-25 "Error Handling"). */
export function unknownTask(taskId: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `Failed to retrieve task: no task "${shown(taskId)}" (it may have expired); call the tool again to start a new one`,
  );
}

/** The refusal of a task past `caller`'s share (tasks.ts's `#shareOf`), as the model reads it: what to do about it. */
export function tooMany(caller: string, max: number): McpError {
  if (caller === ANONYMOUS) {
    return new McpError(
      ErrorCode.InternalError,
      `Could not create a task: callers who are not signed in are running ${max} tasks on this server already, the most they may together (limits.maxAnonymousTasks = ${max}); wait for one to finish, or cancel those you no longer need with tasks/cancel, then call the tool again.`,
      { limit: "maxAnonymousTasks", max },
    );
  }
  return new McpError(
    ErrorCode.InternalError,
    `Could not create a task: you are running ${max} tasks on this server already, the most one caller may (limits.maxTasksPerCaller = ${max}); wait for one to finish, or cancel those you no longer need with tasks/cancel, then call the tool again.`,
    { limit: "maxTasksPerCaller", max },
  );
}

/**
 * A task call the closing server will not run, refused as new requests are then (503 over HTTP:
 * another instance may take the call again).
 */
export function notStarted(): Unavailable {
  return new Unavailable("Server shutting down: the task was not started; call the tool again");
}
