import type { RequestContext } from "../core/context.js";
import { ErrorCode, isMcpError, McpError } from "../core/errors.js";
import type { ListenExtension, ListenPart } from "../listen/extensions.js";
import { declaresTasks, missingTasks } from "./extension.js";
import { detailed, type TaskRecord } from "./task.js";
import type { Tasks } from "./tasks.js";

/** More task ids than this in one listen request is refused: a stream watches a bounded number. */
const MAX_TASK_IDS = 100;

/**
 * `notifications/tasks` through `subscriptions/listen` (SEP-2663 "Task Status Notifications"): a
 * listen request's `notifications.taskIds` names the tasks to hear about. Only the caller's own
 * tasks are honoured (others, like unknown ids, are left out of the acknowledgement, so their
 * existence is not revealed); each one's DetailedTask is sent once after the acknowledgement, then
 * at every change, as `tasks/get` would answer at that moment. A request that asks for taskIds
 * without declaring the extension is refused with -32021.
 */
export function taskListen(tasks: Tasks): ListenExtension {
  return {
    async open(requested: Record<string, unknown>, ctx: RequestContext): Promise<ListenPart | undefined> {
      const ids = requested.taskIds;
      if (ids === undefined) return undefined;
      if (!declaresTasks(ctx)) throw missingTasks("subscriptions/listen with notifications.taskIds");
      if (!Array.isArray(ids) || ids.length > MAX_TASK_IDS || !ids.every((id) => typeof id === "string")) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Invalid params: notifications.taskIds must be an array of at most ${MAX_TASK_IDS} taskIds`,
        );
      }
      const found: TaskRecord[] = [];
      for (const taskId of new Set(ids)) {
        const record = await tasks.find({ taskId }, ctx).catch(unlessUnknown);
        if (record) found.push(record);
      }
      return {
        honoured: { taskIds: found.map((record) => record.taskId) },
        start(send) {
          const stops = found.map((record) => {
            send("notifications/tasks", detailed(record));
            return tasks.changes.watch(record.taskId, (now) => {
              if (now) send("notifications/tasks", detailed(now));
            });
          });
          return () => {
            for (const stop of stops) stop();
          };
        },
      };
    },
  };
}

/**
 * Leaves out a task that is unknown or another caller's (`find`'s -32602); anything else, such as a
 * shared store that is unreachable, fails the request with its own (retryable) error: an
 * acknowledgement without the caller's tasks would tell it they are gone.
 */
function unlessUnknown(thrown: unknown): undefined {
  if (isMcpError(thrown) && thrown.code === ErrorCode.InvalidParams) return undefined;
  throw thrown;
}
