/**
 * A 2025-11-25 task belongs to its session (docs/tasks.md), and its `ttl` is how long it stays
 * readable (2025-11-25 "Tasks": MUST be the actual ttl): so a session holding a task that runs, or
 * one that ended and whose result no `tasks/result` has taken yet, is in use within the task's TTL,
 * as a session with a request in progress is (docs/http.md's `idleTimeoutMs`). Was: a client that
 * polled less often than `idleTimeoutMs` (or came back for the result later) found its session
 * forgotten, and with it the task and its result (404, then -32602 in a new session). Once the
 * result is taken, or the TTL has passed, the session expires idle as any other. Streamable HTTP
 * sessions with an idle timeout of 300 ms, driven in-process with raw requests: a client holding a
 * GET stream would keep its session in use whatever its tasks.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { askInSession, initialize, signal } from "../http-helpers.js";
import { createdTaskId } from "./tasks-helpers.js";

const IDLE_MS = 300;

/** A server whose tool `wait` runs as a task until `done` resolves, sessions idle for IDLE_MS at most. */
function server(done: Promise<void>) {
  return pico({ name: "task-sessions", http: { sessions: { idleTimeoutMs: IDLE_MS } } }).tool("wait", {
    description: "Waits until the test lets it finish.",
    task: "optional",
    run: async () => {
      await done;
      return "finished";
    },
  });
}

it("keeps a session whose task runs, then whose result waits, past idleTimeoutMs; forgets it idle once the result is taken", async () => {
  const done = signal();
  const mcp = server(done.promise);
  const id = await initialize(mcp);
  const created = await askInSession(mcp, id, "tools/call", { name: "wait", arguments: {}, task: {} });
  const taskId = createdTaskId(created);
  // The client polls less often than idleTimeoutMs. Was: 404, the session forgotten with its task.
  await sleep(2.5 * IDLE_MS);
  const polled = await askInSession(mcp, id, "tasks/get", { taskId });
  expect(polled.status).toBe(200);
  expect(polled.answer?.result).toMatchObject({ taskId, status: "working" });
  // The task ends while nobody asks; its result waits for the client past idleTimeoutMs.
  done.resolve();
  await sleep(2.5 * IDLE_MS);
  const taken = await askInSession(mcp, id, "tasks/result", { taskId });
  expect(taken.status).toBe(200);
  expect(taken.answer?.result).toMatchObject({ content: [{ type: "text", text: "finished" }] });
  // Taken: the task holds the session no more, which expires idle.
  await sleep(2.5 * IDLE_MS);
  expect((await askInSession(mcp, id, "tools/list")).status).toBe(404);
  await mcp.close();
});

it("keeps a session whose result waits past idleTimeoutMs though another session's 1000 tasks took every channel", async () => {
  // maxTasks above the tasks made: the store keeps every result, and the session is what may go.
  const mcp = pico({
    name: "task-sessions",
    limits: { maxTasks: 2000 },
    http: { sessions: { idleTimeoutMs: IDLE_MS } },
  });
  mcp.tool("quick", { description: "Answers at once.", task: "optional", run: () => "quick" });
  const victim = await initialize(mcp);
  const taskId = createdTaskId(
    await askInSession(mcp, victim, "tools/call", { name: "quick", arguments: {}, task: {} }),
  );
  // As many finished tasks of another session as an instance keeps channels for (tasks.ts MAX_CHANNELS).
  const noisy = await initialize(mcp);
  for (let i = 0; i < 1000; i++)
    await askInSession(mcp, noisy, "tools/call", { name: "quick", arguments: {}, task: {} });
  // Was: 404, the victim's hold let go with its channel, the session forgotten with its task.
  await sleep(2.5 * IDLE_MS);
  const taken = await askInSession(mcp, victim, "tasks/result", { taskId });
  expect(taken.status).toBe(200);
  expect(taken.answer?.result).toMatchObject({ content: [{ type: "text", text: "quick" }] });
  await mcp.close();
});

it("forgets a session idle once its task's TTL has passed, its result never taken", async () => {
  const done = signal();
  done.resolve();
  const mcp = server(done.promise);
  const id = await initialize(mcp);
  const created = await askInSession(mcp, id, "tools/call", { name: "wait", arguments: {}, task: { ttl: IDLE_MS } });
  expect(created.answer?.result?.task).toMatchObject({ ttl: IDLE_MS });
  await sleep(3 * IDLE_MS);
  expect((await askInSession(mcp, id, "tools/list")).status).toBe(404);
  await mcp.close();
});

it("forgets a session idle once its running task was cancelled", async () => {
  const mcp = server(signal().promise);
  const id = await initialize(mcp);
  const created = await askInSession(mcp, id, "tools/call", { name: "wait", arguments: {}, task: {} });
  const taskId = createdTaskId(created);
  expect((await askInSession(mcp, id, "tasks/cancel", { taskId })).answer?.result).toMatchObject({
    status: "cancelled",
  });
  await sleep(2.5 * IDLE_MS);
  expect((await askInSession(mcp, id, "tools/list")).status).toBe(404);
  await mcp.close();
});
