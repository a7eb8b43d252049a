/**
 * What the Redis tests of several instances share (the bus-loss, bus-probe, shared-session, relay
 * lifecycle and server-churn tests): what each test opened, closed after it; clients of a Redis user
 * of their own, whose subscriber a test kills and keeps away (pub/sub keeps nothing for a subscriber
 * that is reconnecting), and an instance's state through one; a listener that sees what is
 * published meanwhile; whether a session's record is on Redis; and the official v1 client with its
 * requests routed between instances, and a POST in a session to one of them.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Redis } from "ioredis";
import { createClient } from "redis";
import { afterEach, expect } from "vitest";
import { type RedisClient, type RedisStateOptions, redisState, type SharedState } from "../../src/redis.js";
import { BOTH, EventReader, inSession, messageOf, post, sessionStream, signal, within } from "../http-helpers.js";
import type { RedisServer } from "./redis-server.js";

/** A 2025-11-25 session opened on `server` by a client declaring `capabilities`, and initialized; its id. */
export async function openSession(
  server: { fetch(request: Request): Promise<Response> },
  capabilities: Record<string, object>,
): Promise<string> {
  const response = await server.fetch(
    post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "t", version: "1" } },
    }),
  );
  const session = response.headers.get("mcp-session-id")!;
  await response.text();
  await server.fetch(inSession(session, { jsonrpc: "2.0", method: "notifications/initialized" }));
  return session;
}

/** A bound on each wait: a failure guard, not a timing. */
export const BOUND_MS = 8000;

/** The client library an instance talks to Redis through: each reports its subscriber's reconnects its own way. */
export type Library = "node-redis" | "ioredis";

/**
 * The helpers, on the test file's Redis (`redis.get()`), and `opened`: what each test opened, closed
 * after it whatever happened (the connections the helpers make included), last opened first.
 */
