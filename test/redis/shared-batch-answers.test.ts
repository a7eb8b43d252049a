/**
 * A 2025-03-26 batch that mixes requests with the client's answers and notifications, posted to an
 * instance other than the one that asked, in a session instances share on a real redis-server: the
 * answers inside it reach the question they answer, and a `notifications/cancelled` inside it the
 * request it names, as when each comes alone or in a batch of responses only (http/handler.ts's
 * #responses, shared.ts's forward); the batch is answered once they are relayed. Was: they were
 * only taken by the instance the batch reached, so the question waited until askTimeoutMs and the
 * cancelled run went on. Raw HTTP to each instance's `fetch` handler; every wait is bounded.
 * Skipped (with the install command as the reason) without redis-server, failed with
 * PICOMCP_REQUIRE_REDIS.
 */
import { afterAll, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { EventReader, messageOf, post, within } from "../http-helpers.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING, sharedState } from "./shared-state.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of opened.reverse()) await close().catch(() => {});
});

/** How long a step may take before the test fails: a bound, never a measurement. */
const BOUND_MS = 8000;
let prefixes = 0;

/** Two instances sharing one state, and a 2025-03-26 session opened on the first (declaring roots). */
async function twoInstances() {
  const prefix = `batch-answers-${prefixes++}:`;
  let began: () => void = () => {};
  const started = new Promise<void>((resolve) => (began = resolve));
  let stopped: () => void = () => {};
  const stop = new Promise<void>((resolve) => (stopped = resolve));
  const [a, b] = await Promise.all(
    [0, 1].map(async () => {
      const server = pico({
        name: "batches",
        ...SHARING,
        askTimeoutMs: BOUND_MS * 2,
        state: await sharedState(redis.get(), prefix, opened),
      })
        .tool("list_roots", {
          run: async (_args, ctx) => (await ctx.roots()).map((root) => root.uri).join(","),
        })
        .tool("wait", {
          input: z.object({}),
          run: (_args, ctx) =>
            new Promise<string>((_, reject) => {
              ctx.signal.addEventListener("abort", () => {
                stopped();
                reject(ctx.signal.reason);
              });
              began();
            }),
        });
      opened.push(() => server.close());
      return server;
    }),
  );
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-03-26", capabilities: { roots: {} }, clientInfo: { name: "t", version: "1" } },
  };
  const answer = await a!.fetch(post(init));
  const session = { "mcp-session-id": answer.headers.get("mcp-session-id"), "mcp-protocol-version": "2025-03-26" };
  await answer.text();
  expect((await a!.fetch(post({ jsonrpc: "2.0", method: "notifications/initialized" }, session))).status).toBe(202);
  return { a: a!, b: b!, session, started, stop };
}

it("relays an answer in a batch with a request to the instance that asked, and answers the batch", async () => {
  const { a, b, session } = await twoInstances();
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_roots", arguments: {} } };
  const events = new EventReader(await a.fetch(post(call, session)));
  const question = messageOf((await events.next(BOUND_MS))!) as { id: string; method: string };
  expect(question.method).toBe("roots/list");
  const batch = [
    { jsonrpc: "2.0", id: question.id, result: { roots: [{ uri: "file:///work" }] } },
    { jsonrpc: "2.0", id: 3, method: "ping" },
  ];
  const answered = await within(b.fetch(post(batch, session)), BOUND_MS, "the batch's answer");
  expect(answered.status).toBe(200);
  expect(await answered.json()).toEqual([{ jsonrpc: "2.0", id: 3, result: {} }]);
  const messages = (await events.rest(BOUND_MS)).filter((event) => event.data).map(messageOf);
  expect(messages.at(-1)).toMatchObject({ id: 2, result: { content: [{ type: "text", text: "file:///work" }] } });
});

it("relays a cancellation in a batch with a request to the instance running the cancelled request", async () => {
  const { a, b, session, started, stop } = await twoInstances();
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "wait", arguments: {} } };
  const running = a.fetch(post(call, session));
  await within(started, BOUND_MS, "the run to start");
  const batch = [
    { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "no longer needed" } },
    { jsonrpc: "2.0", id: 3, method: "ping" },
  ];
  const answered = await within(b.fetch(post(batch, session)), BOUND_MS, "the batch's answer");
  expect(await answered.json()).toEqual([{ jsonrpc: "2.0", id: 3, result: {} }]);
  await within(stop, BOUND_MS, "the cancelled run to stop");
  await (await running).body?.cancel();
});
