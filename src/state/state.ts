import type { UsedStates } from "../asking/used-states.js";
import type { LogLevel } from "../core/envelope.js";
import { Unavailable } from "../core/errors.js";
import type { JsonRpcMessage, RequestId } from "../core/jsonrpc.js";
import type { RegistryEvent } from "../core/registry.js";
import type { ClientCapabilities, Implementation, ServerCapabilities } from "../core/types.js";
import type { TaskStore } from "../tasks/store.js";

/**
 * What must outlive a request or be seen by every instance of a server that runs as several
 * processes behind a load balancer (docs/scaling.md): 2025-11-25 sessions, their resumable event
 * history, the requestState replay guard, tasks, and a bus between the instances. Without
 * `pico({ state })` all of it stays in the process's memory, as it always has: the HTTP endpoint,
 * the asking layer and the tasks layer use their own in-memory classes and none of this is loaded.
 * `picomcp/redis` implements it on Redis.
 *
 * Every method may fail while the store is unreachable: it then rejects with `StateUnavailable`,
 * which the HTTP endpoint answers with 503 and `Retry-After` (a JSON-RPC error on a stream).
 */
export interface SharedState {
  readonly sessions: SessionRecords;
  readonly events: EventHistory;
  /** The requestState replay guard (2026-07-28 §3.4): an id claimed on one instance is refused on every other. */
  readonly usedStates: UsedStates;
  /** Tasks (2026-07-28 Tasks extension); a task whose instance stopped renewing its lease reads as `failed`. */
  readonly tasks: TaskStore;
  readonly bus: Bus;
  /** Ends what the state opened itself (its subscriber connection); the clients given to it stay the caller's. */
  close(): Promise<void>;
}

/** A 2025-11-25 session as every instance sees it: what `initialize` and later requests set (2025-11-25 "Lifecycle"). */
export interface SessionRecord {
  readonly id: string;
  readonly protocolVersion: string;
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** `notifications/initialized` came. */
  readonly initialized: boolean;
  readonly logLevel: LogLevel;
  /** The URIs of `resources/subscribe`. */
  readonly subscriptions: readonly string[];
  /** The caller who opened it (auth/owner.ts's ownerKey: a digest of issuer and subject); undefined for a session opened anonymously. */
  readonly owner: string | undefined;
  /**
   * The lists its `initialize` advertised with listChanged (sessions/peer.ts's `Session.advertised`):
   * it is told of changes only to those. A record an older version wrote may have every capability
   * advertised, read the same way; one written before it was kept has none: such a session is told
   * of every change.
   */
  readonly advertised?: ServerCapabilities | undefined;
}

export interface SessionRecords {
  /**
   * The session, its idle expiry restarted (it is being used); undefined once it expired or was
   * deleted. `idleMs`, here and below, is how long the record lives from now: idleTimeoutMs and a
   * quarter more, as an instance refreshes it at most once a quarter (transports/http/shared.ts).
   */
  get(id: string, idleMs: number): Promise<SessionRecord | undefined>;
  /**
   * The session, its idle expiry left as it is: an instance reading it for its own sake (whether it
   * still exists, what another instance changed) is no use of it, and a session whose client went
   * away must still expire (2025-11-25 "Session Management"). Optional, for a store written before
   * it: without it such a read is a `get`, which restarts the expiry each time.
   */
  peek?(id: string): Promise<SessionRecord | undefined>;
  /** Writes the record of a session just opened (`initialize`). */
  put(record: SessionRecord, idleMs: number): Promise<void>;
  /**
   * Writes `next` in place of `current`, as one step, only if the stored record is still `current`
   * (`get`'s answer): false, writing nothing, when another instance changed it meanwhile (the caller
   * reads it again and applies its change to that) or it is gone. A session that was deleted or
   * expired is never made again: a DELETE on another instance between a copy's read and its write
   * would otherwise bring the session back for `idleMs`. Optional, for a store written before it:
   * without it the copy writes with `put`, and such a race may bring the session back.
   */
  replace?(current: SessionRecord, next: SessionRecord, idleMs: number): Promise<boolean>;
  /** False when there was no such session. */
  delete(id: string): Promise<boolean>;
}

