import type { JsonRpcMessage } from "../../protocol/jsonrpc.js";

/** Where an SSE stream's bytes go: a Web ReadableStream controller or a Node response. */
export interface SseSink {
  write(chunk: string): void;
  close(): void;
}

/** One `text/event-stream` event (WHATWG HTML §9.2); JSON never contains a raw newline, so one data line is enough. */
export function sseEvent(message: JsonRpcMessage, id?: string): string {
  const data = `event: message\ndata: ${JSON.stringify(message)}\n\n`;
  return id === undefined ? data : `id: ${id}\n${data}`;
}

/**
 * A server-sent event stream that exists before anyone reads it: the handler writes, the runtime
 * adapter attaches a sink when it turns the reply into a response. Writes after close or after the
 * reader went away are dropped, so nothing is ever written to a dead stream.
 */
export class SseChannel {
  #sink: SseSink | undefined;
  #pending: string[] = [];
  #closed = false;
  #onCancel: (() => void) | undefined;

  constructor(onCancel?: () => void) {
    this.#onCancel = onCancel;
  }

  get closed(): boolean {
    return this.#closed;
  }

  write(chunk: string): void {
    if (this.#closed) return;
    if (this.#sink) this.#sink.write(chunk);
    else this.#pending.push(chunk);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#sink) this.#sink.close();
  }

  attach(sink: SseSink): void {
    this.#sink = sink;
    for (const chunk of this.#pending) sink.write(chunk);
    this.#pending = [];
    if (this.#closed) sink.close();
  }

  /** The reader went away (connection dropped, stream cancelled). */
  cancel(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#onCancel?.();
  }
}
