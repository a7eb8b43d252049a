/**
 * A 2025-11-25 session shared by two instances on a real Redis holds, on each instance, at most
 * what that instance's limits allow (`limits.maxSubscriptionsPerSession`,
 * `limits.maxSubscriptionBytesPerSession`; docs/limits.md, "Subscriptions"), whatever its record
 * says: a record written by an instance with other limits, or changed in Redis by hand, is adopted
 * up to the bounds, when an instance makes its copy of the session and when it reads the record
 * again. What a copy holds is read from the error of one more `resources/subscribe`, which counts
 * the URIs held. The official v1 client, its requests routed to one instance or the other as a
 * balancer without sticky sessions may; two servers on 127.0.0.1; every wait is bounded. Skipped
 * (with the install command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import type { Limits } from "../../src/index.js";
import { pico } from "../../src/index.js";
import type { redisState } from "../../src/redis.js";
import { within } from "../http-helpers.js";
import { BOUND_MS } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { sharedState } from "./shared-state.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
let prefixes = 0;

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close().catch(() => {});
});

type State = Awaited<ReturnType<typeof redisState>>;

/** An instance with `limits`, sharing `state`, listening on 127.0.0.1; its URL. */
async function instance(state: State, limits: Limits = {}): Promise<URL> {
  const server = pico({
    name: "shared-subscription-bounds",
    version: "1.0.0",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
    limits,
    signals: false,
  }).resource("notes://{id}", { read: ({ id }) => `note ${id}` });
  const listening = await server.serve({ port: 0, host: "127.0.0.1" });
  opened.push(() => listening.close());
  return new URL(listening.url);
}

/** Two instances on one prefix, `a` with the default limits and `b` with `limits`, and a state of the test's own on it. */
async function cluster(limits: Limits = {}) {
  const prefix = `subscription-bounds-${prefixes++}:`;
  const a = await instance(await sharedState(redis.get(), prefix, opened));
  const b = await instance(await sharedState(redis.get(), prefix, opened), limits);
  return { a, b, state: await sharedState(redis.get(), prefix, opened) };
}

/** The official v1 client, its requests sent to `route.to` (which the test changes); connected. */
async function client(route: { to: URL }) {
  const routed: typeof fetch = (_input, init) => fetch(route.to, init);
  const transport = new StreamableHTTPClientTransport(route.to, { fetch: routed });
  const connected = new Client({ name: "v1", version: "1.0.0" });
  await within(connected.connect(transport), BOUND_MS, "the client's initialize");
  opened.push(() => connected.close());
  return { client: connected, session: () => transport.sessionId! };
}

/** `count` note URIs of `length` characters each, from `from` on. */
function notes(count: number, length = 0, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => {
    const uri = `notes://${from + i}-`;
    return uri.padEnd(length, "x");
  });
}

async function subscribeAll(on: Client, uris: string[]): Promise<void> {
  for (const uri of uris) await within(on.subscribeResource({ uri }), BOUND_MS, `the subscribe to ${uri}`);
}

describe("a shared 2025-11-25 session's subscriptions, adopted from its record (official v1 client)", () => {
  it("an instance with a smaller limits.maxSubscriptionsPerSession takes at most that many", async () => {
    const { a, b } = await cluster({ maxSubscriptionsPerSession: 10 });
    const route = { to: a };
    const { client: v1 } = await client(route);
    await subscribeAll(v1, notes(50));
    // Instance b has no copy yet: it makes one from the record, which holds 50.
    route.to = b;
    // Was: "subscribed to 50 resources already": b held all 50, five times its limit.
    await expect(within(v1.subscribeResource({ uri: "notes://one-more" }), BOUND_MS, "the subscribe")).rejects.toThrow(
      "Too many subscriptions: this session is subscribed to 10 resources already, and the most is 10 (limits.maxSubscriptionsPerSession = 10).",
    );
  });

  it("an instance with a smaller limits.maxSubscriptionBytesPerSession takes URIs up to that many characters", async () => {
    const { a, b } = await cluster({ maxSubscriptionBytesPerSession: 1000 });
    const route = { to: a };
    const { client: v1 } = await client(route);
    // 20 URIs of 100 characters: 2,000, within a's 65,536.
    await subscribeAll(v1, notes(20, 100));
    route.to = b;
    const [oneMore] = notes(1, 100, 20);
    // Was: 2,100 characters with this one: b held all 20 URIs.
    await expect(within(v1.subscribeResource({ uri: oneMore! }), BOUND_MS, "the subscribe")).rejects.toThrow(
      "Too many subscriptions: this session's subscribed URIs would come to 1100 characters with this one of 100, and the most is 1000 (limits.maxSubscriptionBytesPerSession = 1000).",
    );
  });

  it("a record changed in Redis to hold more is taken up to the bounds by an instance making its copy", async () => {
    const { a, b, state } = await cluster();
    const route = { to: a };
    const { client: v1, session } = await client(route);
    await subscribeAll(v1, notes(1));
    const record = await state.sessions.peek!(session());
    await state.sessions.put({ ...record!, subscriptions: notes(1500) }, 60_000);
    route.to = b;
    // Was: "subscribed to 1500 resources already".
    await expect(within(v1.subscribeResource({ uri: "notes://one-more" }), BOUND_MS, "the subscribe")).rejects.toThrow(
      "Too many subscriptions: this session is subscribed to 1000 resources already, and the most is 1000 (limits.maxSubscriptionsPerSession = 1000).",
    );
  });

  it("a record changed in Redis to hold more is taken up to the bounds by an instance reading it again", async () => {
    const { a, state } = await cluster();
    const route = { to: a };
    const { client: v1, session } = await client(route);
    await subscribeAll(v1, notes(1));
    const record = await state.sessions.peek!(session());
    await state.sessions.put({ ...record!, subscriptions: notes(1500) }, 60_000);
    // Instance a reads the record again when told it changed (as another instance's write tells it).
    await state.bus.publish({ type: "session", id: session() });
    // Until a has read it, each subscribe is taken (and written over the changed record, which tells
    // a again); once it has, the copy holds what it took of the record.
    let refused: unknown;
    const probing = (async () => {
      for (let probe = 0; refused === undefined && probe < 200; probe++) {
        await v1.subscribeResource({ uri: `notes://probe-${probe}` }).catch((thrown: unknown) => {
          refused = thrown;
        });
      }
    })();
    await within(probing, BOUND_MS, "a subscribe refused once the record was read again");
    // Was: "subscribed to 1501 resources already" (or more): the copy took the whole record.
    expect(String(refused)).toContain(
      "Too many subscriptions: this session is subscribed to 1000 resources already, and the most is 1000 (limits.maxSubscriptionsPerSession = 1000).",
    );
  });
});
