/**
 * What an idle 2025-11-25 HTTP session keeps on the heap (the README's idle-session row, under 2 KiB
 * with the bench's sockets and compiled code), and what it keeps more once it has served requests, as
 * a real idle session has: counted object by object from heap snapshots of a child process
 * (test/fixtures/idle-sessions-heap.ts), so that the figure is the session's own and the same on
 * every run. A copy of a tools-only server's capabilities on every session (160 B) went
 * unseen in the bench's noise; the budget here fails at such growth, and says what the session keeps.
 */
import { it } from "vitest";
import { expectWithin, measureHeap } from "./heap-helpers.js";

/**
 * What a session keeps here (Node 20, 200 sessions; 469 B): the client's info and capabilities as
 * sent 100 B, its Connection 96 B, HttpSession 80 B, LegacySession 80 B, its id 56 B, arrays (the
 * store's map growing) 46 B. Before its store stopped re-keying a session on each use (its
 * `notifications/initialized` was one), 500 to 508 B, the map's arrays 82 B. Before the connection was its requests' asker itself, 508 B; before
 * V8's lists of code that depends on object shapes were left out of the count, 525 to 531 B; before the
 * advertised lists were shared, 923 B; before the connection delivered to its session rather than
 * through a closure of it, 759 B; before the session read what its store's sessions share from the
 * store, kept its last use as a small integer, the client's info and capabilities without an object to
 * hold them, its streams' numbers, headers, redaction and end with its streams, store and gate, and its
 * connection its caller with its transport, 662 B. The budget leaves room for a field or two, not for
 * another object per session (an object holding the client's info and capabilities, 40 B, fails it).
 */
const BUDGET_BYTES = 500;

/**
 * What the same sessions keep more once each has served three tool calls (one answered at once, one
 * later, one cancelled while it ran) and gone idle again (23 B): V8's records of where objects were
 * allocated, 7 B, and arrays, 9 B. Nothing of the store's: a use of a session writes its last use and
 * leaves the map of sessions as it was. Nothing of the connection's: it keeps its map of requests in
 * flight only while one is, and asks its client itself. Before, 94 B: the store re-keyed a session on
 * each use to keep its map in order of use, which rebuilt it at twice its capacity (72 B); before that,
 * 374 B: each kept its map of requests in flight, empty (183 B), and a closure that asked its client
 * (98 B). Measured alone 23 B; once, in a whole `npm test` run on a busy machine, 45 B (arrays 17 B,
 * objects 11 B: what a request's end leaves for a while depends on timing), hence the budget's room.
 * It fails at any of the growths above, or at an object of 40 B a session keeps once it served a request.
 */
const SERVED_BUDGET_BYTES = 60;

it("keeps an idle 2025-11-25 session under its budget of heap, and one that served requests under as much and a little more", async () => {
  const [opened, served] = await measureHeap("test/fixtures/idle-sessions-heap.ts");
  expectWithin(opened, BUDGET_BYTES);
  expectWithin(served, SERVED_BUDGET_BYTES);
}, 70_000);
