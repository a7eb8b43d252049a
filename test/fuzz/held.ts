/**
 * What the fuzz of questions asked before notifications/initialized over Streamable HTTP shares
 * (held-questions-http.test.ts, one instance; held-questions-shared.test.ts, two on Redis): the server
 * whose tool asks, the runs, and one run with the official v1 client, whose initialized POST the
 * test holds back and lets go at the run's point (its client is told 202 at once).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { expect } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import type { SharedState } from "../../src/state/state.js";
import { signal, within } from "../http-helpers.js";

const BOUND_MS = 8000;
/** Short, so that a run whose notification never comes ends soon. */
const ASK_TIMEOUT_MS = 300;

/** The calls whose handler has reached its question, by tag (on any instance of this process). */
const reached = new Set<string>();

/** A server whose tool "ask" asks the user's name, tagged; with `state`, one of several instances. */
export function askingServer(state?: SharedState) {
  const options = state ? { state, requestStateKey: "a shared secret of 32 bytes or more!", signals: false } : {};
  return pico({ name: "early-asker", version: "1", askTimeoutMs: ASK_TIMEOUT_MS, ...options }).tool("ask", {
    input: z.object({ tag: z.string() }),
    run: async ({ tag }, ctx) => {
      reached.add(tag);
      try {
        const answer = await ctx.elicit(`name for ${tag}`, z.object({ name: z.string() }));
        return answer.action === "accept" ? `${tag}: hello ${answer.content.name}` : `${tag}: ${answer.action}`;
      } catch (thrown) {
        return `${tag} failed: ${(thrown as Error).message}`;
      }
    },
  });
}

type Step = { kind: "call"; abort: boolean } | { kind: "ping" } | { kind: "release" };

/** Calls that ask (some aborted), pings, and the notification let go, in any order; or never let go. */
export const heldRun = fc
  .record({
    calls: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
    pings: fc.nat(2),
    release: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  })
  .chain(({ calls, pings, release }) =>
    fc.shuffledSubarray(
      [
        ...calls.map((abort): Step => ({ kind: "call", abort })),
        ...Array.from({ length: pings }, (): Step => ({ kind: "ping" })),
        ...(release ? [{ kind: "release" } as Step] : []),
      ],
      { minLength: calls.length + pings + (release ? 1 : 0) },
    ),
  );

export const heldCounts = { runs: 0, calls: 0, aborted: 0, asked: 0, failed: 0 };

/**
 * One run: the official v1 client, each of whose requests goes to `route(url)`'s instance, makes the
 * steps; no question reaches it before the notification reached the server, none for a call aborted
 * before it; each call not aborted settles once.
 */
export async function heldQuestionsRun(steps: Step[], url: URL, options: { route?: (url: URL) => URL } = {}) {
  const { route = (same: URL) => same } = options;
  heldCounts.runs++;
  reached.clear();
  const released = signal();
  let initializedSent = false;
  /** notifications/cancelled POSTs on their way: the test waits for them before letting go. */
  const cancelling = new Set<Promise<unknown>>();
  let cancelsSeen = 0;
  let aborts = 0;
  const holding: typeof fetch = async (input, init) => {
    const body = typeof init?.body === "string" ? init.body : "";
    if (body.includes('"notifications/initialized"')) {
      void released.promise
        .then(async () => {
          // On its way from here: a question may come as soon as it has reached the server, before
          // its 202 is back, so a question is early only if asked before it was sent.
          initializedSent = true;
          await (await fetch(route(new URL(String(input))), init)).text();
        })
        // Let go as the client closes (a run that never lets it go): aborted with it.
        .catch(() => {});
      return new Response(null, { status: 202 });
    }
    const sent = fetch(route(new URL(String(input))), init);
    // An aborted call's fetch rejects: the client's to handle, not an unhandled rejection meanwhile.
    sent.catch(() => {});
    if (body.includes('"notifications/cancelled"')) {
      const done = sent.then((response) => response.text()).catch(() => {});
      cancelling.add(done);
      cancelsSeen++;
    }
    return sent;
  };
  const asked: string[] = [];
  const client = new Client({ name: "v1-early", version: "1" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const tag = /name for (c\d+)/.exec(request.params.message)?.[1] ?? "?";
    expect(initializedSent, `${tag} asked before notifications/initialized was sent`).toBe(true);
    asked.push(tag);
    return { action: "accept", content: { name: "Ada" } };
  });
  const transport = new StreamableHTTPClientTransport(url, { fetch: holding });
  await client.connect(transport);
  try {
    const calls = new Map<string, { abort?: AbortController; settled: Promise<unknown>; early: boolean }>();
    let releasedAt = false;
    for (const step of steps) {
      if (step.kind === "ping") await within(client.ping(), BOUND_MS, "a ping");
      else if (step.kind === "release") {
        // What the client cancelled has reached the server before the notification does: the
        // client sends each notifications/cancelled a moment after its abort.
        await within(
          (async () => {
            for (let n = 0; n < 4000 && cancelsSeen < aborts; n++) await new Promise((r) => setTimeout(r, 1));
          })(),
          BOUND_MS,
          "the client sending its cancellations",
        );
        await within(Promise.all(cancelling), BOUND_MS, "the cancellations");
        released.resolve();
        releasedAt = true;
      } else {
        const tag = `c${calls.size}`;
        const abort = step.abort ? new AbortController() : undefined;
        const settled = client
          .callTool({ name: "ask", arguments: { tag } }, undefined, {
            signal: abort?.signal,
            timeout: BOUND_MS,
          })
          .then(
            (result) => ({ result }),
            (error: unknown) => ({ error }),
          );
        calls.set(tag, { abort, settled, early: !releasedAt });
        if (abort) {
          // Aborted once its handler asked (held), or before it ran.
          await within(
            (async () => {
              for (let n = 0; n < 4000 && !reached.has(tag); n++) await new Promise((r) => setTimeout(r, 1));
            })(),
            BOUND_MS,
            "the handler reaching its question",
          );
          abort.abort("changed my mind");
          aborts++;
        }
      }
    }
    for (const [tag, { abort, settled, early }] of calls) {
      heldCounts.calls++;
      const outcome = (await within(settled, BOUND_MS, `call ${tag} settling`)) as {
        result?: { content: { text: string }[] };
        error?: unknown;
      };
      if (abort) {
        heldCounts.aborted++;
        expect(outcome.error, `aborted ${tag}`).toBeDefined();
        // Aborted before the notification went: its question was never sent, whichever instance the
        // cancellation reached (held-questions-shared.test.ts: one that relays it answers it only then).
        if (early) expect(asked).not.toContain(tag);
        continue;
      }
      const text = outcome.result?.content[0]?.text;
      if (releasedAt) {
        // Sent once the notification came (or at once, asked after it).
        heldCounts.asked++;
        expect(text, tag).toBe(`${tag}: hello Ada`);
      } else {
        heldCounts.failed++;
        expect(text, tag).toBe(
          `${tag} failed: The client did not send notifications/initialized within 0.3 s, so elicitation/create could not be sent (a server may send no request before it).`,
        );
      }
    }
    expect(asked.length, "each question asked once").toBe(new Set(asked).size);
  } finally {
    released.resolve();
    // The session ends with the run (DELETE), not with the listener after the last.
    await transport.terminateSession().catch(() => {});
    await client.close();
  }
}
