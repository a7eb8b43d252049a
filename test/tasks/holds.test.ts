/**
 * The holds of 2025-11-25 tasks on their sessions (tasks/holds.ts), white-box: what is kept is not
 * visible on the wire (a hold within its TTL keeps its session from expiring idle, which
 * test/tasks/session-lifetime.test.ts drives; one that outlived its session or its TTL is memory
 * only, test/tasks/session-end-holds.test.ts). A session's end takes all its holds with it; holds
 * past their TTL go as their session is asked whether it is held, and, for those nobody asks about,
 * in the walk made once their number has doubled.
 */
import { expect, it } from "vitest";
import type { Session } from "../../src/sessions/peer.js";
import { LegacySession } from "../../src/sessions/session.js";
import { Holds } from "../../src/tasks/holds.js";

const HOUR_MS = 60 * 60_000;

function session(): Session {
  return new LegacySession("2025-11-25", {}, undefined);
}

it("lets go of all of a session's holds as it ends, within their TTL or past it, and of none of another's", () => {
  const holds = new Holds(1000);
  const [ended, other] = [session(), session()];
  const now = Date.now();
  holds.hold(ended, "running", now + HOUR_MS);
  holds.hold(ended, "expired", now - 1);
  holds.hold(other, "theirs", now + HOUR_MS);
  ended.tasks?.end();
  // Was: both stayed, and with them the session, until their TTL or the next walk of every hold.
  expect(holds.size).toBe(1);
  expect(ended.tasks?.held()).toBe(false);
  expect(other.tasks?.held()).toBe(true);
  // A task made by a request the ended session was still serving holds it no more.
  holds.hold(ended, "late", now + HOUR_MS);
  expect(holds.size).toBe(1);
  expect(ended.tasks?.held()).toBe(false);
});

it("forgets a session's holds past their TTL as it is asked whether it is held, and its task lets go of one", () => {
  const holds = new Holds(1000);
  const held = session();
  const now = Date.now();
  holds.hold(held, "expired", now - 1);
  holds.hold(held, "running", now + HOUR_MS);
  expect(held.tasks?.held()).toBe(true);
  expect(holds.size).toBe(1);
  holds.unhold("running");
  expect(held.tasks?.held()).toBe(false);
  expect(holds.size).toBe(0);
});

it("walks the holds once their number has doubled: forgets those past their TTL, keeps those within it", () => {
  const holds = new Holds(2);
  const [waiting, gone] = [session(), session()];
  const now = Date.now();
  holds.hold(waiting, "within-1", now + HOUR_MS);
  holds.hold(gone, "past-1", now - 1);
  holds.hold(waiting, "within-2", now + HOUR_MS);
  expect(holds.size).toBe(3);
  // The fourth doubles the floor: the walk leaves the two within their TTL.
  holds.hold(gone, "past-2", now - 1);
  expect(holds.size).toBe(2);
  expect(waiting.tasks?.held()).toBe(true);
  holds.unhold("within-1");
  expect(waiting.tasks?.held()).toBe(true);
  expect(holds.size).toBe(1);
});
