/**
 * What of a shared session changes after its handshake, as a copy last wrote or read it of its
 * record (shared-session.ts's `written`), and the merge of a copy's change over the record as
 * another instance left it (shared.ts's #rewrite and #refresh).
 */
import type { LogLevel } from "../../core/envelope.js";
import type { Session } from "../../sessions/peer.js";
import type { SessionRecord } from "../../state/state.js";

/** What of a session changes after its handshake. */
export interface Snapshot {
  readonly initialized: boolean;
  readonly logLevel: LogLevel;
  readonly subscriptions: readonly string[];
}

/**
 * The snapshots of no subscriptions, by log level, of an initialized session and of one not yet:
 * shared by every copy in that state, so that an idle copy keeps none of its own.
 */
const initializedBare: Partial<Record<LogLevel, Snapshot>> = {};
const uninitializedBare: Partial<Record<LogLevel, Snapshot>> = {};

export function snapshotOf(initialized: boolean, logLevel: LogLevel, subscriptions: readonly string[]): Snapshot {
  if (subscriptions.length > 0) return { initialized, logLevel, subscriptions };
  const bare = initialized ? initializedBare : uninitializedBare;
  bare[logLevel] ??= { initialized, logLevel, subscriptions };
  return bare[logLevel];
}

export function snapshot(session: Session): Snapshot {
  return snapshotOf(session.initialized, session.logLevel, [...(session.subscriptions ?? [])]);
}

export function same(a: Snapshot, b: Snapshot): boolean {
  return (
    a.initialized === b.initialized &&
    a.logLevel === b.logLevel &&
    a.subscriptions.length === b.subscriptions.length &&
    a.subscriptions.every((uri, i) => uri === b.subscriptions[i])
  );
}

/** `current` with what this copy changed from `before` to `now`. */
export function merged(current: SessionRecord, before: Snapshot, now: Snapshot): SessionRecord {
  const subscriptions = new Set(current.subscriptions);
  for (const uri of now.subscriptions) if (!before.subscriptions.includes(uri)) subscriptions.add(uri);
  for (const uri of before.subscriptions) if (!now.subscriptions.includes(uri)) subscriptions.delete(uri);
  return {
    ...current,
    initialized: current.initialized || now.initialized,
    logLevel: now.logLevel !== before.logLevel ? now.logLevel : current.logLevel,
    subscriptions: [...subscriptions],
  };
}
