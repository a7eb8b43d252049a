/**
 * Property-based fuzzing of 2025-11-25 URL-mode elicitations (docs/asking-the-client.md, docs/limits.md
 * maxUrlElicitationsPerSession): two stdio sessions in-process on one server ask with elicitationIds
 * from a small pool, the user accepts, declines, cancels, refuses with an error or does not answer, and
 * the server completes ids at random. Against a model of the rules: each link is sent or refused (in
 * use; the session's limit reached with none accepted) as the model says, completeElicitation says
 * whether a session waited, each completion reaches the session that was sent it and only once, and
 * the server keeps at most the limit per session. FUZZ_RUNS sets the runs.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { completeElicitation } from "../../src/asking/questions.js";
import { Registry } from "../../src/core/registry.js";
import type { Schema } from "../../src/core/schema.js";
import { compileTool, type ToolConfig } from "../../src/core/tools.js";
import { serveLines } from "../../src/transports/stdio.js";
import { serverDispatcher } from "../core-helpers.js";
import { checkLine, pipe } from "../hardening-helpers.js";
import { within } from "../http-helpers.js";
import { RUNS, TIME_LIMIT_MS } from "./inputs.js";

const BOUND_MS = 5000;
const LIMIT = 2;
/** Short: an unanswered question fails soon. */
const ASK_TIMEOUT_MS = 100;

type ElicitUrl = (message: string, url: string, options: { elicitationId: string }) => Promise<{ action: string }>;

function dispatcher() {
  const registry = new Registry({ name: "links", version: "1", askTimeoutMs: ASK_TIMEOUT_MS });
  const signIn = {
    input: z.object({ id: z.string() }),
    run: async ({ id }: { id: string }, ctx: { elicitUrl: ElicitUrl }) => {
      try {
        return `sent ${(await ctx.elicitUrl("Sign in", "https://example.com/sign-in", { elicitationId: id })).action}`;
      } catch (thrown) {
        const message = (thrown as Error).message;
        if (message.startsWith(`elicitationId "${id}" is in use`)) return "in use";
        if (message.startsWith("Could not send the link")) return "full";
        return "failed";
      }
    },
  } as unknown as ToolConfig<Schema | undefined, Schema | undefined>;
  registry.addTool(compileTool("sign_in", signIn));
  return serverDispatcher(registry, { maxUrlElicitationsPerSession: LIMIT, shutdownGraceMs: 1000 });
}

const IDS = ["e0", "e1", "e2", "e3"];
const SESSIONS = [0, 1];
type Answer = "accept" | "decline" | "cancel" | "error" | "none";
type Op = { kind: "ask"; session: number; id: string; answer: Answer } | { kind: "complete"; id: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("ask" as const),
      session: fc.constantFrom(...SESSIONS),
      id: fc.constantFrom(...IDS),
      answer: fc.constantFrom<Answer>("accept", "accept", "accept", "decline", "cancel", "error", "none"),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("complete" as const), id: fc.constantFrom(...IDS) }) },
);

/** The rules as docs/asking-the-client.md says them: what each session keeps, and which it accepted, oldest first. */
class Model {
  readonly waiting = new Map<string, number>();
  readonly kept = SESSIONS.map(() => new Set<string>());
  readonly accepted = SESSIONS.map(() => new Set<string>());

  ask(session: number, id: string, answer: Answer): string {
    if (this.waiting.has(id)) return "in use";
    if (this.kept[session]!.size >= LIMIT) {
      const [oldest] = this.accepted[session]!;
      if (oldest === undefined) return "full";
      this.#forget(oldest);
    }
    if (answer === "accept") {
      this.kept[session]!.add(id);
      this.accepted[session]!.add(id);
      this.waiting.set(id, session);
      return "sent accept";
    }
    return answer === "decline" || answer === "cancel" ? `sent ${answer}` : "failed";
  }

  complete(id: string): number | undefined {
    const session = this.waiting.get(id);
    this.#forget(id);
    return session;
  }

