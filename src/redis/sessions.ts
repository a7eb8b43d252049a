import type { SessionRecord, SessionRecords } from "../state/state.js";
import type { RedisLink } from "./client.js";

/** The key of session `id`'s record: the history of a session is written only while it exists (events.ts). */
export function sessionKey(prefix: string, id: string): string {
  return `${prefix}s:${id}`;
}

/** 2025-11-25 sessions as JSON strings that expire when idle (`SET … PX`, refreshed by every read). */
export class RedisSessions implements SessionRecords {
  readonly #link: RedisLink;
  readonly #prefix: string;

  constructor(link: RedisLink, prefix: string) {
    this.#link = link;
    this.#prefix = prefix;
  }

  async get(id: string, idleMs: number): Promise<SessionRecord | undefined> {
    const text = await this.#link.command(["GETEX", sessionKey(this.#prefix, id), "PX", String(idleMs)]);
    // This store alone writes the key, with JSON.stringify of a SessionRecord.
    return typeof text === "string" ? (JSON.parse(text) as SessionRecord) : undefined;
  }

  async put(record: SessionRecord, idleMs: number): Promise<void> {
    await this.#link.command([
      "SET",
      sessionKey(this.#prefix, record.id),
      JSON.stringify(record),
      "PX",
      String(idleMs),
    ]);
  }

  async delete(id: string): Promise<boolean> {
    return Number(await this.#link.command(["DEL", sessionKey(this.#prefix, id)])) === 1;
  }
}
