/**
 * Property-based fuzzing of the questions a 2025 handler asks before its session is initialized, in a
 * session two instances share on a real redis-server (docs/scaling.md, docs/asking-the-client.md):
 * each request of the official v1 client goes to either instance, as a load balancer without
 * affinity sends it, so a question may be held on one instance while the notification, the answer or
 * the cancellation comes to the other. The same invariants as held-questions-http.test.ts (held.ts),
 * a call cancelled on the instance that does not run it included: that instance answers the
 * cancellation once it is relayed and noted, and the call's instance reads the notes as the session
 * becomes initialized (was: a question sent for a call the client had cancelled, when the
 * notification reached the call's instance before the relay; found here, 1 run in about 70;
 * test/redis/shared-cancel-before-initialized.test.ts).
 * Skipped without redis-server (failed with PICOMCP_REQUIRE_REDIS). FUZZ_RUNS sets the runs.
 */
import fc from "fast-check";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisState } from "../../src/redis.js";
import type { Listening } from "../../src/transports/listen.js";
import { useRedisServer } from "../redis/redis-server.js";
import { askingServer, heldCounts, heldQuestionsRun, heldRun } from "./held.js";
import { RUNS, TIME_LIMIT_MS } from "./inputs.js";

const redis = useRedisServer();
const closing: (() => Promise<unknown>)[] = [];
const urls: URL[] = [];

beforeAll(async () => {
  let url: string;
  try {
    url = redis.get().url;
  } catch {
    return; // No redis-server: useRedisServer skips the test.
  }
  for (const _ of [0, 1]) {
    const client = createClient({ url });
    client.on("error", () => {});
    await client.connect();
    const state = await redisState({ client, prefix: "held:" });
    const listening: Listening = await askingServer(state).serve({ port: 0 });
    closing.push(
      () => client.close(),
      () => state.close(),
      () => listening.close(),
    );
    urls.push(new URL(listening.url));
  }
});

afterAll(async () => {
  for (const close of closing.reverse()) await close().catch(() => {});
  const { runs, calls, aborted, asked, failed } = heldCounts;
  console.log(
    `[fuzz] held questions in a session shared on Redis (official v1 client): ${runs} runs, ${calls} calls, ${aborted} aborted, ${asked} asked after initialized, ${failed} failed without it`,
  );
});

describe("fuzz: questions asked before notifications/initialized, in a shared session", () => {
  it(
    "reach the official client only after it, whichever instance holds them, and each call settles once",
    async () => {
      await fc.assert(
        fc.asyncProperty(heldRun, fc.array(fc.nat(1), { minLength: 64, maxLength: 64 }), async (steps, choices) => {
          let next = 0;
          // Each request to the instance the run chose for it, its path kept.
          const route = (url: URL) => new URL(url.pathname, urls[choices[next++ % choices.length]!]);
          await heldQuestionsRun(steps, urls[0]!, { route });
        }),
        {
          numRuns: Math.max(1, Math.floor(RUNS / 10)),
          interruptAfterTimeLimit: TIME_LIMIT_MS,
          markInterruptAsFailure: false,
        },
      );
      expect(heldCounts.runs).toBeGreaterThan(0);
    },
    TIME_LIMIT_MS + 60_000,
  );
});
