/**
 * The relay of an instance sharing state on a real Redis (`pico({ state })`, docs/scaling.md) over
 * its server's life: a server that served `server.fetch` before `serve({ port })` made two
 * endpoints, and relays each change on the bus once, not once per endpoint; and `server.close()`
 * lets go of what it held, every endpoint's listeners on the registry and on the bus, so a change
 * made after it publishes nothing (the state itself stays its owner's to close). A session of the
 * endpoint taken over keeps its stream, told once of each change of the other instances. A
 * `serve({ port })` that could not make its endpoint (an option out of range) takes nobody's place:
 * the endpoint before it goes on serving and relaying, and closes with the server. The bus is read
 * by a subscriber of the test's own; every wait is bounded. Skipped (with the install command as the
 * reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import { registryOf } from "../../src/server.js";
import type { BusMessage } from "../../src/state/state.js";
import { bare, EventReader, inSession, liveListeners, messageOf, post, signal, within } from "../http-helpers.js";
import { BOUND_MS, busLoss, openSession } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();
let prefixes = 0;

const { opened, client } = busLoss(redis);

/** Every message published on the bus of `prefix`, read by a subscriber of the test's own; `until` waits for one. */
async function busOf(prefix: string) {
  const listener = (await client()).duplicate();
  listener.on("error", () => {});
  await listener.connect();
  opened.push(async () => listener.destroy());
  const messages: BusMessage[] = [];
  const waiters = new Set<() => void>();
  await listener.subscribe(`${prefix}bus`, (text) => {
    messages.push((JSON.parse(text) as { message: BusMessage }).message);
    for (const wake of waiters) wake();
  });
  return {
    messages,
    /** Resolves once a message `matches`: the bus carries one instance's messages in the order it announced them. */
    until: (matches: (message: BusMessage) => boolean, what: string) => {
      const seen = signal();
      const check = () => {
        if (messages.some(matches)) seen.resolve();
      };
      waiters.add(check);
      check();
      return within(seen.promise, BOUND_MS, what).finally(() => waiters.delete(check));
    },
  };
}

/** A registry message of the bus: a resource update of `uri`. */
function updateOf(uri: string) {
  return (message: BusMessage) =>
    message.type === "registry" && message.event.type === "resources/updated" && message.event.uri === uri;
}

/** A server sharing state under `prefix`, with its registry's and its bus's live listeners counted from its start. */
async function instance(prefix: string) {
  const state = await redisState({ client: await client(), prefix });
  opened.push(() => state.close());
  const bus = liveListeners(state.bus);
  const server = pico({
    name: "shared-relay-lifecycle",
    version: "1.0.0",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
    signals: false,
  })
    .tool("whoami", { description: "Says hello.", run: () => "hello" })
    .resource("notes://{id}", { read: ({ id }) => `note ${id}` });
  await server.ready();
  const registry = liveListeners(registryOf(server as never));
  opened.push(() => server.close());
  return { server, state, bus, registry };
}

/** An instance whose server made an endpoint by server.fetch (a session opened on it), then the one serve({ port }) makes. */
async function fetchedThenServed(prefix: string) {
  const made = await instance(prefix);
  await openSession(made.server, {});
  const listening = await made.server.serve({ port: 0, host: "127.0.0.1" });
  opened.push(() => listening.close());
  return made;
}

it("relays each change once after server.fetch then serve({ port })", async () => {
  const prefix = `relay-${prefixes++}:`;
  const { server } = await fetchedThenServed(prefix);
  const published = await busOf(prefix);
  server.resourceUpdated("notes://1");
  server.tool("added", { description: "Added at run time.", run: () => "added" });
  server.resourceUpdated("notes://marker");
  // One instance's announcements reach the bus in order: once the last is in, every one before it is.
  await published.until(updateOf("notes://marker"), "the marker update on the bus");
  const changes = published.messages.filter((message) => message.type === "registry");
  // Was: each twice, once by the endpoint of server.fetch, still subscribed, once by serve's.
  expect(changes.filter(updateOf("notes://1"))).toHaveLength(1);
  expect(changes.filter((message) => message.event.type === "tools/list_changed")).toHaveLength(1);
});

it("server.close() lets go of the registry and the bus: a change made after it publishes nothing", async () => {
  const prefix = `relay-${prefixes++}:`;
  const { server, state, bus, registry } = await fetchedThenServed(prefix);
  const published = await busOf(prefix);
  await server.close();
  // Was: the listeners of both endpoints, on the registry (their relays, their session stores) and on the bus.
  expect(registry()).toBe(0);
  expect(bus()).toBe(0);
  server.resourceUpdated("notes://2");
  // Announced on the same bus after the closed server's change: once it is in, that change would be.
  state.bus.announce({ type: "registry", event: { type: "resources/updated", uri: "notes://after" } });
  await published.until(updateOf("notes://after"), "the update announced after close");
  // Was: the closed server's change relayed to the other instances.
  expect(published.messages.filter(updateOf("notes://2"))).toEqual([]);
});

