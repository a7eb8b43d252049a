/** What the Redis tasks tests share: the task that runs until it is stopped. */
import type { ToolConfig } from "../../src/index.js";

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
