/**
 * A shared 2025-11-25 session (`pico({ state })`) whose client went away expires `idleTimeoutMs`
 * after its client's last use of it (2025-11-25 "Session Management": the server may end a session,
 * then its id answers 404), however often the instances that hold a copy read its record for their
 * own sake: an instance whose bus subscription comes back reads again the records of every session
 * it holds (a DELETE or a change made elsewhere meanwhile never reached it), and a read for the
 * instance's sake is no use of the session. Was: every read restarted the record's idle expiry, so
 * a session held on an instance whose subscriber reconnected more often than `idleTimeoutMs` (a
 * proxy dropping idle pub/sub connections) never expired. A session in use (a stream of it open)
 * still stays, as test/redis/shared-long-stream.test.ts shows for a tool and a resumed stream.
 * Two instances on a real Redis with an idle timeout of 400 ms, whose subscribers are killed every
 * 100 ms meanwhile (CLIENT KILL; they reconnect at once). Every wait is bounded. Skipped (with the
 * install command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { EventReader, failure, inSession, sessionStream } from "../http-helpers.js";
import { BOUND_MS, busLoss, openSession } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING } from "./shared-state.js";

const redis = useRedisServer();
let prefixes = 0;

const { opened, client: admin, userState, recordThere, routedClient } = busLoss(redis);

const IDLE_MS = 400;

/** An instance of Redis user `name` sharing its state under `prefix`, sessions idle for IDLE_MS at most. */
async function instance(name: string, prefix: string) {
  const server = pico({
    name: "shared-idle-expiry",
    ...SHARING,
    state: await userState(name, prefix),
    http: { sessions: { idleTimeoutMs: IDLE_MS } },
  }).tool("hello", { description: "Says hello.", run: () => "hello" });
  opened.push(() => server.close());
  return server;
}

/**
 * Kills the bus subscribers of Redis users `names` every quarter of IDLE_MS (each reconnects at
 * once, and its instance then reads its sessions' records again), until the returned stop is called.
 */
async function reconnecting(...names: string[]): Promise<() => Promise<void>> {
  const redisAdmin = await admin();
  let going = true;
  const killing = (async () => {
    while (going) {
      for (const name of names) await redisAdmin.sendCommand(["CLIENT", "KILL", "TYPE", "pubsub", "USER", name]);
      await sleep(IDLE_MS / 4);
    }
  })();
  const stop = async () => {
    going = false;
    await killing.catch(() => {});
  };
  opened.push(stop);
  return stop;
}

/** Resolves once session `id`'s record is gone from Redis; false if it is still there after BOUND_MS. */
async function recordGone(prefix: string, id: string): Promise<boolean> {
  const until = Date.now() + BOUND_MS;
  while (Date.now() < until) {
    if (!(await recordThere(prefix, id))) return true;
    await sleep(50);
  }
  return false;
}

it("expires a session whose client went away, though the instances holding it keep reading its record (official v1 client)", async () => {
  const prefix = `idle-${prefixes++}:`;
  const names = [`a${prefixes}`, `b${prefixes}`];
  const [a, b] = [await instance(names[0]!, prefix), await instance(names[1]!, prefix)];
  const [onA, onB] = [await a.serve({ port: 0, host: "127.0.0.1" }), await b.serve({ port: 0, host: "127.0.0.1" })];
  const [urlA, urlB] = [new URL(onA.url), new URL(onB.url)];
  // initialize on a, every later request on b (its GET stream too): both hold a copy.
  const { client, transport } = await routedClient(urlA, (init) =>
    String(init?.body ?? "").includes('"initialize"') ? urlA : urlB,
  );
  const id = transport.sessionId!;
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["hello"]);
  // The client goes away (its GET stream closes, no DELETE); the instances' subscribers keep reconnecting.
  await client.close();
  const stop = await reconnecting(...names);
  // Was: still there when the bound ran out, its expiry restarted by each instance's read after each reconnect.
  expect(await recordGone(prefix, id)).toBe(true);
  await stop();
  // Past the idle timeout of the instances' copies too: a wait, not a timing assertion.
  await sleep(IDLE_MS);
  // The client comes back to it: its session ended, on either instance (2025-11-25: 404, initialize again).
  for (const url of [urlA, urlB]) {
    const back = new Client({ name: "v1", version: "1.0.0" });
    await back.connect(new StreamableHTTPClientTransport(url, { sessionId: id }));
    opened.push(() => back.close());
    expect(await failure(back.listTools())).toMatch(/Session not found/);
  }
});

it("keeps a session whose GET stream stays open, though its client sends nothing and the subscribers keep reconnecting", async () => {
  const prefix = `idle-${prefixes++}:`;
  const names = [`a${prefixes}`, `b${prefixes}`];
  const [a, b] = [await instance(names[0]!, prefix), await instance(names[1]!, prefix)];
  const id = await openSession(a, {});
  const stream = await a.fetch(sessionStream(id));
  expect(stream.status).toBe(200);
  const reader = new EventReader(stream);
  opened.push(() => reader.cancel());
  const stop = await reconnecting(...names);
  // Past the idle timeout, with room: the open stream is use of the session.
  await sleep(2.5 * IDLE_MS);
  await stop();
  expect(await recordThere(prefix, id)).toBe(true);
  const list = await b.fetch(inSession(id, { jsonrpc: "2.0", id: 5, method: "tools/list" }));
  expect(list.status).toBe(200);
  await list.body?.cancel();
});
