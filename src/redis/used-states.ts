import type { UsedStates } from "../asking/used-states.js";
import type { RedisLink } from "./client.js";

/**
 * Claims a state: `SET NX PX` succeeds for the first claim of an id on any instance and fails for
 * every later one, until the state has expired anyway (2026-07-28 §3.4). Through `RedisLink.inTime`:
 * a claim that timed out told its client to retry, and run late it would refuse that retry as a replay.
 */
const CLAIM = "return redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) and 1 or 0";

/** The requestState replay guard on Redis (CLAIM). */
export class RedisUsedStates implements UsedStates {
  readonly #link: RedisLink;
  readonly #prefix: string;

  constructor(link: RedisLink, prefix: string) {
    this.#link = link;
    this.#prefix = `${prefix}u:`;
  }

  async claim(id: string, expiresAt: number): Promise<boolean> {
    const ms = Math.max(1, Math.ceil(expiresAt - Date.now()));
    return (await this.#link.inTime(CLAIM, [this.#prefix + id], [String(ms)])) === 1;
  }
}
