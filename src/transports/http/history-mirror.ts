import type { EventHistory, HistoryBounds } from "../../state/state.js";
import type { StreamLog } from "./history.js";
import type { SessionMirror } from "./sessions.js";

/** The largest stream number: ids stay within the 15 digits of an event id's stream (shared.ts's EVENT_ID). */
const MAX_STREAM = 2 ** 48;

/**
 * The session store's mirror (SessionMirror) into the shared history `events`: one for all its
 * sessions, each call naming its session (`id`).
 */
export function historyMirror(events: EventHistory, bounds: HistoryBounds): SessionMirror {
  /** Of each stream, the last answer or question kept before this instance's reader sent it. */
  const unsent = new WeakMap<StreamLog, number>();
  return {
    streamId: () => 1 + Math.floor(Math.random() * MAX_STREAM),
    // Before its priming event goes out: a client that resumes elsewhere from it finds the stream.
    opened: (id, stream, request) => void events.open?.(id, stream, request).catch(() => {}),
    // In order on the store's connection. A write lost while the store is away leaves a gap, which
    // the history records: a resume across it is refused (404), never served with a hole. Kept
    // after every event before it, the event is delivered by any instance: a shutdown need not
    // wait for its client to come back here (delivery.ts).
    kept: (id, log, event) => {
      // Sent already by this instance's reader: the history need not keep it past notifications.
      const sent = log.sent >= event.seq;
      if (!sent && !event.notice) unsent.set(log, event.seq);
      void events.append(id, { stream: log.id, ...event, sent }, bounds).then(
        (kept) => {
          if (kept !== false && log.shared === event.seq - 1) log.shared = event.seq;
        },
        () => {},
      );
    },
    // Its reader sent what it had not as it was kept: told once, only then.
    left: (id, log) => {
      const last = unsent.get(log);
      if (last === undefined || log.sent < last) return;
      unsent.delete(log);
      events.sent?.(id, { stream: log.id, upTo: log.sent }).catch(() => {});
    },
    ended: (id, stream) => void events.end(id, stream).catch(() => {}),
  };
}
