import { describe, expect, it } from "vitest";
import type { RequestContext } from "../src/core/context.js";
import { type Context, pico } from "../src/index.js";
import type { HttpOptions } from "../src/transports/http/options.js";
import { bare, EventReader, initialize, inSession, messageOf, signal, within } from "./http-helpers.js";

/**
 * The SSE streams of legacy sessions (spec-2025-11-25 §17.3-17.5): the standalone GET stream,
 * event ids `<stream>-<seq>`, priming events, resumption with Last-Event-ID, polling (SEP-1699)
 * and the bounded event history.
 */

const progress = (ctx: Context, n: number) =>
  (ctx as RequestContext).emit?.({
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: "t", progress: n },
  });

function server(http: HttpOptions = {}) {
  const gate = signal();
  const started = signal();
  /** What each call of the `poll` tool's `ctx.closeStream()` answered. */
  const closed: boolean[] = [];
  const app = pico({ name: "streams", version: "1.0.0", http })
    .tool("chatty", {
      run: (_args, ctx) => {
        progress(ctx, 1);
        progress(ctx, 2);
        return "chatted";
      },
    })
    .tool("slow", {
      run: async (_args, ctx) => {
        progress(ctx, 1);
        started.resolve();
        await gate.promise;
        progress(ctx, 2);
        return "slow done";
      },
    })
    .tool("poll", {
      run: async (_args, ctx) => {
        closed.push(ctx.closeStream());
        started.resolve();
        await gate.promise;
        return "polled";
      },
    });
  let added = 0;
  /** Registers a new tool, which every initialized session hears about on its GET stream. */
  const addTool = () => app.tool(`added_${added++}`, { run: () => "" });
  return { app, gate, started, addTool, closed };
}

const call = (id: number | string, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {} },
});

const listChanged = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };

function get(session: string, headers: Record<string, string> = {}) {
  return bare("GET", { accept: "text/event-stream", "mcp-session-id": session, ...headers });
}

describe("the GET stream", () => {
  it("opens with a priming event and delivers notifications/tools/list_changed when a tool is added", async () => {
    const { app, addTool } = server();
    const session = await initialize(app);
    const response = await app.fetch(get(session));
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBe(session);
    expect(response.headers.get("cache-control")).toBe("no-cache, no-transform");
    const stream = new EventReader(response);
    expect(await stream.next()).toEqual({ id: "0-0", retry: 1000, data: "" });
    addTool();
    const event = await stream.next();
    expect(event).toMatchObject({ id: "0-1", event: "message" });
    expect(messageOf(event)).toEqual(listChanged);
    addTool();
    expect(await stream.next()).toMatchObject({ id: "0-2" });
    await stream.cancel();
  });

  it("delivers each session's notifications on its own stream", async () => {
    const { app, addTool } = server();
    const streams = [];
    for (let i = 0; i < 2; i++) {
      const stream = new EventReader(await app.fetch(get(await initialize(app))));
      await stream.next();
      streams.push(stream);
    }
    addTool();
    for (const stream of streams) expect(messageOf(await stream.next())).toEqual(listChanged);
    for (const stream of streams) await stream.cancel();
  });

  /**
   * One GET stream is read at a time (2025-11-25 "Multiple Connections": each message on one stream).
   * Was: 409 to the second, for as long as the first was open, which a connection that died without
   * closing is for good (test/http-dead-stream.test.ts).
   */
  it("ends the open GET stream for a second one, which carries on after what the first sent", async () => {
    const { app, addTool } = server();
    const session = await initialize(app);
    const first = new EventReader(await app.fetch(get(session)));
    await first.next();
    addTool();
    expect((await first.next())?.id).toBe("0-1");
    const second = new EventReader(await app.fetch(get(session)));
    expect(await first.rest()).toEqual([]);
    expect(await second.next()).toEqual({ id: "0-1", retry: 1000, data: "" });
    addTool();
    expect(await second.next()).toMatchObject({ id: "0-2", data: JSON.stringify(listChanged) });
    // Sent while no GET stream is open: the next one starts with them, in order, and nothing sent before.
    await second.cancel();
    addTool();
    addTool();
    const third = new EventReader(await app.fetch(get(session)));
    expect((await third.next())?.id).toBe("0-2");
    expect(await third.next()).toMatchObject({ id: "0-3", data: JSON.stringify(listChanged) });
    expect(await third.next()).toMatchObject({ id: "0-4", data: JSON.stringify(listChanged) });
    await third.cancel();
  });

  it("answers 406 without Accept: text/event-stream, 400 without a session id", async () => {
    const { app } = server();
    const session = await initialize(app);
    for (const accept of ["application/json", "text/html"]) {
      const response = await app.fetch(get(session, { accept }));
      expect(response.status).toBe(406);
      expect((await response.json()).error.message).toBe(
        "Not Acceptable: GET opens an event stream; send Accept: text/event-stream",
      );
    }
    expect((await app.fetch(bare("GET", { accept: "text/event-stream" }))).status).toBe(400);
    // An empty Accept is read as a missing one, which accepts an event stream (RFC 9110 §12.5.1).
    const opened = await app.fetch(get(session, { accept: "" }));
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
  });

  it("sends no priming event to a 2025-03-26 session; its events still carry ids", async () => {
    const { app, addTool } = server();
    const session = await initialize(app, "2025-03-26");
    const stream = new EventReader(await app.fetch(get(session)));
    addTool();
    const event = await stream.next();
    expect(event?.id).toBe("0-1");
    expect(event?.retry).toBeUndefined();
    expect(messageOf(event)).toEqual(listChanged);
    await stream.cancel();
  });
});

