/**
 * A 2025-11-25 session shared by two instances on a real Redis (`pico({ state })`), ended by a
 * DELETE that another instance than the one running a request of it serves, or the one running it
 * while the client reads its stream on another: the official v1 client's request in progress must
 * get the answer it gets on one instance (-32600 "Session ended", test/http-session-end.test.ts),
 * not hang until its own timeout, and nothing of the session may be left in Redis. The client's
 * fetch sends its DELETE (and its resume) to instance b and everything else to instance a, as a
 * load balancer without sticky sessions may. Two in-process servers on 127.0.0.1; every wait is
 * bounded. Skipped (with the install command as the reason) without redis-server, failed with
 * PICOMCP_REQUIRE_REDIS.
 */
import { describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import type { EventHistory } from "../../src/state/state.js";
import { EventReader, failure, messageOf, SESSION_ENDED, signal, within } from "../http-helpers.js";
import { busLoss, postIn } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING } from "./shared-state.js";

const redis = useRedisServer();
let prefixes = 0;

const { opened, client, userState, subscriberAway, routedClient, resumingOn } = busLoss(redis);

/**
 * An instance sharing its state under `prefix`, listening on 127.0.0.1; `started` resolves once its
 * tool runs. `history`, if given, stands between the instance and its real event history on Redis;
 * `maxSessions`, the sessions it holds at most (the least recently used is evicted for a new one).
 */
async function instance(
  name: string,
  prefix: string,
  options: {
    started?: { resolve: () => void };
    history?: (events: EventHistory) => Partial<EventHistory>;
    maxSessions?: number;
  } = {},
) {
  const { started = signal(), history, maxSessions } = options;
  const state = await userState(name, prefix);
  const server = pico({
    name: "shared-session-end",
    ...SHARING,
    state: history ? { ...state, events: around(state.events, history(state.events)) } : state,
    http: maxSessions === undefined ? undefined : { sessions: { maxSessions } },
  })
    .tool("poll", {
      description: "Closes its stream (the client polls for the result, SEP-1699), then waits until it is cancelled.",
      run: async (_args, ctx) => {
        ctx.closeStream();
        started.resolve();
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        return "never";
      },
    })
    .tool("wait", {
      description: "Reports progress when asked to, then waits until it is cancelled.",
      run: async (_args, ctx) => {
        await ctx.progress(1, 2);
        started.resolve();
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        return "never";
      },
    });
  const listening = await server.serve({ port: 0, host: "127.0.0.1" });
  opened.push(() => listening.close());
  return new URL(listening.url);
}

/** `events`, with the methods of `over` in place of its own. */
function around(events: EventHistory, over: Partial<EventHistory>): EventHistory {
  return {
    append: (session, event, bounds) => events.append(session, event, bounds),
    end: (session, stream) => events.end(session, stream),
    open: (session, stream, request) => events.open!(session, stream, request),
    read: (session, stream, after) => events.read(session, stream, after),
    abandon: (session, event, bounds) => events.abandon!(session, event, bounds),
    clear: (session) => events.clear(session),
    ...over,
  };
}

/** What Redis keeps of session `id` under `prefix`: the keys that name it, and its entry in the history's budget. */
async function leftOf(prefix: string, id: string): Promise<string[]> {
  const admin = await client();
  const left: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = (await admin.sendCommand(["SCAN", cursor, "MATCH", `${prefix}*`, "COUNT", "1000"])) as [
      string,
      string[],
    ];
    cursor = next;
    left.push(...keys.filter((key) => key.includes(id)));
  } while (cursor !== "0");
  if ((await admin.sendCommand(["ZSCORE", `${prefix}hb`, id])) !== null) left.push(`${prefix}hb ${id}`);
  return left;
}

