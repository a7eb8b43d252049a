import { deepJson } from "../state/stacked-json.js";
import type { Bus, BusMessage } from "../state/state.js";
import type { RedisLink } from "./client.js";

/** Messages `announce` holds while Redis is away, at most; beyond it the oldest is dropped, and said so. */
const MAX_HELD = 1000;
/** How long a held message stays worth sending: a list change a minute old is still true, an older one is dropped. */
const MAX_HELD_MS = 60_000;
/** How often held messages are tried again. */
const RETRY_MS = 500;
/** How long a message announced with a note is kept: far longer than a subscriber takes to reconnect. */
const NOTE_MS = 60_000;
/** How often the probe of a reconnect is published again until this instance hears it. */
const PROBE_MS = 1000;
/** Probes of one reconnect, at most (a minute, as long as notes are kept): then the next reconnect probes again. */
const MAX_PROBES = 60;

/** Publishes a message (ARGV[2]) on the bus (ARGV[1]), through `RedisLink.inTime`: never late. */
const PUBLISH = "redis.call('PUBLISH', ARGV[1], ARGV[2])";

/** Keeps a noted message (KEYS[1]) and publishes it, together: an instance that misses the one finds the other. */
const NOTE_AND_PUBLISH = `redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])\n${PUBLISH}`;

/**
 * The bus on Redis pub/sub, one channel per key prefix, on a connection of its own (a subscribed
 * connection sends no other command). Each instance skips what it published itself. Pub/sub does
 * not keep messages for a subscriber that is reconnecting: what must not be lost (events, tasks)
 * is kept in Redis, and the bus only says where to look. Once the subscriber is back, the bus
 * publishes `rejoined` as a probe and, when that comes back to it (the subscription is live again),
 * tells its own listeners, once, which read again what they follow. The client may say it is back
 * before its SUBSCRIBE is (node-redis 6 emits "ready" before the reply, ioredis sends it from its
 * "ready" handler): a probe published meanwhile is lost, so it is published again every PROBE_MS
 * until heard (MAX_PROBES at most).
 */
export class RedisBus implements Bus {
  readonly #link: RedisLink;
  readonly channel: string;
  readonly instance: string;
  readonly #notes: string;
  readonly #listeners = new Set<(message: BusMessage) => void>();
  #closing: Promise<() => Promise<void>> | undefined;
  /** What `announce` has not published yet, oldest first (see MAX_HELD). */
  readonly #held: Held[] = [];
  #retry: ReturnType<typeof setTimeout> | undefined;
  #flushing = false;
  #dropped = 0;
  /** The probe of the latest reconnect, while it is not heard: its number, and what publishes it again. */
  #probe: { readonly id: number; readonly timer: ReturnType<typeof setInterval> } | undefined;
  #probes = 0;

  constructor(link: RedisLink, prefix: string, instance: string) {
    this.#link = link;
    this.channel = `${prefix}bus`;
    this.instance = instance;
    this.#notes = `${prefix}n:`;
  }

