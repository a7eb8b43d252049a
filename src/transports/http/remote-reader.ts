import { ErrorCode } from "../../core/errors.js";
import { errorResponse, type JsonRpcResponse, type RequestId } from "../../core/jsonrpc.js";
import type { EventHistory, HistoryBounds, StreamSlice } from "../../state/state.js";
import { type SseSink, type SseStream, type Streams, sseEvent } from "./sse.js";

/** How often a reader looks at the history without being woken: a wake lost while the bus reconnected costs this much. */
const POLL_MS = 1000;

/** Numbers the readers of this instance, as the shared history tells them apart (EventHistory.follow). */
let readers = 0;

/** The answer to a request whose instance crashed while it ran, for the model: why, and what to do. */
const STOPPED = "The server instance running this request stopped before it finished; send the request again";

/**
 * The reading end of a shared session's stream that another instance writes (or wrote): sends the
 * events the shared history keeps after the client's `Last-Event-ID`, then each new one as the bus
 * says it came, until the stream ends. As a local stream's reader (log-reader.ts), it sends as fast
 * as the reader takes and no faster: the shared history is the buffer, so a reader that stops
 * reading holds nothing here. Events come in order, and a reader behind lets go of notifications
 * only, as log-reader.ts's does: notifications the history forgot before they were sent are
 * skipped (StreamSlice.unskippable), and the rest sent. The history keeps the answers and questions
 * this reader is still to send for as long as it follows the stream (EventHistory.follow); one
 * forgotten all the same (by a store without `follow`), or an event never kept, ends the stream
 * instead, and the client's next resume answers 404, never a hole where one was. A stream whose
 * instance crashed before it ended (its lease ran out) gets the request's error response, written to the history by the first of its readers to
 * see it, and ends with it. A session's GET stream whose instance crashed is carried on as a GET
 * stream of this instance (#carryOn). One whose session ended before its request's answer was read
 * gets the answer that says so (#gone).
 */
export class RemoteReader implements SseStream {
  readonly #events: EventHistory;
  readonly #session: string;
  readonly #stream: number;
  /** This reader, among the others that follow the session's streams (EventHistory.follow). */
  readonly #id = String(++readers);
  readonly #bounds: HistoryBounds;
  #cursor: number;
  /** Written first: the priming event, which carries the client's `Last-Event-ID` (HttpSession.priming). */
  #prelude: string | undefined;
  #sink: SseSink | undefined;
  #closed = false;
  #reading = false;
  #again = false;
  /** The sink said it has enough: nothing more is read until it drains. */
  #full = false;
  /** How many times the sink drained: a drain during a write (a Web stream pulling at once) counts. */
  #drains = 0;
  #poll: ReturnType<typeof setInterval> | undefined;
  #streams: Streams | undefined;
  readonly #onEnd: () => void;
  readonly #sessionEnded: (request: RequestId) => Promise<JsonRpcResponse | undefined>;
  /** The request whose answer the stream carries, as the history last said (StreamSlice.request). */
  #request: RequestId | undefined;
  readonly #ownStream: () => SseStream;
  /** This instance's GET stream of the session, which the connection carries on as (#carryOn). */
  #carried: SseStream | undefined;

  constructor(options: {
    events: EventHistory;
    session: string;
    stream: number;
    after: number;
    /** The priming event, written first (HttpSession.priming); none for a client before 2025-11-25. */
    prelude: string | undefined;
    streams: Streams;
    /** The history's caps, which the answer of a crashed instance's request counts in as any event. */
    bounds: HistoryBounds;
    onEnd: () => void;
    /** The answer to `request` if its session ended (its record is gone: DELETE, expiry); asked once the stream is gone. */
    sessionEnded: (request: RequestId) => Promise<JsonRpcResponse | undefined>;
    /** This instance's GET stream of the session, newly opened in place of any open already. */
    ownStream: () => SseStream;
  }) {
    this.#events = options.events;
    this.#session = options.session;
    this.#stream = options.stream;
    this.#bounds = options.bounds;
    this.#cursor = options.after;
    this.#prelude = options.prelude;
    this.#streams = options.streams;
    this.#onEnd = options.onEnd;
    this.#sessionEnded = options.sessionEnded;
    this.#ownStream = options.ownStream;
    options.streams.open++;
  }

  /** Whether the stream can be resumed exactly from the cursor (as HttpSession.resume decides for its own). */
  async check(): Promise<boolean> {
    const slice = await this.#slice();
    this.#request = slice.request;
    const seq = this.#cursor;
    return known(slice) && seq >= slice.forgotten && seq <= slice.last && !(slice.done && seq === slice.last);
  }

  attach(sink: SseSink): void {
    this.#sink = sink;
    const prelude = this.#prelude;
    this.#prelude = undefined;
    // Closed before anyone read it (the server shuts down): the client still learns where to resume.
    if (prelude !== undefined) sink.write(prelude);
    if (this.#closed) {
      sink.close();
      return;
    }
    this.#poll = setInterval(() => this.wake(), POLL_MS);
    sink.onDrain?.(() => {
      this.#drains++;
      this.#full = false;
      this.wake();
    });
    this.wake();
  }

