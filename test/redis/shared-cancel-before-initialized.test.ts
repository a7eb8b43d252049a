/**
 * A question a 2025-11-25 handler asks before its session is initialized is held until
 * `notifications/initialized` (2025-11-25 "Lifecycle"), and withdrawn unsent when its request is
 * cancelled first (test/peers/ask-before-initialized.test.ts). In a session that instances share on a
 * real redis-server, the cancellation may reach another instance than the one running the request,
 * which relays it over the bus, and the notification the request's own instance, or a third: once
 * the client was answered 202 for the cancellation, the question is never sent, whichever instance
 * the notification reaches and however late the bus brings the relay. Was: the relay came after the
 * notification, and instance a sent the question of a request the client had cancelled (the fuzz of
 * test/fuzz/held-questions-shared.test.ts found it). The handler's question goes to the rounds a
 * macrotask after it asks, so it may be held, or asked just after the notification: neither is sent.
 * Instance a's subscriber is slow here: the
 * client's messages the bus brings it are held until the test has read the call's stream, as a
 * Redis whose output to a is backed up holds them. Raw HTTP to each instance's `fetch` handler, each
 * request to the instance a balancer without affinity may send it to. Every wait is bounded. Skipped
 * (with the install command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { afterAll, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import type { BusMessage, SharedState } from "../../src/state/state.js";
import { bare, ELICITING_INITIALIZE, EventReader, messageOf, post, signal, within } from "../http-helpers.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING, sharedState } from "./shared-state.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of opened.reverse()) await close().catch(() => {});
});

const BOUND_MS = 8000;
let prefixes = 0;

type Instance = { fetch(request: Request): Promise<Response> };

/**
 * The client's messages relayed to `state`'s instance wait until `deliver()`: its bus listeners are
 * told of every other message as it comes.
 */
function slowSubscriber(state: SharedState): { deliver(): void } {
  const held: (() => void)[] = [];
  let delivering = false;
  const subscribe = state.bus.subscribe.bind(state.bus);
  state.bus.subscribe = (listener) =>
    subscribe((message: BusMessage) => {
      if (message.type !== "client" || delivering) listener(message);
      else held.push(() => listener(message));
    });
  return {
    deliver() {
      delivering = true;
      for (const each of held.splice(0)) each();
    },
  };
}

/**
 * Three instances sharing one state on the test's redis-server, the first with a slow subscriber;
 * `reached` resolves as a handler first comes to its question.
 */
async function instances() {
  const prefix = `cancel-early-${prefixes++}:`;
  const reached = signal();
  const servers: Instance[] = [];
  let slow: { deliver(): void } | undefined;
  for (let n = 0; n < 3; n++) {
    const state = await sharedState(redis.get(), prefix, opened);
    slow ??= slowSubscriber(state);
    const server = pico({ name: "early-asker", ...SHARING, state, askTimeoutMs: BOUND_MS }).tool("ask", {
      description: "Asks the user's name.",
      run: async (_args, ctx) => {
        reached.resolve();
        const answer = await ctx.elicit("Your name?", z.object({ name: z.string() }));
        return answer.action;
      },
    });
    opened.push(() => server.close());
    servers.push(server);
  }
  return { servers: servers as [Instance, Instance, Instance], reached, slow: slow! };
}

/** POSTs `body` to `instance`, in `session` if given. */
function postTo(instance: Instance, body: unknown, session?: string): Promise<Response> {
  const headers = session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {};
  return instance.fetch(post(body, headers));
}

it.each([
  ["the instance running the request", 0],
  ["a third instance", 2],
])(
  "never sends the question of a request cancelled on another instance before notifications/initialized reached %s",
  async (_, initializedOn) => {
    const { servers, reached, slow } = await instances();
    const [a, b] = servers;
    const init = ELICITING_INITIALIZE;
    const opening = await postTo(a, init);
    const session = opening.headers.get("mcp-session-id")!;
    await opening.text();
    // The call runs on a; its handler asks, and the question is held: the session is not initialized.
    const call = postTo(a, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask" } }, session);
    await within(reached.promise, BOUND_MS, "the handler reaching its question");
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "no" } };
    expect((await postTo(b, cancel, session)).status).toBe(202);
    // Sent once the cancellation was answered: the client sent the two in this order.
    const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
    expect((await postTo(servers[initializedOn]!, initialized, session)).status).toBe(202);
    // The call's stream ends unanswered once it is cancelled (2025-11-25 "Cancellation": no response),
    // after all that was sent for it; its first message, were the question sent, would be that (the
    // priming event before it carries none).
    const reader = new EventReader(await within(call, BOUND_MS, "the call's stream"));
    let first = await reader.next(BOUND_MS);
    while (first && !first.data) first = await reader.next(BOUND_MS);
    slow.deliver();
    expect(first && messageOf(first).method).toBeUndefined();
    await a.fetch(bare("DELETE", { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }));
  },
);