describe("a shared 2025-11-25 session deleted through another instance while a request of it runs (official v1 client)", () => {
  for (const progress of [true, false]) {
    const shape = progress ? "streamed (progress sent first)" : "not yet streamed";
    it(`answers the request, ${shape}, with the error saying the session ended`, async () => {
      const prefix = `end-${prefixes++}:`;
      const started = signal();
      const a = await instance(`a${prefixes}`, prefix, { started });
      const b = await instance(`b${prefixes}`, prefix);
      // DELETE goes to b, everything else to a.
      const { client, transport } = await routedClient(a, (init) => (init?.method === "DELETE" ? b : a));
      const call = failure(
        client.callTool(
          { name: "wait" },
          undefined,
          progress ? { timeout: 5000, onprogress: () => {} } : { timeout: 5000 },
        ),
      );
      await within(started.promise, 5000, "the tool running on instance a");
      await transport.terminateSession();
      // Was: the client's own timeout ("Request timed out"), the request running on instance a.
      expect(await call).toBe(`MCP error -32600: ${SESSION_ENDED}`);
    });
  }

  it("answers the request whose stream the client resumed on the deleting instance (SEP-1699 polling)", async () => {
    const prefix = `end-${prefixes++}:`;
    const started = signal();
    const a = await instance(`a${prefixes}`, prefix, { started });
    const b = await instance(`b${prefixes}`, prefix);
    const { client, transport, resumed } = await resumingOn(a, b);
    const call = failure(client.callTool({ name: "poll" }, undefined, { timeout: 5000 }));
    await within(started.promise, 5000, "the tool running on instance a");
    await within(resumed.promise, 5000, "the client resuming its stream on instance b");
    await transport.terminateSession();
    // Was: b answered the resume 404 (the stream had only its priming event, which the shared
    // history did not know), and the client's call timed out ("Request timed out"); then, about
    // every other run, the same: b's reader read the history just cleared, and ended, before a's answer.
    expect(await call).toBe(`MCP error -32600: ${SESSION_ENDED}`);
  });

  it("answers it when the reader there reads the cleared history before the running instance answers, and leaves nothing of the session in Redis", async () => {
    const prefix = `end-${prefixes++}:`;
    const started = signal();
    // Test doubles around the real history on Redis, to force one order: b clears the session's
    // history (the DELETE), b's reader reads it, and only then does a write what it writes after the clear.
    let clearedOnB = false;
    const readAfterClear = signal();
    const clearedOnA = signal();
    const a = await instance(`a${prefixes}`, prefix, {
      started,
      history: (events) => ({
        append: async (session, event, bounds) => {
          if (clearedOnB) await within(readAfterClear.promise, 5000, "b's reader reading the cleared history");
          return events.append(session, event, bounds);
        },
        clear: async (session) => {
          await events.clear(session);
          clearedOnA.resolve();
        },
      }),
    });
    const read = signal();
    const b = await instance(`b${prefixes}`, prefix, {
      history: (events) => ({
        read: async (session, stream, after) => {
          const afterClear = clearedOnB;
          const slice = await events.read(session, stream, after);
          read.resolve();
          if (afterClear) readAfterClear.resolve();
          return slice;
        },
        // Set as the clear is sent: a read sent after it reaches Redis after it (a link keeps the order).
        clear: (session) => {
          clearedOnB = true;
          return events.clear(session);
        },
      }),
    });
    const { client, transport } = await resumingOn(a, b);
    const call = failure(client.callTool({ name: "poll" }, undefined, { timeout: 5000 }));
    await within(started.promise, 5000, "the tool running on instance a");
    await within(read.promise, 5000, "the client resuming its stream on instance b");
    const id = transport.sessionId!;
    await transport.terminateSession();
    // Was: "Request timed out": b's reader ended on the cleared history, a's answer came after it.
    expect(await call).toBe(`MCP error -32600: ${SESSION_ENDED}`);
    // a clears after the last of what it wrote of the session (was: it never did, and its answer,
    // written after b's clear, made the history again, kept until its TTL).
    await within(clearedOnA.promise, 5000, "instance a clearing the session's history");
    expect(await leftOf(prefix, id)).toEqual([]);
  });
});

describe("a shared 2025-11-25 session deleted on the instance running a request of it, whose stream the client resumed on another (official v1 client)", () => {
  it("answers the request when the reader there reads after the clear, and leaves nothing of the session in Redis", async () => {
    const prefix = `end-${prefixes++}:`;
    const started = signal();
    // Test doubles around the real history on Redis, to force one order: a (which runs the request
    // and serves the DELETE) clears the session's history before b's reader reads it again.
    const clearedOnA = signal();
    let deleting = false;
    const a = await instance(`a${prefixes}`, prefix, {
      started,
      history: (events) => ({
        // Resolved as the clear is sent: a read sent after that reaches Redis after it.
        clear: (session) => {
          clearedOnA.resolve();
          return events.clear(session);
        },
      }),
    });
    const checked = signal();
    const b = await instance(`b${prefixes}`, prefix, {
      history: (events) => ({
        read: async (session, stream, after) => {
          if (deleting) await within(clearedOnA.promise, 5000, "instance a clearing the session's history");
          const slice = await events.read(session, stream, after);
          checked.resolve();
          return slice;
        },
      }),
    });
    const { client, transport } = await resumingOn(a, b, { deleting: a });
    const call = failure(client.callTool({ name: "poll" }, undefined, { timeout: 5000 }));
    await within(started.promise, 5000, "the tool running on instance a");
    // The resume is checked on b, its reader in place, before the DELETE goes.
    await within(checked.promise, 5000, "instance b reading the stream the client resumed there");
    const id = transport.sessionId!;
    deleting = true;
    await transport.terminateSession();
    // Was: "Request timed out": a wrote its answer, then cleared it with the history, before b's
    // reader read, which found the stream gone and ended.
    expect(await call).toBe(`MCP error -32600: ${SESSION_ENDED}`);
    expect(await leftOf(prefix, id)).toEqual([]);
  });
});