  /** The stream has new events, or ended. */
  wake(): void {
    if (!this.#sink || this.#closed || this.#full) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = true;
    void this.#read();
  }

  cancel(): void {
    this.#carried?.cancel();
    this.#end();
  }

  /** Ends the connection now (the server shuts down); the client resumes elsewhere from its last event. */
  close(): void {
    this.#close();
  }

  /** Its token expired: the connection ends now, that of the GET stream it carries on as too; the client resumes with a fresh token. */
  expire(): void {
    if (this.#carried) this.#carried.expire?.();
    else this.#close();
  }

  /** True once the connection ended, whichever stream carried it last. */
  get closed(): boolean {
    return this.#carried?.closed ?? this.#closed;
  }

  async #read(): Promise<void> {
    try {
      do {
        this.#again = false;
        const slice = await this.#slice();
        if (this.#closed) return;
        this.#request = slice.request ?? this.#request;
        if (!known(slice)) return await this.#gone();
        // Forgotten before it was sent: an answer or a question cannot be skipped, nor an event never kept.
        if ((slice.unskippable ?? slice.forgotten) > this.#cursor) return this.#close();
        if (slice.last < this.#cursor) return this.#close();
        // Every number missing after the cursor was a notification the history forgot: let go, as a
        // reader that falls behind on one instance lets go of them.
        for (const event of slice.events) {
          if (event.seq <= this.#cursor) return this.#close();
          const drains = this.#drains;
          this.#cursor = event.seq;
          if (!this.#sink!.write(event.text) && this.#drains === drains) this.#full = true;
          if (this.#full) break;
        }
        if (!this.#full) this.#cursor = Math.max(this.#cursor, slice.forgotten);
        if (slice.done && this.#cursor >= slice.last) return this.#close();
        if (slice.stopped && slice.request === undefined && this.#cursor >= slice.last && !this.#full) {
          return this.#carryOn();
        }
        // Read again at once when it is written; otherwise at the next poll, which sees why not.
        if (slice.abandoned !== undefined && (await this.#answer(slice, slice.abandoned))) this.#again = true;
      } while (this.#again && !this.#closed && !this.#full);
    } catch {
      // The store is away: the client resumes from its last event, here or elsewhere, once it is back.
      this.#close();
    } finally {
      this.#reading = false;
    }
  }

  /** What the history keeps of the stream after the cursor, read as this reader's (EventHistory.follow) where the store can. */
  #slice(): Promise<StreamSlice> {
    const events = this.#events;
    const at = { stream: this.#stream, after: this.#cursor };
    return events.follow ? events.follow(this.#session, this.#id, at) : events.read(this.#session, at.stream, at.after);
  }

  /**
   * The instance running the stream's request stopped before it ended (it crashed): its answer is
   * written for it as the stream's last event, once for every reader, as the instance would have
   * ended it. A clean shutdown answers its requests itself (limits.shutdownGraceMs).
   */
  async #answer(slice: StreamSlice, request: RequestId): Promise<boolean> {
    const seq = slice.last + 1;
    const text = sseEvent(errorResponse(request, ErrorCode.InternalError, STOPPED), `${this.#stream}-${seq}`);
    const event = { stream: this.#stream, seq, text };
    return (await this.#events.abandon?.(this.#session, event, this.#bounds)) ?? false;
  }

  /**
   * The stream is a session's GET stream whose instance stopped (it crashed: its lease ran out), and
   * all it wrote is sent: nothing more will be written to it, and what is sent to the session
   * (list changes, resource updates, questions) goes to the GET streams opened where it is sent
   * (2025-11-25 "Listening for Messages from the Server"). The connection goes on as this instance's
   * GET stream of the session, primed with its first id, rather than end: a client resumes an ended
   * GET stream with its last id (the SDKs do), which would only lead it here again. What was sent to
   * the session before then reached no GET stream: the new one starts by telling the client what may
   * have changed (shared.ts's #carriedOn). A GET stream of the session open here already ends: the
   * client reads this one (HttpSession.openStandalone).
   */
  #carryOn(): void {
    const own = this.#ownStream();
    const sink = this.#sink!;
    // Its maxSseStreams slot and its place among the session's readers are the new stream's now.
    this.#end();
    this.#carried = own;
    own.attach(sink);
  }

  /**
   * The history no longer knows the stream: the session's history is gone (a DELETE cleared it, or it
   * expired), or the stream is (it ended keeping no event, and the history forgot it, as
   * http/history.ts does). Nothing more will come. A request's stream whose session ended first
   * gets the answer the instance running the request gives its own readers (respond.ts): that
   * instance writes nothing more of an ended session (shared.ts), so none would come from it.
   */
  async #gone(): Promise<void> {
    const answer = this.#request === undefined ? undefined : await this.#sessionEnded(this.#request);
    if (answer && !this.#closed) this.#sink!.write(sseEvent(answer, `${this.#stream}-${this.#cursor + 1}`));
    this.#close();
  }

  #close(): void {
    if (this.#closed) return;
    const sink = this.#sink;
    this.#end();
    sink?.close();
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#poll);
    // What it did not send is no longer its to keep: a client resuming it reads it as a new reader.
    // A leave the store cannot take now it tries again itself (EventHistory.leave).
    this.#events.leave?.(this.#session, this.#id).catch(() => {});
    if (this.#streams) this.#streams.open--;
    this.#streams = undefined;
    this.#onEnd();
  }
}

/** Whether the history knows the stream: one with nothing written yet is resumable from its priming event (seq 0) once it is known to be open. */
function known(slice: StreamSlice): boolean {
  return slice.last > 0 || slice.opened === true;
}
