/**
 * An instance makes its copy of a shared 2025-11-25 session from the session's record, read on the
 * session's first request there. `notifications/initialized` reaching another instance while that
 * read is under way changes the record after it was read, and the bus tells of the change before
 * the copy exists: the copy must still become initialized, and the question the request's handler
 * asks go out (2025-11-25 "Lifecycle": held until the notification). Was: the bus message was
 * ignored (no copy yet), the copy stayed uninitialized, and its question was held until it timed out
 * with "did not send notifications/initialized" (seen once in test/fuzz/held-questions-shared.test.ts).
 * Instance b's session records are the real ones on the test's redis-server, its first read held, once
 * read, until b's bus brought the change: the interleaving is forced, not waited for. Raw HTTP to each
 * instance's `fetch` handler. Every wait is bounded. Skipped (with the install command as the reason)
 * without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { afterAll, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import type { SharedState } from "../../src/state/state.js";
import { ELICITING_INITIALIZE, EventReader, messageOf, post, signal, within } from "../http-helpers.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING, sharedState } from "./shared-state.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of opened.reverse()) await close().catch(() => {});
});

const BOUND_MS = 8000;

type Instance = { fetch(request: Request): Promise<Response> };

/**
 * `state`'s first read of a session's record (get or peek) waits, once it has read it, until `release`;
 * `read` resolves as it waits. `heard(id)` resolves once the state's bus listeners were told that
 * session `id` changed ("session").
 */
function heldFirstRead(state: SharedState) {
  const read = signal();
  const release = signal();
  let held = false;
  const hold = async <T>(reading: Promise<T>): Promise<T> => {
    const record = await reading;
    if (held) return record;
    held = true;
    read.resolve();
    await within(release.promise, BOUND_MS, "the release of instance b's read");
    return record;
  };
  const { sessions, bus } = state;
  const get = sessions.get.bind(sessions);
  const peek = sessions.peek?.bind(sessions);
  sessions.get = (id, idleMs) => hold(get(id, idleMs));
  if (peek) sessions.peek = (id) => hold(peek(id));
  const told = new Map<string, () => void>();
  const subscribe = bus.subscribe.bind(bus);
  bus.subscribe = (listener) =>
    subscribe((message) => {
      listener(message);
      if (message.type === "session") told.get(message.id)?.();
    });
  return {
    read: read.promise,
    release: release.resolve,
    heard: (id: string) => new Promise<void>((resolve) => told.set(id, resolve)),
  };
}

/** POSTs `body` to `instance`, in `session` if given. */
function postTo(instance: Instance, body: unknown, session?: string): Promise<Response> {
  const headers = session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {};
  return instance.fetch(post(body, headers));
}

it("sends the question of a request whose instance made its copy of the session as notifications/initialized reached another (was: held until it timed out)", async () => {
  const prefix = "adopt-race:";
  const servers: Instance[] = [];
  let b: ReturnType<typeof heldFirstRead> | undefined;
  for (let n = 0; n < 2; n++) {
    const state = await sharedState(redis.get(), prefix, opened);
    if (n === 1) b = heldFirstRead(state);
    // A question held for good is answered within the bound of the call's wait: with its reason.
    const server = pico({ name: "adopter", ...SHARING, state, askTimeoutMs: BOUND_MS / 2 }).tool("ask", {
      description: "Asks the user's name.",
      run: async (_args, ctx) => (await ctx.elicit("Your name?", z.object({ name: z.string() }))).action,
    });
    opened.push(() => server.close());
    servers.push(server);
  }
  const [first, second] = servers as [Instance, Instance];
  const held = b!;
  const init = ELICITING_INITIALIZE;
  const opening = await postTo(first, init);
  const session = opening.headers.get("mcp-session-id")!;
  await opening.text();
  // The call goes to b, which reads the record (not initialized yet) to make its copy, and waits there.
  const call = postTo(second, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask" } }, session);
  await within(held.read, BOUND_MS, "instance b reading the session's record");
  // The client's notification reaches a, which writes the record and tells the bus; b hears it, then
  // makes its copy from what it read before.
  const heard = held.heard(session);
  const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
  expect((await postTo(first, initialized, session)).status).toBe(202);
  await within(heard, BOUND_MS, "instance b hearing that the session changed");
  held.release();
  const reader = new EventReader(await within(call, BOUND_MS, "the call's stream"));
  opened.push(() => reader.cancel());
  let question = await reader.next(BOUND_MS);
  while (question && !question.data) question = await reader.next(BOUND_MS);
  const asked = messageOf(question);
  expect(asked).toMatchObject({ method: "elicitation/create" });
  // Answered, the call ends with the answer's action.
  const answer = { jsonrpc: "2.0", id: asked.id, result: { action: "decline" } };
  expect((await postTo(second, answer, session)).status).toBe(202);
  const rest = await reader.rest(BOUND_MS);
  expect(rest.filter((event) => event.data).map((event) => messageOf(event).result)).toEqual([
    { content: [{ type: "text", text: "decline" }] },
  ]);
});
