/**
 * What the history asks of a stream's reader (log-reader.ts's LogReader), declared here so that the
 * history does not import its reader back.
 */
export interface StreamReader {
  /** The number of the last event the reader has sent or holds. */
  readonly cursor: number;
  readonly closed: boolean;
  /** The log has a new event, or ended. */
  wake(): void;
  /**
   * The history forgot the next event before it was sent: the reader holds it, or, too far behind,
   * lets it go when it is a notification (`notice`).
   */
  adopt(event: Uint8Array, notice: boolean): void;
  close(): void;
}

/**
 * The events of one SSE stream of a session, kept so that a client can resume the stream with
 * `Last-Event-ID` (2025-11-25 §"Resumability and Redelivery"). Event ids are `<stream>-<seq>`; what
 * is kept is every event after `forgotten`, in order and without a gap, so a resume either gets
 * exactly what followed its id or, for an id before `forgotten`, a 404: never a silent gap.
 */
export class StreamLog {
  readonly id: number;
  /** The number of the last event written; 0 before the first. */
  seq = 0;
  /** Every event up to this number is forgotten. */
  forgotten = 0;
  /** The stream ended: nothing more is written, and its reader closes once it has sent the rest. */
  done = false;
  /** The number of the event that carries the request's answer; 0 before it is written. */
  answer = 0;
  /** The number of the last event a reader has sent: the client has the answer once this reaches `answer`. */
  sent = 0;
  /**
   * Shared state (`pico({ state })`): the number of the last event the shared history keeps, with
   * every event before it. Once this reaches `answer`, a client resuming on any instance gets the
   * answer from there (http/history-mirror.ts).
   */
  shared = 0;
  /** Who reads the stream now, if anyone. */
  reader: StreamReader | undefined;
  readonly #events: Uint8Array[] = [];

  constructor(id: number) {
    this.id = id;
  }

  /** The event after `seq`, if it is written and kept. */
  after(seq: number): Uint8Array | undefined {
    return this.#events[seq - this.forgotten];
  }

  /** Events kept now. */
  get kept(): number {
    return this.#events.length;
  }

  push(event: Uint8Array): void {
    this.#events.push(event);
  }

  /** Forgets the oldest kept event, and answers it. */
  shift(): Uint8Array {
    this.forgotten++;
    return this.#events.shift()!;
  }
}

/**
 * The server's budget for the history of every session (`limits.maxHistoryBytes`), and the caps of
 * one session (`limits.maxHistoryBytesPerSession`, `sessions.eventHistory`).
 *
 * Past the server's cap, the session holding the most bytes forgets its oldest event, again until
 * the total fits: a session that keeps little is the last to lose anything, so a client flooding
 * its own sessions with large results cannot flush the history of the others before its own.
 */
export class HistoryBudget {
  bytes = 0;
  readonly max: number;
  readonly perSession: number;
  readonly maxEvents: number;
  /** The sessions that keep at least one event, oldest first (the first of equals loses first). */
  readonly #holders = new Set<SessionHistory>();

  constructor(max: number, perSession: number, maxEvents: number) {
    this.max = max;
    this.perSession = perSession;
    this.maxEvents = maxEvents;
  }

  add(session: SessionHistory, bytes: number): void {
    this.bytes += bytes;
    this.#holders.add(session);
  }

  remove(session: SessionHistory, bytes: number): void {
    this.bytes -= bytes;
    if (session.bytes === 0) this.#holders.delete(session);
  }

