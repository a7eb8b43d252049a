/** What the Redis tests that write a session's history directly share: the session's record, made first. */
import type { SharedState } from "../../src/state/state.js";

/** Sessions `ids` are open: their records are there, and so their history may be written (src/redis/events.ts). */
export async function live(shared: SharedState, ...ids: string[]): Promise<void> {
  for (const id of ids) {
    const record = { id, protocolVersion: "2025-11-25", capabilities: {}, initialized: true, subscriptions: [] };
    await shared.sessions.put({ ...record, clientInfo: undefined, logLevel: "info", owner: undefined }, 60_000);
  }
}
