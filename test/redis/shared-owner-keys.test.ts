/**
 * Owner keys on shared state (docs/authorization.md, "Options": whom a session belongs to): a custom
 * `auth.verify` that answers the API key itself as the `subject` does not put the key in Redis. The
 * records of a 2025-11-25 session and of a 2026-07-28 task, and the keys that index them, carry a
 * SHA-256 of the owner's issuer and subject, never the subject, and ownership stays exact: another
 * key cannot use the session or read the task, on the instance that made them or another. Two
 * instances (`server.fetch`) on a real Redis; every key under the test's prefix is read, whatever its
 * type. Skipped (with the install command as the reason) without redis-server, failed with
 * PICOMCP_REQUIRE_REDIS.
 */
import { createClient } from "redis";
import { afterEach, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import type { redisState } from "../../src/redis.js";
import { harness } from "../../src/testing.js";
import { ENDPOINT } from "../http-helpers.js";
import { useRedisServer } from "./redis-server.js";
import { sharedState } from "./shared-state.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
let prefixes = 0;

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/** Two API keys, each its caller's `subject`. */
const KEY = `sk-live-${crypto.randomUUID()}`;
const OTHER = `sk-live-${crypto.randomUUID()}`;
const TASKS = {
  _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } },
};

type Server = ReturnType<typeof pico>;

function server(state: Awaited<ReturnType<typeof redisState>>): Server {
  const made = pico({
    name: "shared-owner-keys",
    version: "1.0.0",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
    signals: false,
    auth: {
      // The key is the identity: what this test shows must not end up in shared state.
      verify: async (token) => ({ issuer: "https://auth.example.com", subject: token, audience: ENDPOINT }),
      resource: ENDPOINT,
      authorizationServers: ["https://auth.example.com"],
    },
  }).tool("report", { description: "Writes a report, as a task if asked.", task: "optional", run: () => "the report" });
  opened.push(() => made.close());
  return made;
}

/** Two instances sharing their state on the test's Redis, and the prefix of their keys. */
async function instances(): Promise<{ a: Server; b: Server; prefix: string }> {
  const prefix = `owner-keys-${prefixes++}:`;
  const a = server(await sharedState(redis.get(), prefix, opened));
  const b = server(await sharedState(redis.get(), prefix, opened));
  return { a, b, prefix };
}

/** Every key under `prefix` and its value, whatever its type, as one text. */
async function everything(prefix: string): Promise<string> {
  const admin: ReturnType<typeof createClient> = createClient({ url: redis.get().url });
  admin.on("error", () => {});
  await admin.connect();
  opened.push(() => admin.close());
  const READ: Record<string, (key: string) => string[]> = {
    string: (key) => ["GET", key],
    hash: (key) => ["HGETALL", key],
    zset: (key) => ["ZRANGE", key, "0", "-1", "WITHSCORES"],
    set: (key) => ["SMEMBERS", key],
    list: (key) => ["LRANGE", key, "0", "-1"],
    stream: (key) => ["XRANGE", key, "-", "+"],
  };
  const keys = (await admin.sendCommand(["KEYS", `${prefix}*`])) as string[];
  const parts: string[] = [];
  for (const key of keys) {
    const type = String(await admin.sendCommand(["TYPE", key]));
    // "none": the key went meanwhile (a finished task's lease).
    const read = READ[type];
    parts.push(key, read ? JSON.stringify(await admin.sendCommand(read(key))) : "");
  }
  return parts.join("\n");
}

it("keeps a 2025-11-25 session's owner in Redis as a digest, and refuses it to another key on every instance", async () => {
  const { a, b, prefix } = await instances();
  const owner = harness(a, { token: KEY });
  expect((await owner.callTool("report")).result).toMatchObject({ content: [{ text: "the report" }] });
  const session = owner.sessionId!;
  const stored = await everything(prefix);
  expect(stored).toContain(session);
  // Was: the session record's owner was "https://auth.example.com <the key>".
  expect(stored).not.toContain(KEY);
  const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
  for (const on of [a, b]) {
    const ping = (token: string) =>
      on.fetch(
        new Request(ENDPOINT, {
          method: "POST",
          headers: {
            ...headers,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            authorization: `Bearer ${token}`,
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
        }),
      );
    const refused = await ping(OTHER);
    expect(refused.status).toBe(404);
    await refused.text();
    const served = await ping(KEY);
    expect(served.status).toBe(200);
    await served.text();
  }
});

it("keeps a 2026-07-28 task's owner in Redis as a digest, and refuses it to another key on every instance", async () => {
  const { a, b, prefix } = await instances();
  const created = await harness(a, { era: "modern", token: KEY }).request("tools/call", {
    name: "report",
    arguments: {},
    ...TASKS,
  });
  const taskId =
    (created.result as { task?: { taskId: string }; taskId?: string }).task?.taskId ?? created.result!.taskId;
  expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
  const stored = await everything(prefix);
  expect(stored).toContain(String(taskId));
  // Was: the task record's owner, and the key of the owner's task list, held the key.
  expect(stored).not.toContain(KEY);
  for (const on of [a, b]) {
    const get = (token: string) =>
      harness(on, { era: "modern", token }).request(
        "tasks/get",
        { taskId, ...TASKS },
        { headers: { "mcp-name": String(taskId) } },
      );
    expect((await get(OTHER)).error?.code).toBe(-32602);
    expect((await get(KEY)).result).toMatchObject({ taskId });
  }
});