  /** Subscribes: resolves once messages arrive. */
  start(): Promise<unknown> {
    this.#closing ??= this.#link.subscribe(
      this.channel,
      (text) => this.#receive(text),
      () => this.#rejoined(),
    );
    return this.#closing;
  }

  async publish(message: BusMessage): Promise<void> {
    const text = this.#sendable(message);
    if (text !== undefined) await this.#link.inTime(PUBLISH, [], [this.channel, text]);
  }

  announce(message: BusMessage, note?: string): Promise<void> | undefined {
    const text = this.#sendable(message);
    if (text === undefined) return;
    // One queue, sent by one loop: instances see changes in the order they happened, and what
    // Redis did not take waits there for the next try.
    let settle: (() => void) | undefined;
    const handed = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.#held.push({ text, at: Date.now(), note, settle });
    if (this.#held.length > MAX_HELD) this.#drop();
    if (this.#retry) this.#heldBack();
    else if (!this.#flushing) void this.#flush();
    return handed;
  }

  /** The oldest held message is dropped (MAX_HELD, MAX_HELD_MS): whoever waits on it waits no more. */
  #drop(): void {
    this.#held.shift()?.settle?.();
    this.#dropped++;
  }

  /** Redis did not take the next message: what is held waits for the next try, and whoever waits on it, no more. */
  #heldBack(): void {
    for (const held of this.#held) {
      held.settle?.();
      held.settle = undefined;
    }
  }

  /** The text of a message from this instance (the event history's script publishes it too). */
  encode(message: BusMessage): string {
    // A client's message may nest deeper than JSON.stringify recurses (its answer to a question, its
    // cancellation), JSON.parse having read it: it is relayed whole all the same, as one instance takes it.
    return deepJson({ from: this.instance, message });
  }

  /**
   * The text of `message`, or undefined for one JSON cannot carry (a BigInt, a cycle in a log a
   * task's tool wrote, relayed to a `tasks/result` elsewhere): it is dropped, as one instance's
   * transport drops such a message (core/jsonrpc.ts's `serialize`), never thrown at the code that
   * sent it (the tool's `ctx.log`) or into the bus listener relaying the task's messages, where
   * the messages after it would be lost too.
   */
  #sendable(message: BusMessage): string | undefined {
    try {
      return this.encode(message);
    } catch {
      return undefined;
    }
  }

  /** The subscriber is back: probes until it hears itself, each probe numbered for this reconnect alone. */
  #rejoined(): void {
    this.#stopProbing();
    if (this.#closing === undefined) return;
    const id = ++this.#probes;
    const text = JSON.stringify({ from: this.instance, message: { type: "rejoined" }, probe: id });
    let sent = 0;
    const send = () => {
      if (sent++ === MAX_PROBES) return this.#stopProbing();
      // One that Redis does not take (it is away again) is as lost as one nobody heard: the next is sent all the same.
      // A plain PUBLISH: one heard late is of a past reconnect (its number), and ignored.
      this.#link.command(["PUBLISH", this.channel, text]).catch(() => {});
    };
    const timer = setInterval(send, PROBE_MS);
    this.#probe = { id, timer };
    // Probes alone do not keep a process alive.
    const handle: { unref?: () => void } | number = timer;
    if (typeof handle === "object") handle.unref?.();
    send();
  }

  #stopProbing(): void {
    clearInterval(this.#probe?.timer);
    this.#probe = undefined;
  }

  #schedule(): void {
    if (this.#retry || this.#flushing || this.#closing === undefined) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.#flush();
    }, RETRY_MS);
    // Held messages alone do not keep a process alive.
    const timer: { unref?: () => void } | number = this.#retry;
    if (typeof timer === "object") timer.unref?.();
  }

  /** Sends what was held, in order, until Redis fails again; drops (and reports) what is too old. */
  async #flush(): Promise<void> {
    const now = Date.now();
    for (let oldest = this.#held[0]; oldest && now - oldest.at > MAX_HELD_MS; oldest = this.#held[0]) this.#drop();
    if (this.#dropped > 0) {
      console.error(
        `picomcp/redis: ${this.#dropped} bus message(s) (list changes, task changes, client messages for another instance) were dropped: Redis was unreachable for over ${MAX_HELD_MS / 1000} s or more than ${MAX_HELD} waited; instances may miss those changes until the next one`,
      );
      this.#dropped = 0;
    }
    this.#flushing = true;
    let failed = false;
    // Messages announced meanwhile join the queue, so this loop sends them too, in order.
    for (let next = this.#held[0]; next && !failed; next = this.#held[0]) {
      try {
        if (next.note === undefined) await this.#link.inTime(PUBLISH, [], [this.channel, next.text]);
        else {
          const keys = [this.#notes + next.note];
          await this.#link.inTime(NOTE_AND_PUBLISH, keys, [this.channel, next.text, String(NOTE_MS)]);
        }
        this.#held.shift();
        next.settle?.();
      } catch {
        failed = true;
      }
    }
    this.#flushing = false;
    if (failed) {
      this.#heldBack();
      this.#schedule();
    }
  }

  async noted(notes: readonly string[]): Promise<(BusMessage | undefined)[]> {
    if (notes.length === 0) return [];
    const texts = await this.#link.command(["MGET", ...notes.map((note) => this.#notes + note)]);
    return (Array.isArray(texts) ? texts : []).map((text) =>
      typeof text === "string" ? decode(text)?.message : undefined,
    );
  }

  subscribe(listener: (message: BusMessage) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#stopProbing();
    clearTimeout(this.#retry);
    this.#retry = undefined;
    // Held messages are tried no more: nothing waits on them.
    this.#heldBack();
    const closing = this.#closing;
    this.#closing = undefined;
    if (closing) await (await closing)();
  }

  #receive(text: string): void {
    const parsed = decode(text);
    if (!parsed?.message) return;
    if (parsed.message.type === "rejoined") {
      // Its own probe, for itself alone, and the first heard of this reconnect: its listeners are told once.
      if (parsed.from !== this.instance || this.#probe === undefined || parsed.probe !== this.#probe.id) return;
      this.#stopProbing();
    } else if (parsed.from === this.instance) return;
    for (const listener of this.#listeners) listener(parsed.message);
  }
}

/** A message `announce` has not published yet. */
interface Held {
  readonly text: string;
  readonly at: number;
  readonly note: string | undefined;
  /** Resolves what `announce` answered: the message was published, or is held for a later try, or dropped. */
  settle: (() => void) | undefined;
}

/** A message as `encode` wrote it (a probe also has its number); undefined for text that is not JSON. */
function decode(text: string): { from?: unknown; message?: BusMessage; probe?: unknown } | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