/** The caps of a session's event history: those http/history.ts enforces in memory (docs/limits.md). */
export interface HistoryBounds {
  /** Events kept per session (`sessions.eventHistory`). */
  readonly maxEvents: number;
  /** Bytes kept per session (`limits.maxHistoryBytesPerSession`). */
  readonly maxSessionBytes: number;
  /** Bytes kept for every session together (`limits.maxHistoryBytes`): past it, the session holding most forgets first. */
  readonly maxBytes: number;
}

/** An event to keep in a session's history: its stream, its number and its encoded SSE text (with its `id:` line). */
export interface HistoryEvent {
  readonly stream: number;
  readonly seq: number;
  readonly text: string;
  /**
   * A notification (a method, no id): once forgotten, a reader that had not sent it may skip it
   * (StreamSlice.unskippable). Without it, the event is an answer or a question, which none may skip.
   */
  readonly notice?: boolean;
  /**
   * A reader sent it already (the writing instance's own, as it was written): an answer or a
   * question so sent is one the caps may forget as soon as a notification, oldest first, as in
   * memory; one not sent yet is kept past every notification (see `follow`).
   */
  readonly sent?: boolean;
}

/** One kept event of a stream: its number and its encoded SSE text (with its `id:` line). */
export interface KeptEvent {
  readonly seq: number;
  readonly text: string;
}

/** What a session keeps of one of its streams after an event: resumable only if `after >= forgotten`. */
export interface StreamSlice {
  readonly events: readonly KeptEvent[];
  /**
   * The last event forgotten (or never kept): a resume from before it is refused. Those before it
   * are forgotten too, but for answers and questions kept past notifications written after them.
   */
  readonly forgotten: number;
  /**
   * The last forgotten event a reader may not skip: an answer, a question to the client, or an
   * event never kept (a write lost while the store was away). Every other event not kept after it
   * was a notification, which a reader that fell behind lets go (docs/limits.md, as
   * http/log-reader.ts does), then reads on: `events` may skip numbers after it, since the caps
   * forget notifications before the answers and questions written earlier. Optional, for a store
   * written before it: without it, every forgotten event is one not to skip.
   */
  readonly unskippable?: number;
  /** The number of the last event written. */
  readonly last: number;
  /** The stream ended. */
  readonly done: boolean;
  /** The stream was opened (`EventHistory.open`): it resumes from its priming event, before any event is written. */
  readonly opened?: boolean;
  /**
   * The instance writing the stream stopped renewing its lease (it crashed) before the stream
   * ended: the id of the request whose answer the stream still owes (see `EventHistory.abandon`).
   */
  readonly abandoned?: RequestId;
  /**
   * The instance writing the stream stopped renewing its lease before the stream ended (it crashed,
   * or shut down): nothing more will be written to it. A request's stream names its request in
   * `abandoned`; a session's GET stream, which answers no request, is carried on by its reader's
   * instance as a GET stream of its own (remote-reader.ts). Optional, for a store written before it.
   */
  readonly stopped?: boolean;
  /**
   * The request whose answer the stream carries (`open`'s `request`), until it ends. A reader that
   * once saw it, and then finds the stream gone with its session (a DELETE cleared the history, or
   * it expired), answers that request that the session ended: the instance running it writes nothing
   * more of an ended session. Optional, for a store written before it: without it such a reader
   * ends with no answer.
   */
  readonly request?: RequestId;
}

/** What `EventHistory.append` answers: false when it did not keep the event; nothing from a store written before it was asked. */
// biome-ignore lint/suspicious/noConfusingVoidType: such a store's append returns Promise<void>.
export type Appended = boolean | void;

/**
 * The resumable event history of 2025-11-25 sessions (2025-11-25 "Resumability and Redelivery"),
 * one log for all the streams of a session, oldest forgotten first. Appending also wakes the
 * instances reading the stream (a `BusMessage` of type "events").
 */
