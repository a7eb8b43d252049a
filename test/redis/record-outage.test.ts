/**
 * A shared session (`pico({ state })`) whose record cannot be rewritten for a moment (Redis frozen)
 * after one of its requests changed it: the request is answered all the same, and the change reaches
 * the record with the session's next request once Redis is back. Skipped (with the install command
 * as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { createClient } from "redis";
import { expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import { bare, EventReader, messageOf, post } from "../http-helpers.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();

it("answers a request whose change cannot be recorded yet, and records it with the next request", async () => {
  const client: ReturnType<typeof createClient> = createClient({ url: redis.get().url });
  client.on("error", () => {});
  await client.connect();
  const state = await redisState({ client, prefix: "outage:", commandTimeoutMs: 300 });
  const server = pico({
    name: "outage",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
    signals: false,
    limits: { maxSseStreams: 1 },
  }).tool("t", { run: () => "t" });
  try {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const opened = await server.fetch(post(init));
    const id = opened.headers.get("mcp-session-id")!;
    await opened.text();
    const session = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };

    redis.get().freeze();
    // Was: 503 "retry in a moment" for both, the answer and its event stream dropped (the stream
    // holding its maxSseStreams slot for ever), and the retries recorded nothing.
    const initialized = await server.fetch(post({ jsonrpc: "2.0", method: "notifications/initialized" }, session));
    expect(initialized.status).toBe(202);
    const setLevel = { jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "error" } };
    const level = await server.fetch(post(setLevel, { ...session, accept: "text/event-stream" }));
    expect(level.status).toBe(200);
    const events = (await new EventReader(level).rest(5000)).filter((event) => event.data).map(messageOf);
    expect(events).toEqual([{ jsonrpc: "2.0", id: 2, result: {} }]);
    redis.get().thaw();

    const list = await server.fetch(post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, session));
    expect(list.status).toBe(200);
    await list.text();
    expect(await state.sessions.get(id, 60_000)).toMatchObject({ initialized: true, logLevel: "error" });
    // The stream slot of the answered request is free again.
    const get = await server.fetch(bare("GET", { accept: "text/event-stream", ...session }));
    expect(get.status).toBe(200);
    await get.body?.cancel();
  } finally {
    redis.get().thaw();
    await server.close();
    await state.close();
    await client.close();
  }
});
