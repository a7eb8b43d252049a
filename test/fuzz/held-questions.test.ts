/**
 * Property-based fuzzing of the questions a 2025 handler asks before its session is initialized
 * (docs/asking-the-client.md, 2025-11-25 "Lifecycle": the server SHOULD NOT send requests other than
 * pings before `notifications/initialized`), over stdio in-process through serveLines: calls that ask,
 * pings, cancellations and stray responses in any order before the notification, which comes or
 * not; then the questions are answered in any order, or refused, or not at all. No question is sent
 * before the notification, none for a call cancelled before it; every call not cancelled is answered
 * exactly once, none cancelled is; serveLines resolves once the input ends. FUZZ_RUNS sets the runs.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Dispatcher } from "../../src/core/dispatch.js";
import { Registry } from "../../src/core/registry.js";
import type { Schema } from "../../src/core/schema.js";
import { compileTool, type ToolConfig } from "../../src/core/tools.js";
import { serveLines } from "../../src/transports/stdio.js";
import { serverDispatcher } from "../core-helpers.js";
import { checkLine, pipe } from "../hardening-helpers.js";
import { within } from "../http-helpers.js";
import { RUNS, TIME_LIMIT_MS } from "./inputs.js";

const BOUND_MS = 5000;
/** Short, so that a run whose notification never comes, or whose questions go unanswered, ends soon. */
const ASK_TIMEOUT_MS = 150;

/** The calls whose handler has reached its question, by tag. */
const reached = new Set<string>();

type Elicit = (message: string, schema: Schema) => Promise<{ action: string }>;

function dispatcher(): Dispatcher {
  const registry = new Registry({ name: "held", version: "1", askTimeoutMs: ASK_TIMEOUT_MS });
  const ask: ToolConfig<Schema | undefined, Schema | undefined> = {
    input: z.object({ tag: z.string() }),
    run: async ({ tag }: { tag: string }, ctx: { elicit: Elicit }) => {
      reached.add(tag);
      try {
        const answer = await ctx.elicit(`name for ${tag}`, z.object({ name: z.string() }));
        return `${tag}: ${answer.action}`;
      } catch (thrown) {
        return `${tag} failed: ${(thrown as Error).message}`;
      }
    },
  } as unknown as ToolConfig<Schema | undefined, Schema | undefined>;
  registry.addTool(compileTool("ask", ask));
  return serverDispatcher(registry, { shutdownGraceMs: 1000 });
}

type Step =
  | { kind: "call"; tag: string }
  | { kind: "ping"; id: string }
  | { kind: "cancel"; tag: string }
  | { kind: "stray"; id: unknown };

const answerOf = fc.constantFrom(
  { result: { action: "accept", content: { name: "Ada" } } },
  { result: { action: "decline" } },
  { result: { action: "cancel" } },
  { error: { code: -1, message: "no" } },
  { error: "no" },
  undefined, // never answered: the question times out
);

const run = fc.integer({ min: 1, max: 4 }).chain((calls) => {
  const tags = Array.from({ length: calls }, (_, index) => `c${index}`);
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant("ping" as const), id: fc.constantFrom("p0", "p1", "p2") }),
    fc.record({ kind: fc.constant("cancel" as const), tag: fc.constantFrom(...tags) }),
    fc.record({ kind: fc.constant("stray" as const), id: fc.oneof(fc.constant(null), fc.string({ maxLength: 20 })) }),
  );
  return fc.record({
    before: fc.array(step, { maxLength: 5 }).chain((extra) =>
      fc.shuffledSubarray([...tags.map((tag) => ({ kind: "call", tag }) as Step), ...extra], {
        minLength: calls + extra.length,
      }),
    ),
    initialized: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    answers: fc.array(answerOf, { minLength: calls, maxLength: calls }),
    order: fc.shuffledSubarray(tags, { minLength: calls }),
  });
});

const counts = { runs: 0, asked: 0, held: 0, cancelled: 0 };
afterAll(() => {
  console.log(
    `[fuzz] held questions: ${counts.runs} runs, ${counts.held} questions held, ${counts.asked} sent, ${counts.cancelled} calls cancelled`,
  );
});

const line = (message: unknown) => `${JSON.stringify(message)}\n`;

