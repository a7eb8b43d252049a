/**
 * Property-based fuzzing of the stdio message path, in-process through serveLines: whatever comes
 * in, every line written is a JSON-RPC message with no stack or path in it, serveLines never throws
 * and resolves, and requests in flight around the garbage are answered exactly once.
 * FUZZ_RUNS sets the number of runs (default 300, a few seconds).
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { serveLines } from "../../src/transports/stdio.js";
import { checkLine, pipe } from "../hardening-helpers.js";
import { chunks, expectedAnswers, fuzzDispatcher, MODERN_META, RUNS, stream, TIME_LIMIT_MS } from "./inputs.js";

const counts = { runs: 0, lines: 0, written: 0 };
afterAll(() => {
  console.log(
    `[fuzz] stdio in-process: ${counts.runs} runs, ${counts.lines} input lines, ${counts.written} lines written`,
  );
});

const sentinel = (id: string, name: string, args: Record<string, unknown> = {}) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: MODERN_META } })}\n`;

describe("fuzz: stdio", () => {
  it(
    "answers or drops every input per spec, writes only protocol, and still completes other requests",
    async () => {
      const dispatcher = fuzzDispatcher();
      await fc.assert(
        fc.asyncProperty(stream, async (input) => {
          counts.runs++;
          counts.lines += input.lines.length;
          const io = pipe();
          const served = serveLines(dispatcher, io);
          // One request in flight before the garbage, one after it: both must be answered, once.
          io.push(sentinel("sentinel-slow", "slow"));
          io.push(...chunks(input));
          io.push("\n", sentinel("sentinel-end", "echo", { s: "end" }));
          io.end();
          await served;
          const lines = io.lines();
          counts.written += lines.length;
          const messages = lines.map(checkLine);
          // Every request with a readable id is answered exactly once (unless cancelled), duplicates included.
          const answered = new Map<unknown, number>();
          for (const message of messages) {
            if (!("method" in message) && message.id !== undefined)
              answered.set(message.id, (answered.get(message.id) ?? 0) + 1);
          }
          for (const [id, [min, max]] of expectedAnswers(input.lines)) {
            if (typeof id === "string" && id.startsWith("sentinel")) continue;
            const count = answered.get(id) ?? 0;
            expect(
              count >= min && count <= max,
              `${count} answers to id ${JSON.stringify(id)}, expected ${min}-${max}`,
            ).toBe(true);
          }
          for (const id of ["sentinel-slow", "sentinel-end"]) {
            const answers = messages.filter((message) => message.id === id);
            expect(answers, id).toHaveLength(1);
            expect(answers[0]!.result, id).toBeDefined();
          }
          // Nothing is ever written without a trailing newline.
          expect(io.writes.join("").endsWith("\n")).toBe(true);
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
      );
      expect(counts.runs).toBeGreaterThan(0);
    },
    TIME_LIMIT_MS + 30_000,
  );
});
