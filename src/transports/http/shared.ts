import { sharedUsedStates } from "../../asking/used-states.js";
import type { AuthGate } from "../../auth/gate.js";
import { RequestContext } from "../../core/context.js";
import type { Dispatcher } from "../../core/dispatch.js";
import { isRequestId, type JsonRpcMessage, type JsonRpcResponse, type RequestId } from "../../core/jsonrpc.js";
import type { RegistryEvent } from "../../core/registry.js";
import { adoptable } from "../../limits/subscriptions.js";
import { resourceChecks, retellResources } from "../../listen/watchers.js";
import type { Session } from "../../sessions/peer.js";
import { type LegacySession, negotiatedLists } from "../../sessions/session.js";
import type { BusMessage, HistoryBounds, SessionRecord, SharedState } from "../../state/state.js";
import type { Connection } from "../connection.js";
import { answerNote, cancelNote, urlNote } from "./bus-notes.js";
import { historyMirror } from "./history-mirror.js";
import { merged, type Snapshot, same, snapshot, snapshotOf } from "./record-snapshot.js";
import { RemoteReader } from "./remote-reader.js";
import { emptyReply, type HttpReply, type HttpRequest, noStreamToResume, sseReply } from "./reply.js";
import type { HttpSession, SessionStore } from "./sessions.js";
import { isShared, type SharedClass, type SharedSession, sharedClass, subscribeTo } from "./shared-session.js";
import type { SseStream, Streams } from "./sse.js";

const SESSION_HEADER = "mcp-session-id";

/**
 * Instances that share state share requestState too: every one must open the states the others
 * sealed (one `requestStateKey`), and refuse those another accepted already (the shared replay guard).
 */
export function shareRequestStates(dispatcher: Dispatcher, state: SharedState): void {
  if (dispatcher.states.stateKey === undefined) {
    throw new TypeError(
      "pico({ state }) needs requestStateKey: instances that share state must seal requestState with one key; set the same secret (32+ bytes) on every instance",
    );
  }
  sharedUsedStates.set(dispatcher.states, state.usedStates);
}

/** The lists whose changes clients may be told of (2025-11-25 `listChanged`). */
const LISTS = ["tools", "resources", "prompts"] as const;

/** `<stream>-<seq>`, as sessions number events. */
const EVENT_ID = /^(\d{1,15})-(\d{1,15})$/;

/** Tries at writing a change over a record other instances keep changing meanwhile; the next request tries again. */
const MAX_REWRITES = 5;

/**
 * 2025-11-25 sessions shared by the instances of one server (`pico({ state })`, docs/scaling.md):
 * a session opened on one instance is served by any other, which makes its own copy of it from
 * the shared record on first use; the copies keep the record current; every event written is
 * kept in the shared history, so a stream dropped on one instance resumes on another; registry
 * events, the client's answers to questions and its cancellations travel on the bus to the
 * instance that needs them.
 */
export class SharedSessions {
  readonly #state: SharedState;
  readonly #store: SessionStore;
  readonly #dispatcher: Dispatcher;
  readonly #gate: AuthGate | undefined;
  readonly #streams: Streams;
  readonly #bounds: HistoryBounds;
  /**
   * The sessions whose record's idle expiry was restarted since the last quarter of idleTimeoutMs
   * began (#quarter replaces it): each is restarted at most once a quarter (#touch), and an idle
   * session, not in it, keeps nothing here (a time of each copy's own was a heap number and a WeakMap
   * entry of every idle one). Replaced, not cleared: a write sent in the quarter before, answered in
   * this one, counts in the quarter it was sent in.
   */
  #refreshed = new Set<string>();
  /** When the quarter of #refreshed began (Date.now()): one its timer is late to end ends at the next use (#touch). */
  #quarterBegan = Date.now();
  /**
   * How long a session's record lives from its last refresh: idleTimeoutMs and a quarter more. A
   * use within the quarter of a refresh refreshes nothing, so with idleTimeoutMs alone the record
   * expired as soon as three quarters of it after that use, and every other instance (this one after
   * a restart) answered 404 for a session in use. With the quarter more, no use is followed by less
   * than idleTimeoutMs of it, on any instance, at one write per session a quarter; the price is a
   * session left idle being served elsewhere for up to a quarter of idleTimeoutMs more. A last use
   * kept in the record, to decide by where it is read, would take a write per use.
   */
  readonly #recordMs: number;
  readonly #readers = new Map<string, Set<RemoteReader>>();
  /**
   * How many "session" messages the bus brought: a copy made from a record read while one came may
   * have been made from the record as it was before it (#adopt).
   */
  #sessionNews = 0;
  /** A registry event from the bus is being delivered here: it is not published back. */
  #relaying = false;
  /**
   * Another endpoint of the server relays its registry now (`retire`): this one relays nothing, so
   * each change reaches the others once; it still serves its own sessions' messages until it closes.
   */
  #retired = false;
  /** Its listeners on the registry and on the bus, taken away by `close`. */
  readonly #unsubscribe: (() => void)[];

