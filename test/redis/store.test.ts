/**
 * The pieces of picomcp/redis on a real Redis, one by one: the event history keeps the bounds of
 * http/history.ts (events and bytes per session, bytes for the server with the largest session
 * forgetting first) and records a gap instead of serving it; its hash forgets an ended stream that
 * keeps no event (but for the mark of one ended for its crashed writer), nor the mark of a reader
 * whose instance's lease ran out; a session's record is read
 * without restarting its idle expiry (peek) or with (get); the replay guard accepts an id once;
 * a request's stream whose instance stops renewing its lease reads as abandoned, takes its answer
 * once and no event after it; a task whose instance stops renewing its lease reads as failed, one whose lease is renewed does not,
 * and a lease is no longer renewed once its task ended; redisState() on a Redis that does not answer fails.
 * Skipped (with the install command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { createClient } from "redis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { redisState } from "../../src/redis.js";
import type { SharedState } from "../../src/state/state.js";
import type { TaskRecord } from "../../src/tasks/task.js";
import { live } from "./records.js";
import { haveRedis, MISSING, REQUIRED, RedisServer } from "./redis-server.js";
import { workingTask } from "./tasks-helpers.js";

const AVAILABLE = haveRedis();
const TEN = "0123456789";
const WIDE = { maxEvents: 100, maxSessionBytes: 1_000_000, maxBytes: 1_000_000 };
/** What reading a stream the history does not know answers. */
const NOTHING_KEPT = { forgotten: 0, last: 0, done: false, events: [], opened: false };

let redis: RedisServer | undefined;
let client: ReturnType<typeof createClient> | undefined;
let prefixes = 0;

beforeAll(async () => {
  if (!AVAILABLE) {
    if (REQUIRED) throw new Error(`${MISSING} (PICOMCP_REQUIRE_REDIS is set, so Redis is required)`);
    return;
  }
  redis = await RedisServer.start();
  client = createClient({ url: redis.url });
  client.on("error", () => {});
  await client.connect();
});

beforeEach((ctx) => {
  if (!AVAILABLE) ctx.skip(MISSING);
});

afterAll(async () => {
  await client?.close();
  await redis?.close();
});

/** A state of its own (its own key prefix), for one test. */
async function state(options: { leaseMs?: number; prefix?: string } = {}): Promise<SharedState> {
  return redisState({ client: client!, prefix: `store-${prefixes++}:`, ...options });
}

async function append(shared: SharedState, session: string, seqs: number[], bounds = WIDE) {
  for (const seq of seqs) await shared.events.append(session, { stream: 7, seq, text: TEN }, bounds);
}