/**
 * `events`, whose writes (open, append, end) are put in `late` once `after()` is true: what an
 * instance writes of a session after a point of the test, to wait until it has all reached Redis.
 */
function writesAfter(after: () => boolean, late: Promise<unknown>[]) {
  return (events: EventHistory): Partial<EventHistory> => {
    const noted = <T>(write: Promise<T>): Promise<T> => {
      if (after()) late.push(write.catch(() => {}));
      return write;
    };
    return {
      open: (session, stream, request) => noted(events.open!(session, stream, request)),
      append: (session, event, bounds) => noted(events.append(session, event, bounds)),
      end: (session, stream) => noted(events.end(session, stream)),
    };
  };
}

describe("a shared 2025-11-25 session's copy that writes of it after another instance served its DELETE (evicted before it was told)", () => {
  it("leaves nothing of the session in Redis: a request the copy served after the DELETE, answered as the copy is evicted", async () => {
    const prefix = `end-${prefixes++}:`;
    const started = signal();
    let deleted = false;
    const late: Promise<unknown>[] = [];
    const a = await instance(`a${prefixes}`, prefix, {
      started,
      maxSessions: 1,
      history: writesAfter(() => deleted, late),
    });
    const b = await instance(`b${prefixes}`, prefix);
    const { transport } = await resumingOn(a, b);
    const id = transport.sessionId!;
    // a is not told of the DELETE (its bus subscriber is reconnecting: pub/sub keeps nothing for it),
    // as it is not in the moment the bus takes to carry it.
    const away = await subscriberAway(`a${prefixes}`);
    opened.push(() => away.back());
    await transport.terminateSession();
    deleted = true;
    // A request of the session that reached a after b served the DELETE: a's copy serves it, and
    // writes its stream (opened, its progress) in the shared history.
    const params = { name: "wait", _meta: { progressToken: 1 } };
    const racing = postIn(a, id, { jsonrpc: "2.0", id: 9, method: "tools/call", params });
    await within(started.promise, 5000, "the tool running on instance a");
    // a holds one session at most, and that one is busy: a new one evicts it, and its request is answered.
    await resumingOn(a, b);
    const reply = await within(racing, 5000, "the reply to the request instance a served");
    expect(reply.status).toBe(200);
    const stream = new EventReader(reply);
    opened.push(() => stream.cancel());
    let answer: Record<string, unknown> | undefined;
    for (let event = await stream.next(5000); event && !answer; event = await stream.next(5000)) {
      if (event.data && "id" in messageOf(event)) answer = messageOf(event);
    }
    expect(answer).toMatchObject({ id: 9, error: { message: SESSION_ENDED } });
    await within(Promise.all(late), 5000, "what instance a wrote of the session after the DELETE");
    // Was: the stream's opening, its progress, its answer and its end, written after b's clear, made the
    // session's history again (h:, hm:, its bytes in hb), kept until its TTL: a, told of the
    // DELETE only once its copy was gone, had nothing to clear.
    expect(await leftOf(prefix, id)).toEqual([]);
  });

  it("leaves nothing of the session in Redis when the evicted copy's answer reaches Redis between the DELETE's removal of the record and its clear", async () => {
    const prefix = `end-${prefixes++}:`;
    const started = signal();
    // Test doubles around the real history on Redis, to force one order: b has removed the session's
    // record and not yet cleared its history when a's answer (its copy evicted) is written.
    const recordGone = signal();
    let deleting = false;
    const answered = signal();
    const a = await instance(`a${prefixes}`, prefix, {
      started,
      maxSessions: 1,
      history: (events) => ({
        append: async (session, event, bounds) => {
          const late = deleting;
          try {
            return await events.append(session, event, bounds);
          } finally {
            if (late) answered.resolve();
          }
        },
      }),
    });
    const b = await instance(`b${prefixes}`, prefix, {
      history: (events) => ({
        clear: async (session) => {
          recordGone.resolve();
          await within(answered.promise, 5000, "instance a's answer written");
          return events.clear(session);
        },
      }),
    });
    const { client, transport } = await resumingOn(a, b);
    const id = transport.sessionId!;
    const call = failure(client.callTool({ name: "wait" }, undefined, { timeout: 5000, onprogress: () => {} }));
    await within(started.promise, 5000, "the tool running on instance a");
    deleting = true;
    const deleted = transport.terminateSession();
    await within(recordGone.promise, 5000, "instance b removing the session's record");
    // a holds one session at most, and that one is busy: a new one evicts it, and its request is answered.
    await resumingOn(a, b);
    expect(await call).toBe(`MCP error -32600: ${SESSION_ENDED}`);
    await within(deleted, 5000, "the DELETE answered");
    expect(await leftOf(prefix, id)).toEqual([]);
  });
});
