import type { Connection } from "../connection.js";
import type { HistoryBudget } from "./history.js";

/** How often the shutdown looks whether the sessions' answers have reached their clients. */
const CHECK_MS = 25;

/**
 * Resolves once no session has a request in progress or keeps an answer that no reader has sent
 * (and, with shared state, that the shared history does not hold: any instance delivers that one),
 * or once `graceMs` (`limits.shutdownGraceMs`) have passed: the shutdown waits for it before the
 * sessions close. A client whose stream closed before its answer (SEP-1699 polling, a dropped
 * connection) comes back for it with `Last-Event-ID` after `retry` milliseconds, and would
 * otherwise find its session gone. Nothing tells when a client comes back, so this looks every CHECK_MS.
 * `budget` is read on each look: it is made with the store's first stream, which may open during the grace period.
 */
export async function delivered(
  budget: () => HistoryBudget | undefined,
  sessions: Map<string, { readonly connection: Connection }>,
  graceMs: number,
): Promise<void> {
  const end = Date.now() + graceMs;
  const unfinished = () =>
    budget()?.unanswered || [...sessions.values()].some((session) => session.connection.size > 0);
  while (Date.now() < end && unfinished()) await new Promise((wake) => setTimeout(wake, CHECK_MS));
}
