import type { Bus, BusMessage } from "../state/state.js";
import type { RedisLink } from "./client.js";

/**
 * The bus on Redis pub/sub, one channel per key prefix, on a connection of its own (a subscribed
 * connection sends no other command). Each instance skips what it published itself. Pub/sub does
 * not keep messages for a subscriber that is reconnecting: what must not be lost (events, tasks)
 * is kept in Redis, and the bus only says where to look.
 */
export class RedisBus implements Bus {
  readonly #link: RedisLink;
  readonly channel: string;
  readonly instance: string;
  readonly #listeners = new Set<(message: BusMessage) => void>();
  #closing: Promise<() => Promise<void>> | undefined;

  constructor(link: RedisLink, prefix: string, instance: string) {
    this.#link = link;
    this.channel = `${prefix}bus`;
    this.instance = instance;
  }

  /** Subscribes: resolves once messages arrive. */
  start(): Promise<unknown> {
    this.#closing ??= this.#link.subscribe(this.channel, (text) => this.#receive(text));
    return this.#closing;
  }

  async publish(message: BusMessage): Promise<void> {
    await this.#link.command(["PUBLISH", this.channel, this.encode(message)]);
  }

  /** The text of a message from this instance (the event history's script publishes it too). */
  encode(message: BusMessage): string {
    return JSON.stringify({ from: this.instance, message });
  }

  subscribe(listener: (message: BusMessage) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    const closing = this.#closing;
    this.#closing = undefined;
    if (closing) await (await closing)();
  }

  #receive(text: string): void {
    let parsed: { from?: unknown; message?: BusMessage };
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    if (parsed.from === this.instance || !parsed.message) return;
    for (const listener of this.#listeners) listener(parsed.message);
  }
}
