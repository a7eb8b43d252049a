import { StateUnavailable } from "../state/state.js";

/**
 * The user's Redis client, typed by what picomcp calls of it, so that neither client library is
 * imported: node-redis 5 or 6 (`createClient()`, connected) or ioredis 5 (`new Redis()`).
 */
export type RedisClient = NodeRedisClient | IoRedisClient;

/** node-redis 5 and 6: `sendCommand`, `isReady`, and a duplicate for the subscriber. */
export interface NodeRedisClient {
  sendCommand(args: readonly string[]): Promise<unknown>;
  readonly isReady: boolean;
  duplicate(): NodeRedisSubscriber;
}

export interface NodeRedisSubscriber {
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "ready", listener: () => void): unknown;
  destroy(): void;
}

/** ioredis 5: `call`, `status`, and a duplicate for the subscriber, told how long its `disconnect` waits for Redis. */
export interface IoRedisClient {
  call(command: string, ...args: string[]): Promise<unknown>;
  readonly status: string;
  duplicate(override: { disconnectTimeout: number }): IoRedisSubscriber;
}

export interface IoRedisSubscriber {
  subscribe(channel: string): Promise<unknown>;
  on(event: "message", listener: (channel: string, message: string) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "ready", listener: () => void): unknown;
  disconnect(): void;
}

/**
 * Commands to Redis as picomcp sends them: each fails with `StateUnavailable` at once while the
 * client is not connected, or after `timeoutMs` without an answer. Clients queue commands while
 * they reconnect; a request waiting on that queue would hang instead of being told to retry.
 */
export class RedisLink {
  readonly #client: RedisClient;
  readonly #timeoutMs: number;
  /**
   * Redis's clock less this process's (`steadyNow`), in ms, as last read (`clock`, `inTime`); undefined
   * before the first read.
   */
  #skew: number | undefined;

  constructor(client: RedisClient, timeoutMs: number) {
    this.#client = client;
    this.#timeoutMs = timeoutMs;
  }

  get ready(): boolean {
    const client = this.#client;
    return isIoRedis(client) ? client.status === "ready" : client.isReady;
  }

