import { Connection } from "../../connection.js";
import type { Dispatcher } from "../../dispatch.js";
import type { JsonRpcMessage } from "../../protocol/jsonrpc.js";
import { SseChannel, type Streams, sseEvent } from "./sse.js";

export interface SessionOptions {
  /** A session unused for this long is forgotten; its id then answers 404. Default: 30 minutes. */
  idleTimeoutMs?: number;
  /** At most this many sessions; past it the least recently used one is evicted. Default: 1000. */
  maxSessions?: number;
  /** Server-sent events kept per session for `Last-Event-ID` resumption. Default: 100. */
  eventHistory?: number;
  /** The reconnection delay sent in each stream's `retry` field (SEP-1699). Default: 1000 ms. */
  retryMs?: number;
}

/** The events of one SSE stream, kept so a client can resume it with `Last-Event-ID` (2025-11-25 §"Resumability"). */
interface StreamLog {
  readonly id: number;
  readonly events: { seq: number; chunk: string }[];
  seq: number;
  live: SseChannel | undefined;
  done: boolean;
}

/** The writing end of one SSE stream of a session. */
export interface SessionStream {
  readonly channel: SseChannel;
  send(message: JsonRpcMessage): void;
  /** Closes the connection but keeps the stream resumable: the client comes back with `Last-Event-ID` (SEP-1699 polling). False, keeping it open, when the client could not come back for the rest. */
  detach(): boolean;
  end(): void;
}

/**
 * One legacy Streamable HTTP session (`Mcp-Session-Id`): the connection state of the handshake,
 * the standalone GET stream (stream 0) for server-initiated messages, and a bounded event history.
 * An idle session holds little: its streams and their history are made when the first one opens
 * or the server first sends something, and registry events reach it through its store.
 */
export class HttpSession {
  readonly id: string;
  readonly connection: Connection;
  lastActive = Date.now();
  readonly #options: Required<SessionOptions>;
  #logs: Map<number, StreamLog> | undefined;
  readonly #streams: Streams | undefined;
  #headers: Record<string, string> | undefined;
  #nextStream = 1;
  #events = 0;

  constructor(id: string, dispatcher: Dispatcher, options: Required<SessionOptions>, streams?: Streams) {
    this.id = id;
    this.#options = options;
    this.#streams = streams;
    this.connection = new Connection(
      dispatcher,
      (message) => {
        if (!Array.isArray(message)) this.#write(this.#standalone(), message);
      },
      true,
    );
  }

  /** The headers of this session's replies. */
  get headers(): Record<string, string> {
    this.#headers ??= { "mcp-session-id": this.id };
    return this.#headers;
  }

  /** True while a client holds a stream of this session open. */
  get streaming(): boolean {
    for (const log of this.#logs?.values() ?? []) if (log.live && !log.live.closed) return true;
    return false;
  }

  /** Opens the SSE stream of one POST. */
  openStream(onCancel: () => void): SessionStream {
    const log = this.#log(this.#nextStream++);
    const channel = this.#attach(log, onCancel);
    return {
      channel,
      send: (message) => this.#write(log, message),
      detach: () => {
        // Only a client primed with an event id can come back for the rest (SEP-1699); an older one keeps its stream.
        if (!this.#resumable) return false;
        log.live = undefined;
        channel.close();
        this.#touch();
        return true;
      },
      end: () => {
        log.done = true;
        log.live?.close();
        log.live = undefined;
        this.#touch();
      },
    };
  }

  /** Opens the standalone GET stream, or answers undefined when one is already open (one per session). */
  openStandalone(): SseChannel | undefined {
    const log = this.#standalone();
    if (log.live && !log.live.closed) return undefined;
    return this.#attach(log, () => {});
  }

  /** Resumes a stream after `lastEventId`: replays what followed, then continues live unless the stream ended. */
  resume(lastEventId: string): SseChannel | undefined {
    const [stream, seq] = lastEventId.split("-").map(Number);
    const log = stream === undefined ? undefined : this.#logs?.get(stream);
    if (!log || seq === undefined || Number.isNaN(seq)) return undefined;
    const channel = new SseChannel(() => this.#touch(), this.#streams);
    for (const event of log.events) if (event.seq > seq) channel.write(event.chunk);
    if (log.done) channel.close();
    else {
      log.live?.close();
      log.live = channel;
    }
    return channel;
  }

  close(): void {
    this.connection.close("The session ended");
    for (const log of this.#logs?.values() ?? []) log.live?.close();
  }

  /** The streams of this session by id, made on first use with stream 0 first (the oldest, for `#forgetOldest`). */
  #all(): Map<number, StreamLog> {
    this.#logs ??= new Map([[0, newLog(0)]]);
    return this.#logs;
  }

  #log(id: number): StreamLog {
    const log = newLog(id);
    this.#all().set(id, log);
    return log;
  }

  /** Stream 0: the standalone GET stream, and where server-initiated messages go (never ended, so never forgotten). */
  #standalone(): StreamLog {
    return this.#all().get(0)!;
  }

  #attach(log: StreamLog, onCancel: () => void): SseChannel {
    const channel = new SseChannel(() => {
      if (log.live === channel) log.live = undefined;
      this.#touch();
      onCancel();
    }, this.#streams);
    log.live?.close();
    log.live = channel;
    // The priming event (an id and empty data) lets the client resume even before the first message (SEP-1699).
    if (this.#resumable) channel.write(`id: ${log.id}-${log.seq}\nretry: ${this.#options.retryMs}\ndata: \n\n`);
    return channel;
  }

  /**
   * A session is in use for as long as a stream of it is open, so idleness counts from when one
   * closes: a client resuming a long-held stream after a drop still finds its session (2025-11-25 "Resumability").
   */
  #touch(): void {
    this.lastActive = Date.now();
  }

  /** Priming events and `retry` came with 2025-11-25; older clients are sent plain events with ids. */
  get #resumable(): boolean {
    return (this.connection.session?.protocolVersion ?? "") >= "2025-11-25";
  }