export interface EventHistory {
  /**
   * Keeps an event. False when the stream takes no more (ended for its crashed writer, see
   * `abandon`), or its session's record is gone (deleted, expired: a deleted session's history is
   * never made again); anything else says it is kept, and an instance shutting down no longer waits
   * for its client to come back there for it: any instance delivers it.
   */
  append(session: string, event: HistoryEvent, bounds: HistoryBounds): Promise<Appended>;
  end(session: string, stream: number): Promise<void>;
  /**
   * A stream opened: a client sent only its priming event (SEP-1699) can resume it on another
   * instance. Optional, for a store written before it: without it such a resume answers 404.
   * The stream is written by this instance, which holds a lease while it runs: once the lease runs
   * out before the stream ends, its readers see it `stopped`. `request`: the stream is that
   * request's, which they then see `abandoned`; none for the session's GET stream. Nothing is
   * recorded once the session's record is gone, as `append` keeps nothing then.
   */
  open?(session: string, stream: number, request?: RequestId): Promise<void>;
  read(session: string, stream: number, after: number): Promise<StreamSlice>;
  /**
   * Reads as `read` does, for `reader`, which sends what it reads to its client (remote-reader.ts),
   * and marks it as reading the stream from `at.after` on, until `leave`: the history's caps forget
   * notifications first, and never an answer or a question of the stream after the number a live
   * reader follows from (its instance's lease ran out: it is no longer live). Optional, for a store
   * written before it: without it, a reader on another instance loses an answer or a question its
   * history's caps forgot before it was sent (its stream ends, and the resume answers 404).
   */
  follow?(
    session: string,
    reader: string,
    at: { readonly stream: number; readonly after: number },
  ): Promise<StreamSlice>;
  /**
   * A reader of the writing instance sent the stream's events up to `upTo` after they were kept
   * (see HistoryEvent.sent): the caps may forget its answers and questions up to there as soon as
   * a notification. Optional, for a store written before it.
   */
  sent?(session: string, at: { readonly stream: number; readonly upTo: number }): Promise<void>;
  /**
   * `reader` stopped reading (see `follow`): what it had not sent is kept by the caps no longer. The
   * reader does not wait for it: a store that cannot take it now (Redis away) tries again until it
   * can, or a mark whose instance lives on keeps holding the session past its caps (redis/retried-leaves.ts).
   */
  leave?(session: string, reader: string): Promise<void>;
  /**
   * Ends an `abandoned` stream with `event` (the request's error response, numbered the stream's
   * last plus one), if it still is abandoned and `event.seq` still follows its last: every reader
   * then sends that answer and ends, as a stream of an answered request does. False when it is not
   * (another reader ended it first). Optional, for a store written before it: without it the stream
   * of a crashed instance's request stays open until its client gives up.
   */
  abandon?(session: string, event: HistoryEvent, bounds: HistoryBounds): Promise<boolean>;
  /**
   * The session is in use (a request of it runs, a stream of it is open): its history's expiry
   * restarts, as writing an event restarts it, so a stream open with no event for longer than that
   * expiry stays resumable, as its session stays (shared.ts calls it every quarter of the idle
   * timeout while the session is in use). Optional, for a store written before it: without it a
   * stream's history may expire while the stream is open and quiet.
   */
  prolong?(session: string): Promise<void>;
  clear(session: string): Promise<void>;
}

