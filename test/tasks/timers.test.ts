/**
 * A task keeps no timer once its run has ended: a client that starts many quick tasks (each kept
 * for its TTL, an hour by default, weeks if the tool says so) must not grow the server's memory with
 * a pending timer per task for that long, when the store itself keeps at most 1000. Driven through
 * the layer's Tasks with the core's own registry, tool and context, as test/tasks/shutdown.test.ts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { RequestContext } from "../../src/core/context.js";
import { Registry } from "../../src/core/registry.js";
import { compileTool } from "../../src/core/tools.js";
import { MemoryTaskStore } from "../../src/tasks/store.js";
import { Tasks } from "../../src/tasks/tasks.js";

afterEach(() => {
  vi.useRealTimers();
});

function context(): RequestContext {
  return new RequestContext({
    id: 1,
    meta: undefined,
    protocolVersion: "2026-07-28",
    era: "modern",
    clientInfo: undefined,
    clientCapabilities: {},
  });
}

describe("the timers of tasks", () => {
  it("keeps none for a task that has finished, and still ends a running one at its TTL", async () => {
    vi.useFakeTimers();
    const store = new MemoryTaskStore({ maxTasks: 10 });
    const tasks = new Tasks(store, () => RequestContext, new Registry({ name: "x" }));
    const quick = compileTool("quick", { run: () => "done" });
    const settings = { support: "optional" as const, ttlMs: 30 * 86_400_000 };
    for (let i = 0; i < 100; i++) await tasks.create({ tool: quick, settings, args: undefined, ctx: context() });
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
    let reason: unknown;
    const forever = compileTool("forever", {
      run: (_args, ctx) =>
        new Promise((_resolve, reject) =>
          ctx.signal.addEventListener("abort", () => {
            reason = ctx.signal.reason;
            reject(reason);
          }),
        ),
    });
    const brief = { support: "optional" as const, ttlMs: 1000 };
    await tasks.create({ tool: forever, settings: brief, args: undefined, ctx: context() });
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect((reason as Error).message).toBe("The task's TTL passed");
    expect(vi.getTimerCount()).toBe(0);
  });
});