  /** Whether a session keeps an answer that no reader has sent (see SessionHistory.unanswered). */
  get unanswered(): boolean {
    for (const session of this.#holders) if (session.unanswered) return true;
    return false;
  }

  /** Forgets until the server's cap holds: always from the session that holds the most. */
  trim(): void {
    while (this.bytes > this.max) {
      let largest: SessionHistory | undefined;
      for (const session of this.#holders) if (!largest || session.bytes > largest.bytes) largest = session;
      if (!largest) return;
      largest.forgetOldest();
    }
  }
}

/**
 * The streams of one legacy session and the events it keeps of them. The session forgets its
 * oldest event first, whatever stream it belongs to, past its own caps (`eventHistory` events,
 * `maxHistoryBytesPerSession` bytes); the server's budget may make it forget more (see
 * HistoryBudget). An event forgotten before a live reader sent it goes to that reader, within its
 * buffer (see LogReader.adopt).
 */
export class SessionHistory {
  /** Bytes kept now. */
  bytes = 0;
  /**
   * The stream of what the server sends the session on its own, which its GET streams read (2025-11-25
   * "Listening for Messages from the Server"): never ended. The session's own numbers about its
   * streams are kept here too, made with its first stream: an idle session that never had one keeps
   * none of them (8 B of heap each).
   */
  readonly standalone: StreamLog;
  /** The number of the next stream a POST opens, in one process (a shared session's mirror numbers its streams). */
  nextStream = 1;
  /** A client opened the standalone stream here: a shared session writes it only then (the instance holding it does). */
  standaloneOpened = false;
  /** The last event of the standalone stream that a GET stream sent. */
  standaloneRead = 0;
  readonly #budget: HistoryBudget;
  readonly #logs = new Map<number, StreamLog>();
  /** Every kept event's stream and size, and whether it is a notification, oldest first. */
  readonly #order: { log: StreamLog; size: number; notice: boolean }[] = [];
  /** The session ended: nothing more is kept. */
  #cleared = false;

  /** `standaloneId`: 0 in one process; a number of its own when shared, as every instance has a standalone stream. */
  constructor(budget: HistoryBudget, standaloneId: number) {
    this.#budget = budget;
    this.standalone = this.open(standaloneId);
  }

  /** Starts a stream. */
  open(id: number): StreamLog {
    const log = new StreamLog(id);
    this.#logs.set(id, log);
    return log;
  }

  get(id: number): StreamLog | undefined {
    return this.#logs.get(id);
  }

  streams(): IterableIterator<StreamLog> {
    return this.#logs.values();
  }

  /**
   * Whether a stream keeps an answer that no reader has sent: its client comes back for it with
   * `Last-Event-ID` (SEP-1699 polling, or a dropped connection). One forgotten is past sending; one
   * in the shared history is for whichever instance the client comes back to.
   */
  get unanswered(): boolean {
    for (const log of this.#logs.values()) if (log.answer > Math.max(log.sent, log.forgotten, log.shared)) return true;
    return false;
  }

  /**
   * Keeps the next event of `log` (numbered `log.seq`), hands it to a reader with room, then enforces
   * the caps. `notice`: the event is a notification, which a reader too far behind may let go.
   */
  keep(log: StreamLog, event: Uint8Array, notice: boolean): void {
    if (this.#cleared) return;
    const size = event.byteLength;
    log.push(event);
    this.#order.push({ log, size, notice });
    this.bytes += size;
    this.#budget.add(this, size);
    // A reader that keeps up takes the event before any cap can forget it.
    log.reader?.wake();
    const budget = this.#budget;
    while (this.#order.length > budget.maxEvents || this.bytes > budget.perSession) this.forgetOldest();
    budget.trim();
  }

  /** Ends a stream: its reader sends what is left, and a stream with nothing kept is forgotten now. */
  end(log: StreamLog): void {
    log.done = true;
    log.reader?.wake();
    if (log.kept === 0) this.#logs.delete(log.id);
  }

  forgetOldest(): void {
    const oldest = this.#order.shift();
    if (!oldest) return;
    const { log, size, notice } = oldest;
    const event = log.shift();
    this.bytes -= size;
    this.#budget.remove(this, size);
    const reader = log.reader;
    if (reader && reader.cursor < log.forgotten) reader.adopt(event, notice);
    if (log.done && log.kept === 0) this.#logs.delete(log.id);
  }

  /** The session ended: everything it kept leaves the server's budget. */
  clear(): void {
    this.#cleared = true;
    const bytes = this.bytes;
    this.bytes = 0;
    this.#order.length = 0;
    this.#logs.clear();
    this.#budget.remove(this, bytes);
  }
}
