/**
 * A 2025-11-25 stream resumed from the shared history on an instance that did not write it
 * (http/remote-reader.ts), with two servers in this process sharing a real Redis: the stream ends
 * when its session is deleted, and when the server it was resumed on shuts down, as a stream of a
 * local session does; a resume that meets Redis away (503) holds no stream slot. Skipped (with the install command as the reason) without redis-server, failed
 * with PICOMCP_REQUIRE_REDIS.
 */
import { createClient } from "redis";
import { afterAll, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import type { SharedState } from "../../src/state/state.js";
import { BOTH, bare, EventReader, onceFound, post } from "../http-helpers.js";
import { useRedisServer } from "./redis-server.js";

const KEY = "a shared secret of 32 bytes or more!";

const redis = useRedisServer();
const clients: ReturnType<typeof createClient>[] = [];
let prefixes = 0;

afterAll(async () => {
  for (const client of clients) await client.close();
});

async function state(prefix: string): Promise<SharedState> {
  const client: ReturnType<typeof createClient> = createClient({ url: redis.get().url });
  client.on("error", () => {});
  await client.connect();
  clients.push(client);
  return redisState({ client, prefix, commandTimeoutMs: 300 });
}

/**
 * Two instances sharing one prefix; a session opened on the first, whose GET stream there carries
 * one event (a tool added: tools/list_changed); that stream resumed on the second from its priming
 * event, which has the second read it from the shared history.
 */
async function resumedElsewhere() {
  const { first, second, session, own, priming, changed, states } = await openedOnFirst();
  // The event reaches the shared history a moment after the first instance sent it.
  const resumed = await onceFound(
    () => second.fetch(bare("GET", { accept: BOTH, ...session, "last-event-id": priming })),
    50,
  );
  expect(resumed.status).toBe(200);
  // Primed with the id it resumed after, as a stream resumed on the instance that wrote it.
  const elsewhere = await new EventReader(resumed).primed(priming);
  expect((await elsewhere.next(5000))?.id).toBe(changed);
  return { first, second, session, own, elsewhere, states };
}

/** Two instances, the second with one SSE stream at most; the session opened on the first, its GET stream there one event long. */
async function openedOnFirst() {
  const prefix = `remote-${prefixes++}:`;
  const states = [await state(prefix), await state(prefix)];
  const [first, second] = states.map((shared, n) =>
    pico({
      name: "shared",
      requestStateKey: KEY,
      state: shared,
      signals: false,
      limits: { maxSseStreams: 2 - n },
    })
      .tool("t", { run: () => "t" })
      // Closes its stream after the priming event (SEP-1699 polling) and sends nothing: once the client
      // cancels it, its stream ends with no event (2025-11-25 "Cancellation": no response).
      .tool("waits", {
        run: (_args, ctx) => {
          ctx.closeStream();
          return new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve("stopped")));
        },
      }),
  );
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  };
  const opened = await first!.fetch(post(init));
  expect(opened.status).toBe(200);
  const session = { "mcp-session-id": opened.headers.get("mcp-session-id"), "mcp-protocol-version": "2025-11-25" };
  await opened.text();
  expect((await first!.fetch(post({ jsonrpc: "2.0", method: "notifications/initialized" }, session))).status).toBe(202);
  const own = new EventReader(await first!.fetch(bare("GET", { accept: "text/event-stream", ...session })));
  const priming = (await own.next(5000))!.id!;
  first!.tool("later", { run: () => "later" });
  const changed = await own.next(5000);
  expect(changed?.data).toContain("notifications/tools/list_changed");
  return { first: first!, second: second!, session, own, priming, changed: changed?.id, states };
}

describe("a stream resumed on another instance", () => {
  it("ends when its session is deleted (was: it polled the emptied history every second for ever)", async () => {
    const { first, second, session, own, elsewhere, states } = await resumedElsewhere();
    expect((await first.fetch(bare("DELETE", session))).status).toBe(200);
    expect(await own.rest(5000)).toEqual([]);
    expect(await elsewhere.rest(5000)).toEqual([]);
    await first.close();
    await second.close();
    for (const shared of states) await shared.close();
  });

  it("ends when the stream it resumed from its priming event ends with no event, which the history forgets at once", async () => {
    const { first, second, session, states } = await openedOnFirst();
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "waits", arguments: {} } };
    const polled = await new EventReader(await first.fetch(post(call, session))).rest(5000);
    expect(polled).toHaveLength(1);
    const priming = polled[0]!.id!;
    const resume = () => second.fetch(bare("GET", { accept: BOTH, ...session, "last-event-id": priming }));
    // The stream is opened in the shared history a moment after its priming event went out.
    const resumed = await onceFound(resume, 50);
    expect(resumed.status).toBe(200);
    const elsewhere = await new EventReader(resumed).primed(priming);
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } };
    expect((await first.fetch(post(cancel, session))).status).toBe(202);
    expect(await elsewhere.rest(5000)).toEqual([]);
    await first.close();
    await second.close();
    for (const shared of states) await shared.close();
  });

  it("ends when the server it was resumed on shuts down (was: it stayed open after close())", async () => {
    const { first, second, elsewhere, states } = await resumedElsewhere();
    await second.close();
    expect(await elsewhere.rest(5000)).toEqual([]);
    await first.close();
    for (const shared of states) await shared.close();
  });

  it("frees its stream slot when a resume meets the store away (was: each 503 kept one of maxSseStreams for ever)", async () => {
    const { first, second, session, priming, changed, states } = await openedOnFirst();
    // The second instance holds a copy of the session, so a GET there reaches the resume itself.
    const list = await second.fetch(post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, session));
    expect(list.status).toBe(200);
    await list.text();
    const resume = () => second.fetch(bare("GET", { accept: BOTH, ...session, "last-event-id": priming }));
    redis.get().freeze();
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const refused = await resume();
        expect(refused.status).toBe(503);
        expect((await refused.json()).error.message).toMatch(/^The server's shared state is unreachable/);
      }
    } finally {
      redis.get().thaw();
    }
    const resumed = await onceFound(resume, 50);
    // The second instance's one stream slot is free: the resume is served.
    expect(resumed.status).toBe(200);
    const elsewhere = await new EventReader(resumed).primed(priming);
    expect((await elsewhere.next(5000))?.id).toBe(changed);
    await second.close();
    await first.close();
    for (const shared of states) await shared.close();
  });
});
