/**
 * A burst of notifications larger than a session's history (`eventHistory: 10`), written with the
 * request's answer by instance a, to a client reading the request's stream through instance b
 * (resumed there with `Last-Event-ID`: http/remote-reader.ts reads it from the shared history on a
 * real Redis). b's reader takes nothing from the history until its client reads again, by which
 * time the history forgot most of the burst: as a reader on one instance does
 * (test/http-burst-answers.test.ts), it lets go of the forgotten notifications and sends the
 * answer, and a question to the client the same way. Through `server.fetch`, whose Web stream
 * queues what its reader has not pulled; every wait is bounded. Skipped (with the install command
 * as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { afterEach, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import type { SharedState, StreamSlice } from "../../src/state/state.js";
import {
  EventReader,
  initialize,
  inSession,
  messageOf,
  onceFound,
  type SseEvent,
  sessionStream,
  signal,
  within,
} from "../http-helpers.js";
import { openSession } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { sharedState } from "./shared-state.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
let prefixes = 0;

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

const COUNT = 60;
const NOTE = "z".repeat(500);

/**
 * Instances a and b sharing their state under one prefix, and a third state there to look at the
 * history with. Tool "burst" reports progress once, waits for `gate`, then reports progress COUNT
 * times and answers, in one turn; tool "ask" does the same, then asks the client for a value.
 */
async function instances(gate: Promise<void>) {
  const prefix = `burst-${prefixes++}:`;
  const started = signal();
  const burst = async (ctx: { progress(done: number, total: number, message: string): unknown }) => {
    ctx.progress(0, COUNT, "started");
    started.resolve();
    await gate;
    for (let n = 1; n <= COUNT; n++) ctx.progress(n, COUNT, `${n} ${NOTE}`);
  };
  const servers = [];
  for (let i = 0; i < 2; i++) {
    const server = pico({
      name: "shared-burst",
      version: "1.0.0",
      requestStateKey: "a shared secret of 32 bytes or more!",
      state: await sharedState(redis.get(), prefix, opened),
      signals: false,
      http: { sessions: { eventHistory: 10 } },
    })
      .tool("burst", {
        run: async (_args, ctx) => {
          await burst(ctx);
          return "all sent";
        },
      })
      .tool("ask", {
        run: async (_args, ctx) => {
          await burst(ctx);
          const schema = { type: "object", properties: { value: { type: "string" } } };
          const answer = await ctx.elicit("Pick a value", schema, { key: "value" });
          return answer.action === "accept" ? `picked ${answer.content.value}` : answer.action;
        },
      });
    opened.push(() => server.close());
    servers.push(server);
  }
  const watcher = await sharedState(redis.get(), prefix, opened);
  return { a: servers[0]!, b: servers[1]!, started: started.promise, watcher };
}

const call = (id: number, name: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: {}, _meta: { progressToken: id } },
});

/** The shared history of `stream` once `written` holds of it; fails after 200 looks 25 ms apart. */
async function historyOnce(
  state: SharedState,
  at: { session: string; stream: number },
  written: (slice: StreamSlice) => boolean,
): Promise<StreamSlice> {
  for (let look = 0; look < 200; look++) {
    const slice = await state.events.read(at.session, at.stream, 0);
    if (written(slice)) return slice;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("the shared history never held what the test waited for");
}

/**
 * Session `session`'s call `id` of tool `name`, started on a; its stream resumed on b from its
 * priming event and read there up to the tool's first progress; then nothing more is read until
 * the burst is in the shared history (`written`), which forgot its first events by then.
 */
async function readBehind(
  servers: Awaited<ReturnType<typeof instances>>,
  request: { session: string; id: number; name: string },
  written: (slice: StreamSlice) => boolean,
) {
  const { a, b, started, watcher } = servers;
  const { session, id } = request;
  const own = new EventReader(
    await a.fetch(inSession(session, call(id, request.name), { accept: "text/event-stream" })),
  );
  await within(started, 2000, "the tool starting");
  const primed = (await own.next())!.id!;
  expect(primed).toMatch(/-0$/);
  await own.cancel();
  const stream = Number(primed.split("-")[0]);
  // The stream is opened in the shared history a moment after its priming event went out.
  const resumed = await onceFound(() => b.fetch(sessionStream(session, { "last-event-id": primed })), 50);
  expect(resumed.status).toBe(200);
  const reader = await new EventReader(resumed).primed(primed);
  expect((await reader.next(5000))?.id).toBe(`${stream}-1`);
  return { reader, stream, watch: () => historyOnce(watcher, { session, stream }, written) };
}

/** Every event until the stream ends, or `until` one; fails if the stream breaks instead. */
async function readTo(reader: EventReader, until?: (event: SseEvent) => boolean): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for (let event = await reader.next(5000); event; event = await reader.next(5000)) {
    events.push(event);
    if (until?.(event)) break;
  }
  return events;
}

/** The progress numbers of `messages`, checked to be notifications in order and fewer than the burst. */
function inOrderAndFewer(messages: Record<string, unknown>[]): void {
  const progress = messages.map((message) => (message.params as { progress: number }).progress);
  expect(messages.every((message) => message.method === "notifications/progress")).toBe(true);
  expect(progress).toEqual([...progress].sort((x, y) => x - y));
  expect(progress.length).toBeLessThan(COUNT);
}

it("a reader on another instance lets go of the notifications the history forgot before it read them, and gets the answer", async () => {
  const gate = signal();
  const servers = await instances(gate.promise);
  const session = await initialize(servers.a);
  const { reader, stream, watch } = await readBehind(servers, { session, id: 7, name: "burst" }, (slice) => slice.done);
  gate.resolve();
  const history = await watch();
  expect(history.forgotten).toBeGreaterThan(1);
  // Was: the stream ended with nothing more, and its resume from its last event answered 404.
  const events = await within(readTo(reader), 10_000, "the end of the stream");
  const messages = events.map(messageOf);
  expect(messages.at(-1)).toEqual({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "all sent" }] } });
  expect(events.at(-1)!.id).toBe(`${stream}-${COUNT + 2}`);
  inOrderAndFewer(messages.slice(0, -1));
  // A resume from before what the history forgot still answers 404, never a gap (as on one instance).
  const again = await servers.b.fetch(sessionStream(session, { "last-event-id": `${stream}-1` }));
  expect(again.status).toBe(404);
  await again.text();
});

it("a reader on another instance lets go of the notifications the history forgot before it read them, and gets the question", async () => {
  const gate = signal();
  const servers = await instances(gate.promise);
  const session = await openSession(servers.a, { elicitation: { form: {} } });
  const { reader, watch } = await readBehind(servers, { session, id: 8, name: "ask" }, (slice) =>
    slice.events.some((event) => event.text.includes('"elicitation/create"')),
  );
  gate.resolve();
  expect((await watch()).forgotten).toBeGreaterThan(1);
  const asked = await within(
    readTo(reader, (event) => event.data.includes('"elicitation/create"')),
    10_000,
    "the question",
  );
  const question = messageOf(asked.at(-1));
  expect(question).toMatchObject({ method: "elicitation/create", params: { message: "Pick a value" } });
  inOrderAndFewer(asked.slice(0, -1).map(messageOf));
  // The client answers through b, which relays it to a, where the tool runs.
  const answer = { jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { value: "blue" } } };
  expect((await servers.b.fetch(inSession(session, answer))).status).toBe(202);
  const rest = (await within(readTo(reader), 10_000, "the end of the stream")).map(messageOf);
  expect(rest.at(-1)).toEqual({ jsonrpc: "2.0", id: 8, result: { content: [{ type: "text", text: "picked blue" }] } });
});