describe("POST streams in a session", () => {
  it("primes the stream and numbers its events, apart from the GET stream's", async () => {
    const { app } = server();
    const session = await initialize(app);
    const response = await app.fetch(inSession(session, call("c", "chatty")));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("mcp-session-id")).toBe(session);
    const events = await new EventReader(response).rest();
    expect(events.map((event) => event.id)).toEqual(["1-0", "1-1", "1-2", "1-3"]);
    expect(events[0]).toEqual({ id: "1-0", retry: 1000, data: "" });
    expect(messageOf(events[3])).toEqual({
      jsonrpc: "2.0",
      id: "c",
      result: { content: [{ type: "text", text: "chatted" }] },
    });
    // The next request gets the next stream number.
    const next = await new EventReader(await app.fetch(inSession(session, call("d", "chatty")))).rest();
    expect(next[0]?.id).toBe("2-0");
  });

  it("answers plainly in JSON when nothing is emitted", async () => {
    const { app } = server();
    const session = await initialize(app);
    const response = await app.fetch(inSession(session, { jsonrpc: "2.0", id: 1, method: "tools/list" }));
    expect(response.headers.get("content-type")).toBe("application/json");
  });
});

describe("resumption with Last-Event-ID", () => {
  it("replays what followed a dropped GET stream, then continues live", async () => {
    const { app, addTool } = server();
    const session = await initialize(app);
    const dropped = new EventReader(await app.fetch(get(session)));
    expect((await dropped.next())?.id).toBe("0-0");
    await dropped.cancel();
    addTool();
    addTool();
    const resumed = new EventReader(await app.fetch(get(session, { "last-event-id": "0-0" })));
    // Primed with the id it resumed after: a connection lost before the next event comes back with it.
    expect(await resumed.next()).toEqual({ id: "0-0", retry: 1000, data: "" });
    expect(await resumed.next()).toMatchObject({ id: "0-1", data: JSON.stringify(listChanged) });
    expect(await resumed.next()).toMatchObject({ id: "0-2" });
    addTool();
    expect(await resumed.next()).toMatchObject({ id: "0-3", data: JSON.stringify(listChanged) });
    // The resumed stream is the session's GET stream now: a new one takes its place, after what it sent.
    const next = new EventReader(await app.fetch(get(session)));
    expect(await resumed.rest()).toEqual([]);
    expect((await next.next())?.id).toBe("0-3");
    await next.cancel();
  });

  it("replays only what came after the given event", async () => {
    const { app, addTool } = server();
    const session = await initialize(app);
    const dropped = new EventReader(await app.fetch(get(session)));
    await dropped.next();
    addTool();
    addTool();
    expect((await dropped.next())?.id).toBe("0-1");
    await dropped.cancel();
    const resumed = await new EventReader(await app.fetch(get(session, { "last-event-id": "0-1" }))).primed("0-1");
    expect((await resumed.next())?.id).toBe("0-2");
    await resumed.cancel();
  });

  it("keeps a session request running when its stream drops, and delivers the result on resumption", async () => {
    const { app, gate, started } = server();
    const session = await initialize(app);
    const client = new AbortController();
    const response = await app.fetch(inSession(session, call("s", "slow"), {}, { signal: client.signal }));
    await within(started.promise);
    const stream = new EventReader(response);
    expect((await stream.next())?.id).toBe("1-0");
    expect(messageOf(await stream.next())).toMatchObject({ params: { progress: 1 } });
    // The client goes away: the connection drops, but the stream is resumable, so the request goes on.
    client.abort();
    await stream.cancel();
    const resumed = await new EventReader(await app.fetch(get(session, { "last-event-id": "1-1" }))).primed("1-1");
    gate.resolve();
    const rest = await resumed.rest();
    expect(rest.map((event) => event.id)).toEqual(["1-2", "1-3"]);
    expect(messageOf(rest[0])).toMatchObject({ params: { progress: 2 } });
    expect(messageOf(rest[1])).toEqual({
      jsonrpc: "2.0",
      id: "s",
      result: { content: [{ type: "text", text: "slow done" }] },
    });
  });

  it("replays a finished stream and then ends it", async () => {
    const { app } = server();
    const session = await initialize(app);
    await new EventReader(await app.fetch(inSession(session, call(1, "chatty")))).rest();
    const replay = await (
      await new EventReader(await app.fetch(get(session, { "last-event-id": "1-1" }))).primed("1-1")
    ).rest();
    expect(replay.map((event) => event.id)).toEqual(["1-2", "1-3"]);
    expect(messageOf(replay[1])).toMatchObject({ id: 1, result: { content: [{ text: "chatted" }] } });
  });

  it("answers 404 to an event id it cannot map to a stream", async () => {
    const { app } = server();
    const session = await initialize(app);
    for (const lastEventId of ["42-0", "x", "1-y", ""]) {
      const response = await app.fetch(get(session, { "last-event-id": lastEventId }));
      expect(response.status, lastEventId).toBe(404);
      expect((await response.json()).error.message).toBe(
        `Not found: no stream to resume for Last-Event-ID "${lastEventId}"`,
      );
    }
  });
});

