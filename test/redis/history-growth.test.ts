/**
 * A long 2025-11-25 session's event history on a real Redis stays bounded, as in memory: an ended
 * stream that keeps no event any more leaves no field in the session's hash (`<prefix>hm:<id>`), so
 * its size follows what the history keeps (`sessions.eventHistory`), not the number of requests
 * that streamed. Every resume answers as the in-memory history's does: the same scenario runs on one
 * in-memory server and on two instances sharing Redis (written on one, resumed on the other), and
 * both give the same answers. Skipped (with the install command as the reason) without
 * redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { createClient } from "redis";
import { afterAll, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import type { SharedState } from "../../src/state/state.js";
import { BOTH, bare, EventReader, initialize, inSession, onceFound, signal } from "../http-helpers.js";
import { useRedisServer } from "./redis-server.js";

const KEY = "a shared secret of 32 bytes or more!";
/** Events a session keeps: two requests' worth (two progress notifications and the answer each). */
const EVENTS = 6;
/** Requests that stream in the session: far more than the history keeps. */
const REQUESTS = 40;

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const close of opened.reverse()) await close();
});

async function client() {
  const connected = createClient({ url: redis.get().url });
  connected.on("error", () => {});
  await connected.connect();
  opened.push(() => connected.close());
  return connected;
}

/** A server whose `slow` tool sends one progress notification, then waits for `gate` before its second and its answer. */
function server(gate: Promise<void>, state?: SharedState) {
  const app = pico({
    name: "growth",
    requestStateKey: KEY,
    state,
    signals: false,
    http: { sessions: { eventHistory: EVENTS } },
  })
    .tool("chatty", {
      run: (_args, ctx) => {
        ctx.progress(1, 2);
        ctx.progress(2, 2);
        return "chatted";
      },
    })
    .tool("slow", {
      run: async (_args, ctx) => {
        ctx.progress(1, 2);
        await gate;
        ctx.progress(2, 2);
        return "slow done";
      },
    });
  opened.push(() => app.close());
  return app;
}

type App = ReturnType<typeof server>;

function call(id: number, name: string) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {}, _meta: { progressToken: id } } };
}

/** A resume after `lastEventId`, and the id, which a stream served is primed with. */
async function resume(
  app: App,
  session: string,
  lastEventId: string,
): Promise<{ response: Response; lastEventId: string }> {
  const response = await app.fetch(
    bare("GET", { accept: BOTH, "mcp-session-id": session, "last-event-id": lastEventId }),
  );
  return { response, lastEventId };
}

/** A resume's answer: its status, and for a stream served, the numbers of its events after its priming event. */
async function answer({
  response,
  lastEventId,
}: {
  response: Response;
  lastEventId: string;
}): Promise<{ status: number; seqs?: number[] }> {
  if (response.status !== 200) {
    await response.text();
    return { status: response.status };
  }
  const events = await (await new EventReader(response).primed(lastEventId)).rest(5000);
  return { status: 200, seqs: events.map((event) => Number(event.id!.split("-")[1])) };
}

/**
 * One session on `writer`: a `slow` request left running (its client gone after its first event),
 * then REQUESTS `chatty` ones, each read to its end; then resumes on `reader` of the running stream
 * and of ended ones, and, once the gate opens, the rest of the running one. `measure` runs once the
 * history holds every request's events.
 */
async function scenario(writer: App, reader: App, gate: { resolve(): void }, measure: (session: string) => unknown) {
  const session = await initialize(writer);
  const slow = new EventReader(await writer.fetch(inSession(session, call(1, "slow"))));
  const [primed, first] = [await slow.next(5000), await slow.next(5000)];
  await slow.cancel();
  const live = primed!.id!.split("-")[0]!;
  expect(first?.id).toBe(`${live}-1`);
  const ended: string[] = [];
  for (let n = 0; n < REQUESTS; n++) {
    const events = await new EventReader(await writer.fetch(inSession(session, call(2 + n, "chatty")))).rest(5000);
    expect(events.map((event) => event.id!.split("-")[1])).toEqual(["0", "1", "2", "3"]);
    ended.push(events[0]!.id!.split("-")[0]!);
  }
  // The last stream's answer is in the history (another instance writes there in order, a moment after).
  const last = ended.at(-1)!;
  const newest = await onceFound(async () => answer(await resume(reader, session, `${last}-0`)));
  await measure(session);
  const answers = {
    newest,
    // The one before it: its events are still kept.
    before: await answer(await resume(reader, session, `${ended.at(-2)}-1`)),
    // Every earlier one ended and was forgotten: refused, from whichever event.
    early: await Promise.all(
      ended
        .slice(0, -2)
        .flatMap((stream) =>
          ["0", "2", "3"].map(async (seq) => (await answer(await resume(reader, session, `${stream}-${seq}`))).status),
        ),
    ),
    // The running stream's first event is forgotten: a resume from before it is refused, one from it is served.
    liveFromPriming: (await answer(await resume(reader, session, `${live}-0`))).status,
    live: await (async () => {
      const response = await resume(reader, session, `${live}-1`);
      gate.resolve();
      return answer(response);
    })(),
  };
  expect(answers).toEqual({
    newest: { status: 200, seqs: [1, 2, 3] },
    before: { status: 200, seqs: [2, 3] },
    early: Array.from({ length: (REQUESTS - 2) * 3 }, () => 404),
    liveFromPriming: 404,
    live: { status: 200, seqs: [2, 3] },
  });
  return answers;
}

describe("a long 2025-11-25 session's history on Redis", () => {
  it(`keeps a bounded hash through ${REQUESTS} streamed requests, and resumes as the in-memory history does (was: a few fields per request, for the session's life)`, {
    timeout: 60_000,
  }, async () => {
    const memoryGate = signal();
    const memory = server(memoryGate.promise);
    const inMemory = await scenario(memory, memory, memoryGate, () => {});

    const prefix = "growth:";
    const sharedGate = signal();
    const [a, b] = [
      await redisState({ client: await client(), prefix }),
      await redisState({ client: await client(), prefix }),
    ];
    opened.push(
      () => a.close(),
      () => b.close(),
    );
    const [writer, reader] = [server(sharedGate.promise, a), server(sharedGate.promise, b)];
    const redisClient = await client();
    let fields = 0;
    const shared = await scenario(writer, reader, sharedGate, async (session) => {
      fields = await redisClient.hLen(`${prefix}hm:${session}`);
    });
    expect(shared).toEqual(inMemory);
    // What the history keeps: `bytes`, and the fields of the streams that keep events (EVENTS at
    // most), the running one's writer among them; before, each of the REQUESTS left three or four.
    expect(fields).toBeGreaterThan(0);
    expect(fields).toBeLessThanOrEqual(1 + 6 * EVENTS);
  });
});
