import type { Asker } from "../asking/carried.js";
import type { RequestContext } from "../core/context.js";
import type { JsonRpcMessage } from "../core/jsonrpc.js";
import type { InputRequest } from "../core/types.js";
import { askerOf } from "./contexts.js";

/** Notifications of a task kept for a `tasks/result` that has not come yet; beyond this, the oldest go. */
const MAX_QUEUED = 100;

/**
 * The stream of a `tasks/result` request waiting for a task: how a message of the task is sent on
 * it, and how a question is asked through it. The request may be this instance's (`streamOf`) or
 * another's, reached over the shared state's bus (relay.ts).
 */
export interface TaskStream {
  readonly emit: ((message: JsonRpcMessage) => void) | undefined;
  /** How the session's client is asked, the question going out on `emit`; undefined where it cannot be. */
  readonly ask: Asker | undefined;
}

/** The stream of a `tasks/result` request of this instance. */
export function streamOf(request: RequestContext): TaskStream {
  return { emit: request.emit, ask: askerOf(request) };
}

/**
 * How a 2025-11-25 task reaches its client (2025-11-25 "Tasks"): its requests (questions) and
 * notifications (progress, logs, status) travel on the stream of a `tasks/result` request waiting
 * for it, the one stream a server can tie to a task on every transport (on stdio that is the pipe;
 * over HTTP the request's SSE stream, or the session's GET stream for a client that takes only
 * JSON). Until one comes, questions wait and notifications are queued, boundedly. The official
 * SDKs' servers deliver task messages the same way.
 */
export class SessionChannel {
  /** How the call that made the task asks its client: a `tasks/result` of another instance asks through it (relay.ts). */
  readonly asker: Asker | undefined;
  /** The `tasks/result` requests waiting for the task, oldest first. */
  readonly #streams: TaskStream[] = [];
  readonly #queue: JsonRpcMessage[] = [];
  /** Questions waiting for a stream to travel on. */
  readonly #questions = new Set<(stream: TaskStream) => void>();

  constructor(asker: Asker | undefined) {
    this.asker = asker;
  }

  /** A `tasks/result` request waits for the task: what was kept goes out on it; answers how to let it go. */
  attach(stream: TaskStream): () => void {
    this.#streams.push(stream);
    for (const message of this.#queue.splice(0)) stream.emit?.(message);
    for (const send of [...this.#questions]) send(stream);
    return () => {
      const index = this.#streams.indexOf(stream);
      if (index >= 0) this.#streams.splice(index, 1);
    };
  }

  /** Sends a notification of the task; `keep`: queue it while no stream waits (status notifications are not kept: the next tasks/get tells). */
  notify(message: JsonRpcMessage, keep = true): void {
    const stream = this.#streams.at(-1);
    if (stream?.emit) stream.emit(message);
    else if (keep && !stream) {
      this.#queue.push(message);
      if (this.#queue.length > MAX_QUEUED) this.#queue.shift();
    }
  }

  /** Asks the client a question of the task, on a waiting `tasks/result`'s stream (the next one, if none waits yet). */
  ask(request: InputRequest, signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const send = (stream: TaskStream) => {
        this.#questions.delete(send);
        if (!stream.ask) return reject(new Error("This session has no way to ask its client"));
        stream.ask.ask(request, signal, stream.emit).then(resolve, reject);
      };
      const stream = this.#streams.at(-1);
      if (stream) return send(stream);
      this.#questions.add(send);
      signal.addEventListener(
        "abort",
        () => {
          if (this.#questions.delete(send)) reject(signal.reason);
        },
        { once: true },
      );
    });
  }
}
