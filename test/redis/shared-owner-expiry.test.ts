/**
 * A shared 2025-11-25 session (`pico({ state })`) lives while its owner uses it, and only then: the
 * requests of another caller who knows its id are answered 404 (2025-11-25 "Session Hijacking"), and
 * neither restart its idle expiry, on the instance holding it or on one that does not, nor make a
 * copy of it there. Its owner's request on an instance that had no copy still does. Two instances
 * (`server.fetch`) with signed-in callers on a real Redis, sessions idle for IDLE_MS at most; every
 * wait is bounded. Skipped (with the install command as the reason) without redis-server, failed
 * with PICOMCP_REQUIRE_REDIS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "redis";
import { afterEach, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import { ENDPOINT, inSession, post } from "../http-helpers.js";
import { BOUND_MS } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
let prefixes = 0;

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

const IDLE_MS = 1000;

type Server = ReturnType<typeof pico>;

/** A node-redis client of the test's Redis, closed after the test. */
async function connected() {
  const client: ReturnType<typeof createClient> = createClient({ url: redis.get().url });
  client.on("error", () => {});
  await client.connect();
  opened.push(() => client.close());
  return client;
}

/** Two instances sharing their state, each signing in the callers "owner" and "other" by those tokens. */
async function instances(prefix: string): Promise<[Server, Server]> {
  const servers: Server[] = [];
  for (let i = 0; i < 2; i++) {
    const state = await redisState({ client: await connected(), prefix });
    opened.push(() => state.close());
    const server = pico({
      name: "shared-owner-expiry",
      version: "1.0.0",
      requestStateKey: "a shared secret of 32 bytes or more!",
      state,
      signals: false,
      http: { sessions: { idleTimeoutMs: IDLE_MS } },
      auth: {
        verify: async (token) => ({ issuer: "https://auth.example.com", subject: token, audience: ENDPOINT }),
        resource: ENDPOINT,
        authorizationServers: ["https://auth.example.com"],
      },
    });
    opened.push(() => server.close());
    servers.push(server);
  }
  return [servers[0]!, servers[1]!];
}

/** A session `owner` opened on `server`: its id. */
async function open(server: Server): Promise<string> {
  const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
  const response = await server.fetch(
    post({ jsonrpc: "2.0", id: 0, method: "initialize", params }, { authorization: "Bearer owner" }),
  );
  expect(response.status).toBe(200);
  await response.text();
  return response.headers.get("mcp-session-id")!;
}

/** A ping in `session` on `server` by the caller `token` names: its status. */
async function ping(server: Server, session: string, token: string): Promise<number> {
  const response = await server.fetch(
    inSession(session, { jsonrpc: "2.0", id: 1, method: "ping" }, { authorization: `Bearer ${token}` }),
  );
  await response.body?.cancel();
  return response.status;
}

/** Whether Redis holds session `id`'s record under `prefix`, asked on `admin`. */
async function recordThere(admin: Awaited<ReturnType<typeof connected>>, prefix: string, id: string) {
  return Number(await admin.sendCommand(["EXISTS", `${prefix}s:${id}`])) === 1;
}

it("lets a session expire while another caller, answered 404, keeps sending requests in it to every instance", async () => {
  const prefix = `owner-expiry-${prefixes++}:`;
  const [a, b] = await instances(prefix);
  const session = await open(a);
  const admin = await connected();
  const until = Date.now() + BOUND_MS;
  let gone = false;
  while (!gone && Date.now() < until) {
    expect(await ping(a, session, "other")).toBe(404);
    expect(await ping(b, session, "other")).toBe(404);
    gone = !(await recordThere(admin, prefix, session));
    await sleep(50);
  }
  // Was: still there when the bound ran out, its idle expiry restarted by each of the other caller's requests.
  expect(gone).toBe(true);
  // Past the idle timeout of instance a's copy too: a wait, not a timing assertion.
  await sleep(IDLE_MS);
  expect(await ping(a, session, "owner")).toBe(404);
  expect(await ping(b, session, "owner")).toBe(404);
});

it("keeps a session its owner uses on an instance that had no copy of it", async () => {
  const prefix = `owner-expiry-${prefixes++}:`;
  const [a, b] = await instances(prefix);
  const session = await open(a);
  await sleep(IDLE_MS * 0.6);
  // Instance b makes its copy from the record, and restarts the record's idle expiry.
  expect(await ping(b, session, "owner")).toBe(200);
  await sleep(IDLE_MS * 0.6);
  // Longer than IDLE_MS after it was opened, less after the owner's last use: a wait, not a timing assertion.
  expect(await recordThere(await connected(), prefix, session)).toBe(true);
  expect(await ping(b, session, "owner")).toBe(200);
});
