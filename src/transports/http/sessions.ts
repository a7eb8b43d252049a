import type { Dispatcher } from "../../core/dispatch.js";
import type { JsonRpcMessage, RequestId } from "../../core/jsonrpc.js";
import { Connection } from "../connection.js";
import type { HistoryBudget, SessionHistory, StreamLog } from "./history.js";
import type { LogReader } from "./log-reader.js";
import type { SessionOptions } from "./options.js";
import { type SseSink, type SseStream, type Streams, sseEvent } from "./sse.js";

type StreamCode = typeof import("./stream-code.js");

/** The code of sessions' streams once loaded (see stream-code.ts), shared by every session store. */
let streamCode: StreamCode | undefined;
let streamCodeLoading: Promise<StreamCode> | undefined;

/** Loads the code of sessions' streams, once; resolves at once when it has loaded. */
function loadStreamCode(): Promise<StreamCode> {
  streamCodeLoading ??= import("./stream-code.js").then((code) => (streamCode = code));
  return streamCodeLoading;
}

/** The writing end of one SSE stream of a session. */
export interface SessionStream {
  readonly channel: SseStream;
  send(message: JsonRpcMessage): void;
  /** Closes the connection but keeps the stream resumable: the client comes back with `Last-Event-ID` (SEP-1699 polling). False, keeping it open, when the client could not come back for the rest. */
  detach(): boolean;
  end(): void;
}

const encoder = new TextEncoder();

/**
 * Where the sessions shared by several instances (`pico({ state })`) copy what they write, so that
 * another instance can resume their streams: stream numbers unique across instances, each event, each
 * end. One for the store, told which session (`session`, its id) each time: one of each session's own
 * was an object and five closures of every idle session.
 */
export interface SessionMirror {
  streamId(): number;
  /** `request`: the request whose answer the stream carries (none for the standalone stream). */
  opened(session: string, stream: number, request?: RequestId): void;
  /**
   * Event `seq` of `log`, kept here (`notice`: a notification): the mirror counts it in `log.shared`
   * once the shared history keeps it.
   */
  kept(session: string, log: StreamLog, event: { seq: number; text: string; notice: boolean }): void;
  ended(session: string, stream: number): void;
  /** This instance's reader of `log` ended, having sent its events up to `log.sent`. */
  left(session: string, log: StreamLog): void;
}

/** `<stream>-<seq>`, as this server numbers events. */
const EVENT_ID = /^(\d{1,15})-(\d{1,15})$/;

/**
 * One legacy Streamable HTTP session (`Mcp-Session-Id`): the connection state of the handshake,
 * the standalone GET stream (stream 0) for server-initiated messages, and a bounded event history.
 * An idle session holds little: its streams and their history are made when the first one opens
 * or the server first sends something, and registry events reach it through its store.
 */
export class HttpSession {
  readonly id: string;
  readonly connection: Connection;
  /** When the session was last used, in milliseconds on its store's clock (SessionStore's #now), which sets it. */
  lastActive = 0;
  /** The store that holds it: what every session of it shares (its settings, history budget, streams) is read there. */
  readonly #store: SessionStore;
  /** Its streams, made with the first (`#all`). */
  #history: SessionHistory | undefined;
  #mirror: SessionMirror | undefined;

  constructor(id: string, store: SessionStore, mirror: SessionMirror | undefined) {
    this.id = id;
    this.#store = store;
    this.#mirror = mirror;
    this.connection = new Connection(store.dispatcher, this, true);
  }

  /** What the connection sends on its own goes on stream 0; a batch's answers are its POST's answer (handler.ts), never sent here. */
  deliver(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (!Array.isArray(message)) this.#sendOwn(message);
  }

  /**
   * Resolves once this session can open and resume streams (the code of streams has loaded);
   * undefined when it can already.
   */
  streamsReady(): Promise<unknown> | undefined {
    return streamCode ? undefined : loadStreamCode();
  }

