import type { JsonRpcMessage, JsonRpcResponse } from "../../core/jsonrpc.js";
import { serialize } from "../../core/jsonrpc.js";
import { ReaderLag } from "./reader-lag.js";

/** What an SSE stream carries: event text, or the same already encoded (a session's kept events). */
export type SseChunk = string | Uint8Array;

/** Where an SSE stream's bytes go: a Web ReadableStream controller or a Node response. */
export interface SseSink {
  /** False when the reader has enough for now: more waits until the `onDrain` callback runs (as Node's `write`). */
  write(chunk: SseChunk): boolean;
  close(): void;
  /** Bytes written that the reader has not taken yet. */
  backlog?(): number;
  /** Ends the stream at once and frees what is queued (a reader too far behind). */
  abort?(): void;
  /** Has `wake` called each time the reader can take more, after `write` answered false. */
  onDrain?(wake: () => void): void;
}

/** The body of an SSE reply, as the runtime adapters see it: a sink attaches, or the reader goes away. */
export interface SseStream {
  attach(sink: SseSink): void;
  /** The reader went away (connection dropped, stream cancelled). */
  cancel(): void;
  /**
   * The access token the stream was opened with expired (auth/expiries.ts): it ends as a stream of
   * its kind ends early. Absent on a stream its token's expiry does not end (one that goes on to
   * its answer), which the expiries then do not keep.
   */
  readonly expire?: (() => void) | undefined;
  /** True once the stream ended: an expiry no longer needs to end it. */
  readonly closed?: boolean;
}

/**
 * One `text/event-stream` event (WHATWG HTML §9.2); JSON never contains a raw newline, so one data line
 * is enough. Undefined for a request or notification JSON cannot carry (a log of a BigInt, of a cycle):
 * it is not sent, as over stdio; a response always has an answer (`serialize`).
 */
export function sseEvent(message: JsonRpcResponse, id?: string): string;
export function sseEvent(message: JsonRpcMessage, id?: string): string | undefined;
export function sseEvent(message: JsonRpcMessage, id?: string): string | undefined {
  const json = serialize(message);
  if (json === undefined) return undefined;
  const data = `event: message\ndata: ${json}\n\n`;
  return id === undefined ? data : `id: ${id}\n${data}`;
}

/**
 * The SSE streams of one endpoint: how many are open (`limits.maxSseStreams`), and how far one
 * reader may fall behind before its stream is dropped (`limits.maxSseBufferBytes`).
 */
export class Streams {
  open = 0;
  readonly max: number;
  readonly maxBuffer: number;

  constructor(max: number, maxBuffer: number) {
    this.max = max;
    this.maxBuffer = maxBuffer;
  }

  get full(): boolean {
    return this.open >= this.max;
  }
}

/** How an SseChannel is made. */
export interface SseChannelOptions {
  /** The reader went away, or was dropped for being too far behind. */
  onCancel?: (() => void) | undefined;
  /** The endpoint's streams, which this one counts among while open. */
  streams?: Streams | undefined;
  /** Ends the stream when the token it was opened with expires (see `SseStream.expire`); without it, it goes on. */
  onExpire?: (() => void) | undefined;
  /**
   * A request's own stream: past `maxBuffer` behind it lets its logs and progress go (`write(chunk, "notice")`)
   * rather than be dropped, and queues its answer (`"answer"`) however far behind the reader is, as stdio
   * does (2025-11-25 "Logging", "Progress": best-effort, SHOULD be rate-limited).
   */
  sheds?: boolean | undefined;
}

/** What a chunk is to its reader: a notification it may miss, the request's answer, or else (undefined) anything else. */
export type ChunkKind = "notice" | "answer" | undefined;

/**
 * A server-sent event stream that exists before anyone reads it: the handler writes, the runtime
 * adapter attaches a sink when it turns the reply into a response. Writes after close or after the
 * reader went away are dropped, so nothing is ever written to a dead stream. A reader that falls
 * more than `maxBuffer` behind (or a stream nobody attaches to that grows that large) is dropped
 * as if it had gone away: memory stays bounded whatever the reader does. Behind is counted as
 * reader-lag.ts says: a burst written within one turn of the event loop does not drop a reader that
 * keeps up.
 */
export class SseChannel implements SseStream {
  #sink: SseSink | undefined;
  #pending: string[] = [];
  #pendingSize = 0;
  #closed = false;
  #onCancel: (() => void) | undefined;
  #streams: Streams | undefined;
  readonly #lag: ReaderLag;
  readonly #sheds: boolean;
  readonly expire: (() => void) | undefined;

  constructor({ onCancel, streams, onExpire, sheds = false }: SseChannelOptions = {}) {
    this.#onCancel = onCancel;
    this.#streams = streams;
    this.#sheds = sheds;
    this.expire =
      onExpire &&
      (() => {
        if (!this.#closed) onExpire();
      });
    this.#lag = new ReaderLag({
      max: streams?.maxBuffer ?? Number.POSITIVE_INFINITY,
      held: () => (this.#sink ? (this.#sink.backlog?.() ?? 0) : this.#pendingSize),
      drop: () => this.#drop(),
      patient: sheds,
    });
    if (streams) streams.open++;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** `kind`: what the chunk is to its reader, which a stream that sheds reads (`SseChannelOptions.sheds`). */
  write(chunk: string, kind?: ChunkKind): void {
    if (this.#closed || !this.#admit(chunk.length, kind)) return;
    if (this.#sink) this.#sink.write(chunk);
    else {
      this.#pending.push(chunk);
      this.#pendingSize += chunk.length;
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#end();
    if (this.#sink) this.#sink.close();
  }

  attach(sink: SseSink): void {
    this.#sink = sink;
    for (const chunk of this.#pending) sink.write(chunk);
    this.#pending = [];
    this.#pendingSize = 0;
    if (this.#closed) sink.close();
  }

  /** Whether `bytes` more go to the reader: false when let go, or when the stream was dropped. */
  #admit(bytes: number, kind: ChunkKind): boolean {
    if (!this.#sheds || kind === undefined) return this.#lag.admit(bytes);
    if (kind === "notice") return this.#lag.offer(bytes);
    this.#lag.keep(bytes);
    return true;
  }

  /** The reader went away (connection dropped, stream cancelled). */
  cancel(): void {
    if (this.#closed) return;
    this.#end();
    this.#onCancel?.();
  }

  #drop(): void {
    this.#end();
    this.#pending = [];
    this.#pendingSize = 0;
    const sink = this.#sink;
    if (sink) sink.abort ? sink.abort() : sink.close();
    this.#onCancel?.();
  }

  #end(): void {
    this.#lag.stop();
    this.#closed = true;
    if (this.#streams) this.#streams.open--;
    this.#streams = undefined;
  }
}
