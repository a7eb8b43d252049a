/**
 * StatusWrites, the retried status writes of a server's task runs (src/tasks/writes.ts), told of a
 * write it gives up through a callback: a callback that throws must not leave a rejection unhandled
 * (Node ends the process on one by default). The Tasks layer's own callback does not throw today (it
 * stops the run, whose AbortController reports its listeners' throws rather than throwing, and it
 * guards a user store's `release`): this drives the class directly with one that does, and a store
 * write that really rejects.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { StatusWrites } from "../../src/tasks/writes.js";

const escaped: unknown[] = [];
const onEscaped = (thrown: unknown) => escaped.push(thrown);
beforeAll(() => {
  process.on("unhandledRejection", onEscaped);
});
afterAll(() => {
  process.off("unhandledRejection", onEscaped);
});

it("leaves no rejection unhandled when the callback told of a given-up write throws", async () => {
  const told: string[] = [];
  const writes = new StatusWrites((taskId) => {
    told.push(taskId);
    throw new Error("the callback failed");
  });
  // The store refuses the write; closing at once gives it up at its first failure (no retry after close).
  writes.keep("task-1", () => Promise.reject(new Error("the store is unreachable")));
  await writes.close();
  expect(told).toEqual(["task-1"]);
  // Node reports an unhandled rejection once the microtasks after it have run: a macrotask later.
  await new Promise((resolve) => setImmediate(resolve));
  // Was: the promise `finally` made of the write's, rejected with "the callback failed", unhandled.
  expect(escaped).toEqual([]);
});
