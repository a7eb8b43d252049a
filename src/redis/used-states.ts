import type { UsedStates } from "../asking/used-states.js";
import type { RedisLink } from "./client.js";

/**
 * The requestState replay guard on Redis: `SET NX PX` succeeds for the first claim of an id on any
 * instance and fails for every later one, until the state has expired anyway (2026-07-28 §3.4).
 */
export class RedisUsedStates implements UsedStates {
  readonly #link: RedisLink;
  readonly #prefix: string;

  constructor(link: RedisLink, prefix: string) {
    this.#link = link;
    this.#prefix = `${prefix}u:`;
  }

  async claim(id: string, expiresAt: number): Promise<boolean> {
    const ms = Math.max(1, Math.ceil(expiresAt - Date.now()));
    return (await this.#link.command(["SET", this.#prefix + id, "1", "NX", "PX", String(ms)])) === "OK";
  }
}
