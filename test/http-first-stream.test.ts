import { beforeEach, describe, expect, it, vi } from "vitest";
import type { RequestContext } from "../src/core/context.js";
import type { Context } from "../src/index.js";
import { bare, EventReader, initialize, inSession, messageOf, signal, within } from "./http-helpers.js";

/**
 * The first stream of a process: a legacy session's streams (their event history and its reader,
 * transports/http/stream-code.ts) load with the first stream any session opens or the first message
 * the server sends a session on its own, so what happens before they have loaded must come out as it
 * would once they have. Each test loads picomcp afresh, so that its first stream is the process's.
 */

let pico: typeof import("../src/index.js").pico;

beforeEach(async () => {
  vi.resetModules();
  ({ pico } = await import("../src/index.js"));
});

const progress = (ctx: Context, n: number) =>
  (ctx as RequestContext).emit?.({
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: "t", progress: n },
  });

const call = (id: string, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {} },
});

const get = (session: string, headers: Record<string, string> = {}) =>
  bare("GET", { accept: "text/event-stream", "mcp-session-id": session, ...headers });

describe("the first stream of the process", () => {
  it("is a POST's stream opened while its handler runs: the priming event, then what it sent, in order, then the result", async () => {
    const app = pico({ name: "first" }).tool("chatty", {
      run: (_args, ctx) => {
        // Sent before the handler returns, so the stream opens before the code of streams has loaded.
        progress(ctx, 1);
        progress(ctx, 2);
        return "chatted";
      },
    });
    const session = await initialize(app);
    const response = await app.fetch(inSession(session, call("c", "chatty")));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await new EventReader(response).rest();
    expect(events.map((event) => event.id)).toEqual(["1-0", "1-1", "1-2", "1-3"]);
    expect(events[0]).toEqual({ id: "1-0", retry: 1000, data: "" });
    expect(events.slice(1, 3).map((event) => messageOf(event).params)).toEqual([
      { progressToken: "t", progress: 1 },
      { progressToken: "t", progress: 2 },
    ]);
    expect(messageOf(events[3])).toEqual({
      jsonrpc: "2.0",
      id: "c",
      result: { content: [{ type: "text", text: "chatted" }] },
    });
  });

  it("is closed for polling (SEP-1699) before the code has loaded: ctx.closeStream() answers true and the result is replayed on GET", async () => {
    const gate = signal();
    const closed: boolean[] = [];
    const app = pico({ name: "first" }).tool("poll", {
      run: async (_args, ctx) => {
        closed.push(ctx.closeStream());
        await gate.promise;
        return "polled";
      },
    });
    const session = await initialize(app);
    const response = await app.fetch(inSession(session, call("p", "poll")));
    expect(closed).toEqual([true]);
    expect(await new EventReader(response).rest()).toEqual([{ id: "1-0", retry: 1000, data: "" }]);
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

  it("is the GET stream: a message the server sent before it is kept, delivered on it, and the next one too", async () => {
    const app = pico({ name: "first" }).tool("t", { run: () => "" });
    const session = await initialize(app);
    // The server speaks first, while no code of streams has loaded: kept as event 0-1, as it would be after.
    app.tool("added_0", { run: () => "" });
    const stream = new EventReader(await app.fetch(get(session)));
    // Primed at the point it starts from: before what the server sent while no GET stream was open.
    expect(await within(stream.next())).toEqual({ id: "0-0", retry: 1000, data: "" });
    const kept = await within(stream.next());
    expect(kept?.id).toBe("0-1");
    expect(messageOf(kept)).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    app.tool("added_1", { run: () => "" });
    const event = await within(stream.next());
    expect(event?.id).toBe("0-2");
    expect(messageOf(event)).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    await stream.cancel();
    const replay = await (
      await new EventReader(await app.fetch(get(session, { "last-event-id": "0-0" }))).primed("0-0")
    ).next();
    expect(messageOf(replay)).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(replay?.id).toBe("0-1");
  });

  it("is the GET stream: the messages the server sent while the code loaded are kept in the order sent", async () => {
    const app = pico({ name: "first" })
      .tool("t", { run: () => "" })
      .prompt("p", { get: () => "" });
    const session = await initialize(app);
    // Both sent in one turn, before the code of streams loaded on the first of them.
    app.tool("added", { run: () => "" });
    app.prompt("added", { get: () => "" });
    const stream = new EventReader(await app.fetch(get(session)));
    expect(await within(stream.next())).toEqual({ id: "0-0", retry: 1000, data: "" });
    const first = await within(stream.next());
    const second = await within(stream.next());
    expect([first?.id, messageOf(first)]).toEqual([
      "0-1",
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
    ]);
    expect([second?.id, messageOf(second)]).toEqual([
      "0-2",
      { jsonrpc: "2.0", method: "notifications/prompts/list_changed" },
    ]);
    await stream.cancel();
  });
});
