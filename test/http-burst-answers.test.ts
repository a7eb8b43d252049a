/**
 * A burst of notifications larger than twice `limits.maxSseBufferBytes`, written within one turn
 * with the request's answer, to a reader that takes none of it yet (docs/limits.md, "SSE streams and
 * slow readers"): the answer is never lost. On a 2025-11-25 session's stream, whose history
 * (`eventHistory: 10`) forgets most of the burst before it is sent, the reader lets go of the
 * notifications it cannot hold and keeps the answer, on the request's POST stream as on the GET
 * that resumes it; on a 2026-07-28 plain stream the answer ends the stream with the burst. Through
 * `server.fetch`, whose Web stream queues what its reader has not pulled: nothing is read until the
 * turn of the burst has ended.
 */
import { expect, it } from "vitest";
import { pico } from "../src/index.js";
import {
  EventReader,
  initialize,
  inSession,
  messageOf,
  modern,
  type SseEvent,
  sessionStream,
  signal,
  within,
} from "./http-helpers.js";

const COUNT = 60;
const NOTE = "z".repeat(500);

/** 60 progress notifications of about 600 bytes (36 kB, past twice 10,000) and the answer, in one turn once `gate` opens. */
function burstServer(gate: Promise<void>) {
  const started = signal();
  const server = pico({
    name: "burst",
    version: "1",
    limits: { maxSseBufferBytes: 10_000 },
    http: { sessions: { eventHistory: 10 } },
    signals: false,
  }).tool("burst", {
    run: async (_args, ctx) => {
      ctx.progress(0, COUNT, "started");
      started.resolve();
      await gate;
      for (let n = 1; n <= COUNT; n++) ctx.progress(n, COUNT, `${n} ${NOTE}`);
      return "all sent";
    },
  });
  return { server, started: started.promise };
}

const call = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "burst", arguments: {}, _meta: { progressToken: id } },
});

/** Lets the turn of the burst end, and the one after it, before the reader reads anything. */
const turnsEnd = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Every event of a stream until it ends; fails if it breaks instead. */
async function whole(reader: EventReader): Promise<SseEvent[]> {
  return within(reader.rest(3000), 5000, "the end of the stream");
}

it("2025-11-25 session, the request's POST stream: the answer comes after the notifications it could hold", async () => {
  const gate = signal();
  const { server, started } = burstServer(gate.promise);
  const session = await initialize(server);
  const reader = new EventReader(await server.fetch(inSession(session, call(7), { accept: "text/event-stream" })));
  await within(started, 2000, "the tool starting");
  // The stream is open and read up to its priming event; then nothing is read until the burst's turn ended.
  expect((await reader.next())?.id).toBe("1-0");
  gate.resolve();
  await turnsEnd();
  // Was: the stream dropped at the turn's end, the answer with it, and its resume answered 404 (the burst forgotten).
  const events = await whole(reader);
  const messages = events.filter((event) => event.data !== "").map(messageOf);
  expect(messages.at(-1)).toEqual({
    jsonrpc: "2.0",
    id: 7,
    result: { content: [{ type: "text", text: "all sent" }] },
  });
  expect(events.at(-1)!.id).toBe(`1-${COUNT + 2}`);
  // What it sent of the burst is in order; what it let go is notifications only.
  const progress = messages.slice(0, -1).map((message) => (message.params as { progress: number }).progress);
  expect(progress).toEqual([...progress].sort((a, b) => a - b));
  expect(progress.length).toBeLessThan(COUNT + 1);
});

it("2025-11-25 session, the GET that resumes a request's stream: the answer comes after the notifications it could hold", async () => {
  const gate = signal();
  const { server, started } = burstServer(gate.promise);
  const session = await initialize(server);
  const first = new EventReader(await server.fetch(inSession(session, call(8), { accept: "text/event-stream" })));
  await within(started, 2000, "the tool starting");
  const primed = await first.next();
  expect(primed?.id).toBe("1-0");
  await first.cancel();
  const resumed = await server.fetch(sessionStream(session, { "last-event-id": "1-0" }));
  expect(resumed.status).toBe(200);
  const reader = new EventReader(resumed);
  gate.resolve();
  await turnsEnd();
  const messages = (await whole(reader)).filter((event) => event.data !== "").map(messageOf);
  expect(messages.at(-1)).toEqual({
    jsonrpc: "2.0",
    id: 8,
    result: { content: [{ type: "text", text: "all sent" }] },
  });
});

it("2026-07-28 plain stream: the answer written with the burst ends the stream, all of it sent", async () => {
  const gate = signal();
  const { server, started } = burstServer(gate.promise);
  const reader = new EventReader(
    await server.fetch(
      modern("tools/call", { name: "burst", arguments: {}, _meta: { progressToken: 9 } }, {}, { id: 9 }),
    ),
  );
  await within(started, 2000, "the tool starting");
  gate.resolve();
  await turnsEnd();
  const messages = (await whole(reader)).map(messageOf);
  expect(messages).toHaveLength(COUNT + 2);
  expect(messages.at(-1)).toMatchObject({ id: 9, result: { content: [{ type: "text", text: "all sent" }] } });
});
