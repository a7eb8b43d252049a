/**
 * Property-based fuzzing of the shared event history on a real redis-server (src/redis/events.ts;
 * docs/scaling.md, docs/limits.md): one instance writes notifications, answers and answers its own
 * reader sent on two streams of a session, under small random caps, while readers on another
 * instance follow the streams from any number (past the last, as a forged Last-Event-ID), leave,
 * and the writer marks events sent; another session's writes press the server-wide byte cap. Against a model, after every step: no answer or question a live
 * reader is still to send (numbered past where it follows) is ever forgotten; the caps hold unless
 * every event kept is one of those; what a stream keeps is in order and never past its last.
 * Skipped without redis-server (failed with PICOMCP_REQUIRE_REDIS). FUZZ_RUNS sets the runs.
 */
import fc from "fast-check";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisState } from "../../src/redis.js";
import type { SharedState } from "../../src/state/state.js";
import { live } from "../redis/records.js";
import { useRedisServer } from "../redis/redis-server.js";
import { RUNS, TIME_LIMIT_MS } from "./inputs.js";

const redis = useRedisServer();
let admin: ReturnType<typeof createClient> | undefined;
beforeAll(async () => {
  try {
    admin = createClient({ url: redis.get().url });
  } catch {
    return; // No redis-server: useRedisServer skips the test.
  }
  admin.on("error", () => {});
  await admin.connect();
});
afterAll(async () => {
  await admin?.close();
});

const STREAMS = [1, 2];
const READERS = ["r1", "r2"];
type Kind = "notice" | "answer" | "sent";
type Step =
  | { kind: "append"; stream: number; event: Kind; size: number }
  /** An event of another session, which the server-wide byte cap may make this one's forget for. */
  | { kind: "other"; size: number }
  | { kind: "follow"; reader: string; stream: number; ahead: number }
  | { kind: "leave"; reader: string }
  | { kind: "mark"; stream: number; back: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("append" as const),
      stream: fc.constantFrom(...STREAMS),
      event: fc.constantFrom<Kind>("notice", "notice", "answer", "sent"),
      size: fc.integer({ min: 1, max: 40 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("follow" as const),
      reader: fc.constantFrom(...READERS),
      stream: fc.constantFrom(...STREAMS),
      // Where it follows from, counted back from the stream's last (negative: past it, as a forged id).
      ahead: fc.integer({ min: -2, max: 6 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("leave" as const), reader: fc.constantFrom(...READERS) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("other" as const), size: fc.integer({ min: 1, max: 60 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("mark" as const),
      stream: fc.constantFrom(...STREAMS),
      back: fc.integer({ min: -2, max: 4 }),
    }),
  },
);

const run = fc.record({
  bounds: fc.record({
    maxEvents: fc.integer({ min: 1, max: 5 }),
    maxSessionBytes: fc.integer({ min: 20, max: 200 }),
    maxBytes: fc.integer({ min: 40, max: 400 }),
  }),
  steps: fc.array(step, { minLength: 1, maxLength: 30 }),
});

const counts = { runs: 0, steps: 0, overCaps: 0 };
afterAll(() => {
  console.log(
    `[fuzz] Redis shared history: ${counts.runs} runs, ${counts.steps} steps, ${counts.overCaps} held past the caps by what readers still send`,
  );
});

let prefixes = 0;

describe("fuzz: the shared history on Redis", () => {
  it(
    "never forgets what a live reader is still to send, and keeps its caps otherwise",
    async () => {
      await fc.assert(
        fc.asyncProperty(run, async ({ bounds, steps }) => {
          counts.runs++;
          const prefix = `fuzz-${prefixes++}:`;
          const writer: SharedState = await redisState({ client: admin!, prefix });
          const reader: SharedState = await redisState({ client: admin!, prefix });
          try {
            await live(writer, "s", "t");
            let others = 0;
            /** The model: each stream's events, by number, and where each live reader follows from. */
            const written = new Map<number, Map<number, Kind>>(STREAMS.map((stream) => [stream, new Map()]));
            const following = new Map<string, { stream: number; after: number }>();
            /** What each stream kept after the step before: one forgotten before a reader followed is not owed. */
            const keptBefore = new Map<number, Set<number>>(STREAMS.map((stream) => [stream, new Set()]));
            let anyWritten = false;
            for (const each of steps) {
              counts.steps++;
              const events = (stream: number) => written.get(stream)!;
              if (each.kind === "append") {
                const seq = events(each.stream).size + 1;
                const event = { stream: each.stream, seq, text: "x".repeat(each.size) };
                const flags = each.event === "notice" ? { notice: true } : each.event === "sent" ? { sent: true } : {};
                await writer.events.append("s", { ...event, ...flags }, bounds);
                events(each.stream).set(seq, each.event);
                anyWritten = true;
              } else if (each.kind === "follow") {
                const after = Math.max(0, events(each.stream).size - each.ahead);
                await reader.events.follow!("s", each.reader, { stream: each.stream, after });
                // A reader is recorded where the session has a history.
                if (anyWritten) following.set(each.reader, { stream: each.stream, after });
              } else if (each.kind === "other") {
                const event = { stream: 1, seq: ++others, text: "y".repeat(each.size), notice: true };
                await writer.events.append("t", event, bounds);
              } else if (each.kind === "leave") {
                await reader.events.leave!("s", each.reader);
                following.delete(each.reader);
              } else {
                await writer.events.sent!("s", { stream: each.stream, upTo: events(each.stream).size - each.back });
              }
              // What each stream keeps, and what a live reader is still to send of it.
              const appended = each.kind === "append" ? each.stream : undefined;
              let kept = 0;
              let bytes = 0;
              let unprotected = 0;
              for (const stream of STREAMS) {
                const slice = await writer.events.read("s", stream, 0);
                const seqs = slice.events.map((event) => event.seq);
                expect(seqs, `stream ${stream} in order`).toEqual([...seqs].sort((a, b) => a - b));
                expect(seqs.every((seq) => events(stream).has(seq))).toBe(true);
                const low = Math.min(
                  ...[...following.values()].filter((at) => at.stream === stream).map((at) => at.after),
                );
                for (const [seq, kind] of events(stream)) {
                  const there =
                    keptBefore.get(stream)!.has(seq) || (stream === appended && seq === events(stream).size);
                  const owed = kind !== "notice" && seq > low && there;
                  if (owed) {
                    expect(
                      seqs,
                      `stream ${stream}'s ${kind} ${seq}, which a reader following from ${low} is to send`,
                    ).toContain(seq);
                  }
                }
                keptBefore.set(stream, new Set(seqs));
                kept += seqs.length;
                bytes += slice.events.reduce((sum, event) => sum + event.text.length, 0);
                unprotected += seqs.filter((seq) => events(stream).get(seq) === "notice" || seq <= low).length;
              }
              if (each.kind === "append") {
                // This session's own caps (the server-wide one is shared with the other session).
                const within = kept <= bounds.maxEvents && bytes <= bounds.maxSessionBytes;
                if (!within) {
                  counts.overCaps++;
                  expect(unprotected, `${kept} events (${bytes} B) kept past the caps, some not owed`).toBe(0);
                }
              }
            }
          } finally {
            await writer.close();
            await reader.close();
          }
        }),
        {
          numRuns: RUNS,
          interruptAfterTimeLimit: TIME_LIMIT_MS,
          markInterruptAsFailure: false,
        },
      );
      expect(counts.runs).toBeGreaterThan(0);
    },
    TIME_LIMIT_MS + 30_000,
  );
});
