/**
 * Shutting the server down fails the tasks still running, visibly (a task left `working` forever
 * would be a lie): the tasks layer ends their runs and records them as failed. Driven through the
 * layer's Tasks with the core's own registry, tool and context, since after shutdown no transport
 * answers a tasks/get any more.
 */
import { describe, expect, it } from "vitest";
import { RequestContext } from "../../src/core/context.js";
import { Registry } from "../../src/core/registry.js";
import { compileTool } from "../../src/core/tools.js";
import { MemoryTaskStore } from "../../src/tasks/store.js";
import { Tasks } from "../../src/tasks/tasks.js";

describe("shutdown", () => {
  it("fails the running tasks and aborts their runs", async () => {
    const store = new MemoryTaskStore();
    const tasks = new Tasks(store, () => RequestContext, new Registry({ name: "x" }));
    let reason: unknown;
    const tool = compileTool("forever", {
      run: (_args, ctx) =>
        new Promise((_resolve, reject) =>
          ctx.signal.addEventListener("abort", () => {
            reason = ctx.signal.reason;
            reject(reason);
          }),
        ),
    });
    const ctx = new RequestContext({
      id: 1,
      meta: undefined,
      protocolVersion: "2026-07-28",
      era: "modern",
      clientInfo: undefined,
      clientCapabilities: {},
    });
    const created = await tasks.create({ tool, settings: { support: "optional" }, args: undefined, ctx });
    expect(store.get(created.taskId as string)?.status).toBe("working");
    await tasks.close();
    expect(store.get(created.taskId as string)).toMatchObject({
      status: "failed",
      error: { code: -32603, message: "The server shut down before the task finished" },
    });
    expect((reason as Error).message).toBe("The server is shutting down");
  });
});