  /** A message the server sends on its own (stream 0), kept until a GET stream reads it. */
  #sendOwn(message: JsonRpcMessage): void {
    if (streamCode) {
      this.#write(this.#all().standalone, message);
      return;
    }
    // The first such message loads the code of streams; those sent meanwhile follow in order, as the
    // reactions to one promise run in the order they were added.
    loadStreamCode().then(() => {
      if (!this.ended) this.#write(this.#all().standalone, message);
    });
  }

  /** The headers of this session's replies, made for each: kept, they were 40 B of heap of every session used once, and a field of every idle one. */
  get headers(): Record<string, string> {
    return { "mcp-session-id": this.id };
  }

  /**
   * A request of the session that was in flight is over (Transport.requestDone): the session was in
   * use while it ran (`inUse`), so its idleness counts from now. Its last use was otherwise the
   * request's start, however long it ran: one answered as JSON after more than idleTimeoutMs, with
   * no other request meanwhile to sweep, left its session to expire before the client's next request.
   * (A stream's end marks it used as well, see `#openStream`.) A request answered in the turn it
   * came is never in flight: its start, which SessionStore.get marked, is its end.
   */
  requestDone(): void {
    this.#store.touch(this);
  }

  /**
   * True while the session is in use: a request of it is in progress, a client holds a stream of it
   * open, or a task of it holds it (Session.tasks).
   */
  get inUse(): boolean {
    if (this.connection.size > 0 || this.connection.session?.tasks?.held()) return true;
    for (const log of this.#history?.streams() ?? []) if (log.reader && !log.reader.closed) return true;
    return false;
  }

  /**
   * Opens the SSE stream of one POST, that of `request`. Before the code of streams has loaded (the
   * first stream of the process), the stream is opened once it has, and what is sent meanwhile waits for it.
   */
  openStream(request?: RequestId): SessionStream {
    if (!streamCode)
      return new DeferredStream(
        loadStreamCode().then(() => this.#openStream(request)),
        this.#resumable,
      );
    return this.#openStream(request);
  }

  #openStream(request: RequestId | undefined): SessionStream {
    const history = this.#all();
    const log = history.open(this.#mirror ? this.#mirror.streamId() : history.nextStream++);
    this.#mirror?.opened(this.id, log.id, request);
    const reader = this.#read(log, log.seq);
    return {
      channel: reader,
      send: (message) => this.#write(log, message),
      detach: () => {
        // Only a client primed with an event id can come back for the rest (SEP-1699); an older one keeps its stream.
        if (!this.#resumable) return false;
        reader.finish();
        return true;
      },
      end: () => {
        history.end(log);
        this.#mirror?.ended(this.id, log.id);
        // A session is in use for as long as a stream of it is open, so idleness counts from when one
        // closes: a client resuming a long-held stream after a drop still finds its session (2025-11-25 "Resumability").
        this.#store.touch(this);
      },
    };
  }

  /**
   * Opens the standalone GET stream. It starts with what the server sent on its own since the last
   * GET stream read (`#standaloneRead`): a question asked before the client opened its first GET
   * stream is on it (2025-11-25 "Listening for Messages from the Server"). One is read at a time, as
   * each message goes on one stream (2025-11-25 "Multiple Connections"): a GET while one is open ends
   * that one first (the server "MAY close the SSE stream at any time"). A client does not open a
   * second while it reads the first; the one open is most likely a connection that died without
   * closing (a network drop, a laptop asleep), which would otherwise hold its place for good.
   */
  openStandalone(): SseStream {
    const history = this.#all();
    const log = history.standalone;
    // Ended before the new one starts: its end records what it sent (`standaloneRead`), which the new one follows.
    log.reader?.close();
    history.standaloneOpened = true;
    this.#mirror?.opened(this.id, log.id);
    return this.#read(log, Math.max(history.standaloneRead, log.forgotten));
  }

  /**
   * Resumes a stream after `lastEventId`: sends what followed, then the rest live unless the stream
   * ended. It starts with a priming event too, carrying `lastEventId` (2025-11-25 "Resumability and
   * Redelivery"): the SDKs keep the last id per connection, so one that died before carrying an event
   * would otherwise come back without any, and what was written to it would be lost. Undefined (a
   * 404) when that cannot be done exactly: an id this server did not issue, events after it already
   * forgotten, or an ended stream with nothing after it.
   */
  resume(lastEventId: string): SseStream | undefined {
    const named = this.#named(lastEventId);
    if (!named) return undefined;
    const { log, seq } = named;
    if (seq < log.forgotten || seq > log.seq || (log.done && seq === log.seq)) return undefined;
    return this.#read(log, seq);
  }

  /**
   * Whether a GET with `lastEventId` (null: without one) takes the place of a stream of this session
   * read now, the standalone stream or the one the id names: it then takes that reader's place among
   * the endpoint's streams too (`limits.maxSseStreams`), so a client whose connection died without
   * closing still gets its stream back at the limit.
   */
  replacesReader(lastEventId: string | null): boolean {
    const log = lastEventId === null ? this.#history?.standalone : this.#named(lastEventId)?.log;
    return log?.reader !== undefined && !log.reader.closed;
  }

  /** The stream of this session an event id names, and the event's number in it. */
  #named(lastEventId: string): { log: StreamLog; seq: number } | undefined {
    const match = EVENT_ID.exec(lastEventId);
    const log = match ? this.#history?.get(Number(match[1])) : undefined;
    return match && log ? { log, seq: Number(match[2]) } : undefined;
  }

  /**
   * True once the session ended (DELETE, eviction, expiry, shutdown): its store let go of it, which
   * it does before it closes it (SessionStore.delete), and its id answers 404.
   */
  get ended(): boolean {
    return this.#store.peek(this.id) !== this;
  }

  /**
   * A shared session ended everywhere (DELETE, expiry), not only here: nothing more of it is copied
   * to the shared history, which is cleared after the last of what was (shared.ts), lest its requests'
   * answers, written as it closes, make that history again. They still reach a reader here; one
   * reading elsewhere writes its own (remote-reader.ts). Eviction closes a copy without this: the
   * session goes on elsewhere, and its answers are read there.
   */
  unshare(): void {
    this.#mirror = undefined;
  }

  /** Ends the session; only its store does, once it let go of it (`ended`). */
  close(): void {
    this.connection.close("The session ended");
    // Its requests in progress are answered, in the microtasks that follow, with why they were
    // cancelled (respond.ts): their streams close after that, so that a reader gets the answer.
    setTimeout(() => this.#closeStreams(), 0);
  }

  #closeStreams(): void {
    const history = this.#history;
    if (!history) return;
    for (const log of history.streams()) log.reader?.close();
    history.clear();
  }

  /**
   * The streams of this session, made on first use with the standalone stream first: stream 0 in
   * one process, a number of its own when shared, as every instance has a standalone stream.
   */
  #all(): SessionHistory {
    // Only called once the code of streams has loaded (`streamsReady`, `openStream`, `#sendOwn`).
    this.#history ??= new streamCode!.SessionHistory(
      this.#store.historyBudget(),
      this.#mirror ? this.#mirror.streamId() : 0,
    );
    return this.#history;
  }

  /**
   * The priming event of a stream read from after event `after` of stream `stream`: an id and empty
   * data, which lets the client resume even before the first message, and how long to wait before it
   * does (2025-11-25 "Resumability and Redelivery", SEP-1699). Undefined for a client before
   * 2025-11-25, which does not expect it.
   */
  priming(stream: number, after: number): string | undefined {
    return this.#resumable ? `id: ${stream}-${after}\nretry: ${this.#store.options.retryMs}\ndata: \n\n` : undefined;
  }

  /** A new reader of `log` from the event after `after`, primed: it replaces the stream's previous reader. */
  #read(log: StreamLog, after: number): LogReader {
    const history = this.#all();
    const reader: LogReader = new streamCode!.LogReader(log, after, {
      prelude: this.priming(log.id, after),
      streams: this.#store.streams,
      expires: this.#resumable || log === history.standalone,
      onEnd: () => {
        if (log === history.standalone) history.standaloneRead = Math.max(history.standaloneRead, reader.cursor);
        if (log.reader === reader) log.reader = undefined;
        this.#mirror?.left(this.id, log);
        // Idleness counts from when its last stream closes (see `#openStream`'s end).
        this.#store.touch(this);
      },
    });
    log.reader?.close();
    log.reader = reader;
    return reader;
  }

  /** Priming events and `retry` came with 2025-11-25; older clients are sent plain events with ids. */
  get #resumable(): boolean {
    return (this.connection.session?.protocolVersion ?? "") >= "2025-11-25";
  }

  /** Keeps the event in the history, encoded once: the history counts bytes, and readers send the same bytes. */
  #write(log: StreamLog, message: JsonRpcMessage): void {
    if (log.done) return;
    const mirror = this.#mirror;
    const history = this.#all();
    // No GET stream of this shared session here: the instance holding it writes what it needs (the bus tells it).
    if (mirror && log === history.standalone && !history.standaloneOpened) return;
    const seq = log.seq + 1;
    // Before it is kept: a resume replays what the history holds.
    const redact = this.#store.redact;
    const text = sseEvent(redact ? redact(this, message) : message, `${log.id}-${seq}`);
    if (text === undefined) return;
    log.seq = seq;
    if (!("method" in message)) log.answer = seq;
    const notice = "method" in message && !("id" in message);
    history.keep(log, encoder.encode(text), notice);
    mirror?.kept(this.id, log, { seq, text, notice });
  }
}