describe("polling (SEP-1699)", () => {
  it("closes the stream after a priming event with id and retry; the result is replayed on GET", async () => {
    const { app, gate, started, closed } = server();
    const session = await initialize(app);
    const response = await app.fetch(inSession(session, call("p", "poll")));
    await within(started.promise);
    expect(closed).toEqual([true]);
    expect(response.status).toBe(200);
    const events = await new EventReader(response).rest();
    expect(events).toEqual([{ id: "1-0", retry: 1000, data: "" }]);
    gate.resolve();
    const polled = await (
      await new EventReader(await app.fetch(get(session, { "last-event-id": "1-0" }))).primed("1-0")
    ).rest();
    expect(polled.map((event) => event.id)).toEqual(["1-1"]);
    expect(messageOf(polled[0])).toEqual({
      jsonrpc: "2.0",
      id: "p",
      result: { content: [{ type: "text", text: "polled" }] },
    });
  });

  it("keeps the stream where the client could not come back for the rest, and says so", async () => {
    // A 2025-06-18 session gets no priming event, so it would not know to reconnect: the result
    // arrives on the same stream. An in-process call has no stream at all.
    const { app, gate, started, closed } = server();
    const session = await initialize(app, "2025-06-18");
    const response = app.fetch(inSession(session, call("old", "poll"), { "mcp-protocol-version": "2025-06-18" }));
    await within(started.promise);
    gate.resolve();
    const events = await new EventReader(await response).rest();
    expect(events.map(messageOf)).toEqual([
      { jsonrpc: "2.0", id: "old", result: { content: [{ type: "text", text: "polled" }] } },
    ]);
    expect(await app.call("poll")).toEqual({ content: [{ type: "text", text: "polled" }] });
    expect(closed).toEqual([false, false]);
  });

  it("sends the configured retry delay", async () => {
    const { app, gate } = server({ sessions: { retryMs: 250 } });
    const session = await initialize(app);
    const events = await new EventReader(await app.fetch(inSession(session, call(1, "poll")))).rest();
    expect(events).toEqual([{ id: "1-0", retry: 250, data: "" }]);
    gate.resolve();
  });

  it("keeps the stream open for a 2025-03-26 session, which has no event id to come back with", async () => {
    const { app, gate, started } = server();
    const session = await initialize(app, "2025-03-26");
    const response = await app.fetch(inSession(session, call(1, "poll"), { "mcp-protocol-version": "2025-03-26" }));
    await within(started.promise);
    gate.resolve();
    const events = await new EventReader(response).rest();
    expect(events.map(messageOf)).toEqual([
      { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "polled" }] } },
    ]);
  });
});

