/**
 * What an idle shared 2025-11-25 HTTP session (`pico({ state })`, docs/scaling.md) keeps on the heap
 * of an instance that holds it, on a real Redis: the instance that opened it, and another that served
 * one request of it and so holds a copy made from its record. Counted object by object from two heap
 * snapshots of a child process (test/fixtures/idle-shared-sessions-heap.ts), as the idle local
 * session is (test/http-session-idle-heap.test.ts). Skipped (with the install command as the reason)
 * without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { it } from "vitest";
import { expectWithin, measureHeap } from "../heap-helpers.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();

/**
 * What an idle shared session keeps on the instance that opened it (Node 20, 200 sessions; 560 B):
 * its LegacySession, with the copy's fields, 144 B, its Connection 96 B, the client's info and
 * capabilities as sent 96 B, HttpSession 80 B, its id 56 B, the store's map growing, and the ids of
 * the sessions whose record was refreshed this quarter of idleTimeoutMs (SharedSessions.#refreshed).
 * Before its store stopped re-keying a session in its map on each use, 595 to 598 B. Before its connection was its requests' asker itself, 606 B; before V8's lists of code that depends
 * on object shapes were left out of the count, 655 to 665 B; before, 3,807 B: each copy kept a
 * mirror of its own (an object, five closures and a WeakMap, 1,900 B as tsx runs it: a closure named
 * by its property keeps its name in a dictionary of 256 B), the caller's whole RequestContext (240 B),
 * a read check and an `onInitialized` of its own (a closure each, 700 B as tsx runs them), an empty
 * set of subscriptions (152 B), and three WeakMap entries (what it wrote, a Date.now() of its last
 * refresh, the caller; 123 B). The budget leaves room for a field or
 * two, not for another object per session (a 40 B one fails it).
 */
const OPENED_BUDGET_BYTES = 590;
/**
 * A copy on another instance, made from the record for one request (a ping) and idle since (487 B):
 * the same, with the client's info and capabilities parsed from the record. Its connection keeps
 * nothing of the request it served: its map of requests in flight is kept only while one is, and it
 * asks its client itself. Before its store stopped re-keying a session on each use, 523 B; before, 812 B, with that map (184 B) and a
 * closure that asked its client (96 B); before V8's lists of code that depends on object shapes were
 * left out of the count, 861 to 869 B; before, 4,058 B, and the record's id a string of its own, 56 B
 * more. The budget, as the opened session's, fails at another object per copy.
 */
const COPY_BUDGET_BYTES = 520;

it("keeps an idle shared session, and an idle copy of one, under their budgets of heap", async () => {
  const [opened, copied] = await measureHeap("test/fixtures/idle-shared-sessions-heap.ts", {
    REDIS_URL: redis.get().url,
  });
  expectWithin(opened, OPENED_BUDGET_BYTES);
  expectWithin(copied, COPY_BUDGET_BYTES);
}, 70_000);