  readonly #endpoint: SharedEndpoint;
  readonly #Session: SharedClass;

  /**
   * `endpoint`: what of the endpoint this needs, handed over rather than imported, so that the
   * code of a server without shared state is bundled as it was (one chunk less to split).
   */
  constructor(state: SharedState, store: SessionStore, endpoint: SharedEndpoint) {
    const { dispatcher } = endpoint;
    this.#endpoint = endpoint;
    this.#Session = sharedClass(endpoint.Session, {
      cancelsNoted: (id) => this.#cancelsNoted(id),
      mayRead: (session, uri) => this.#mayRead(session, uri),
    });
    this.#state = state;
    this.#store = store;
    this.#dispatcher = dispatcher;
    this.#gate = endpoint.gate;
    this.#streams = endpoint.streams;
    const limits = dispatcher.limits;
    this.#bounds = {
      maxEvents: store.options.eventHistory,
      maxSessionBytes: limits.maxHistoryBytesPerSession,
      maxBytes: limits.maxHistoryBytes,
    };
    store.mirror = historyMirror(state.events, this.#bounds);
    const idle = store.options.idleTimeoutMs;
    this.#recordMs = idle + Math.ceil(idle / 4);
    const keeping = setInterval(() => this.#keepInUse(), idle / 4);
    // Alone, it does not keep a process alive (Node, Bun and Deno timers have unref).
    const timer: { unref?: () => void } | number = keeping;
    if (typeof timer === "object") timer.unref?.();
    this.#unsubscribe = [
      dispatcher.registry.subscribe((event) => this.#published(event)),
      state.bus.subscribe((message) => this.#receive(message)),
      () => clearInterval(keeping),
    ];
  }

  /**
   * The endpoint `serve({ port })` made takes the place of this one (made by `fetch` or `node`) and
   * relays the server's changes from now on: one server, one relay, or every change would reach the
   * other instances twice (and one from the bus would go back out). Requests already here are
   * answered as before, and this copy's sessions keep what the bus brings them until the server closes.
   */
  retire(): void {
    this.#retired = true;
  }

  /**
   * The server closed: this copy lets go of the registry and the bus (the state itself stays its
   * owner's to close, SharedState.close), and the streams resumed here end, as on "closed" (one may
   * have been resumed during the shutdown's grace).
   */
  close(): void {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    this.#endReaders();
  }

  #endReaders(): void {
    for (const readers of this.#readers.values()) for (const reader of readers) reader.close();
  }

  /**
   * Serves one request (`next`, the endpoint's routing): the session it names is made here first
   * if another instance opened it, and its record is rewritten after if the request changed it.
   * The store being unreachable answers 503 with Retry-After, for the client to try again.
   */
  async route(request: HttpRequest, next: (request: HttpRequest) => Promise<HttpReply> | HttpReply) {
    try {
      const id = request.header(SESSION_HEADER);
      if (id !== null) {
        await this.prepare(id, request);
        this.#admitted(id, request);
      }
      const reply = await next(request);
      // The request is served: its answer goes out even when the record cannot be rewritten now (the
      // session's next request writes it, see #write); a 503 would have the client do it again.
      if (id !== null && request.method === "POST") await this.changed(id)?.catch(() => {});
      return reply;
    } catch (thrown) {
      if (!(thrown instanceof Error) || thrown.name !== "StateUnavailable") throw thrown;
      return this.#endpoint.refuse(thrown.message);
    }
  }

  /**
   * Before a request naming session `id`: undefined when this instance holds it (its record's
   * expiry is refreshed now and then, in the background); otherwise its copy is made from the
   * record. Only a request of its owner is a use of it: anyone else's, which the endpoint answers
   * 404 (handler.ts's #owned), neither restarts its idle expiry nor makes a copy here. Rejects with
   * `StateUnavailable` when the store is unreachable.
   */
  prepare(id: string, request: HttpRequest): Promise<void> | undefined {
    const held = this.#store.peek(id);
    if (held && this.#gate?.owns(held, request.auth) === false) return undefined;
    const session = this.#local(id);
    if (session) {
      this.#touch(session);
      return undefined;
    }
    return this.#adopt(id, request);
  }

  /**
   * A request of session `id` that its owner sent (the caller the endpoint lets use it, handler.ts's
   * #owned; anyone else's is refused there): its caller is now the one this copy checks resource
   * updates against (#mayRead). Only its identity is kept: the context a check reads is made from it
   * for each check (a context kept, made for each request, was 240 B of heap of every idle copy).
   */
  #admitted(id: string, request: HttpRequest): void {
    const session = this.#store.peek(id);
    const core = session?.connection.session;
    if (!session || !core || !isShared(core) || this.#gate?.owns(session, request.auth) === false) return;
    core.caller = request.auth?.identity ?? null;
  }

  /**
   * Whether the caller of session `session` may be told that `uri` was updated (Session.readCheck), on a
   * copy where no `resources/subscribe` ran: one that runs here sets its own check, with its caller
   * (resources/run.ts), but the subscriptions of this copy may all have come from the record, made
   * by other instances, whose callers this one never saw. The caller is the one of the session's
   * latest request served here: its owner (a 2025-11-25 session is bound to the caller who opened it,
   * auth/gate.ts) with the token this instance verified, who is also who reads the session's GET
   * stream here, since only such a request opens it. Before any, nothing is sent: an update is never
   * told to a caller not known to be allowed it.
   */
  #mayRead(session: SharedSession, uri: string): boolean | Promise<boolean> {
    const auth = session.caller;
    if (auth === undefined) return false;
    const caller = new RequestContext(
      {
        id: undefined,
        meta: undefined,
        protocolVersion: session.protocolVersion,
        era: "legacy",
        client: session.client,
        session,
        auth: auth ?? undefined,
      },
      undefined,
      this.#dispatcher.registry.auth,
    );
    return resourceChecks.use(({ mayRead }) => mayRead(this.#dispatcher.registry, caller, uri));
  }

  /** This instance's copy of a session, if it has one. */
  #local(id: string): HttpSession | undefined {
    const held = this.#store.peek(id);
    return held && this.#store.use(held);
  }

  /** A session was opened here: its record is written before `initialize` is answered, or the session is not kept. */
  async opened(session: HttpSession): Promise<void> {
    const opened = session.connection.session;
    if (opened) {
      const { protocolVersion, initialized, logLevel, client, advertised } = opened;
      session.connection.session = this.#copy(
        { id: session.id, protocolVersion, initialized, logLevel, advertised },
        client,
      );
    }
    try {
      await this.#write(session, true);
    } catch (thrown) {
      this.#store.delete(session.id);
      throw thrown;
    }
  }

  /** After a request of a session: its record is rewritten if the request changed it (log level, subscriptions, initialized). */
  changed(id: string): Promise<void> | undefined {
    const session = this.#local(id);
    return session && this.#write(session, false);
  }

  /**
   * DELETE, answered once the record and history are gone; every copy closes. The record goes
   * first: a reader that finds its stream gone then finds the session ended too (#forget).
   */
  async deleted(id: string): Promise<HttpReply> {
    await this.#state.sessions.delete(id);
    await this.#forget(id);
    await this.#state.bus.publish({ type: "session", id });
    return emptyReply(200);
  }

  /**
   * A client's answer to a question, or its cancellation: the instance whose request it concerns
   * may be another, so it goes to all of them, and each settles only what is its own. The client is
   * answered 202 once the relay is published and noted (or held, Redis away): what it sends after
   * that, to any instance, comes after it (see #cancelsNoted).
   */
  forward(session: HttpSession | undefined, message: JsonRpcMessage): Promise<void> | undefined {
    if (!session) return;
    // Noted too: the instance running the request, if its subscription is reconnecting, reads it once
    // it is back (#rejoined) rather than let its question time out, or its cancelled request go on.
    let note: string;
    if (!("method" in message)) note = answerNote(session.id, message.id);
    else if (message.method !== "notifications/cancelled") return;
    else {
      const id = message.params?.requestId;
      // A cancellation naming no request cancels nothing anywhere (2025-11-25 "Cancellation": ignored).
      if (!isRequestId(id)) return;
      note = cancelNote(session.id, id);
    }
    // The message is taken here too (handler.ts: before this, or, in a batch, as its requests are
    // answered): a bus of one's own that throws (Bus.announce never should) loses only its relay,
    // and the client is still answered.
    try {
      return this.#state.bus.announce({ type: "client", session: session.id, message }, note)?.catch(() => {});
    } catch {}
  }

  /** GET with a Last-Event-ID of a stream this instance did not write: from the shared history, or 404 as session.resume. */
  async resume(session: HttpSession, lastEventId: string): Promise<HttpReply> {
    const stream = await this.#resume(session, lastEventId);
    return stream ? sseReply(stream, session.headers) : noStreamToResume(lastEventId);
  }

  async #resume(session: HttpSession, lastEventId: string): Promise<RemoteReader | undefined> {
    const match = EVENT_ID.exec(lastEventId);
    if (!match) return undefined;
    const stream = Number(match[1]);
    const after = Number(match[2]);
    const key = `${session.id} ${stream}`;
    let readers = this.#readers.get(key);
    if (!readers) {
      readers = new Set();
      this.#readers.set(key, readers);
    }
    const reader: RemoteReader = new RemoteReader({
      events: this.#state.events,
      session: session.id,
      stream,
      after,
      prelude: session.priming(stream, after),
      streams: this.#streams,
      bounds: this.#bounds,
      sessionEnded: async (request) => {
        const record = await this.#look(session.id);
        return record ? undefined : this.#endpoint.sessionEnded(request);
      },
      ownStream: () => this.#carriedOn(session),
      onEnd: () => {
        readers.delete(reader);
        if (readers.size === 0) this.#readers.delete(key);
      },
    });
    readers.add(reader);
    let resumable = false;
    try {
      resumable = await reader.check();
    } finally {
      // Not resumable, or the store is away (503): the reader goes, with its maxSseStreams slot.
      if (!resumable) reader.cancel();
    }
    return resumable ? reader : undefined;
  }

  /**
   * Session `held`'s GET stream, opened here to carry on one whose instance crashed (remote-reader.ts's
   * #carryOn), in place of one open here already (HttpSession.openStandalone). What was sent to the session from the crash
   * until the dead instance's lease ran out reached no GET stream and is kept nowhere (no instance
   * wrote a GET stream of it), as what the bus brought during a reconnect (#rejoined): so, as then,
   * the client is told on this stream that each list may have changed and each resource it
   * subscribed to may have been updated. A spurious one only has it list, or read, again.
   */
  #carriedOn(held: HttpSession): SseStream {
    const stream = held.openStandalone();
    const { connection } = held;
    const capabilities = this.#dispatcher.registry.capabilities();
    for (const list of LISTS) {
      if (capabilities[list]?.listChanged) connection.notify({ type: `${list}/list_changed` });
    }
    this.#retellUpdates(connection);
    return stream;
  }

  /**
   * As session `id` becomes initialized here, before its questions go out (those held for the
   * notification, and those asked meanwhile: SharedSession's settling): the cancellations of its
   * requests running here, noted by the instances they were sent to, are read and applied, so a
   * request the client cancelled before it sent the notification asks nothing, whichever instances
   * the two reached (2025-11-25 "Cancellation": a cancelled request's work stops). The bus brings them too, but not necessarily first: it is
   * another connection than the one that brought the notification, or the record it changed. An
   * instance answers a cancellation once it is noted (forward), so one the client sent before the
   * notification is found. Unreadable (the store is away): the questions go, as the bus alone has it.
   */
  async #cancelsNoted(id: string): Promise<void> {
    const running = this.#store.peek(id)?.connection.running() ?? [];
    const notes = Array.from(running, (request) => cancelNote(id, request));
    if (notes.length === 0) return;
    const noted = (await this.#state.bus.noted?.(notes).catch(() => [])) ?? [];
    for (const message of noted) if (message) this.#receive(message);
  }

  /**
   * Makes this instance's copy of session `id` from its record, for a request of its owner. With
   * callers to tell apart (auth), the record is read as it is, and its idle expiry restarted only
   * once the caller is found to be its owner (#touch, in the background).
   */
  async #adopt(id: string, request: HttpRequest): Promise<void> {
    const gate = this.#gate;
    const news = this.#sessionNews;
    const refreshed = this.#refreshed;
    const record = gate ? await this.#look(id) : await this.#state.sessions.get(id, this.#recordMs);
    if (!record || this.#store.peek(id) || (gate && !gate.isOwner(record.owner, request.auth))) return;
    const session = this.#store.create(id);
    const client = { capabilities: record.capabilities, info: record.clientInfo };
    // Named by the id the store keys it by: the record's is a string of its own, 56 B more of every copy.
    const copy = this.#copy({ ...record, id: session.id }, client);
    session.connection.session = copy;
    gate?.adopt(session, record.owner);
    copy.written = snapshot(copy);
    if (gate) this.#touch(session);
    else refreshed.add(id);
    // A change told while the record was read (notifications/initialized on another instance) found
    // no copy here to refresh, and the record read may predate it: read again. At most one read more per copy.
    if (this.#sessionNews !== news) await this.#refresh(id);
  }

  async #write(session: HttpSession, opened: boolean): Promise<void> {
    const core = session.connection.session;
    if (!core || !isShared(core)) return;
    const now = snapshot(core);
    const before = core.written;
    if (!opened && before && same(before, now)) return;
    core.written = now;
    const refreshed = this.#refreshed;
    try {
      if (!opened && before) {
        // Ended elsewhere (DELETE, expiry): not brought back.
        if (!(await this.#rewrite(session.id, before, now))) return await this.#forget(session.id).catch(() => {});
      } else {
        const record: SessionRecord = {
          id: session.id,
          protocolVersion: core.protocolVersion,
          capabilities: core.client.capabilities,
          clientInfo: core.client.info,
          initialized: now.initialized,
          logLevel: now.logLevel,
          subscriptions: now.subscriptions,
          owner: this.#gate?.ownerOf(session),
          advertised: core.advertised,
        };
        await this.#state.sessions.put(record, this.#recordMs);
      }
      refreshed.add(session.id);
      if (!opened) await this.#state.bus.publish({ type: "session", id: session.id });
    } catch (thrown) {
      // Not written (the store is away): the change stays to write, by the session's next request.
      core.written = before;
      throw thrown;
    }
  }

  /**
   * Writes what this copy changed (`before` to `now`) over the record as it is now: another instance
   * may have changed it since this copy last saw it (the bus is not instant), so only this copy's
   * change is applied, subscriptions as added and removed. The record read is replaced only if it is
   * still there unchanged (SessionRecords.replace), or read again: a DELETE or a change landing
   * between the read and the write is neither undone nor lost. False once the record is gone.
   */
  async #rewrite(id: string, before: Snapshot, now: Snapshot): Promise<boolean> {
    const { sessions } = this.#state;
    const idle = this.#recordMs;
    for (let tries = 1; ; tries++) {
      // The write restarts the record's expiry (the request that changed the copy used it), not this read.
      const current = await this.#look(id);
      if (!current) return false;
      const record = merged(current, before, now);
      if (!sessions.replace) {
        await sessions.put(record, idle);
        return true;
      }
      if (await sessions.replace(current, record, idle)) return true;
      if (tries === MAX_REWRITES)
        throw new Error(`session ${id}'s record kept changing; its next request writes this change`);
    }
  }

  /**
   * Session `id`'s record read for this instance's sake (whether it is still there, what another
   * instance changed), not for a use of it: its idle expiry goes on (SessionRecords.peek), or a
   * session whose client went away would live for as long as instances holding a copy read it.
   */
  #look(id: string): Promise<SessionRecord | undefined> {
    const { sessions } = this.#state;
    return sessions.peek ? sessions.peek(id) : sessions.get(id, this.#recordMs);
  }

  /**
   * Refreshes the record's idle expiry, once a quarter of it at most (#refreshed): the refresh was
   * sent in this quarter, which began less than a quarter ago, so a record used now expires no
   * sooner than idleTimeoutMs from now (#recordMs). A record gone means the session ended elsewhere.
   */
  #touch(session: HttpSession): void {
    if (Date.now() - this.#quarterBegan >= this.#store.options.idleTimeoutMs / 4) this.#quarter();
    if (this.#refreshed.has(session.id)) return;
    this.#refreshed.add(session.id);
    this.#keep(session.id);
  }

  /** Restarts the idle expiry of session `id`'s record; a record gone means the session ended elsewhere. */
  #keep(id: string): void {
    this.#state.sessions.get(id, this.#recordMs).then(
      (record) => {
        if (!record) return this.#forget(id).catch(() => {});
      },
      () => {},
    );
  }

  /**
   * Every quarter of idleTimeoutMs: the records of the sessions in use here are kept from expiring.
   * A session lives while it is used (2025-11-25 "Session Management": the server may end it, then
   * its id answers 404), and a request still running or a stream still open is use, as in one
   * process (HttpSession.inUse, which the store's sweep spares), though no request of it comes: a
   * tool that runs, or a GET stream held open, longer than idleTimeoutMs. Its record would expire
   * meanwhile, the session end for every other instance, and what its streams write after that be
   * refused by the shared history, so a client resuming one elsewhere would get nothing more; nor
   * must its history expire (historyTtlMs after its last event) while its stream is quiet. A
   * session's stream resumed here from another instance (#readers) is use too, whether or not this
   * instance still holds a copy of it. Bounded: two commands per session in use per period (its
   * record, its history), however many events its streams carry, none while it is not in use.
   */
  #keepInUse(): void {
    this.#quarter();
    const inUse = new Set<string>();
    for (const id of this.#store.ids()) if (this.#store.peek(id)?.inUse) inUse.add(id);
    for (const key of this.#readers.keys()) inUse.add(key.slice(0, key.lastIndexOf(" ")));
    for (const id of inUse) {
      const held = this.#store.peek(id);
      if (held) this.#touch(held);
      else this.#keep(id);
      this.#state.events.prolong?.(id).catch(() => {});
    }
  }

  /** A quarter begins: every session's record may be refreshed once more. */
  #quarter(): void {
    this.#refreshed = new Set();
    this.#quarterBegan = Date.now();
  }

  /**
   * Session `id` ended (DELETE, expiry): this instance's copy closes, and its requests in progress are
   * answered that it did, here only (HttpSession.unshare); then the history is cleared, after the last
   * event this instance wrote of it (a link's commands reach Redis in the order issued), such as one
   * written after another instance's clear before this one heard of the end. The streams resumed here
   * then read it, find it gone, and answer their requests themselves (remote-reader.ts's #gone).
   */
  #forget(id: string): Promise<void> {
    this.#store.peek(id)?.unshare();
    this.#store.delete(id);
    return this.#state.events.clear(id).finally(() => {
      for (const reader of this.#readersOf(id)) reader.wake();
    });
  }

  /** The streams of session `id` resumed here. */
  #readersOf(id: string): RemoteReader[] {
    const of: RemoteReader[] = [];
    for (const [key, readers] of this.#readers) if (key.startsWith(`${id} `)) of.push(...readers);
    return of;
  }

  /**
   * A registry event of this instance: the others deliver it to their streams too. On "closed" (the
   * server shuts down) the streams resumed here from the shared history end, their events kept there:
   * each client resumes elsewhere from its last event, as from a stream of a session held here.
   */
  #published(event: RegistryEvent): void {
    if (event.type === "closed") this.#endReaders();
    if (this.#relaying || this.#retired || event.type === "closed") return;
    this.#state.bus.announce({ type: "registry", event });
  }

  #receive(message: BusMessage): void {
    switch (message.type) {
      case "registry":
        if (this.#retired) return;
        this.#relaying = true;
        try {
          this.#dispatcher.registry.emit(message.event);
        } finally {
          this.#relaying = false;
        }
        return;
      case "session":
        this.#sessionNews++;
        // Read again where a copy, or a stream resumed here, may learn that it ended.
        if (this.#store.peek(message.id) || this.#readersOf(message.id).length > 0) void this.#refresh(message.id);
        return;
      case "events":
        for (const reader of this.#readers.get(`${message.session} ${message.stream}`) ?? []) reader.wake();
        return;
      case "client": {
        const session = this.#local(message.session);
        if (!session) return;
        const { connection } = session;
        const sent = message.message;
        if ("method" in sent) {
          if (!("id" in sent)) this.#dispatcher.notification(sent, connection, connection);
        } else if ("result" in sent || "error" in sent) connection.settle(sent);
        return;
      }
      case "rejoined":
        void this.#rejoined();
        return;
      case "url": {
        // As asking/questions.ts's completeElicitation does, for the one session here that was sent it.
        const waiting = this.#dispatcher.urlElicitations;
        const complete = waiting.get(message.id);
        waiting.delete(message.id);
        complete?.();
        return;
      }
      default:
        return;
    }
  }

  /**
   * A shared session with the id and handshake state of `from` (a record, or the session `initialize`
   * made): its resource updates are checked against its caller (SharedSession.readCheck).
   */
  #copy(from: Handshake, client: Session["client"]): SharedSession {
    const session = new this.#Session(from.id, from.protocolVersion, client.capabilities, client.info);
    session.initialized = from.initialized;
    session.logLevel = from.logLevel;
    // A record's parsed copy is replaced by the object every session advertised those lists shares.
    session.advertised = from.advertised && negotiatedLists(from.advertised);
    subscribeTo(session, adoptable(from.subscriptions ?? [], this.#dispatcher.limits));
    return session;
  }

  /**
   * This instance's subscription was reconnecting: what the others published meanwhile never came
   * (pub/sub keeps nothing for it). Its sessions are read again (a DELETE, a log level, a
   * subscription made elsewhere); the answers to its questions, the cancellations of the requests
   * it runs and the URL-mode completions for its sessions are read from their notes; its resumed
   * streams look for new events; and its clients are told each list may have changed and each
   * resource they subscribed to may have been updated: neither a list change nor an update is kept
   * anywhere, and the notification only has them list, or read, again (2025-11-25 "Tools":
   * listChanged, "Resources": subscriptions; 2026-07-28 subscriptions/listen). A session or listen
   * stream is told of at most limits.maxSubscriptionsPerSession URIs, each only if its caller may
   * read it, as of any update.
   */
  async #rejoined(): Promise<void> {
    // Told by the endpoint that relays the server's changes: each client once (retire).
    if (!this.#retired) this.#retell();
    for (const readers of this.#readers.values()) for (const reader of readers) reader.wake();
    const ids = this.#store.ids();
    const notes = [...this.#dispatcher.urlElicitations.keys()].map(urlNote);
    for (const id of ids) {
      const connection = this.#store.peek(id)?.connection;
      for (const asked of connection?.asked() ?? []) notes.push(answerNote(id, asked));
      for (const running of connection?.running() ?? []) notes.push(cancelNote(id, running));
    }
    const [noted] = await Promise.all([
      this.#state.bus.noted?.(notes).catch(() => []) ?? [],
      ...ids.map((id) => this.#refresh(id)),
    ]);
    for (const message of noted) if (message) this.#receive(message);
    // After the records are read: a subscription made elsewhere meanwhile missed its updates too.
    for (const id of ids) {
      const connection = this.#store.peek(id)?.connection;
      if (connection) this.#retellUpdates(connection);
    }
  }

  /**
   * Tells `connection`'s client that each resource its session subscribed to may have been updated:
   * at most limits.maxSubscriptionsPerSession of them, each only if its caller may read it (Connection.notify).
   */
  #retellUpdates(connection: Connection): void {
    const core = connection.session;
    if (!core || !isShared(core)) return;
    let left = this.#dispatcher.limits.maxSubscriptionsPerSession;
    for (const uri of core.subscriptions ?? []) {
      if (left-- <= 0) return;
      connection.notify({ type: "resources/updated", uri });
    }
  }

  /** Every list and every watched resource of the server may have changed: its clients are told so. */
  #retell(): void {
    const registry = this.#dispatcher.registry;
    const capabilities = registry.capabilities();
    this.#relaying = true;
    try {
      for (const list of LISTS) {
        if (capabilities[list]?.listChanged) registry.emit({ type: `${list}/list_changed` });
      }
    } finally {
      this.#relaying = false;
    }
    retellResources(registry);
  }

  /** Another instance changed or ended a session this one holds a copy of. */
  async #refresh(id: string): Promise<void> {
    let record: SessionRecord | undefined;
    try {
      record = await this.#look(id);
    } catch {
      return;
    }
    // Not a use of the session: its idle time here goes on, as its record's does (#look).
    const session = this.#store.peek(id);
    const core = session?.connection.session;
    if (!record) {
      await this.#forget(id).catch(() => {});
      return;
    }
    if (!session || !core || !isShared(core)) return;
    // A change of this copy not written yet (the store was away) stays, over the record, to be written.
    const before = core.written;
    const now = snapshot(core);
    const wanted = before && !same(before, now) ? merged(record, before, now) : record;
    const initialized = core.initialized;
    core.initialized = wanted.initialized;
    // notifications/initialized came to another instance: the questions held here for it go now.
    if (core.initialized && !initialized) core.onInitialized?.();
    core.logLevel = wanted.logLevel;
    subscribeTo(core, adoptable(wanted.subscriptions, this.#dispatcher.limits));
    core.written = snapshotOf(record.initialized, record.logLevel, record.subscriptions);
  }
}

/** What of the HTTP endpoint shared sessions use (handler.ts hands it over). */
export interface SharedEndpoint {
  readonly dispatcher: Dispatcher;
  readonly gate: AuthGate | undefined;
  readonly streams: Streams;
  /** The legacy sessions layer's session class. */
  readonly Session: typeof LegacySession;
  /** 503 with Retry-After: the store is unreachable. */
  refuse(message: string): HttpReply;
  /** The answer to a request of a session that ended while it ran (respond.ts). */
  sessionEnded(request: RequestId): JsonRpcResponse;
}

/** What a shared session is made from: its id, and its state after the handshake. */
type Handshake = Pick<SessionRecord, "id" | "protocolVersion" | "initialized" | "logLevel" | "advertised"> & {
  readonly subscriptions?: readonly string[];
};