/** What the instances tell each other. */
export type BusMessage =
  /** A list changed or a resource was updated: every instance tells its listen and GET streams. */
  | { readonly type: "registry"; readonly event: Exclude<RegistryEvent, { type: "closed" }> }
  /** A session's record changed (subscriptions, log level) or it was deleted: copies are refreshed. */
  | { readonly type: "session"; readonly id: string }
  /** A stream of a session has new events or ended. */
  | { readonly type: "events"; readonly session: string; readonly stream: number }
  /** A client's message for whichever instance runs its request: a response to a question, a cancellation. */
  | { readonly type: "client"; readonly session: string; readonly message: JsonRpcMessage }
  /** A task's status changed. */
  | { readonly type: "task"; readonly taskId: string; readonly status: string }
  /** Answers (`tasks/update`) or a cancellation (`tasks/cancel`) for the instance running the task. */
  | { readonly type: "task-input"; readonly taskId: string; readonly responses: Record<string, unknown> }
  | { readonly type: "task-cancel"; readonly taskId: string }
  /**
   * A 2025-11-25 `tasks/result` waits for the task on another instance than the one running it: the
   * running one sends the task's messages to `relay` (tasks/relay.ts), and when it ends, forgets it.
   */
  | {
      readonly type: "task-wait";
      readonly taskId: string;
      readonly relay: string;
      /** The instance the task's record names as running it: it answers even when it holds nothing. */
      readonly runner: string | undefined;
    }
  | { readonly type: "task-unwait"; readonly taskId: string; readonly relay: string; readonly delivered: boolean }
  /** A message of a 2025-11-25 task (a question, progress, a log) for the `tasks/result` waiting at `relay`. */
  | { readonly type: "task-message"; readonly relay: string; readonly message: JsonRpcMessage }
  /** What the task kept for a `tasks/result` went out before this: the `tasks/result` at `relay` may answer. */
  | { readonly type: "task-flushed"; readonly relay: string }
  /** A URL-mode elicitation completed (2025-11-25 "URL mode"): the instance holding its session tells the client. */
  | { readonly type: "url"; readonly id: string }
  /**
   * This instance's subscription was lost and is back (each instance hears only its own): what was
   * published meanwhile never reached it, so each listener reads again what it follows.
   */
  | { readonly type: "rejoined" };

/** Messages between instances: each instance receives what the others publish, not its own. */
export interface Bus {
  /**
   * Publishes now; rejects (StateUnavailable) while the state is unreachable, for the caller to
   * answer. A message JSON cannot carry is dropped, as `announce` drops it.
   */
  publish(message: BusMessage): Promise<void>;
  /**
   * Publishes what no request waits on (a list change, a task's change, a client's message for
   * another instance): while the state is unreachable it is held, in order and bounded, and sent
   * once it is back; what the bound or its age drops is reported on stderr, never lost silently.
   * With a `note`, the message is also kept under that name for a minute (`noted`), for what
   * nothing else would recover once lost: a client's answer to a question (its question would
   * wait until askTimeoutMs), its cancellation of a request (the request would go on), a URL-mode
   * completion (nothing would tell it again). Never throws: a message JSON cannot carry (a BigInt,
   * a cycle in a task's log) is dropped, as a transport drops it, not thrown at the tool that sent it.
   * May answer a promise that resolves (never rejects) once the message is published, with its note
   * kept, or once it is held because the state did not take it: the HTTP endpoint answers a client's
   * cancellation only then (http/shared.ts's `forward`), so an instance the client tells anything
   * after can find it (`noted`). A store written before it answers nothing, and is not waited for.
   */
  announce(message: BusMessage, note?: string): Promise<void> | void;
  /**
   * The messages announced under these notes within the last minute (undefined where none): what
   * an instance whose subscription was reconnecting when they were published reads once it is back.
   * Optional, so that a store written before it still implements the interface: without it, such a
   * message is lost as any bus message published during a reconnect.
   */
  noted?(notes: readonly string[]): Promise<(BusMessage | undefined)[]>;
  subscribe(listener: (message: BusMessage) => void): () => void;
}

/**
 * The shared store is unreachable (Redis down or reconnecting): the request may be retried shortly.
 * The HTTP endpoint answers it with 503 and `Retry-After`, whichever code met it (an `Unavailable`).
 */
export class StateUnavailable extends Unavailable {
  override readonly name = "StateUnavailable";
  constructor(cause: unknown) {
    super(
      `The server's shared state is unreachable (${cause instanceof Error ? cause.message : String(cause)}); retry in a moment`,
      { cause },
    );
  }
}