/**
 * The largest integer V8 keeps in an object's field itself (a Smi) on every platform: 31 bits with
 * pointer compression (Workers' V8), 32 without (Node's). A larger number, or a fraction, is a heap
 * number of its own, 16 B more.
 */
const SMALL_INTEGER = 2 ** 30 - 1;

/**
 * `integer` as a small integer when it is one (`| 0`): the difference of two Date.now()s is a heap
 * number, however small, until an integer operation makes it one.
 */
function small(integer: number): number {
  return Math.abs(integer) <= SMALL_INTEGER ? integer | 0 : integer;
}

/**
 * Live sessions, in the order they were opened: a use of one writes its `lastActive` and nothing
 * else. Kept in order of use instead (a delete and a set on each), the map grew to twice its
 * capacity, 72 B of every session that served a request, and each call paid for the re-keying.
 */
export class SessionStore {
  readonly #sessions = new Map<string, HttpSession>();
  /**
   * When, on the store's clock, a session may first have been idle for idleTimeoutMs: the earliest
   * last use the last sweep left, plus idleTimeoutMs (Infinity with no session). A use only moves a
   * last use later, so none expires before it: a request sweeps once it has come, not every time.
   */
  #sweepDue = Number.POSITIVE_INFINITY;
  /** The settings, defaults applied. */
  readonly options: Required<SessionOptions>;
  /** The dispatcher of every session's connection. */
  readonly dispatcher: Dispatcher;
  /** The endpoint's SSE streams, which every session's readers count themselves in. */
  readonly streams: Streams | undefined;
  /** Made with the code of streams, for the first stream of a session of this store. */
  #budget: HistoryBudget | undefined;
  /** Ends the store's subscription to its registry (`close`). */
  readonly #unsubscribe: () => void;
  /**
   * Where the store's clock starts (a Date.now()): a session's last use is the milliseconds since,
   * a small integer in its object, where a Date.now() of its own is a heap number (16 B of every
   * idle session). `#now` moves it on before that count outgrows a small integer.
   */
  #epoch = Date.now();
  /**
   * Cuts secrets out of a message before a session keeps and writes it: the bearer tokens its
   * requests presented (auth/gate.ts's `redacted`), on every stream of it, the GET stream too. Unset
   * without auth. One for the store, not one per session: a session's own was a field of every idle one.
   */
  redact: ((session: HttpSession, message: JsonRpcMessage) => JsonRpcMessage) | undefined;
  /** Set for sessions shared by several instances (`pico({ state })`, shared.ts). */
  mirror: SessionMirror | undefined;