describe("bounded event history", () => {
  it("forgets the oldest events of the GET stream beyond eventHistory; a resume from before them answers 404", async () => {
    const { app, addTool } = server({ sessions: { eventHistory: 2 } });
    const session = await initialize(app);
    const dropped = new EventReader(await app.fetch(get(session)));
    await dropped.next();
    await dropped.cancel();
    addTool();
    addTool();
    addTool();
    // 0-1 is forgotten: resuming after 0-0 would skip it, so it is refused rather than replayed with a gap.
    expect((await app.fetch(get(session, { "last-event-id": "0-0" }))).status).toBe(404);
    const resumed = await new EventReader(await app.fetch(get(session, { "last-event-id": "0-1" }))).primed("0-1");
    expect((await resumed.next())?.id).toBe("0-2");
    expect((await resumed.next())?.id).toBe("0-3");
    addTool();
    expect((await resumed.next())?.id).toBe("0-4");
    await resumed.cancel();
  });

  it("keeps at most eventHistory events per session, across streams", async () => {
    const { app } = server({ sessions: { eventHistory: 1 } });
    const session = await initialize(app);
    await new EventReader(await app.fetch(inSession(session, call(1, "chatty")))).rest();
    // 1-1 and 1-2 are forgotten; only the result, 1-3, is left to replay.
    expect((await app.fetch(get(session, { "last-event-id": "1-0" }))).status).toBe(404);
    const replay = await (
      await new EventReader(await app.fetch(get(session, { "last-event-id": "1-2" }))).primed("1-2")
    ).rest();
    expect(replay.map((event) => event.id)).toEqual(["1-3"]);
    await new EventReader(await app.fetch(inSession(session, call(2, "chatty")))).rest();
    // Stream 1 is finished and has nothing left: it can no longer be resumed.
    expect((await app.fetch(get(session, { "last-event-id": "1-2" }))).status).toBe(404);
    expect(
      (
        await (await new EventReader(await app.fetch(get(session, { "last-event-id": "2-2" }))).primed("2-2")).rest()
      ).map((e) => e.id),
    ).toEqual(["2-3"]);
  });

  it("answers 404 to a resume of an ended stream from its last event: nothing more will come", async () => {
    const { app } = server();
    const session = await initialize(app);
    await new EventReader(await app.fetch(inSession(session, call(1, "chatty")))).rest();
    expect((await app.fetch(get(session, { "last-event-id": "1-3" }))).status).toBe(404);
    expect((await app.fetch(get(session, { "last-event-id": "1-4" }))).status).toBe(404);
    const rest = await (
      await new EventReader(await app.fetch(get(session, { "last-event-id": "1-2" }))).primed("1-2")
    ).rest();
    expect(rest.map((event) => event.id)).toEqual(["1-3"]);
  });
});
