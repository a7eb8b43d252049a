/**
 * Property-based fuzzing of the questions a 2025 handler asks before its session is initialized, over
 * Streamable HTTP on 127.0.0.1 with the official v1 client in the loop (docs/asking-the-client.md;
 * 2025-11-25 "Lifecycle"): the client's `notifications/initialized` POST is held back by the test
 * (its client is told 202 at once), then let go at a random point among calls that ask, calls the
 * client aborts (it sends notifications/cancelled), and pings, or never. No question reaches the
 * client before the notification reached the server, none for a call aborted before it; every call
 * not aborted settles once, with the user's answer, or, without the notification, with the failure
 * that says so (held.ts). FUZZ_RUNS sets the runs.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Listening } from "../../src/transports/listen.js";
import { askingServer, heldCounts, heldQuestionsRun, heldRun } from "./held.js";
import { RUNS, TIME_LIMIT_MS } from "./inputs.js";

const server = askingServer();
let listening: Listening;
beforeAll(async () => {
  listening = await server.serve({ port: 0 });
});
afterAll(async () => {
  await listening.close();
  const { runs, calls, aborted, asked, failed } = heldCounts;
  console.log(
    `[fuzz] held questions over HTTP (official v1 client): ${runs} runs, ${calls} calls, ${aborted} aborted, ${asked} asked after initialized, ${failed} failed without it`,
  );
});

describe("fuzz: questions asked before notifications/initialized, over HTTP", () => {
  it(
    "reach the official client only after it, never for an aborted call, and each call settles once",
    async () => {
      await fc.assert(
        fc.asyncProperty(heldRun, (steps) => heldQuestionsRun(steps, new URL(listening.url))),
        {
          numRuns: Math.max(1, Math.floor(RUNS / 6)),
          interruptAfterTimeLimit: TIME_LIMIT_MS,
          markInterruptAsFailure: false,
        },
      );
      expect(heldCounts.runs).toBeGreaterThan(0);
    },
    TIME_LIMIT_MS + 60_000,
  );
});