describe("the event history on Redis", () => {
  it("keeps at most maxEvents events of a session, forgetting the oldest", async () => {
    const shared = await state();
    await live(shared, "s");
    await append(shared, "s", [1, 2, 3, 4, 5], { ...WIDE, maxEvents: 3 });
    const slice = await shared.events.read("s", 7, 0);
    expect(slice).toMatchObject({ forgotten: 2, last: 5, done: false });
    expect(slice.events.map((event) => event.seq)).toEqual([3, 4, 5]);
    await shared.close();
  });

  it("keeps at most maxSessionBytes bytes of a session", async () => {
    const shared = await state();
    await live(shared, "s");
    await append(shared, "s", [1, 2, 3, 4], { ...WIDE, maxSessionBytes: 25 });
    const slice = await shared.events.read("s", 7, 0);
    expect(slice.events.map((event) => event.seq)).toEqual([3, 4]);
    expect(slice.forgotten).toBe(2);
    await shared.close();
  });

  it("past the server's maxBytes, the session holding the most forgets first", async () => {
    const shared = await state();
    await live(shared, "big", "small");
    const bounds = { ...WIDE, maxBytes: 40 };
    await append(shared, "big", [1, 2, 3], bounds);
    await append(shared, "small", [1], bounds);
    await append(shared, "small", [2], bounds);
    expect((await shared.events.read("big", 7, 0)).events.map((event) => event.seq)).toEqual([2, 3]);
    expect((await shared.events.read("small", 7, 0)).events.map((event) => event.seq)).toEqual([1, 2]);
    await shared.close();
  });

  it("forgets notifications before answers and questions, and records the last forgotten event a reader may not skip: an answer, a question, a gap; never a notification", async () => {
    const shared = await state();
    await live(shared, "s", "g");
    const bounds = { ...WIDE, maxEvents: 2 };
    // Events 1, 6 and 10 are answers or questions (no `notice`), the others notifications.
    const seen: [number, number | undefined][] = [];
    for (let seq = 1; seq <= 10; seq++) {
      const notice = seq !== 1 && seq !== 6 && seq !== 10;
      await shared.events.append("s", { stream: 7, seq, text: TEN, notice }, bounds);
      const { forgotten, unskippable } = await shared.events.read("s", 7, 0);
      if (forgotten > 0) seen.push([forgotten, unskippable]);
    }
    // The notifications go as long as there is one, the oldest first, though answers 1 and 6 are
    // older (was: the oldest event first, answers too); then answer 1, no reader following it.
    expect(seen).toEqual([
      [2, 0],
      [3, 0],
      [4, 0],
      [5, 0],
      [7, 0],
      [8, 0],
      [9, 0],
      [9, 1],
    ]);
    expect((await shared.events.read("s", 7, 0)).events.map((event) => event.seq)).toEqual([6, 10]);
    // A gap (event 2 never kept) is not to skip either, though the events around it are notifications.
    for (const seq of [1, 3]) await shared.events.append("g", { stream: 7, seq, text: TEN, notice: true }, WIDE);
    expect(await shared.events.read("g", 7, 0)).toMatchObject({ forgotten: 2, unskippable: undefined });
    await shared.close();
  });

  it("keeps past the caps the answers and questions a live reader follows, until it has sent them, leaves, or its instance's lease runs out", async () => {
    const prefix = `store-${prefixes++}:`;
    const shared = await state({ prefix });
    const reader = await state({ prefix, leaseMs: 300 });
    await live(shared, "s");
    const bounds = { ...WIDE, maxEvents: 2 };
    const kept = async () => (await shared.events.read("s", 7, 0)).events.map((event) => event.seq);
    await append(shared, "s", [1], bounds);
    await reader.events.follow!("s", "r", { stream: 7, after: 0 });
    // Answers 1 to 3, none sent: the history holds three, past its cap of two.
    await append(shared, "s", [2, 3], bounds);
    expect(await kept()).toEqual([1, 2, 3]);
    // Sent up to 2: those go, as the caps have them go.
    await reader.events.follow!("s", "r", { stream: 7, after: 2 });
    await append(shared, "s", [4], bounds);
    expect(await kept()).toEqual([3, 4]);
    expect(await shared.events.read("s", 7, 2)).toMatchObject({ forgotten: 2, unskippable: 2 });
    // A reader that leaves keeps nothing.
    await reader.events.leave!("s", "r");
    await append(shared, "s", [5], bounds);
    expect(await kept()).toEqual([4, 5]);
    // Nor does one whose instance stopped (its lease ran out).
    await reader.events.follow!("s", "r", { stream: 7, after: 3 });
    await append(shared, "s", [6], bounds);
    expect(await kept()).toEqual([4, 5, 6]);
    await reader.close();
    for (let polls = 0; polls < 100 && (await client!.keys(`${prefix}i:*`)).length > 0; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await append(shared, "s", [7], bounds);
    expect(await kept()).toEqual([6, 7]);
    await shared.close();
  });

  it("takes away, as the caps next look, the mark of a reader whose instance's lease ran out (was: it stayed, read by every look, for as long as the session was used)", async () => {
    const prefix = `store-${prefixes++}:`;
    const shared = await state({ prefix });
    const reader = await state({ prefix, leaseMs: 300 });
    await live(shared, "s");
    const bounds = { ...WIDE, maxEvents: 2 };
    await append(shared, "s", [1], bounds);
    await reader.events.follow!("s", "r", { stream: 7, after: 0 });
    // Its instance stops without the reader leaving (a crash): the lease runs out.
    await reader.close();
    for (let polls = 0; polls < 100 && (await client!.keys(`${prefix}i:*`)).length > 0; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await client!.keys(`${prefix}i:*`)).toEqual([]);
    expect(await client!.hLen(`${prefix}hr:s`)).toBe(1);
    await append(shared, "s", [2, 3], bounds);
    expect((await shared.events.read("s", 7, 0)).events.map((event) => event.seq)).toEqual([2, 3]);
    expect(await client!.hLen(`${prefix}hr:s`)).toBe(0);
    await shared.close();
  });

  it("takes a reader's resume from a forged id past the last event as sent up to the last event only", async () => {
    const shared = await state();
    await live(shared, "s");
    const bounds = { ...WIDE, maxEvents: 2 };
    await append(shared, "s", [1], bounds);
    await shared.events.follow!("s", "forged", { stream: 7, after: 99 });
    await shared.events.leave!("s", "forged");
    // Answer 2 comes after what the reader could have sent: kept past notification 3 (was: taken as
    // sent up to 99, and forgotten before it).
    await shared.events.append("s", { stream: 7, seq: 2, text: TEN }, bounds);
    await shared.events.append("s", { stream: 7, seq: 3, text: TEN, notice: true }, bounds);
    await shared.events.append("s", { stream: 7, seq: 4, text: TEN, notice: true }, bounds);
    expect((await shared.events.read("s", 7, 0)).events.map((event) => event.seq)).toEqual([2, 4]);
    await shared.close();
  });

  it("keeps a gap forgotten when an event before it is forgotten after it: a resume from within it is refused", async () => {
    const shared = await state();
    await live(shared, "s");
    // Event 3 never kept; keeping 4 forgets 1, the oldest (was: forgotten went back from 3 to 1, so
    // a resume from 2 was taken, then ended at once with nothing, 3 missing, rather than a 404).
    await append(shared, "s", [1, 2, 4], { ...WIDE, maxEvents: 2 });
    expect(await shared.events.read("s", 7, 0)).toMatchObject({ forgotten: 3, last: 4 });
    await shared.close();
  });

  it("records a gap (an event never kept) as forgotten, and an ended stream as done", async () => {
    const shared = await state();
    await live(shared, "s");
    await append(shared, "s", [1, 3]);
    await shared.events.end("s", 7);
    const slice = await shared.events.read("s", 7, 1);
    expect(slice).toMatchObject({ forgotten: 2, last: 3, done: true });
    expect(slice.events.map((event) => event.seq)).toEqual([3]);
    await shared.events.clear("s");
    expect(await shared.events.read("s", 7, 0)).toEqual(NOTHING_KEPT);
    await shared.close();
  });

  it("records a stream opened before any event is written, and forgets it with the history", async () => {
    const shared = await state();
    await live(shared, "s");
    expect((await shared.events.read("s", 7, 0)).opened).toBe(false);
    await shared.events.open!("s", 7);
    expect(await shared.events.read("s", 7, 0)).toEqual({
      forgotten: 0,
      last: 0,
      done: false,
      events: [],
      opened: true,
    });
    expect((await shared.events.read("s", 8, 0)).opened).toBe(false);
    await shared.events.clear("s");
    expect((await shared.events.read("s", 7, 0)).opened).toBe(false);
    await shared.close();
  });

  it("says a request's stream is abandoned once its instance's lease runs out, takes its answer once, then no event", async () => {
    // Two instances of one server: one prefix.
    const prefix = `store-${prefixes++}:`;
    const alive = await state({ leaseMs: 300, prefix });
    const crashed = await state({ leaseMs: 300, prefix });
    await live(alive, "s");
    await alive.events.open!("s", 1, "kept");
    await crashed.events.open!("s", 2, 7);
    await crashed.events.append("s", { stream: 2, seq: 1, text: TEN }, WIDE);
    // The instance writing stream 2 stops renewing its lease, as a crash does.
    await crashed.close();
    let slice = await alive.events.read("s", 2, 0);
    for (let polls = 0; polls < 100 && slice.abandoned === undefined; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      slice = await alive.events.read("s", 2, 0);
    }
    expect(slice).toMatchObject({ last: 1, done: false, abandoned: 7 });
    // The instance that renews its lease: its stream is not abandoned, nor can it be ended for it.
    expect((await alive.events.read("s", 1, 0)).abandoned).toBeUndefined();
    expect(await crashed.events.abandon!("s", { stream: 1, seq: 1, text: "no" }, WIDE)).toBe(false);
    // Of two readers, one writes the answer; one numbered after another's last is refused too.
    const answer = { stream: 2, seq: 2, text: "answer" };
    expect(await alive.events.abandon!("s", answer, WIDE)).toBe(true);
    expect(await crashed.events.abandon!("s", answer, WIDE)).toBe(false);
    expect(await crashed.events.abandon!("s", { ...answer, seq: 3 }, WIDE)).toBe(false);
    // The instance taken for crashed writes on (Redis was away from it, not it): the ended stream takes nothing.
    await crashed.events.append("s", { stream: 2, seq: 2, text: "late" }, WIDE);
    const ended = await alive.events.read("s", 2, 0);
    expect(ended).toMatchObject({ forgotten: 0, last: 2, done: true, abandoned: undefined });
    expect(ended.events).toEqual([
      { seq: 1, text: TEN },
      { seq: 2, text: "answer" },
    ]);
    // A stream ended, either way, keeps no writer: the session's hash holds none for it.
    await alive.events.end("s", 1);
    const fields = Object.keys(await client!.hGetAll(`${prefix}hm:s`));
    expect(fields.filter((field) => /^[wr]:/.test(field))).toEqual([]);
    await alive.close();
  });
  it("takes no event and no stream of a session whose record is gone, so a write after its DELETE's clear leaves nothing (was: it made the history again)", async () => {
    const prefix = `store-${prefixes++}:`;
    const shared = await state({ prefix });
    await live(shared, "gone");
    await shared.events.open!("gone", 7, 1);
    await shared.events.append("gone", { stream: 7, seq: 1, text: TEN }, WIDE);
    // A DELETE: the record goes, then the history.
    await shared.sessions.delete("gone");
    await shared.events.clear("gone");
    // What an instance not yet told of it writes after: an event, a stream opened, a stream's end.
    expect(await shared.events.append("gone", { stream: 7, seq: 2, text: TEN }, WIDE)).toBe(false);
    await shared.events.open!("gone", 8, 2);
    await shared.events.end("gone", 8);
    await shared.events.end("gone", 7);
    expect((await client!.keys(`${prefix}*`)).filter((key) => key.includes("gone"))).toEqual([]);
    expect(await client!.zScore(`${prefix}hb`, "gone")).toBeNull();
    expect(await client!.get(`${prefix}hbt`)).toBe("0");
    await shared.close();
  });
});

describe("the event history's hash on Redis", () => {
  /** The fields of a session's hash: what Redis keeps of its streams. */
  async function fields(prefix: string, session: string): Promise<string[]> {
    return Object.keys(await client!.hGetAll(`${prefix}hm:${session}`)).sort();
  }

  it("forgets an ended stream once it keeps no event, as in memory; a resume of it is refused either way (was: its fields stayed while the session lived)", async () => {
    const prefix = `store-${prefixes++}:`;
    const shared = await state({ prefix });
    await live(shared, "s");
    await shared.events.open!("s", 7, 1);
    await append(shared, "s", [1, 2]);
    await shared.events.end("s", 7);
    // Ended with events kept: resumable from before its last one.
    expect(await fields(prefix, "s")).toEqual(["bytes", "c:7", "d:7", "n:7", "o:7"]);
    // Ended with none: nothing to resume, nothing kept.
    await shared.events.open!("s", 8, 2);
    await shared.events.end("s", 8);
    expect(await fields(prefix, "s")).toEqual(["bytes", "c:7", "d:7", "n:7", "o:7"]);
    // Another stream's events push out stream 7's last ones.
    for (const seq of [1, 2]) await shared.events.append("s", { stream: 9, seq, text: TEN }, { ...WIDE, maxEvents: 2 });
    expect(await fields(prefix, "s")).toEqual(["bytes", "c:9", "n:9"]);
    for (const stream of [7, 8]) {
      expect(await shared.events.read("s", stream, 0)).toEqual(NOTHING_KEPT);
    }
    await shared.close();
  });

  it("keeps the mark of a stream ended for its crashed writer once its events are forgotten: what that writer still writes is refused", async () => {
    const prefix = `store-${prefixes++}:`;
    const alive = await state({ leaseMs: 300, prefix });
    const crashed = await state({ leaseMs: 300, prefix });
    await live(alive, "s");
    await crashed.events.open!("s", 2, 7);
    await crashed.events.append("s", { stream: 2, seq: 1, text: TEN }, WIDE);
    await crashed.close();
    for (let polls = 0; polls < 100 && (await alive.events.read("s", 2, 0)).abandoned === undefined; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await alive.events.abandon!("s", { stream: 2, seq: 2, text: "answer" }, WIDE)).toBe(true);
    for (const seq of [1, 2]) await alive.events.append("s", { stream: 3, seq, text: TEN }, { ...WIDE, maxEvents: 2 });
    expect((await fields(prefix, "s")).filter((field) => field.endsWith(":2"))).toEqual(["d:2"]);
    // The instance taken for crashed writes on (Redis was away from it): the stream stays ended, with nothing to resume.
    await crashed.events.append("s", { stream: 2, seq: 3, text: "late" }, WIDE);
    expect(await alive.events.read("s", 2, 0)).toEqual({
      forgotten: 0,
      last: 0,
      done: true,
      events: [],
      opened: false,
    });
    await alive.close();
  });
});

describe("session records on Redis", () => {
  it("replaces a record only with what was read of it: never over another's change, and never once it is gone", async () => {
    const prefix = `store-${prefixes++}:`;
    const shared = await state({ prefix });
    await live(shared, "s");
    const read = (await shared.sessions.get("s", 60_000))!;
    expect(await shared.sessions.replace!(read, { ...read, logLevel: "debug" }, 60_000)).toBe(true);
    // What was read is no longer what is there: another instance's change is not written over.
    expect(await shared.sessions.replace!(read, { ...read, logLevel: "error" }, 60_000)).toBe(false);
    expect((await shared.sessions.get("s", 60_000))?.logLevel).toBe("debug");
    // Deleted (or expired): not made again.
    const last = (await shared.sessions.get("s", 60_000))!;
    await shared.sessions.delete("s");
    expect(await shared.sessions.replace!(last, { ...last, logLevel: "error" }, 60_000)).toBe(false);
    expect(await client!.exists(`${prefix}s:s`)).toBe(0);
    await shared.close();
  });

  it("reads a record with peek leaving its idle expiry as it is, and with get restarting it (was: every read restarted it)", async () => {
    const prefix = `store-${prefixes++}:`;
    const shared = await state({ prefix });
    await live(shared, "s");
    await client!.pExpire(`${prefix}s:s`, 5_000);
    // An instance checking the session is still there, or what changed: not a use of it.
    const peeked = await shared.sessions.peek!("s");
    expect(peeked?.id).toBe("s");
    expect(await client!.pTTL(`${prefix}s:s`)).toBeLessThanOrEqual(5_000);
    // What peek read is what replace compares: a change over it is written.
    expect(await shared.sessions.replace!(peeked!, { ...peeked!, logLevel: "debug" }, 60_000)).toBe(true);
    await client!.pExpire(`${prefix}s:s`, 5_000);
    // A request of the session: its use restarts the expiry.
    expect((await shared.sessions.get("s", 60_000))?.logLevel).toBe("debug");
    expect(await client!.pTTL(`${prefix}s:s`)).toBeGreaterThan(5_000);
    expect(await shared.sessions.peek!("gone")).toBeUndefined();
    await shared.close();
  });
});

describe("the replay guard on Redis", () => {
  it("accepts an id once, on whichever state claims it", async () => {
    const one = await state();
    const expires = Date.now() + 60_000;
    expect(await one.usedStates.claim("state-1", expires)).toBe(true);
    expect(await one.usedStates.claim("state-1", expires)).toBe(false);
    expect(await one.usedStates.claim("state-2", expires)).toBe(true);
    await one.close();
  });
});

describe("the bus on Redis", () => {
  /** Waits, bounded, for `done` (a failure guard, not a timing). */
  const until = async (done: () => boolean) => {
    for (let polls = 0; polls < 200 && !done(); polls++) await new Promise((resolve) => setTimeout(resolve, 25));
  };

  it("holds what it announces while its connection is down, and sends it, in order, once it is back", async () => {
    const own = createClient({ url: redis!.url });
    own.on("error", () => {});
    await own.connect();
    const announcing = await redisState({ client: own, prefix: "store-bus:" });
    const hearing = await state({ prefix: "store-bus:" });
    const heard: string[] = [];
    hearing.bus.subscribe((message) => {
      if (message.type === "url") heard.push(message.id);
    });
    announcing.bus.announce({ type: "url", id: "1" });
    await until(() => heard.length === 1);
    expect(heard).toEqual(["1"]);
    // The announcing instance loses Redis; what it announces meanwhile waits.
    await own.close();
    announcing.bus.announce({ type: "url", id: "2" });
    announcing.bus.announce({ type: "url", id: "3" });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(heard).toEqual(["1"]);
    await own.connect();
    await until(() => heard.length === 3);
    expect(heard).toEqual(["1", "2", "3"]);
    await announcing.close();
    await hearing.close();
    await own.close();
  });
});

describe("tasks on Redis", () => {
  it("applies concurrent updates one after the other", async () => {
    const shared = await state();
    await shared.tasks.put({ ...workingTask("t"), statusMessage: "" });
    await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        shared.tasks.update("t", (current) => ({ ...current, statusMessage: `${current.statusMessage}${n}` })),
      ),
    );
    const message = (await shared.tasks.get("t"))!.statusMessage!;
    expect([...message].sort().join("")).toBe("01234567");
    await shared.close();
  });

  it("lists an owner's tasks that have not expired, oldest first, for 2025-11-25's tasks/list", async () => {
    const shared = await state();
    const now = Date.now();
    await shared.tasks.put({ ...workingTask("a2"), owner: "ada", createdAt: now - 10 });
    await shared.tasks.put({ ...workingTask("b1"), owner: "bob", createdAt: now - 30 });
    await shared.tasks.put({ ...workingTask("a1"), owner: "ada", createdAt: now - 20 });
    await shared.tasks.put({ ...workingTask("gone"), owner: "ada", createdAt: now - 30, ttlMs: 1_000 });
    expect((await shared.tasks.list("ada")).map((task) => task.taskId)).toEqual(["gone", "a1", "a2"]);
    expect((await shared.tasks.list("bob")).map((task) => task.taskId)).toEqual(["b1"]);
    expect(await shared.tasks.list("carol")).toEqual([]);
    // Past its TTL a task leaves its owner's list.
    let listed = await shared.tasks.list("ada");
    for (let polls = 0; polls < 100 && listed.length > 2; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      listed = await shared.tasks.list("ada");
    }
    expect(listed.map((task) => task.taskId)).toEqual(["a1", "a2"]);
    await shared.close();
  });

  it("lists at most 1000 of an owner's tasks, those that expire last, and keeps the others readable", async () => {
    const shared = await state();
    const now = Date.now();
    // One more than an owner's list keeps, each expiring a millisecond after the one before.
    const ids = Array.from({ length: 1001 }, (_, n) => `many-${n}`);
    for (let n = 0; n < ids.length; n += 100) {
      await Promise.all(
        ids.slice(n, n + 100).map((taskId, i) => shared.tasks.put({ ...workingTask(taskId), createdAt: now + n + i })),
      );
    }
    // Was: all 1001, each read again by every tasks/list of the owner, however many it made.
    const listed = await shared.tasks.list("");
    expect(listed.map((task) => task.taskId)).toEqual(ids.slice(1));
    expect((await shared.tasks.get("many-0"))?.status).toBe("working");
    await shared.close();
  });

  it("bounds each owner's list alone: an owner making many tasks never makes another's task go", async () => {
    const shared = await state();
    const now = Date.now();
    // Unlike the in-memory store (tasks/store.ts), nothing here holds every owner's tasks under one bound.
    await shared.tasks.put({ ...workingTask("ada-result"), owner: "ada", status: "completed", createdAt: now });
    for (let n = 0; n < 5; n++) {
      const task = { ...workingTask(`bob-${n}`), owner: "bob", status: "completed" as const, createdAt: now + n };
      await shared.tasks.put(task, { maxListed: 2 });
    }
    expect((await shared.tasks.list("ada")).map((task) => task.taskId)).toEqual(["ada-result"]);
    expect((await shared.tasks.get("ada-result"))?.status).toBe("completed");
    expect((await shared.tasks.list("bob")).map((task) => task.taskId)).toEqual(["bob-3", "bob-4"]);
    await shared.close();
  });

  it("keeps no more ids in an owner's list than it has live tasks, though the owner never lists them", async () => {
    const prefix = `store-${prefixes++}:`;
    const shared = await state({ prefix });
    // Anonymous 2026-07-28 callers share one owner ("") and have no tasks/list to prune their list,
    // which a task of a long TTL keeps alive.
    await shared.tasks.put(workingTask("long"));
    for (const taskId of ["q1", "q2", "q3"]) await shared.tasks.put({ ...workingTask(taskId), ttlMs: 50 });
    for (let polls = 0; polls < 100 && (await client!.exists(`${prefix}t:q3`)) === 1; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await shared.tasks.put(workingTask("live"));
    // Before: every id ever put stayed while the list lived, its expiry pushed on by each new task.
    expect(await client!.zRange(`${prefix}o:`, 0, -1)).toEqual(["long", "live"]);
    await shared.close();
  });

  it("fails a task whose lease nobody renews, and keeps one whose lease is renewed", async () => {
    // Two instances of one server: one prefix.
    const running = await state({ leaseMs: 300, prefix: "store-leases:" });
    await running.tasks.put(workingTask("kept"));
    const dead = await state({ leaseMs: 300, prefix: "store-leases:" });
    await dead.tasks.put(workingTask("lost"));
    // The instance holding "lost" stops, as a crash does: its leases run out.
    await dead.close();
    let lost: TaskRecord | undefined;
    for (let polls = 0; polls < 100 && lost?.status !== "failed"; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      lost = await running.tasks.get("lost");
    }
    expect(lost).toMatchObject({ status: "failed", error: { code: -32603 } });
    expect((await running.tasks.get("kept"))?.status).toBe("working");
    await running.close();
  });

  it("renews the lease of a running task whose record nests deeper than Redis's cjson decodes (was: it failed after leaseMs)", async () => {
    // A tool-made question whose schema nests 2,000 objects deep: cjson.decode refuses past 1,000.
    let schema: Record<string, unknown> = { type: "string" };
    for (let depth = 0; depth < 2_000; depth++) schema = { type: "object", properties: { inner: schema } };
    const question = { method: "elicitation/create" as const, params: { message: "Pick", requestedSchema: schema } };
    const running = await state({ leaseMs: 150 });
    await running.tasks.put({ ...workingTask("deep"), status: "input_required", inputRequests: { pick: question } });
    // Several leases, each renewed three times (every 50 ms), for a renewal that fails to let one run out.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await running.tasks.get("deep"))?.status).toBe("input_required");
    await running.close();
  });

  it("stops renewing the lease of a task another instance ended, or that expired", async () => {
    const prefix = `store-${prefixes++}:`;
    const running = await state({ leaseMs: 150, prefix });
    const other = await state({ leaseMs: 150, prefix });
    await running.tasks.put(workingTask("cancelled"));
    await running.tasks.put({ ...workingTask("expiring"), ttlMs: 200 });
    await running.tasks.put(workingTask("running"));
    await other.tasks.update("cancelled", (current) => ({ ...current, status: "cancelled" }));
    const lease = (taskId: string) => client!.exists(`${prefix}l:${taskId}`);
    // Several renewal periods (50 ms) after the cancel, and after the expiry.
    let left = 2;
    for (let polls = 0; polls < 100 && left > 0; polls++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = (await lease("cancelled")) + (await lease("expiring"));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await lease("cancelled")).toBe(0);
    expect(await lease("expiring")).toBe(0);
    expect(await running.tasks.get("expiring")).toBeUndefined();
    expect(await lease("running")).toBe(1);
    await running.close();
    await other.close();
  });
});

describe("a Redis that does not answer", () => {
  it("fails redisState() with the retryable error after commandTimeoutMs, rather than waiting for ever", async () => {
    redis!.freeze();
    try {
      await expect(redisState({ client: client!, prefix: "store-frozen:", commandTimeoutMs: 300 })).rejects.toThrow(
        "The server's shared state is unreachable (Redis did not answer within 300 ms while subscribing to store-frozen:bus); retry in a moment",
      );
    } finally {
      redis!.thaw();
    }
    // Answering again, it is usable again.
    const shared = await redisState({ client: client!, prefix: "store-thawed:" });
    await shared.close();
  });
});
