import type { Identity } from "../../core/caller.js";
import { SubscriptionSet } from "../../resources/subscriptions.js";
import type { ReadCheck, Session } from "../../sessions/peer.js";
import type { LegacySession } from "../../sessions/session.js";
import { holdMessages } from "../held.js";
import type { Snapshot } from "./record-snapshot.js";

/**
 * A session's handshake state that also knows its id, which names it on every instance (a 2025 task
 * is bound to it, tasks/owners.ts), and what this instance's copy of it keeps: its fields, rather
 * than entries of WeakMaps of SharedSessions (each entry was heap of every idle copy).
 */
export interface SharedSession extends Session {
  readonly id: string;
  /** What this copy last wrote or read of its record, to write only changes (SharedSessions.#write); undefined before the first. */
  written: Snapshot | undefined;
  /**
   * The identity of the caller of the session's latest request served here (SharedSessions.#admitted),
   * null for one without; undefined before any, when its resource updates are told to no one.
   */
  caller: Identity | null | undefined;
  /**
   * A `resources/subscribe` served here sets its own, with its caller (resources/run.ts); otherwise
   * the check is against `caller` (SharedSessions.#mayRead): the subscriptions of this copy may all
   * have come from the record, made by other instances.
   */
  readCheck: ReadCheck;
}

export type SharedClass = new (id: string, ...args: ConstructorParameters<typeof LegacySession>) => SharedSession;

/** What the session class of SharedSessions asks of them. */
interface SharedSessionsOf {
  /** Reads the cancellations other instances took for session `id` (SharedSessions.#cancelsNoted). */
  cancelsNoted(id: string): Promise<void>;
  /** Whether the caller of `session` may be told that `uri` was updated (SharedSessions.#mayRead). */
  mayRead(session: SharedSession, uri: string): boolean | Promise<boolean>;
}

/**
 * The session class, extended to know its id. As it becomes initialized it asks nothing until
 * `cancelsNoted` has read the cancellations other instances took for it (SharedSessions.#cancelsNoted):
 * its questions wait (`settling`), and those held for the notification go after (asking/questions.ts).
 * An idle copy keeps no function of its own: `onInitialized` and `readCheck` are made as they are
 * read (kept, each was a closure, and the check an object too, of every idle copy).
 */
export function sharedClass(Base: typeof LegacySession, shared: SharedSessionsOf): SharedClass {
  return class extends Base implements SharedSession {
    readonly id: string;
    written: Snapshot | undefined;
    caller: Identity | null | undefined;
    #readCheck: ReadCheck | undefined;
    /** What the questions held set (asking/questions.ts): called once the cancellations are read. */
    #held: (() => void) | undefined;
    /** Reads of the cancellations under way. */
    #reading = 0;

    get readCheck(): ReadCheck {
      return this.#readCheck ?? { allows: (uri) => shared.mayRead(this, uri), hold: holdMessages };
    }

    set readCheck(check: ReadCheck | undefined) {
      this.#readCheck = check;
    }

    get settling(): boolean {
      return this.#reading > 0;
    }

    get onInitialized(): () => void {
      return () => this.#settle();
    }

    set onInitialized(release: (() => void) | undefined) {
      this.#held = release;
    }

    constructor(id: string, ...session: ConstructorParameters<typeof LegacySession>) {
      super(...session);
      this.id = id;
    }

    #settle(): void {
      this.#reading++;
      const release = () => {
        this.#reading--;
        if (!this.settling) this.#held?.();
      };
      void shared.cancelsNoted(this.id).then(release, release);
    }
  };
}

/** A copy of this layer's class: the one session with an id (Session.id, the session's name on every instance). */
export function isShared(session: Session): session is SharedSession {
  return session.id !== undefined;
}

/**
 * Takes `uris` as `session`'s subscriptions: those it holds already keep their place, those new come
 * after, in order. A copy that subscribes to nothing is given no set (the heap of every idle copy).
 */
export function subscribeTo(session: Session, uris: ReadonlySet<string>): void {
  const held = session.subscriptions;
  if (!held) {
    if (uris.size > 0) session.subscriptions = new SubscriptionSet(uris);
    return;
  }
  for (const uri of held) if (!uris.has(uri)) held.delete(uri);
  for (const uri of uris) held.add(uri);
}
