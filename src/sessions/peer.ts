/**
 * A 2025 session as the code that carries it sees it: handlers (`ctx.session`), connections
 * (transports/connection.ts) and the dispatcher, which hands a connection's `Peer` to this layer
 * (legacy.ts). The core carries both through its `Carried` slots, declared below, without naming them.
 */
import type { LogLevel } from "../core/envelope.js";
import type { Context } from "../core/handler-context.js";
import type { JsonRpcMessage } from "../core/jsonrpc.js";
import type { ServerCapabilities } from "../core/types.js";

/**
 * A 2025-era session as handlers see it (`ctx.session`): what the handshake of a connection
 * established. This layer opens and keeps them (session.ts's LegacySession).
 */
export interface Session {
  /**
   * The session's name on every instance that serves it: its `Mcp-Session-Id` when the sessions are
   * shared by several instances (`pico({ state })`, transports/http/shared.ts); undefined where one
   * process alone holds the session, which then is its own name.
   */
  readonly id?: string | undefined;
  readonly protocolVersion: string;
  /** `ctx.client` for every request of the session: what the client declared in `initialize`. */
  readonly client: Context["client"];
  /**
   * The lists `initialize` advertised to this session with listChanged, as `{ tools: { listChanged:
   * true } }`: it is told of changes to those lists only, since a capability registered later was
   * never negotiated with it (2025-11-25 "Lifecycle", Operation: MUST only use capabilities that were
   * successfully negotiated). One object shared by every session advertised the same lists
   * (session.ts's negotiatedLists), never changed. A shared session's record keeps it
   * (state/state.ts); undefined where it is not known (a record written before it was kept): then
   * every change is told.
   */
  advertised?: ServerCapabilities | undefined;
  /** Set by `notifications/initialized`; requests in between are served (clients pipeline). */
  initialized: boolean;
  /**
   * Called as `initialized` becomes true: set by what waits for it, the questions a handler asked
   * before it (asking/questions.ts; 2025-11-25 "Lifecycle": no request but ping before it).
   */
  onInitialized?: (() => void) | undefined;
  /**
   * True while the session, initialized, still holds its questions: a copy of a session shared by
   * several instances reads, as it becomes initialized, the cancellations the others took before
   * the notification (transports/http/shared-session.ts), and then calls `onInitialized`.
   */
  readonly settling?: boolean;
  /** The threshold set by `logging/setLevel` (2025-11-25 "Logging"). */
  logLevel: LogLevel;
  /**
   * True for a session made for one request (Streamable HTTP without sessions, `http.sessions:
   * false`): it ends with the request, and has no stream to send updates on.
   */
  readonly oneRequest?: boolean;
  /**
   * The URIs this session subscribed to (`resources/subscribe`), set by the resources layer with the
   * first (resources/subscriptions.ts), as `readCheck` is: a session that never subscribes, every
   * session of a server without resources, carries none and never loads their code. Unset, none.
   */
  subscriptions?: Subscriptions | undefined;
  /**
   * Whether the session's caller may be told of an update of `uri` it watches, set by
   * `resources/subscribe` (the resources layer's auth check); unset, any.
   */
  readCheck?: ReadCheck | undefined;
  /**
   * The tasks that keep the session in use, as a request in progress does (tasks/holds.ts), each
   * until its TTL ends: one that runs, and one that ended until a `tasks/result` has taken its
   * outcome. A 2025-11-25 task is read in its session alone, and stays readable for its ttl
   * (2025-11-25 "Tasks": MUST be the actual ttl), so its session must outlive a client that polls
   * less often than the session's idle timeout. Unset on a session without tasks.
   */
  tasks?: TaskHolds | undefined;
}

/** A session's subscriptions (`Session.subscriptions`): the URIs, in the order subscribed. */
export interface Subscriptions extends Set<string> {
  /** Whether an update of `uri` concerns the session: it subscribed to it, or to a parent of it. */
  watches(uri: string): boolean;
}

/** The tasks that hold a session in use (`Session.tasks`), as its connection sees them. */
export interface TaskHolds {
  /** Whether a task holds the session still: one whose TTL has not passed. */
  held(): boolean;
  /** The session ended (its connection closed): its tasks hold it no more, nor will those made after. */
  end(): void;
}

/** The side of a connection the dispatcher needs: the legacy session, if a handshake made one. */
export interface Peer {
  session: Session | undefined;
}

/** One message a connection sends, or the answers to a 2025-03-26 batch. */
export type Outgoing = JsonRpcMessage | JsonRpcMessage[];

/**
 * A session's read check for resource updates (`Session.readCheck`), with what holds the messages a
 * connection sends after an update whose check waits (transports/held.ts): given by what sets the
 * check, so that a server whose checks never wait (a tools-only one) does not load it.
 */
export interface ReadCheck {
  allows(uri: string): boolean | Promise<boolean>;
  /**
   * Holds what `out` would send behind checks that wait, in order; `maxBytes` of notifications at most.
   * `request`: the request a response answers, as `send` was given it (connection.ts's `Transport.deliver`).
   */
  hold(out: (message: Outgoing, request?: unknown) => void, maxBytes: number): Holder;
}

/** What a stream holds behind read checks that wait (transports/held.ts's HeldMessages). */
export interface Holder {
  /** Sends `message` (answering `request`) if `allowed`, after what is held; a promise while it waits its turn. */
  send(message: Outgoing, allowed: boolean | Promise<boolean>, request?: unknown): Promise<void> | undefined;
  /** Sends what is held whose turn has come; all of it when `cut`, the checks still waiting a no. */
  release(cut?: boolean): void;
  /** Resolves once what is held now has gone or been dropped; undefined when nothing is held. */
  sent(): Promise<void> | undefined;
  readonly length: number;
}

declare module "../core/layers.js" {
  interface Carried {
    /** `ctx.session`: the session a 2025 request arrived on. */
    session: Session;
    /** What a transport hands the dispatcher with each message of a connection (`Dispatcher.answer`). */
    peer: Peer;
  }
}
