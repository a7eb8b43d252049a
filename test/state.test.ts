/**
 * `pico({ state })` without Redis: a server sharing state needs the requestState key every
 * instance seals with, and says so when its HTTP endpoint starts (docs/scaling.md).
 */
import { describe, expect, it } from "vitest";
import { MemoryUsedStates } from "../src/asking/used-states.js";
import { pico } from "../src/index.js";
import type { SharedState } from "../src/state/state.js";
import { MemoryTaskStore } from "../src/tasks/store.js";

/** A state whose stores are never reached by these requests. */
function unusedState(): SharedState {
  const never = () => Promise.reject(new Error("not reached"));
  return {
    sessions: { get: never, put: never, delete: never },
    events: { append: never, end: never, read: never, clear: never },
    usedStates: new MemoryUsedStates(10),
    tasks: new MemoryTaskStore(),
    bus: { publish: never, announce: () => {}, noted: never, subscribe: () => () => {} },
    close: async () => {},
  };
}

describe("pico({ state })", () => {
  it("refuses to serve HTTP without requestStateKey, saying what to set", async () => {
    const server = pico({ name: "no-key", state: unusedState() }).tool("t", { description: "t", run: () => "t" });
    await expect(server.serve({ port: 0, host: "127.0.0.1" })).rejects.toThrow(
      /pico\(\{ state \}\) needs requestStateKey: instances that share state must seal requestState with one key/,
    );
  });
});