  constructor(dispatcher: Dispatcher, options: SessionOptions = {}, streams?: Streams) {
    this.dispatcher = dispatcher;
    this.streams = streams;
    this.options = {
      idleTimeoutMs: options.idleTimeoutMs ?? 30 * 60_000,
      maxSessions: options.maxSessions ?? 1000,
      eventHistory: options.eventHistory ?? 100,
      retryMs: options.retryMs ?? 1000,
    };
    // One subscription for every session, rather than a listener each: list_changed and updates.
    this.#unsubscribe = dispatcher.registry.subscribe((event) => {
      for (const session of this.#sessions.values()) session.connection.notify(event);
    });
    // The shutdown waits for the answers of the sessions' streams to reach their clients (delivery.ts).
    // A request in progress may open the store's first stream during the grace period: the budget is
    // read on each look, not now.
    dispatcher.finishing.push(async () => {
      if (!this.#budget && ![...this.#sessions.values()].some((session) => session.inUse)) return;
      const { delivered } = await loadStreamCode();
      await delivered(() => this.#budget, this.#sessions, dispatcher.limits.shutdownGraceMs);
    });
  }

  /** The ids of the sessions this process holds now, without touching them. */
  ids(): string[] {
    return [...this.#sessions.keys()];
  }

  /** The session, if this process holds it, without touching it (a read for the store's sake, not a use). */
  peek(id: string): HttpSession | undefined {
    return this.#sessions.get(id);
  }

  /**
   * A session of this store (`peek`), used now; undefined where it expired: expired sessions go
   * first, so one idle for idleTimeoutMs is gone.
   */
  use(session: HttpSession): HttpSession | undefined {
    const now = this.#now();
    // Only a sweep lets a session go, and one is due now and then (`#sweepDue`), not on every use:
    // the session is looked up again only then.
    if (this.#sweep(now) && this.#sessions.get(session.id) !== session) return undefined;
    session.lastActive = now;
    return session;
  }

  /** Marks a session of this store used now, without a request of it (a stream of it closed). A session the store let go stays out of it. */
  touch(session: HttpSession): void {
    if (this.#sessions.get(session.id) === session) session.lastActive = this.#now();
  }

  /**
   * Now on the store's clock (see `#epoch`). Every 12 days (SMALL_INTEGER ms) the clock starts again
   * from 0 and every session's last use goes back as much: the time since each, which idle expiry
   * reads, is the same. A session then idle for longer than that (idleTimeoutMs of more than 12 days)
   * keeps a heap number, and expires as exactly.
   */
  #now(): number {
    const now = Date.now() - this.#epoch;
    if (Math.abs(now) <= SMALL_INTEGER) return now | 0;
    this.#epoch += now;
    for (const session of this.#sessions.values()) session.lastActive = small(session.lastActive - now);
    this.#sweepDue -= now;
    return 0;
  }

  /** A new session; `id`: a shared session another instance opened, made here for its requests. */
  create(id: string = crypto.randomUUID()): HttpSession {
    const now = this.#now();
    this.#sweep(now);
    if (this.#sessions.size >= this.options.maxSessions) {
      const evicted = this.#leastRecentlyUsed();
      if (evicted) this.delete(evicted.id);
    }
    // Session ids must be unguessable (2025-11-25 "Security Best Practices").
    const session = new HttpSession(id, this, this.mirror);
    session.lastActive = now;
    this.#sessions.set(session.id, session);
    this.#sweepDue = Math.min(this.#sweepDue, now + this.options.idleTimeoutMs);
    return session;
  }

  /**
   * The session to evict: the least recently used idle one; one in use (a request in progress, a
   * stream open) only when every session is, the least recently used: a flood of initialize requests
   * does not cut off work in progress. Found by last use, of those used in the same millisecond the
   * first opened, in a walk of every session: only a session opened at maxSessions pays for it.
   */
  #leastRecentlyUsed(): HttpSession | undefined {
    let idle: HttpSession | undefined;
    let any: HttpSession | undefined;
    for (const session of this.#sessions.values()) {
      if (!any || session.lastActive < any.lastActive) any = session;
      if ((!idle || session.lastActive < idle.lastActive) && !session.inUse) idle = session;
    }
    return idle ?? any;
  }

  /** The history budget every session of this store shares (only asked for once the code of streams has loaded). */
  historyBudget(): HistoryBudget {
    const { maxHistoryBytes, maxHistoryBytesPerSession } = this.dispatcher.limits;
    this.#budget ??= new streamCode!.HistoryBudget(
      maxHistoryBytes,
      maxHistoryBytesPerSession,
      this.options.eventHistory,
    );
    return this.#budget;
  }

  delete(id: string): boolean {
    const session = this.#sessions.get(id);
    if (!session) return false;
    this.#sessions.delete(id);
    session.close();
    return true;
  }

  /** Ends every session, and lets go of the registry (the server closed: it serves nothing more). */
  close(): void {
    this.#unsubscribe();
    for (const id of [...this.#sessions.keys()]) this.delete(id);
  }

  /**
   * Forgets the sessions idle for idleTimeoutMs, once one may be (`#sweepDue`): a walk of every
   * session when the earliest last use reaches its expiry, not on every request. One holding a
   * stream open or with a request in progress is in use, not idle (see HttpSession.#openStream's
   * end): marked used now, the sweeps after it do not look at it again before idleTimeoutMs. True
   * when it swept.
   */
  #sweep(now: number): boolean {
    if (now < this.#sweepDue) return false;
    const timeout = this.options.idleTimeoutMs;
    let earliest = Number.POSITIVE_INFINITY;
    // Values, not entries: an entry is an array made for each step.
    for (const session of this.#sessions.values()) {
      if (now - session.lastActive >= timeout) {
        if (!session.inUse) {
          this.delete(session.id);
          continue;
        }
        session.lastActive = now;
      }
      earliest = Math.min(earliest, session.lastActive);
    }
    this.#sweepDue = earliest + timeout;
    return true;
  }
}

/**
 * A session's POST stream opened before the code of streams has loaded: the reply streams at once,
 * and what the request sends, and how it ends, is passed on in order to the real stream once it is
 * open (a tick or so later, once in the life of the process).
 */
class DeferredStream implements SessionStream, SseStream {
  readonly channel: SseStream = this;
  readonly #resumable: boolean;
  #stream: SessionStream | undefined;
  /** What happened before the stream opened, in order. */
  #pending: ((stream: SessionStream) => void)[] | undefined = [];
  /** Its token's expiry ends the stream once open, as it ends a POST stream its client resumes (`#read`'s `expires`). */
  readonly expire: (() => void) | undefined;

  constructor(opening: Promise<SessionStream>, resumable: boolean) {
    this.#resumable = resumable;
    this.expire = resumable ? () => this.#then((stream) => stream.channel.expire?.()) : undefined;
    opening.then((stream) => {
      const pending = this.#pending ?? [];
      this.#stream = stream;
      this.#pending = undefined;
      for (const step of pending) step(stream);
    });
  }

  #then(step: (stream: SessionStream) => void): void {
    if (this.#stream) step(this.#stream);
    else this.#pending?.push(step);
  }

  attach(sink: SseSink): void {
    this.#then((stream) => stream.channel.attach(sink));
  }

  cancel(): void {
    this.#then((stream) => stream.channel.cancel());
  }

  /** True once the stream it stands for ended: the expiries forget it then (auth/expiries.ts). */
  get closed(): boolean {
    return this.#stream?.channel.closed ?? false;
  }

  send(message: JsonRpcMessage): void {
    this.#then((stream) => stream.send(message));
  }

  /** Whether the stream will detach is known now (the session's version says it); it detaches once open. */
  detach(): boolean {
    if (!this.#resumable) return false;
    this.#then((stream) => stream.detach());
    return true;
  }

  end(): void {
    this.#then((stream) => stream.end());
  }
}
