import type { RequestContext } from "../core/context.js";
import type { JsonRpcMessage } from "../core/jsonrpc.js";
import type { Bus, BusMessage } from "../state/state.js";
import type { SessionChannel } from "./channel.js";

/** `tasks/result` requests of other instances a task's messages go to at most; beyond this, the oldest is let go. */
const MAX_RELAYED = 1000;

/**
 * How long a `tasks/result` for a task that has ended waits for what the running instance kept for
 * it (its progress, its logs) before it answers without: that instance may have died, or handed it
 * to an earlier `tasks/result` already. A bound, not a pace: a live instance answers at once.
 */
const FLUSH_WAIT_MS = 2000;

/** A `tasks/result` of this instance following a task that another runs. */
export interface Following {
  /** Settles once what the running instance kept for the task was sent (or after FLUSH_WAIT_MS). */
  readonly flushed: Promise<void>;
  /** The `tasks/result` ends; `delivered`: it answered the task's outcome, so its messages are no longer needed. */
  end(delivered: boolean): void;
}

/**
 * The messages of a 2025-11-25 task across the instances sharing a state (docs/scaling.md). A
 * task's questions, progress and logs travel on the stream of a `tasks/result` waiting for it
 * (2025-11-25 "Tasks"), which the client may send to any instance; the run is on one. The instance
 * of the `tasks/result` asks for them on the bus (`task-wait`); the instance running the task
 * attaches that request to the task's channel as one more stream, whose messages go back on the
 * bus (`task-message`). A question goes out through the running instance's own session, so the
 * client's answer, POSTed to whichever instance, reaches it as any answer does (`forward` in
 * transports/http/shared.ts).
 */
export class TaskRelay {
  readonly #bus: Bus;
  readonly #channelOf: (taskId: string) => SessionChannel | undefined;
  readonly #delivered: (taskId: string) => void;
  /** The `tasks/result` requests of this instance following a task run elsewhere, by relay id. */
  readonly #following = new Map<string, { emit: (message: JsonRpcMessage) => void; flushed: () => void }>();
  /** The streams of other instances attached to this instance's tasks, by relay id, oldest first. */
  readonly #relayed = new Map<string, () => void>();

  constructor(
    bus: Bus,
    tasks: { channelOf(taskId: string): SessionChannel | undefined; delivered(taskId: string): void },
  ) {
    this.#bus = bus;
    this.#channelOf = (taskId) => tasks.channelOf(taskId);
    this.#delivered = (taskId) => tasks.delivered(taskId);
  }

  /** A `tasks/result` here for a task that no run here has: its messages come from the instance running it. */
  follow(taskId: string, request: RequestContext): Following {
    const relay = crypto.randomUUID();
    let flushed!: () => void;
    const flush = new Promise<void>((resolve) => {
      flushed = resolve;
    });
    const timer = setTimeout(flushed, FLUSH_WAIT_MS);
    this.#following.set(relay, { emit: (message) => request.emit?.(message), flushed });
    this.#bus.announce({ type: "task-wait", taskId, relay });
    return {
      flushed: flush.finally(() => clearTimeout(timer)),
      end: (delivered) => {
        clearTimeout(timer);
        if (this.#following.delete(relay)) this.#bus.announce({ type: "task-unwait", taskId, relay, delivered });
      },
    };
  }

  /** What the bus brought: for a task run here, or for a `tasks/result` waiting here. */
  receive(message: BusMessage): void {
    if (message.type === "task-wait") this.#attach(message.taskId, message.relay);
    else if (message.type === "task-message") this.#following.get(message.relay)?.emit(message.message);
    else if (message.type === "task-flushed") this.#following.get(message.relay)?.flushed();
    else if (message.type === "task-unwait") {
      this.#relayed.get(message.relay)?.();
      this.#relayed.delete(message.relay);
      if (message.delivered) this.#delivered(message.taskId);
    }
  }

  /**
   * Attaches a `tasks/result` of another instance to a task run here: what was kept goes to it at
   * once, then `task-flushed` (the bus keeps one instance's messages in order), then whatever the
   * run sends until that request ends. Its questions are asked through the session's connection here.
   */
  #attach(taskId: string, relay: string): void {
    const channel = this.#channelOf(taskId);
    if (!channel) return;
    const emit = (message: JsonRpcMessage) => this.#bus.announce({ type: "task-message", relay, message });
    this.#relayed.set(relay, channel.attach({ emit, ask: channel.asker }));
    // An instance that died before it let go: its oldest streams go first.
    if (this.#relayed.size > MAX_RELAYED) {
      const [oldest, release] = this.#relayed.entries().next().value!;
      release();
      this.#relayed.delete(oldest);
    }
    this.#bus.announce({ type: "task-flushed", relay });
  }
}
