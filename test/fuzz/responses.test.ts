/**
 * Property-based fuzzing of responses a client sends (a message with a result or an error and no
 * method, 2025-11-25 "Base protocol"; JSON-RPC 2.0 §5): whatever their id (none, null, a fraction, an
 * object, a number too large, one of a request in flight, one of a question the server asked) and
 * whatever their result or error, alone or in a batch, before or after initialize, over stdio
 * in-process: none is ever answered, and the requests around them are answered exactly once. A
 * batch made only of responses is not answered either, in any session (transports/batch.ts's
 * responsesOnly; JSON-RPC 2.0 §6), though batches exist only in 2025-03-26 (was: outside a 2025-03-26
 * session it was refused whole with one -32600).
 * FUZZ_RUNS sets the runs.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { serveLines } from "../../src/transports/stdio.js";
import { checkLine, pipe } from "../hardening-helpers.js";
import { within } from "../http-helpers.js";
import { fuzzDispatcher, MODERN_META, RUNS, TIME_LIMIT_MS } from "./inputs.js";

const BOUND_MS = 5000;

const json = fc.jsonValue({ maxDepth: 2 });
const id = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constantFrom("req-0", "req-1", 0, 1, 2 ** 53 + 2, 1.5, -0, "picomcp-00000000-1"),
  fc.string({ maxLength: 8 }),
  json,
);
const response = fc
  .record({
    id,
    body: fc.oneof(
      fc.record({ result: json }),
      fc.record({ error: fc.oneof(fc.record({ code: fc.integer(), message: fc.string() }), json) }),
      fc.record({ result: json, error: json }),
    ),
  })
  .map(({ id, body }) => (id === undefined ? { jsonrpc: "2.0", ...body } : { jsonrpc: "2.0", id, ...body }));

/** Requests to answer, between the responses: each answered exactly once. */
const request = fc.constantFrom(
  (n: number) => ({ jsonrpc: "2.0", id: `req-${n}`, method: "ping" }),
  (n: number) => ({
    jsonrpc: "2.0",
    id: `req-${n}`,
    method: "tools/call",
    params: { name: "echo", arguments: { s: "x" }, _meta: MODERN_META },
  }),
  (n: number) => ({ jsonrpc: "2.0", id: `req-${n}`, method: "tools/call", params: { name: "slow", arguments: {} } }),
);

const item = fc.oneof(
  { weight: 3, arbitrary: response.map((value) => ({ kind: "response" as const, value })) },
  {
    weight: 1,
    arbitrary: fc.array(response, { minLength: 1, maxLength: 4 }).map((value) => ({ kind: "batch" as const, value })),
  },
  { weight: 2, arbitrary: request.map((make) => ({ kind: "request" as const, make })) },
);

const run = fc.record({
  initialize: fc.constantFrom(undefined, "2025-11-25", "2025-03-26"),
  items: fc.array(item, { minLength: 1, maxLength: 12 }),
});

const counts = { runs: 0, responses: 0, requests: 0 };
afterAll(() => {
  console.log(
    `[fuzz] responses: ${counts.runs} runs, ${counts.responses} responses sent in, none answered; ${counts.requests} requests answered once`,
  );
});

describe("fuzz: responses from the client", () => {
  it(
    "are never answered, and the requests around them are answered once",
    async () => {
      const dispatcher = fuzzDispatcher();
      await fc.assert(
        fc.asyncProperty(run, async ({ initialize, items }) => {
          counts.runs++;
          const io = pipe();
          const served = serveLines(dispatcher, io);
          const asked = new Set<string>();
          if (initialize !== undefined) {
            asked.add("init");
            io.push(
              `${JSON.stringify({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: initialize, capabilities: {}, clientInfo: { name: "f", version: "1" } } })}\n`,
              `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
            );
          }
          let n = 0;
          for (const each of items) {
            if (each.kind === "request") {
              const message = each.make(n++);
              asked.add(message.id);
              io.push(`${JSON.stringify(message)}\n`);
            } else {
              counts.responses += each.kind === "batch" ? each.value.length : 1;
              io.push(`${JSON.stringify(each.value)}\n`);
            }
          }
          io.end();
          await within(served, BOUND_MS, "serveLines resolving");
          const answers = io
            .lines()
            .map(checkLine)
            .flatMap((message) =>
              Array.isArray(message.batch) ? (message.batch as Record<string, unknown>[]) : [message],
            )
            .filter((message) => !("method" in message));
          // Nothing answers without an id: no batch of responses is refused, in any session.
          expect(answers.filter((answer) => answer.id === undefined)).toEqual([]);
          // Each answer is to a request sent; each request is answered once.
          for (const answer of answers.filter((each) => each.id !== undefined)) {
            expect(asked.has(answer.id as string), `an answer to a response: ${JSON.stringify(answer)}`).toBe(true);
          }
          for (const each of asked) {
            expect(
              answers.filter((answer) => answer.id === each),
              each,
            ).toHaveLength(1);
            counts.requests++;
          }
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
      );
      expect(counts.runs).toBeGreaterThan(0);
    },
    TIME_LIMIT_MS + 30_000,
  );
});