export function busLoss(redis: { get(): RedisServer }) {
  const opened: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of opened.splice(0).reverse()) await close().catch(() => {});
  });

  /** A node-redis client of the default user, reconnecting quickly. */
  async function client() {
    const connected = createClient({ url: redis.get().url, socket: { reconnectStrategy: () => 20 } });
    connected.on("error", () => {});
    await connected.connect();
    opened.push(async () => connected.destroy());
    return connected;
  }

  /**
   * A client of the Redis user `name`, made for it (its subscriber, a duplicate, logs in as that user
   * too, under the same connection name): `away` keeps that user's connections from coming back, as a
   * subscriber that is reconnecting is away.
   */
  async function userClient(name: string, library: Library = "node-redis"): Promise<RedisClient> {
    const admin = await client();
    await admin.sendCommand(["ACL", "SETUSER", name, "reset", "on", ">secret", "~*", "&*", "+@all"]);
    if (library === "ioredis") {
      const { port } = new URL(redis.get().url);
      const connected = new Redis({
        host: "127.0.0.1",
        port: Number(port),
        username: name,
        password: "secret",
        connectionName: name,
        retryStrategy: () => 20,
        maxRetriesPerRequest: 1,
      });
      connected.on("error", () => {});
      opened.push(async () => connected.disconnect());
      await within(new Promise((resolve) => connected.once("ready", resolve)), BOUND_MS, "ioredis ready");
      return connected;
    }
    const connected = createClient({
      url: redis.get().url,
      username: name,
      password: "secret",
      name,
      socket: { reconnectStrategy: () => 20 },
    });
    connected.on("error", () => {});
    await connected.connect();
    opened.push(async () => connected.destroy());
    return connected;
  }

  /**
   * The state an instance shares under `prefix` through a client of Redis user `name` (userClient,
   * of `options.library`), with `options`; closed after the test.
   */
  async function userState(
    name: string,
    prefix: string,
    options: Omit<RedisStateOptions, "client" | "prefix"> & { library?: Library } = {},
  ): Promise<SharedState> {
    const { library, ...rest } = options;
    const state = await redisState({ client: await userClient(name, library), prefix, ...rest });
    opened.push(() => state.close());
    return state;
  }

  /** Whether Redis holds 2025-11-25 session `id`'s record under `prefix`. */
  async function recordThere(prefix: string, id: string): Promise<boolean> {
    return Number(await (await client()).sendCommand(["EXISTS", `${prefix}s:${id}`])) === 1;
  }

  /**
   * Kills the subscriber connection of the instance of Redis user `name` (CLIENT KILL) and keeps it
   * from logging in again (the user is off; its other connections stay) until `back` is called: the
   * subscriber stays away, reconnecting, however fast its client retries.
   */
  async function subscriberAway(name: string): Promise<{ back(): Promise<void> }> {
    const admin = await client();
    await admin.sendCommand(["ACL", "SETUSER", name, "off"]);
    const list = String(await admin.sendCommand(["CLIENT", "LIST", "TYPE", "pubsub"]));
    const line = list.split("\n").find((entry) => entry.includes(` name=${name} `));
    expect(line, `the subscriber of ${name}`).toBeDefined();
    const id = /^id=(\d+) /.exec(line!)![1]!;
    expect(await admin.sendCommand(["CLIENT", "KILL", "ID", id])).toBe(1);
    return {
      back: async () => {
        await admin.sendCommand(["ACL", "SETUSER", name, "on"]);
      },
    };
  }

  /** Listens to the bus of `prefix` as another subscriber: `seen` resolves once a message of `type` was published. */
  async function published(prefix: string, type: string): Promise<{ seen: Promise<void> }> {
    const listener = (await client()).duplicate();
    listener.on("error", () => {});
    await listener.connect();
    opened.push(async () => listener.destroy());
    let resolve!: () => void;
    const seen = new Promise<void>((done) => {
      resolve = done;
    });
    await listener.subscribe(`${prefix}bus`, (text) => {
      if ((JSON.parse(text) as { message: { type: string } }).message.type === type) resolve();
    });
    return { seen };
  }

  /**
   * Listens, as another subscriber, to the bus of `prefix`: `heard()` resolves with the type of each
   * message published on it that Redis took before `heard` was called, in order. This subscriber's
   * messages come on a connection of its own, in no order with an instance's replies (nor with a
   * Redis that was frozen and thawed): a list read at once could miss one Redis had taken, which
   * comes here a moment later. So each `heard` publishes a mark on a channel of its own and waits for
   * it: Redis sends a connection its messages in the order it took them, whatever their channel.
   */
  async function busHeard(prefix: string): Promise<{ heard(): Promise<string[]> }> {
    const listener = (await client()).duplicate();
    listener.on("error", () => {});
    await listener.connect();
    opened.push(async () => listener.destroy());
    const types: string[] = [];
    await listener.subscribe(`${prefix}bus`, (text) => {
      types.push((JSON.parse(text) as { message: { type: string } }).message.type);
    });
    const marks = new Map<string, () => void>();
    await listener.subscribe(`${prefix}mark`, (text) => marks.get(text)?.());
    const publisher = await client();
    let counts = 0;
    return {
      heard: async () => {
        const mark = String(counts++);
        const arrived = new Promise<void>((resolve) => marks.set(mark, resolve));
        await publisher.publish(`${prefix}mark`, mark);
        await within(arrived, BOUND_MS, `the mark ${mark}`);
        return [...types];
      },
    };
  }

  /** The session's GET stream on `server`, closed after the test. */
  async function getStream(server: { fetch(request: Request): Promise<Response> }, session: string) {
    const response = await server.fetch(sessionStream(session));
    expect(response.status).toBe(200);
    const reader = new EventReader(response);
    opened.push(() => reader.cancel());
    return reader;
  }

  /** The official v1 client on a session of the instance at `a`, each request sent where `to` says (a load balancer). */
  async function routedClient(a: URL, to: (init: RequestInit | undefined) => URL | Promise<URL>) {
    const routed: typeof fetch = async (_input, init) => {
      const url = await to(init);
      return fetch(new URL(url.pathname, url), init);
    };
    const transport = new StreamableHTTPClientTransport(a, { fetch: routed });
    const v1 = new Client({ name: "v1", version: "1.0.0" });
    await v1.connect(transport);
    opened.push(() => v1.close());
    return { client: v1, transport };
  }

  /**
   * The official v1 client on a session of instance `a`, whose resumes (GET with Last-Event-ID) go to
   * instance `b`, each once `hold` (if given) resolves; its DELETE to `deleting` (b unless told),
   * everything else to `a`. `resumed` resolves once it sends a resume.
   */
  async function resumingOn(a: URL, b: URL, options: { deleting?: URL; hold?: () => Promise<unknown> } = {}) {
    const { deleting = b, hold } = options;
    const resumed = signal();
    const { client, transport } = await routedClient(a, async (init) => {
      const resume = new Headers(init?.headers).has("last-event-id");
      if (resume) {
        resumed.resolve();
        await hold?.();
      }
      return init?.method === "DELETE" ? deleting : resume ? b : a;
    });
    return { client, transport, resumed };
  }

  return {
    opened,
    client,
    userClient,
    userState,
    recordThere,
    subscriberAway,
    published,
    busHeard,
    getStream,
    routedClient,
    resumingOn,
  };
}

/**
 * The message an instance's command publishes on its bus, as a client wrapped by a test sees the
 * command (NodeRedisClient's `sendCommand`); undefined for any other command. The bus publishes with
 * a script (RedisLink.inTime): EVAL, the script, its key count, its keys, the channel, the message,
 * the deadline.
 */
export function busMessage(args: readonly string[]): string | undefined {
  if (args[0] !== "EVAL" || !args[1]?.includes("'PUBLISH'")) return undefined;
  return args[4 + Number(args[2])];
}

/** POSTs `body` in 2025-11-25 session `id` to the instance listening at `url`. */
export function postIn(url: URL, id: string, body: unknown): Promise<Response> {
  return fetch(new URL(url.pathname, url), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: BOTH,
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify(body),
  });
}

/** Reads `reader` until a message of `method` comes (bounded); fails if the stream ends first. */
export async function until(reader: EventReader, method: string): Promise<Record<string, unknown>> {
  for (let event = await reader.next(BOUND_MS); event; event = await reader.next(BOUND_MS)) {
    if (!event.data) continue;
    const sent = messageOf(event);
    if (sent.method === method) return sent;
  }
  throw new Error(`the stream ended before ${method}`);
}
