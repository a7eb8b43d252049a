/**
 * Resource updates on two instances sharing a real Redis, when one instance's subscriber is away
 * while another publishes an update: pub/sub keeps nothing for a subscriber that is reconnecting,
 * and an update is kept nowhere, so once it is back the instance tells each session and listen
 * stream it holds that every resource it watches may have changed (docs/scaling.md), only for the
 * URIs its caller may read (docs/authorization.md: what `resources/read` would admit). The
 * subscriber of instance b is killed with CLIENT KILL and kept away (its Redis user off) while
 * instance a publishes, which another subscriber sees; then let back. Two in-process servers
 * (`server.fetch`) with real signed tokens; every wait is bounded. Skipped (with the install
 * command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import { harness, testIssuer } from "../../src/testing.js";
import { ENDPOINT, EventReader, messageOf, modern, sessionStream, within } from "../http-helpers.js";
import { BOUND_MS, busLoss } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();
let prefixes = 0;

const { opened, userClient, subscriberAway, published } = busLoss(redis);
const issuer = await testIssuer({ audience: ENDPOINT });

type Server = ReturnType<typeof notes>;

/** Notes, each readable by its owner only (and with the notes:read scope). */
function notes(state: Awaited<ReturnType<typeof redisState>>) {
  return pico({
    name: "resources-bus-loss",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
    signals: false,
    auth: { verify: issuer.verify, resource: ENDPOINT, authorizationServers: [issuer.issuer], required: false },
  }).resource("notes://{owner}/{id}", {
    auth: { scopes: ["notes:read"], allow: (identity, { owner }) => identity.subject === owner },
    read: ({ owner, id }) => `${owner}'s note ${id}`,
  });
}

/** An instance named `name` (its Redis user), sharing its state under `prefix`. */
async function instance(name: string, prefix: string): Promise<Server> {
  const state = await redisState({ client: await userClient(name), prefix });
  opened.push(() => state.close());
  const server = notes(state);
  opened.push(() => server.close());
  return server;
}

/** Reads `response`'s stream, closed after the test. */
function reading(response: Response): EventReader {
  expect(response.status).toBe(200);
  const reader = new EventReader(response);
  opened.push(() => reader.cancel());
  return reader;
}

/** The URIs of the updates a reader gets, until (and with) `last`; fails if the stream ends or is silent past the bound. */
async function updatesUntil(reader: EventReader, last: string): Promise<string[]> {
  const uris: string[] = [];
  for (let event = await reader.next(BOUND_MS); event; event = await reader.next(BOUND_MS)) {
    // A priming event (an id, no data) carries no message.
    if (!event.data) continue;
    const message = messageOf(event);
    if (message.method !== "notifications/resources/updated") continue;
    const uri = (message.params as { uri: string }).uri;
    uris.push(uri);
    if (uri === last) return uris;
  }
  throw new Error(`the stream ended before an update of ${last}`);
}

/**
 * Instance b's subscriber goes away while instance a publishes an update of `uri`; then b comes
 * back. Instance a serves a request first: its shared sessions, which relay its updates, are made
 * with its endpoint, which `server.fetch` makes with its first request (`serve({ port })` would
 * make it before listening).
 */
async function updatedWhileAway(a: Server, name: string, prefix: string, uri: string): Promise<void> {
  expect((await a.fetch(modern("resources/templates/list"))).status).toBe(200);
  const away = await subscriberAway(name);
  const seen = await published(prefix, "registry");
  a.resourceUpdated(uri);
  await within(seen.seen, BOUND_MS, "the update's message");
  await away.back();
}

it("tells a 2025-11-25 session's GET stream of its subscriptions after its subscriber was away, only those it may read", async () => {
  const prefix = `resources-loss-${prefixes++}:`;
  const [a, b] = [await instance("ra1", prefix), await instance("rb1", prefix)];
  const bob = await issuer.mint({ subject: "bob", scopes: ["notes:read"] });
  const client = harness(b, { token: bob });
  // Ada's note first: told before bob's if the read check were skipped.
  for (const uri of ["notes://ada/1", "notes://bob/2"]) {
    expect((await client.request("resources/subscribe", { uri })).result).toEqual({});
  }
  const stream = reading(await b.fetch(sessionStream(client.sessionId!, { authorization: `Bearer ${bob}` })));
  await updatedWhileAway(a, "rb1", prefix, "notes://bob/2");
  // Before: the update was lost for instance b, whose GET stream never heard of it.
  expect(await updatesUntil(stream, "notes://bob/2")).toEqual(["notes://bob/2"]);
});

it("tells a 2026-07-28 listen stream of its resources after its subscriber was away, only those it may read", async () => {
  const prefix = `resources-loss-${prefixes++}:`;
  const [a, b] = [await instance("ra2", prefix), await instance("rb2", prefix)];
  const bob = await issuer.mint({ subject: "bob", scopes: ["notes:read"] });
  const stream = reading(
    await b.fetch(
      modern(
        "subscriptions/listen",
        { notifications: { resourceSubscriptions: ["notes://ada/1", "notes://bob/2"] } },
        { authorization: `Bearer ${bob}` },
      ),
    ),
  );
  expect(messageOf(await stream.next(BOUND_MS)).method).toBe("notifications/subscriptions/acknowledged");
  await updatedWhileAway(a, "rb2", prefix, "notes://bob/2");
  // Before: the update was lost for instance b, whose listen stream never heard of it.
  expect(await updatesUntil(stream, "notes://bob/2")).toEqual(["notes://bob/2"]);
});
