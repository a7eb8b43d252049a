/**
 * A shared 2025-11-25 session (`pico({ state })`) kept in use by a stream alone, longer than
 * `sessions.idleTimeoutMs`, with no request of it meanwhile: a tool that runs that long, or a GET
 * stream resumed on another instance than the one that opened it. A session lives while it is
 * used, as in one process (test/http-sessions.test.ts "keeps a session that holds a stream open"):
 * its record on Redis must not expire meanwhile, or every other instance answers its id 404 and the
 * shared history refuses what its streams write after, so a client resuming one elsewhere gets
 * nothing more; nor may the stream's history expire while the stream is open and quiet. Two
 * instances on a real Redis with an idle timeout (and a history expiry) of a second; the tests wait
 * past it (a wait, not a timing assertion: the record is refreshed every quarter of it). Every
 * wait is bounded. Skipped (with the install command as the reason) without redis-server, failed
 * with PICOMCP_REQUIRE_REDIS.
 */
import { expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { EventReader, inSession, sessionStream, signal, within } from "../http-helpers.js";
import { BOUND_MS, busLoss, openSession, until } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING } from "./shared-state.js";

const redis = useRedisServer();
let prefixes = 0;

const { opened, userState, recordThere, resumingOn } = busLoss(redis);

const IDLE_MS = 1000;

/** Longer than the idle timeout, with room: a record not refreshed meanwhile has expired by then. */
function pastIdle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 2.5 * IDLE_MS));
}

/**
 * An instance sharing its state under `prefix`, sessions idle for IDLE_MS at most; its tool "long"
 * reports progress, resolves `started`, waits for `go`, closes its stream (the client resumes it,
 * SEP-1699) and answers "done".
 */
async function instance(name: string, prefix: string, tool: { started: () => void; go: Promise<void> }) {
  const server = pico({
    name: "shared-long-stream",
    ...SHARING,
    // The history expires as fast as the session would: an open stream must keep both.
    state: await userState(name, prefix, { historyTtlMs: IDLE_MS }),
    http: { sessions: { idleTimeoutMs: IDLE_MS } },
  }).tool("long", {
    description: "Reports progress, waits to be let go, then closes its stream and answers.",
    run: async (_args, ctx) => {
      await ctx.progress(1, 2);
      tool.started();
      await within(tool.go, BOUND_MS + 3 * IDLE_MS, "the test letting the tool go");
      ctx.closeStream();
      await ctx.progress(2, 2);
      return "done";
    },
  });
  opened.push(() => server.close());
  return server;
}

it("keeps a session whose tool runs longer than idleTimeoutMs, and its stream resumes on another instance after (official v1 client)", async () => {
  const prefix = `long-${prefixes++}:`;
  const started = signal();
  const go = signal();
  // Let go whatever happened, so that the tool ends with the test.
  opened.push(async () => go.resolve());
  const a = await instance(`a${prefixes}`, prefix, { started: started.resolve, go: go.promise });
  const b = await instance(`b${prefixes}`, prefix, { started: () => {}, go: go.promise });
  const [onA, onB] = [await a.serve({ port: 0, host: "127.0.0.1" }), await b.serve({ port: 0, host: "127.0.0.1" })];
  const [urlA, urlB] = [new URL(onA.url), new URL(onB.url)];
  // Resumes (GET with Last-Event-ID) go to instance b, everything else to a.
  const { client, transport, resumed } = await resumingOn(urlA, urlB);
  const id = transport.sessionId!;
  const call = client.callTool({ name: "long" }, undefined, { timeout: BOUND_MS + 3 * IDLE_MS, onprogress: () => {} });
  // Its failure is the assertion's below: not unhandled meanwhile.
  call.catch(() => {});
  await within(started.promise, BOUND_MS, "the tool running on instance a");
  await pastIdle();
  // Was: gone, the record expired IDLE_MS after the call, though its stream was open all along.
  expect(await recordThere(prefix, id)).toBe(true);
  go.resolve();
  await within(resumed.promise, BOUND_MS, "the client resuming its stream on instance b");
  // The rest of the stream, written to the shared history after the idle timeout, read on b.
  const result = await within(call, BOUND_MS, "the answer to the long call");
  expect(result.content).toEqual([{ type: "text", text: "done" }]);
});

it("keeps a session whose GET stream, resumed on another instance, stays open longer than idleTimeoutMs", async () => {
  const prefix = `long-${prefixes++}:`;
  const idle = { started: () => {}, go: Promise.resolve() };
  const a = await instance(`a${prefixes}`, prefix, idle);
  const b = await instance(`b${prefixes}`, prefix, idle);
  const id = await openSession(a, {});
  // The session's GET stream, opened on a and dropped after its priming event, resumed on b.
  const first = new EventReader(await a.fetch(sessionStream(id)));
  const primed = await first.next(BOUND_MS);
  expect(primed?.id).toBeDefined();
  await first.cancel();
  const resumed = await b.fetch(sessionStream(id, { "last-event-id": primed!.id }));
  expect(resumed.status).toBe(200);
  const reader = new EventReader(resumed);
  opened.push(() => reader.cancel());
  await pastIdle();
  // Was: gone, the record expired IDLE_MS after the last request though the stream was open on b,
  // and the session's id answered 404 there.
  expect(await recordThere(prefix, id)).toBe(true);
  const list = await b.fetch(inSession(id, { jsonrpc: "2.0", id: 5, method: "tools/list" }));
  expect(list.status).toBe(200);
  await list.body?.cancel();
  // A tool added on a: a writes the list change to the session's GET stream, read on b. Was: the
  // stream's history expired historyTtlMs after it opened, and b's reader ended, told nothing.
  a.tool("added", { description: "Added while the stream is open.", run: () => "added" });
  expect(await until(reader, "notifications/tools/list_changed")).toMatchObject({ jsonrpc: "2.0" });
});
