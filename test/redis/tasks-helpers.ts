/** What the Redis tasks tests share: the task that runs until it is stopped, and a working task's record. */
import type { ToolConfig } from "../../src/index.js";
import type { TaskRecord } from "../../src/tasks/task.js";

/** The `forever` tool: a task that runs until its signal aborts, then tells `stopped` why (the signal's reason). */
export function forever(stopped: (reason: unknown) => void): ToolConfig<undefined, undefined> {
  return {
    description: "A task that runs until its signal aborts.",
    task: "optional",
    run: (_args, ctx) =>
      new Promise<string>((resolve) =>
        ctx.signal.addEventListener("abort", () => {
          stopped(ctx.signal.reason);
          resolve("stopped");
        }),
      ),
  };
}

/** The record of a task `taskId` that is working, made now, kept a minute, owned by no one. */
export function workingTask(taskId: string): TaskRecord {
  return {
    taskId,
    status: "working",
    createdAt: Date.now(),
    lastUpdatedAt: Date.now(),
    ttlMs: 60_000,
    pollIntervalMs: 100,
    owner: "",
  };
}
