/**
 * What an idle 2025-11-25 HTTP session keeps on the heap (the README's idle-session row, under 2 KiB
 * with the bench's sockets and compiled code): counted object by object from two heap snapshots of a
 * child process (test/fixtures/idle-sessions-heap.ts), so that the figure is the session's own and
 * the same on every run. A copy of a tools-only server's capabilities on every session (160 B) went
 * unseen in the bench's noise; the budget here fails at such growth, and says what the session keeps.
 */
import { it } from "vitest";
import { expectWithin, measureHeap } from "./heap-helpers.js";

/**
 * What a session keeps here (Node 20, 200 sessions; 525 to 531 B): its Connection 104 B, the client's
 * info and capabilities as sent 102 B, arrays (the store's map growing) 82 B, HttpSession 80 B,
 * LegacySession 80 B, its id 56 B. Before the advertised lists were shared, 923 B; before the
 * connection delivered to its session rather than through a closure of it, 759 B; before the session
 * read what its store's sessions share from the store, kept its last use as a small integer, the
 * client's info and capabilities without an object to hold them, its streams' numbers, headers,
 * redaction and end with its streams, store and gate, and its connection its caller with its
 * transport, 662 B. The budget leaves room for a field or two, not for another object per session
 * (an object holding the client's info and capabilities, 40 B, fails it).
 */
const BUDGET_BYTES = 550;

it("keeps an idle 2025-11-25 session under its budget of heap, with nothing of its own that sessions could share", async () => {
  const [kept] = await measureHeap("test/fixtures/idle-sessions-heap.ts");
  expectWithin(kept, BUDGET_BYTES);
}, 70_000);
