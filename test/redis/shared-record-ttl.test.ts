/**
 * A shared 2025-11-25 session (`pico({ state })`) is served by every instance until `idleTimeoutMs`
 * after its last use (docs/http.md's `idleTimeoutMs`), though an instance refreshes its record at
 * most once a quarter of that. Was: the record lived `idleTimeoutMs` from its refresh, so a use just
 * before the quarter ended left it to expire three quarters of `idleTimeoutMs` after that use, and
 * another instance then answered 404 for a session in use. Two instances on a real Redis with an idle
 * timeout of 1 s: the session is used on A a fifth of it after a refresh of its record (seen in its
 * PTTL), within the same quarter (its PTTL goes on down), then B is asked after 0.8 of the timeout.
 * Every wait is bounded. Skipped (with the install command as the reason) without redis-server, failed
 * with PICOMCP_REQUIRE_REDIS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { inSession } from "../http-helpers.js";
import { BOUND_MS, busLoss, openSession } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING, sharedState } from "./shared-state.js";

const redis = useRedisServer();
const { opened, client } = busLoss(redis);

const IDLE_MS = 1000;

/** An instance sharing its state under `prefix`, sessions idle for IDLE_MS at most. */
async function instance(prefix: string) {
  const server = pico({
    name: "shared-record-ttl",
    ...SHARING,
    state: await sharedState(redis.get(), prefix, opened),
    http: { sessions: { idleTimeoutMs: IDLE_MS } },
  }).tool("hello", { description: "Says hello.", run: () => "hello" });
  opened.push(() => server.close());
  return server;
}

/** The HTTP status of a tools/list in session `id` on `server`: 200 served, 404 the session is unknown there. */
async function listTools(server: { fetch(request: Request): Promise<Response> }, id: string): Promise<number> {
  const response = await server.fetch(inSession(id, { jsonrpc: "2.0", id: 1, method: "tools/list" }));
  await response.body?.cancel();
  return response.status;
}

it("serves a session on another instance 0.8 of idleTimeoutMs after a use that came just after a refresh of its record", async () => {
  const prefix = "ttl:";
  const [a, b] = [await instance(prefix), await instance(prefix)];
  const id = await openSession(a, {});
  const redisClient = await client();
  const pttl = async () => Number(await redisClient.sendCommand(["PTTL", `${prefix}s:${id}`]));
  // A quarter may end between the refresh and the use, which then refreshes the record itself: again.
  for (let tries = 0; ; tries++) {
    expect(tries, "a use within the quarter of a refresh").toBeLessThan(20);
    // Used on A without pause until the record is refreshed: the first use of a quarter.
    const until = Date.now() + BOUND_MS;
    let last = await pttl();
    for (let now = last; now <= last; now = await pttl()) {
      expect(Date.now(), "a refresh of the record").toBeLessThan(until);
      last = now;
      expect(await listTools(a, id)).toBe(200);
    }
    const refreshed = Date.now();
    const left = await pttl();
    await sleep(0.22 * IDLE_MS - (Date.now() - refreshed));
    expect(await listTools(a, id)).toBe(200);
    if ((await pttl()) < left - 0.1 * IDLE_MS) break;
  }
  // Was: 404, the record expired idleTimeoutMs after the refresh, 0.78 of it after the use.
  await sleep(0.8 * IDLE_MS);
  expect(await listTools(b, id)).toBe(200);
});
