/**
 * src/tasks/relay.ts on its own, two instances joined by an in-memory bus (each hears what the
 * other announces, in order, as Redis pub/sub delivers one publisher's messages): a 2025-11-25
 * task's kept and later messages reach a `tasks/result` following it from the other instance, then
 * `task-flushed`; its questions are asked through the running instance's session; ending the
 * `tasks/result` detaches it and, once delivered, drops the task's channel; what one instance holds
 * for others is bounded; a `tasks/result` nobody answers stops waiting for a flush (fake timers).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Asker } from "../../src/asking/carried.js";
import { RequestContext } from "../../src/core/context.js";
import type { JsonRpcMessage } from "../../src/core/jsonrpc.js";
import type { Bus, BusMessage } from "../../src/state/state.js";
import { SessionChannel } from "../../src/tasks/channel.js";
import { TaskRelay } from "../../src/tasks/relay.js";
import type { TaskRecord } from "../../src/tasks/task.js";

/** One instance's end of an in-memory bus: what it announces, every other end receives at once. */
class WireBus implements Bus {
  readonly #wire: WireBus[];
  readonly #listeners = new Set<(message: BusMessage) => void>();
  readonly sent: BusMessage[] = [];
  /** While it answers true, this end hears nothing: a subscriber that is reconnecting (pub/sub keeps nothing for it). */
  deaf: () => boolean = () => false;

  constructor(wire: WireBus[]) {
    this.#wire = wire;
    wire.push(this);
  }

  async publish(message: BusMessage): Promise<void> {
    this.announce(message);
  }

  announce(message: BusMessage): void {
    this.sent.push(message);
    for (const bus of this.#wire) {
      if (bus !== this && !bus.deaf()) for (const listener of bus.#listeners) listener(message);
    }
  }

  /** Nothing is noted here: the relay notes nothing. */
  async noted(notes: readonly string[]): Promise<(BusMessage | undefined)[]> {
    return notes.map(() => undefined);
  }

  subscribe(listener: (message: BusMessage) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

const TASK = "task-1";

/** The record of a task as a `tasks/result` finds it: `runner` names the instance running it. */
function recordOf(taskId: string, runner: string | undefined, status: TaskRecord["status"] = "working"): TaskRecord {
  const now = Date.now();
  return { taskId, status, createdAt: now, lastUpdatedAt: now, ttlMs: 60_000, pollIntervalMs: 1000, owner: "", runner };
}

/** Two instances: `running` holds the task's channel (its session asks with `asker`), `waiting` has none. */
function instances(asker?: Asker) {
  const wire: WireBus[] = [];
  const channel = new SessionChannel(asker);
  const delivered: string[] = [];
  const runningBus = new WireBus(wire);
  const waitingBus = new WireBus(wire);
  const running = new TaskRelay(runningBus, {
    channelOf: (taskId) => (taskId === TASK ? channel : undefined),
    delivered: (taskId) => delivered.push(taskId),
  });
  const waiting = new TaskRelay(waitingBus, { channelOf: () => undefined, delivered: () => {} });
  runningBus.subscribe((message) => running.receive(message));
  waitingBus.subscribe((message) => waiting.receive(message));
  return { channel, delivered, running, waiting, runningBus, waitingBus };
}

/** A `tasks/result` request of the waiting instance, recording what is sent on its stream. */
function resultRequest() {
  const emitted: JsonRpcMessage[] = [];
  const request = new RequestContext(
    { id: 7, meta: undefined, protocolVersion: "2025-11-25", era: "legacy" },
    { emit: (message) => emitted.push(message) },
  );
  return { request, emitted };
}

const progress = (n: number): JsonRpcMessage => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: 1, progress: n },
});

afterEach(() => {
  vi.useRealTimers();
});