it("tells a session of the endpoint serve({ port }) took over of another instance's change once, and echoes nothing", async () => {
  const prefix = `relay-${prefixes++}:`;
  const a = await instance(prefix);
  // A session of the endpoint of server.fetch, subscribed, its GET stream open: then serve({ port }).
  const session = await openSession(a.server, {});
  for (const uri of ["notes://1", "notes://marker"]) {
    const subscribed = await a.server.fetch(
      inSession(session, { jsonrpc: "2.0", id: uri, method: "resources/subscribe", params: { uri } }),
    );
    expect(subscribed.status).toBe(200);
    await subscribed.text();
  }
  const stream = await a.server.fetch(
    bare("GET", { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }),
  );
  const reader = new EventReader(stream);
  opened.push(() => reader.cancel());
  const listening = await a.server.serve({ port: 0, host: "127.0.0.1" });
  opened.push(() => listening.close());
  const b = await instance(prefix);
  const bServes = await b.server.serve({ port: 0, host: "127.0.0.1" });
  opened.push(() => bServes.close());
  const published = await busOf(prefix);

  b.server.resourceUpdated("notes://1");
  b.server.resourceUpdated("notes://marker");
  const told: string[] = [];
  while (told.at(-1) !== "notes://marker") {
    const event = await reader.next(BOUND_MS);
    if (event?.data === "") continue;
    told.push((messageOf(event).params as { uri: string }).uri);
  }
  // Was: twice, once from each endpoint of instance a, each also announcing the other's back on the bus.
  expect(told).toEqual(["notes://1", "notes://marker"]);
  // Announced by instance a after it passed on both: anything it sent back of them is on the bus before it.
  a.state.bus.announce({ type: "registry", event: { type: "resources/updated", uri: "notes://after" } });
  await published.until(updateOf("notes://after"), "the update announced on instance a");
  expect(published.messages.filter(updateOf("notes://1"))).toHaveLength(1);
});

/** serve({ port }) with an option the endpoint refuses as it is made: it rejects. */
const REFUSED = { port: 0, host: "127.0.0.1", maxBodyBytes: 0 };

it("a serve({ port }) that could not make its endpoint takes nobody's place, and server.close() still lets go of all", async () => {
  const prefix = `relay-${prefixes++}:`;
  const { server, bus, registry } = await instance(prefix);
  const listening = await server.serve({ port: 0, host: "127.0.0.1" });
  opened.push(() => listening.close());
  await expect(server.serve(REFUSED)).rejects.toThrow(/maxBodyBytes must be an integer of at least 1/);
  // Was: server.fetch rejected with the failed serve's error from then on.
  const initialize = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
  // Through the endpoint serving, which checks Host as serve({ port }) on loopback does.
  const initializing = post({ jsonrpc: "2.0", id: 1, method: "initialize", params: initialize }, { host: "127.0.0.1" });
  const answered = await server.fetch(initializing);
  expect(answered.status).toBe(200);
  await answered.text();
  // Was: close() rejected with that error too, and let go of nothing.
  await server.close();
  // Was: the first endpoint's listeners (its relay and its session store on the registry, its relay on the bus).
  expect(registry()).toBe(0);
  expect(bus()).toBe(0);
});

it("relays each change once and lets go of every endpoint when of three serves at once the middle one fails", async () => {
  const prefix = `relay-${prefixes++}:`;
  const { server, bus, registry } = await instance(prefix);
  const serving = await Promise.allSettled([
    server.serve({ port: 0, host: "127.0.0.1" }),
    server.serve(REFUSED),
    server.serve({ port: 0, host: "127.0.0.1" }),
  ]);
  for (const served of serving) if (served.status === "fulfilled") opened.push(() => served.value.close());
  // Was: all three rejected: each endpoint was made with the options of the latest serve set (and each
  // serve took the options of the one before as its defaults), the refused one's.
  expect(serving.map((served) => served.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  const published = await busOf(prefix);
  server.resourceUpdated("notes://1");
  server.resourceUpdated("notes://marker");
  await published.until(updateOf("notes://marker"), "the marker update on the bus");
  // Was: twice: the third endpoint took the place of the failed one, so the first never stopped relaying.
  expect(published.messages.filter(updateOf("notes://1"))).toHaveLength(1);
  await server.close();
  // Was: the first endpoint's listeners, which close() never reached.
  expect(registry()).toBe(0);
  expect(bus()).toBe(0);
});
