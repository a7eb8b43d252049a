import type { RequestContext } from "../core/context.js";
import type { JsonRpcMessage } from "../core/jsonrpc.js";
import type { Bus, BusMessage } from "../state/state.js";
import type { SessionChannel } from "./channel.js";
import type { TaskRecord } from "./task.js";

/** `tasks/result` requests of other instances a task's messages go to at most; beyond this, the oldest is let go. */
const MAX_RELAYED = 1000;

/**
 * How long a `tasks/result` for a task that has ended waits for what the running instance kept for
 * it (its progress, its logs) before it answers without: that instance may have died after the task
 * ended. A bound, not a pace: a live instance answers at once, also when it holds nothing.
 */
const FLUSH_WAIT_MS = 2000;

/**
 * How often a `tasks/result` asks again until the running instance answers: pub/sub keeps nothing
 * for a subscriber that is reconnecting, so a `task-wait` published then is lost, and a question of
 * the task would wait for a stream that never comes.
 */
const ASK_AGAIN_MS = 1000;

/** A `tasks/result` of this instance following a task that another runs. */
export interface Following {
  /**
   * Settles once what the running instance kept for the task `ended` (the task's terminal record)
   * was sent: at once when nobody can hold anything (the record names no running instance: it
   * died, or shut down), else when that instance says so, or after FLUSH_WAIT_MS.
   */
  flushed(ended: TaskRecord): Promise<void>;
  /** The `tasks/result` ends; `delivered`: it answered the task's outcome, so its messages are no longer needed. */
  end(delivered: boolean): void;
}

/**
 * The messages of a 2025-11-25 task across the instances sharing a state (docs/scaling.md). A
 * task's questions, progress and logs travel on the stream of a `tasks/result` waiting for it
 * (2025-11-25 "Tasks"), which the client may send to any instance; the run is on one, which its
 * record names (`runner`, this relay's `id`). The instance of the `tasks/result` asks for them on
 * the bus (`task-wait`, again until answered); the instance running the task attaches that request
 * to the task's channel as one more stream, whose messages go back on the bus (`task-message`), and
 * says so (`task-flushed`), also when it holds nothing for the task. A question goes out through the
 * running instance's own session, so the client's answer, POSTed to whichever instance, reaches it
 * as any answer does (`forward` in transports/http/shared.ts).
 */
export class TaskRelay {
  /** This instance, as the records of the tasks it runs name it (`runner`). */
  readonly id: string = crypto.randomUUID();
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

  /** A `tasks/result` here for a task (`record`, as found) that no run here has: its messages come from the instance running it. */
  follow(record: TaskRecord, request: RequestContext): Following {
    const relay = crypto.randomUUID();
    const { taskId, runner } = record;
    let answered!: () => void;
    const flush = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const ask = () => this.#bus.announce({ type: "task-wait", taskId, relay, runner });
    const again = setInterval(ask, ASK_AGAIN_MS);
    // Asking again alone does not keep a process alive (Deno's timer is a number, without unref).
    const timer: { unref?: () => void } | number = again;
    if (typeof timer === "object") timer.unref?.();
    const flushed = () => {
      clearInterval(again);
      answered();
    };
    this.#following.set(relay, { emit: (message) => request.emit?.(message), flushed });
    ask();
    return {
      flushed: (ended) => {
        if (ended.runner === undefined) return Promise.resolve();
        let late: ReturnType<typeof setTimeout> | undefined;
        const bound = new Promise<void>((resolve) => {
          late = setTimeout(resolve, FLUSH_WAIT_MS);
        });
        return Promise.race([flush, bound]).finally(() => clearTimeout(late));
      },
      end: (delivered) => {
        clearInterval(again);
        if (this.#following.delete(relay)) this.#bus.announce({ type: "task-unwait", taskId, relay, delivered });
      },
    };
  }

  /** What the bus brought: for a task run here, or for a `tasks/result` waiting here. */
  receive(message: BusMessage): void {
    if (message.type === "task-wait") this.#attach(message);
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
   * run sends until that request ends. Its questions are asked through the session's connection
   * here. A task this instance ran but holds nothing for any more (delivered, or let go under
   * MAX_CHANNELS) is answered `task-flushed` alone; one asked again is not attached twice.
   */
  #attach(wait: Extract<BusMessage, { type: "task-wait" }>): void {
    const { taskId, relay } = wait;
    const flushed = () => this.#bus.announce({ type: "task-flushed", relay });
    const channel = this.#relayed.has(relay) ? undefined : this.#channelOf(taskId);
    if (!channel) {
      if (this.#relayed.has(relay) || wait.runner === this.id) flushed();
      return;
    }
    const emit = (message: JsonRpcMessage) => {
      // A bus of one's own that throws (Bus.announce never should) loses this message alone: the throw
      // reaches neither the tool that sent it (its ctx.log) nor the messages kept after it.
      try {
        this.#bus.announce({ type: "task-message", relay, message });
      } catch {}
    };
    this.#relayed.set(relay, channel.attach({ emit, ask: channel.asker }));
    // An instance that died before it let go: its oldest streams go first.
    if (this.#relayed.size > MAX_RELAYED) {
      const [oldest, release] = this.#relayed.entries().next().value!;
      release();
      this.#relayed.delete(oldest);
    }
    flushed();
  }
}
