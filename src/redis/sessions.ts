import { deepJson } from "../state/stacked-json.js";
import type { SessionRecord, SessionRecords } from "../state/state.js";
import type { RedisLink } from "./client.js";

/** The key of session `id`'s record: the history of a session is written only while it exists (events.ts). */
export function sessionKey(prefix: string, id: string): string {
  return `${prefix}s:${id}`;
}

/**
 * Compare and set: the record is written only if it is still the one the writer read, so neither a
 * record gone (DELETE, expiry) is made again, nor another instance's change written meanwhile lost.
 * So one run late (its command timed out; Redis got to it after) is harmless too: the copy that made
 * the change holds it already, and its next request would write it again.
 */
const REPLACE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

/**
 * Deletes a session's record, answering how many it deleted. Through `RedisLink.inTime`: a DELETE
 * that timed out was answered 503, its history not cleared nor its copies on other instances told;
 * run late, it would end the session unannounced, and the client's DELETE sent again find it gone (404).
 */
const DELETE = "return redis.call('DEL', KEYS[1])";

/** 2025-11-25 sessions as JSON strings that expire when idle (`SET … PX`, refreshed by `get`, a use, not by `peek`). */
export class RedisSessions implements SessionRecords {
  readonly #link: RedisLink;
  readonly #prefix: string;

  constructor(link: RedisLink, prefix: string) {
    this.#link = link;
    this.#prefix = prefix;
  }

  async get(id: string, idleMs: number): Promise<SessionRecord | undefined> {
    // Run late, it restarts the idle expiry of a session that was in use, and makes no record.
    return parsed(await this.#link.command(["GETEX", sessionKey(this.#prefix, id), "PX", String(idleMs)]));
  }

  async peek(id: string): Promise<SessionRecord | undefined> {
    return parsed(await this.#link.command(["GET", sessionKey(this.#prefix, id)]));
  }

  async put(record: SessionRecord, idleMs: number): Promise<void> {
    // Run late (its initialize was answered 503, its copy dropped), it makes the record of an id no
    // client was given, which expires idle: harmless, unlike a late DELETE.
    // The client's capabilities and info, in the record, may nest deeper than JSON.stringify recurses.
    await this.#link.command(["SET", sessionKey(this.#prefix, record.id), deepJson(record), "PX", String(idleMs)]);
  }

  async replace(current: SessionRecord, next: SessionRecord, idleMs: number): Promise<boolean> {
    // `current` came from get or peek, JSON.parse of what deepJson wrote: written again, it is that text.
    const args = [deepJson(current), deepJson(next), String(idleMs)];
    return Number(await this.#link.script(REPLACE, [sessionKey(this.#prefix, next.id)], args)) === 1;
  }

  async delete(id: string): Promise<boolean> {
    return Number(await this.#link.inTime(DELETE, [sessionKey(this.#prefix, id)], [])) === 1;
  }
}

/** A record as this store wrote it; undefined where there is none. */
function parsed(text: unknown): SessionRecord | undefined {
  // This store alone writes the key, with deepJson of a SessionRecord.
  return typeof text === "string" ? (JSON.parse(text) as SessionRecord) : undefined;
}