  #forget(id: string) {
    const session = this.waiting.get(id);
    this.waiting.delete(id);
    if (session === undefined) return;
    this.kept[session]!.delete(id);
    this.accepted[session]!.delete(id);
  }
}

const counts = { runs: 0, asks: 0, sent: 0, refused: 0, completions: 0 };
afterAll(() => {
  console.log(
    `[fuzz] URL elicitations: ${counts.runs} runs, ${counts.asks} asks, ${counts.sent} links sent, ${counts.refused} refused, ${counts.completions} completions delivered`,
  );
});

const line = (message: unknown) => `${JSON.stringify(message)}\n`;

describe("fuzz: URL-mode elicitations", () => {
  it(
    "are sent, refused, kept and completed as the rules say, each completion to its own session",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
          counts.runs++;
          const served = dispatcher();
          const model = new Model();
          const sessions = SESSIONS.map(() => {
            const io = pipe();
            const serving = serveLines(served, io);
            io.push(
              line({
                jsonrpc: "2.0",
                id: "init",
                method: "initialize",
                params: {
                  protocolVersion: "2025-11-25",
                  capabilities: { elicitation: { url: {} } },
                  clientInfo: { name: "f", version: "1" },
                },
              }),
              line({ jsonrpc: "2.0", method: "notifications/initialized" }),
            );
            return { io, serving, completed: [] as string[] };
          });
          const expectedCompletions = SESSIONS.map(() => [] as string[]);
          let next = 0;
          for (const step of ops) {
            if (step.kind === "complete") {
              const session = model.complete(step.id);
              expect(completeElicitation(served.urlElicitations, step.id), `complete ${step.id}`).toBe(
                session !== undefined,
              );
              if (session !== undefined) expectedCompletions[session]!.push(step.id);
              continue;
            }
            counts.asks++;
            const { io } = sessions[step.session]!;
            const id = `call-${next++}`;
            const questionsBefore = io.messages().filter((m) => m.method === "elicitation/create").length;
            io.push(
              line({
                jsonrpc: "2.0",
                id,
                method: "tools/call",
                params: { name: "sign_in", arguments: { id: step.id } },
              }),
            );
            const answered = (messages: Record<string, unknown>[]) =>
              messages.find((m) => m.id === id && !("method" in m));
            await io.until(
              (messages) =>
                answered(messages) !== undefined ||
                messages.filter((m) => m.method === "elicitation/create").length > questionsBefore,
              BOUND_MS,
            );
            const question = io.messages().filter((m) => m.method === "elicitation/create")[questionsBefore];
            if (question) {
              counts.sent++;
              expect(question.params).toMatchObject({ mode: "url", elicitationId: step.id });
              if (step.answer === "error")
                io.push(line({ jsonrpc: "2.0", id: question.id, error: { code: -1, message: "no" } }));
              else if (step.answer !== "none") {
                io.push(line({ jsonrpc: "2.0", id: question.id, result: { action: step.answer } }));
              }
            } else counts.refused++;
            await io.until((messages) => answered(messages) !== undefined, BOUND_MS);
            const result = answered(io.messages())!.result as { content: { text: string }[] };
            expect(result.content[0]!.text, `${JSON.stringify(step)} in ${JSON.stringify(ops)}`).toBe(
              model.ask(step.session, step.id, step.answer),
            );
            // What the server keeps is bounded: LIMIT per session, every one waiting for a completion.
            expect(served.urlElicitations.size).toBeLessThanOrEqual(LIMIT * SESSIONS.length);
            expect([...served.urlElicitations.keys()].sort()).toEqual([...model.waiting.keys()].sort());
          }
          for (const [index, { io, serving }] of sessions.entries()) {
            io.end();
            await within(serving, BOUND_MS, "serveLines resolving");
            const messages = io.lines().map(checkLine);
            const told = messages
              .filter((m) => m.method === "notifications/elicitation/complete")
              .map((m) => (m.params as { elicitationId: string }).elicitationId);
            counts.completions += told.length;
            expect(told, `completions told to session ${index}`).toEqual(expectedCompletions[index]);
          }
          // Every session ended: nothing is kept for them.
          expect(served.urlElicitations.size).toBe(0);
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