describe("fuzz: questions asked before notifications/initialized", () => {
  it(
    "are sent only after it, each call answered once, none cancelled answered",
    async () => {
      const served = dispatcher();
      await fc.assert(
        fc.asyncProperty(run, async ({ before, initialized, answers, order }) => {
          counts.runs++;
          reached.clear();
          const io = pipe();
          const serving = serveLines(served, io);
          io.push(
            line({
              jsonrpc: "2.0",
              id: "init",
              method: "initialize",
              params: {
                protocolVersion: "2025-11-25",
                capabilities: { elicitation: {} },
                clientInfo: { name: "f", version: "1" },
              },
            }),
          );
          const cancelled = new Set<string>();
          const called = new Set<string>();
          for (const step of before) {
            if (step.kind === "call") {
              called.add(step.tag);
              const params = { name: "ask", arguments: { tag: step.tag } };
              io.push(line({ jsonrpc: "2.0", id: step.tag, method: "tools/call", params }));
            } else if (step.kind === "ping") io.push(line({ jsonrpc: "2.0", id: step.id, method: "ping" }));
            else if (step.kind === "cancel") {
              // A cancellation of a call not sent yet names no request: it is ignored.
              if (called.has(step.tag)) cancelled.add(step.tag);
              io.push(line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: step.tag } }));
            } else io.push(line({ jsonrpc: "2.0", id: step.id, result: {} }));
          }
          const live = [...called].filter((tag) => !cancelled.has(tag));
          counts.cancelled += cancelled.size;
          // Every call not cancelled has reached its question, which waits for the notification.
          await within(
            (async () => {
              while (!live.every((tag) => reached.has(tag))) await new Promise((resolve) => setTimeout(resolve, 2));
            })(),
            BOUND_MS,
            "the handlers reaching their questions",
          );
          const asked = () => io.messages().filter((message) => message.method === "elicitation/create");
          if (initialized) {
            // The questions may have timed out by now (askTimeoutMs is short): none was sent.
            expect(asked(), "a question sent before notifications/initialized").toEqual([]);
            counts.held += live.length;
            io.push(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
            for (const tag of order) {
              if (!live.includes(tag)) continue;
              const answer = answers[Number(tag.slice(1))];
              // Either its question comes, or its call has failed already (asked too long ago).
              await io.until(
                (messages) =>
                  messages.some((message) => message.id === tag && !("method" in message)) ||
                  asked().some((message) => JSON.stringify(message.params).includes(`name for ${tag}`)),
                BOUND_MS,
              );
              const question = asked().find((message) => JSON.stringify(message.params).includes(`name for ${tag}`));
              if (question && answer) io.push(line({ jsonrpc: "2.0", id: question.id, ...answer }));
            }
          }
          await io.until(
            (messages) => live.every((tag) => messages.some((m) => m.id === tag && !("method" in m))),
            BOUND_MS,
          );
          io.end();
          await within(serving, BOUND_MS, "serveLines resolving");
          const messages = io.lines().map(checkLine);
          counts.asked += asked().length;
          if (!initialized) expect(asked(), "a question sent without notifications/initialized").toEqual([]);
          for (const question of asked()) {
            const text = JSON.stringify(question.params);
            expect(cancelled.has(text.match(/name for (c\d)/)?.[1] ?? ""), `asked for a cancelled call: ${text}`).toBe(
              false,
            );
          }
          for (const tag of called) {
            const answered = messages.filter((message) => message.id === tag && !("method" in message));
            expect(answered, `answers to ${tag}`).toHaveLength(cancelled.has(tag) ? 0 : 1);
            if (!cancelled.has(tag)) expect(JSON.stringify(answered[0]!.result)).toContain(`${tag}`);
          }
          // Nothing but the calls, the pings and initialize is answered: never a stray response.
          for (const message of messages) {
            if ("method" in message) continue;
            expect(["init", "p0", "p1", "p2", ...called]).toContain(message.id);
          }
        }),
        {
          numRuns: Math.max(1, Math.floor(RUNS / 3)),
          interruptAfterTimeLimit: TIME_LIMIT_MS,
          markInterruptAsFailure: false,
        },
      );
      expect(counts.runs).toBeGreaterThan(0);
    },
    TIME_LIMIT_MS + 30_000,
  );
});
