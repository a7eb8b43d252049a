/**
 * A session's GET stream whose connection died without closing (a network drop, a laptop asleep, a
 * proxy that lost it), over a real `serve({ port })`: the server cannot tell it from a quiet stream.
 * The client's next GET takes its place, its `maxSseStreams` slot included, and what the session
 * sends reaches the client once, in order (docs/http.md "Streaming and resumability"); and a quiet
 * stream carries a keep-alive comment, whose write to a dead connection fails in time.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { pico } from "../src/index.js";
import type { Listening } from "../src/transports/listen.js";
import { EventReader, initialize, remote, sessionStream } from "./http-helpers.js";
import { RawClient, requestHead } from "./socket-helpers.js";

const listeners: Listening[] = [];

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(listeners.splice(0).map((listening) => listening.close()));
});

/** A server whose endpoint holds one SSE stream at most, served on a loopback port. */
async function listen() {
  const app = pico({ name: "dead-stream", signals: false, limits: { maxSseStreams: 1 } }).tool("first", {
    run: () => "",
  });
  const listening = await app.serve({ port: 0 });
  listeners.push(listening);
  let added = 0;
  /** Registers a new tool, which the session hears of on its GET stream (notifications/tools/list_changed). */
  const addTool = () => app.tool(`added_${added++}`, { run: () => "" });
  return { server: remote(listening.url), addTool, url: new URL(listening.url) };
}

describe("a GET stream whose client stopped reading it", () => {
  /** Was: 409 "Conflict: this session already has an open GET stream" for as long as the dead one was open (503 at maxSseStreams). */
  it("ends when the client opens the session's GET stream again, which carries on after what it sent", async () => {
    const { server, addTool } = await listen();
    const session = await initialize(server);
    const stale = new EventReader(await server.fetch(sessionStream(session)));
    expect((await stale.next())?.id).toBe("0-0");
    addTool();
    expect((await stale.next())?.id).toBe("0-1");

    // The client reads no more of it, and opens another on a new connection.
    const fresh = await server.fetch(sessionStream(session));
    expect(fresh.status).toBe(200);
    const stream = new EventReader(fresh);
    expect(await stream.next()).toEqual({ id: "0-1", retry: 1000, data: "" });
    // The server ended the first: its connection is not held.
    expect(await stale.rest()).toEqual([]);
    addTool();
    expect(await stream.next()).toMatchObject({ id: "0-2", event: "message" });
    await stream.cancel();
  });

  /** Was: 503 at maxSseStreams, the dead stream holding the one slot, for good. */
  it("ends when the client resumes after the last event it read, which is sent again", async () => {
    const { server, addTool } = await listen();
    const session = await initialize(server);
    const stale = new EventReader(await server.fetch(sessionStream(session)));
    expect((await stale.next())?.id).toBe("0-0");
    // Written to the connection that the client no longer reads.
    addTool();

    const resumed = await server.fetch(sessionStream(session, { "last-event-id": "0-0" }));
    expect(resumed.status).toBe(200);
    const stream = await new EventReader(resumed).primed("0-0");
    expect(await stream.next()).toMatchObject({ id: "0-1", event: "message" });
    addTool();
    expect(await stream.next()).toMatchObject({ id: "0-2", event: "message" });
    await stream.cancel();
  });
});

describe("a quiet GET stream", () => {
  /**
   * Was: nothing was written to a quiet stream on Node, so a connection that died without closing
   * held its stream, and kept its session from expiring, for good; and a proxy's read timeout (60 s
   * by default in nginx) cut the stream.
   */
  it("carries a keep-alive comment every 15 seconds", async () => {
    const { server, url } = await listen();
    const session = await initialize(server);
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const client = await RawClient.connect(Number(url.port));
    const headers = { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    await client.write(requestHead("GET", url.pathname, { host: url.host, ...headers }));
    const body = async () => (await client.response()).body;
    await expect.poll(body).toContain("id: 0-0\n");
    expect(await body()).not.toContain(": keep-alive");
    vi.advanceTimersByTime(15_000);
    await expect.poll(body).toContain(": keep-alive\n\n");
    vi.advanceTimersByTime(15_000);
    await expect.poll(async () => (await body()).split(": keep-alive\n\n").length).toBe(3);
    client.destroy();
  });
});