  #write(log: StreamLog, message: JsonRpcMessage): void {
    const seq = ++log.seq;
    const chunk = sseEvent(message, `${log.id}-${seq}`);
    log.events.push({ seq, chunk });
    if (++this.#events > this.#options.eventHistory) this.#forgetOldest();
    log.live?.write(chunk);
  }

  #forgetOldest(): void {
    for (const [id, log] of this.#logs ?? []) {
      if (log.events.length === 0) continue;
      log.events.shift();
      this.#events--;
      if (log.done && log.events.length === 0) this.#logs!.delete(id);
      return;
    }
  }
}

function newLog(id: number): StreamLog {
  return { id, events: [], seq: 0, live: undefined, done: false };
}

/** Live sessions in least-recently-used order (a Map keeps insertion order; a touch re-inserts). */
export class SessionStore {
  readonly #sessions = new Map<string, HttpSession>();
  readonly #options: Required<SessionOptions>;
  readonly #dispatcher: Dispatcher;
  readonly #streams: Streams | undefined;

  constructor(dispatcher: Dispatcher, options: SessionOptions = {}, streams?: Streams) {
    this.#dispatcher = dispatcher;
    this.#streams = streams;
    this.#options = {
      idleTimeoutMs: options.idleTimeoutMs ?? 30 * 60_000,
      maxSessions: options.maxSessions ?? 1000,
      eventHistory: options.eventHistory ?? 100,
      retryMs: options.retryMs ?? 1000,
    };
    // One subscription for every session, rather than a listener each: list_changed and updates.
    dispatcher.registry.subscribe((event) => {
      for (const session of this.#sessions.values()) session.connection.notify(event);
    });
  }

  get size(): number {
    return this.#sessions.size;
  }

  get(id: string): HttpSession | undefined {
    this.#sweep();
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    session.lastActive = Date.now();
    this.#sessions.delete(id);
    this.#sessions.set(id, session);
    return session;
  }

  create(): HttpSession {
    this.#sweep();
    if (this.#sessions.size >= this.#options.maxSessions) {
      const oldest = this.#sessions.keys().next().value;
      if (oldest !== undefined) this.delete(oldest);
    }
    // Session ids must be unguessable (2025-11-25 "Security Best Practices").
    const session = new HttpSession(crypto.randomUUID(), this.#dispatcher, this.#options, this.#streams);
    this.#sessions.set(session.id, session);
    return session;
  }

  delete(id: string): boolean {
    const session = this.#sessions.get(id);
    if (!session) return false;
    this.#sessions.delete(id);
    session.close();
    return true;
  }

  closeAll(): void {
    for (const id of [...this.#sessions.keys()]) this.delete(id);
  }

  /** Forgets idle sessions, oldest first; one holding a stream open is in use, not idle. */
  #sweep(): void {
    const cutoff = Date.now() - this.#options.idleTimeoutMs;
    for (const [id, session] of this.#sessions) {
      if (session.lastActive > cutoff) break;
      if (!session.streaming) this.delete(id);
    }
  }
}
