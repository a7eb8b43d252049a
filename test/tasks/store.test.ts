/** The in-memory task store's bounds: TTL expiry, and a cap a client cannot push past; one owner's list. */
import { describe, expect, it } from "vitest";
import { MemoryTaskStore } from "../../src/tasks/store.js";
import type { TaskRecord, TaskStatus } from "../../src/tasks/task.js";

function task(taskId: string, status: TaskStatus = "working", createdAt = 0, ttlMs = 1000): TaskRecord {
  return { taskId, status, createdAt, lastUpdatedAt: createdAt, ttlMs, pollIntervalMs: 100, owner: "" };
}

describe("MemoryTaskStore", () => {
  it("forgets a task once its TTL has passed", () => {
    let now = 0;
    const store = new MemoryTaskStore({ now: () => now });
    store.put(task("a"));
    now = 999;
    expect(store.get("a")?.taskId).toBe("a");
    now = 1000;
    expect(store.get("a")).toBeUndefined();
    expect(store.update("a", (record) => ({ ...record, status: "completed" }))).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it("at its cap, drops expired tasks first, then the oldest finished one, and refuses when all still run", () => {
    let now = 0;
    const store = new MemoryTaskStore({ maxTasks: 2, now: () => now });
    store.put(task("old", "working", 0, 10));
    store.put(task("done", "completed", 0, 5000));
    now = 20;
    store.put(task("new")); // "old" expired and made room
    expect(store.get("old")).toBeUndefined();
    store.put(task("newer")); // "done" was the oldest finished task
    expect(store.get("done")).toBeUndefined();
    expect(() => store.put(task("one-too-many"))).toThrow(/running 2 tasks already \(its limit\)/);
    expect(store.size).toBe(2);
  });

  it("at its cap, makes room from the owner keeping the most tasks: a client churning tasks drops its own results, not another's", () => {
    const store = new MemoryTaskStore({ maxTasks: 4, now: () => 0 });
    store.put({ ...task("ada-result", "completed"), owner: "ada" });
    for (let i = 0; i < 10; i++) store.put({ ...task(`bob-${i}`, "completed"), owner: "bob" });
    // Was: the oldest finished task of any owner made room, ada's unread result first.
    expect(store.get("ada-result")?.taskId).toBe("ada-result");
    expect(store.list("bob").map((record) => record.taskId)).toEqual(["bob-7", "bob-8", "bob-9"]);
  });

  it("at its cap, makes room from the owner keeping the most that has a finished task, when the one keeping the most only runs tasks", () => {
    const store = new MemoryTaskStore({ maxTasks: 6, now: () => 0 });
    store.put({ ...task("ada-done", "completed"), owner: "ada" });
    store.put({ ...task("carol-1", "completed"), owner: "carol" });
    store.put({ ...task("carol-2", "failed"), owner: "carol" });
    for (let i = 0; i < 3; i++) store.put({ ...task(`bob-${i}`), owner: "bob" });
    // Bob keeps the most, all running: carol keeps the most after him, and her oldest finished one makes room.
    store.put({ ...task("dan"), owner: "dan" });
    expect(store.get("carol-1")).toBeUndefined();
    expect(store.get("ada-done")?.taskId).toBe("ada-done");
    expect(store.list("bob")).toHaveLength(3);
  });

  it("at its cap, makes room in a step per owner, not a read of every task kept", () => {
    const kept = 10_000;
    const store = new MemoryTaskStore({ maxTasks: kept, now: () => 0 });
    let reads = 0;
    // A finished task whose status counts its reads.
    const counted = (taskId: string, owner: string): TaskRecord =>
      Object.defineProperty({ ...task(taskId), owner }, "status", {
        enumerable: true,
        get: () => {
          reads++;
          return "completed";
        },
      });
    for (let i = 0; i < kept; i++) store.put(counted(`task-${i}`, `owner-${i % 10}`));
    reads = 0;
    store.put(counted("one-more", "owner-0"));
    // Was: each task kept read at each put at the cap (2 ms a put with maxTasks at 100,000).
    expect(reads).toBeLessThan(10);
    expect(store.get("task-0")).toBeUndefined();
    expect(store.size).toBe(kept);
  });

  it("applies an update, and leaves the task as it was when the change makes nothing", () => {
    const store = new MemoryTaskStore({ now: () => 0 });
    store.put(task("a"));
    expect(store.update("a", (record) => ({ ...record, status: "cancelled" }))?.status).toBe("cancelled");
    expect(store.update("a", () => undefined)?.status).toBe("cancelled");
  });

  it("lists one owner's tasks that have not expired, oldest first (2025-11-25 tasks/list)", () => {
    let now = 0;
    const store = new MemoryTaskStore({ now: () => now });
    store.put({ ...task("mine-1", "working", 0, 100), owner: "ada" });
    store.put({ ...task("theirs"), owner: "bob" });
    store.put({ ...task("mine-2", "completed", 1, 5000), owner: "ada" });
    expect(store.list("ada").map((record) => record.taskId)).toEqual(["mine-1", "mine-2"]);
    now = 100;
    expect(store.list("ada").map((record) => record.taskId)).toEqual(["mine-2"]);
    expect(store.list("nobody")).toEqual([]);
  });

  it("at its cap with nothing expired, makes room without reading every task's expiry", () => {
    let reads = 0;
    const store = new MemoryTaskStore({
      maxTasks: 1000,
      now: () => {
        reads++;
        return 0;
      },
    });
    for (let i = 0; i < 1000; i++) store.put(task(`done-${i}`, "completed", 0, 60_000));
    reads = 0;
    store.put(task("next", "working", 0, 60_000));
    // One read of the clock: a pass over the kept tasks would have read it 1,000 times.
    expect(reads).toBe(1);
    expect(store.get("done-0")).toBeUndefined();
    expect(store.size).toBe(1000);
  });

  it("drops tasks as they expire, whatever order their TTLs end in", () => {
    let now = 0;
    const store = new MemoryTaskStore({ maxTasks: 3, now: () => now });
    store.put(task("long", "working", 0, 500));
    store.put(task("short", "working", 0, 100));
    store.put(task("middle", "completed", 0, 300));
    now = 100;
    store.put(task("a", "working", 100, 1000)); // "short" expired: it makes room, not the finished "middle"
    expect(store.get("short")).toBeUndefined();
    expect(store.get("middle")?.taskId).toBe("middle");
    now = 300;
    store.put(task("b", "working", 300, 1000)); // "middle" has expired since
    expect(store.get("middle")).toBeUndefined();
    now = 500;
    store.put(task("c", "working", 500, 1000)); // and then "long"
    expect(store.get("long")).toBeUndefined();
    expect(() => store.put(task("d", "working", 500, 1000))).toThrow(/running 3 tasks already/);
  });
});