  command(args: readonly [string, ...string[]]): Promise<unknown> {
    if (!this.ready) return Promise.reject(new StateUnavailable(new Error("Redis is not connected")));
    const client = this.#client;
    const sent = isIoRedis(client) ? client.call(args[0], ...args.slice(1)) : client.sendCommand(args);
    return this.#within(sent, "").catch((thrown: unknown) => {
      // A script error is the caller's to see; a connection error is the store being away.
      if (thrown instanceof StateUnavailable || isReplyError(thrown)) throw thrown;
      throw new StateUnavailable(thrown);
    });
  }

  /** `work`, or a `StateUnavailable` once Redis has not answered for the command timeout (`doing` says at what). */
  #within<T>(work: Promise<T>, doing: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      const why = `Redis did not answer within ${this.#timeoutMs} ms${doing}`;
      timer = setTimeout(() => reject(new StateUnavailable(new Error(why))), this.#timeoutMs);
    });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }

  /** Reads Redis's clock (TIME), for the deadlines of `inTime`. */
  async clock(): Promise<void> {
    const sent = steadyNow();
    const time = await this.command(["TIME"]);
    if (Array.isArray(time)) this.#read(Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000), sent);
  }

  /**
   * Runs the script `body` only if Redis runs it within half the command timeout of now, by Redis's
   * clock, and answers what `body` returns (the last ARGV is that deadline, after the body's own
   * arguments): run later, it does nothing and fails with `StateUnavailable`, as an unanswered
   * command does. A command that timed out here is still sent: the client queued it, or wrote it to
   * a Redis that is slow to read it (frozen, paused, busy with a long script), and it runs whenever
   * Redis gets to it, after its request was told it failed and was tried again, after the server
   * closed. What other instances act on (the bus's messages), and what a client told to retry would
   * find done (a task created or cancelled, a requestState claimed), must not happen then, so their
   * scripts read the time where they run. Half: what ran in time was answered in time, unless its
   * answer took over half the timeout to come back.
   */
  async inTime(body: string, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    const sent = steadyNow();
    const deadline = Math.floor(sent + (this.#skew ?? 0) + this.#timeoutMs / 2);
    const reply = await this.script(IN_TIME + body + RAN, keys, [...args, String(deadline)]);
    const [ran, at, answer] = Array.isArray(reply) ? reply : [];
    if (typeof at === "number") this.#read(at, sent);
    if (ran !== 1) {
      const why = `Redis ran a command over ${this.#timeoutMs / 2} ms after it was sent (it was slow or away), so the command did nothing`;
      throw new StateUnavailable(new Error(why));
    }
    return answer;
  }

  /**
   * Redis's clock read `at`, in the answer to a command sent at `sent`: it was read between then and
   * now, taken as their middle. Not from an answer that took over a quarter of the timeout (unless
   * there is no other), whose error could be as large as half the round trip.
   */
  #read(at: number, sent: number): void {
    const now = steadyNow();
    if (this.#skew === undefined || now - sent <= this.#timeoutMs / 4) this.#skew = at - (sent + now) / 2;
  }

  /**
   * Runs a Lua script, sent whole with EVAL each time, in the turn it is called like any command:
   * the commands of a link reach Redis in the order issued, which the event history depends on
   * (http/history-mirror.ts writes a stream's events, then its end, without waiting). EVALSHA cannot keep
   * that order: on a script's first use it needs a load first, and it fails with NOSCRIPT whenever
   * Redis lost its script cache (a restart, a failover, SCRIPT FLUSH), and the commands issued after it
   * have run before its retry. Redis keeps an EVAL'd script compiled (7.4 and later evict the least
   * recently used past 500), so a call costs the SHA1 of a few KB there, and those bytes on the wire.
   */
  script(source: string, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    return this.command(["EVAL", source, String(keys.length), ...keys, ...args]);
  }

  /**
   * A second connection, subscribed to `channel`; resolves with the function that closes it. A Redis
   * that does not answer fails it after the command timeout (`redisState()` rejects, rather than
   * waiting for ever), and the connection is closed if it comes up later. `rejoined` is called each
   * time the connection is back after it was lost (both clients subscribe again by themselves), which
   * may be before the subscription is: the caller hears its own message to know it is (bus.ts).
   * Closing it waits for nothing: the connection is picomcp's and carries no command whose answer
   * matters, while ioredis's `quit()` (and node-redis's `close()`, a command pending) waits for
   * Redis's answer, for ever from a frozen Redis. node-redis's `destroy()` closes the socket at once;
   * ioredis's `disconnect()` ends it, and destroys it should Redis not close its end within
   * `disconnectTimeout` (the command timeout).
   */
  subscribe(channel: string, listener: (message: string) => void, rejoined: () => void): Promise<() => Promise<void>> {
    const subscribed = this.#subscribe(channel, listener, rejoined);
    return this.#within(subscribed, ` while subscribing to ${channel}`).catch((thrown: unknown) => {
      subscribed.then((close) => close()).catch(() => {});
      throw thrown instanceof StateUnavailable ? thrown : new StateUnavailable(thrown);
    });
  }

  async #subscribe(
    channel: string,
    listener: (message: string) => void,
    rejoined: () => void,
  ): Promise<() => Promise<void>> {
    const client = this.#client;
    if (!isIoRedis(client)) {
      const subscriber = client.duplicate();
      // Errors are the reconnects the client does itself; unhandled, they would end the process.
      subscriber.on("error", () => {});
      await subscriber.connect();
      await subscriber.subscribe(channel, listener);
      // Ready again: the first time is over, so this is a reconnect.
      subscriber.on("ready", rejoined);
      return async () => subscriber.destroy();
    }
    const subscriber = client.duplicate({ disconnectTimeout: this.#timeoutMs });
    subscriber.on("error", () => {});
    subscriber.on("message", (from, message) => {
      if (from === channel) listener(message);
    });
    await subscriber.subscribe(channel);
    subscriber.on("ready", rejoined);
    return async () => subscriber.disconnect();
  }
}

/**
 * This process's time in ms, as the wall clock read when it started plus the time elapsed since on a
 * clock that never steps: the wall clock stepped forward (NTP, a suspended machine waking) would
 * move a deadline of `inTime` on, and a bus message would be published as late as the step.
 */
function steadyNow(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * What `inTime` puts before a script: its deadline checked against Redis's clock (`at`, in ms), then
 * the script as a function, whose `return` is its answer. Redis 5 and 6 refuse a write after TIME
 * unless the script replicates its effects (always, from Redis 7).
 */
const IN_TIME = `
if redis.replicate_commands then redis.replicate_commands() end
local now = redis.call('TIME')
local at = now[1] * 1000 + math.floor(now[2] / 1000)
if at > tonumber(ARGV[#ARGV]) then return {0, at} end
local function body()
`;

/** What `inTime` puts after a script: it ran, when, and what it answered. */
const RAN = "\nend\nreturn {1, at, body()}";

/** ioredis has a connection `status` (and a `sendCommand` of its own, unlike node-redis's). */
function isIoRedis(client: RedisClient): client is IoRedisClient {
  return "status" in client && typeof client.status === "string";
}

/** An error Redis answered (WRONGTYPE, a script's error): both clients name it ReplyError or ErrorReply. */
function isReplyError(thrown: unknown): boolean {
  return thrown instanceof Error && (thrown.name === "ReplyError" || thrown.constructor.name === "ErrorReply");
}