describe("TaskRelay", () => {
  it("sends what the task kept, then flushed, then what it sends while the tasks/result waits", async () => {
    const { channel, running, waiting } = instances();
    channel.notify(progress(1));
    channel.notify(progress(2));
    const { request, emitted } = resultRequest();
    const following = waiting.follow(recordOf(TASK, running.id), request);
    await following.flushed(recordOf(TASK, running.id, "completed"));
    expect(emitted).toEqual([progress(1), progress(2)]);
    channel.notify(progress(3));
    expect(emitted).toEqual([progress(1), progress(2), progress(3)]);
    following.end(false);
    // Detached: the next message is kept for the next tasks/result, not sent to this one.
    channel.notify(progress(4));
    expect(emitted).toHaveLength(3);
  });

  it("asks the task's question through the running instance's session, on the waiting stream", async () => {
    const asked: { method: string; via: boolean }[] = [];
    const asker: Asker = {
      ask: async (question, _signal, via) => {
        asked.push({ method: question.method, via: via !== undefined });
        via?.({ jsonrpc: "2.0", id: "picomcp-1", method: question.method, params: question.params });
        return { action: "accept", content: { ok: true } };
      },
    };
    const { channel, running, waiting } = instances(asker);
    const question = channel.ask(
      { method: "elicitation/create", params: { message: "Approve?", requestedSchema: { type: "object" } } },
      new AbortController().signal,
    );
    const { request, emitted } = resultRequest();
    const following = waiting.follow(recordOf(TASK, running.id), request);
    expect(await question).toEqual({ action: "accept", content: { ok: true } });
    expect(asked).toEqual([{ method: "elicitation/create", via: true }]);
    expect(emitted).toEqual([
      {
        jsonrpc: "2.0",
        id: "picomcp-1",
        method: "elicitation/create",
        params: { message: "Approve?", requestedSchema: { type: "object" } },
      },
    ]);
    following.end(false);
  });

  it("lets go of the stream when the tasks/result ends, and drops the task's channel once it delivered", async () => {
    const { delivered, running, waiting, waitingBus } = instances();
    const first = waiting.follow(recordOf(TASK, running.id), resultRequest().request);
    first.end(false);
    expect(delivered).toEqual([]);
    const second = waiting.follow(recordOf(TASK, running.id), resultRequest().request);
    await second.flushed(recordOf(TASK, running.id, "completed"));
    second.end(true);
    second.end(true);
    expect(delivered).toEqual([TASK]);
    // Each wait is let go of once, whatever calls end again.
    expect(waitingBus.sent.map((message) => message.type)).toEqual([
      "task-wait",
      "task-unwait",
      "task-wait",
      "task-unwait",
    ]);
  });

  it("holds at most 1000 streams of other instances, letting the oldest go first", () => {
    const { channel, running } = instances();
    const released: number[] = [];
    let attached = 0;
    const attach = channel.attach.bind(channel);
    vi.spyOn(channel, "attach").mockImplementation((stream) => {
      const n = attached++;
      const release = attach(stream);
      return () => {
        released.push(n);
        release();
      };
    });
    // Waits whose instance died before it let go (no task-unwait ever comes).
    for (let n = 0; n < 1002; n++)
      running.receive({ type: "task-wait", taskId: TASK, relay: `r${n}`, runner: running.id });
    expect(released).toEqual([0, 1]);
  });

  it("ignores a wait for a task it does not run, and answers a tasks/result nobody flushes within its bound", async () => {
    vi.useFakeTimers();
    const { waiting, runningBus } = instances();
    const following = waiting.follow(recordOf("another-task", "a dead instance"), resultRequest().request);
    let flushed = false;
    void following.flushed(recordOf("another-task", "a dead instance", "completed")).then(() => {
      flushed = true;
    });
    await Promise.resolve();
    expect(flushed).toBe(false);
    await vi.advanceTimersByTimeAsync(2000);
    expect(flushed).toBe(true);
    expect(runningBus.sent).toEqual([]);
    following.end(false);
  });

  it("answers at once a tasks/result for a task its instance ran but holds nothing for any more", async () => {
    vi.useFakeTimers();
    const { running, waiting, runningBus } = instances();
    // Another task of the running instance, its messages delivered (or let go): no channel is left.
    const ended = recordOf("delivered-task", running.id, "completed");
    const following = waiting.follow(ended, resultRequest().request);
    let flushed = false;
    void following.flushed(ended).then(() => {
      flushed = true;
    });
    // No timer runs: the running instance answers "nothing held" (was: FLUSH_WAIT_MS, 2 s, for nothing).
    await vi.advanceTimersByTimeAsync(0);
    expect(flushed).toBe(true);
    expect(runningBus.sent.map((message) => message.type)).toEqual(["task-flushed"]);
    following.end(true);
  });

  it("answers at once a tasks/result for a task whose record names no running instance (it died)", async () => {
    vi.useFakeTimers();
    const { waiting } = instances();
    const following = waiting.follow(recordOf("orphan", "a dead instance"), resultRequest().request);
    let flushed = false;
    // What redis/tasks.ts records once the lease ran out: failed, with no runner.
    void following.flushed(recordOf("orphan", undefined, "failed")).then(() => {
      flushed = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(flushed).toBe(true);
    following.end(true);
  });

  it("asks again until the running instance answers: a task-wait lost on the bus is not the end of it", async () => {
    vi.useFakeTimers();
    const asker: Asker = {
      ask: (question, _signal, via) => {
        via?.({ jsonrpc: "2.0", id: "picomcp-1", method: question.method, params: question.params });
        return new Promise(() => {});
      },
    };
    const { channel, running, waiting, runningBus } = instances(asker);
    // The running instance's subscription is away (reconnecting): it hears nothing for a while.
    let away = true;
    runningBus.deaf = () => away;
    void channel.ask(
      { method: "elicitation/create", params: { message: "Approve?", requestedSchema: { type: "object" } } },
      new AbortController().signal,
    );
    const { request, emitted } = resultRequest();
    const following = waiting.follow(recordOf(TASK, running.id, "input_required"), request);
    await vi.advanceTimersByTimeAsync(0);
    expect(emitted).toEqual([]);
    away = false;
    await vi.advanceTimersByTimeAsync(1000);
    // Before: the one task-wait was lost, and the question waited for a stream that never came.
    expect(emitted).toMatchObject([{ method: "elicitation/create", params: { message: "Approve?" } }]);
    // Attached once, however often it was asked.
    await vi.advanceTimersByTimeAsync(3000);
    expect(emitted).toHaveLength(1);
    following.end(false);
  });
});
