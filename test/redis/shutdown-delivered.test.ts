/**
 * An instance's shutdown waits, within `limits.shutdownGraceMs`, for the answers its sessions keep
 * for a client coming back for them (SEP-1699 polling, a dropped connection). With shared state an
 * answer in the shared history is delivered by any instance: a client resumed elsewhere reads it
 * there, so the wait ends once it is written; one the shared history lacks (Redis away) is still
 * waited for, for a client coming back to this instance. Two servers in this process share a real
 * Redis. Skipped (with the install command as the reason) without redis-server, failed with
 * PICOMCP_REQUIRE_REDIS.
 */
import { createClient } from "redis";
import { afterEach, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import {
  BOTH,
  bare,
  EventReader,
  initialize,
  inSession,
  messageOf,
  onceFound,
  signal,
  within,
} from "../http-helpers.js";
import { useRedisServer } from "./redis-server.js";

const KEY = "a shared secret of 32 bytes or more!";
/** Far longer than the bound on each close below: a close that waits it out fails the test. */
const GRACE_MS = 60_000;
const CLOSE_BOUND_MS = 15_000;

const redis = useRedisServer();
const closers: (() => Promise<unknown>)[] = [];
let prefixes = 0;

afterEach(async () => {
  redis.get().thaw();
  for (const close of closers.splice(0).reverse()) await close();
});

async function state(prefix: string) {
  const client = createClient({ url: redis.get().url });
  client.on("error", () => {});
  await client.connect();
  closers.push(() => client.close());
  const shared = await redisState({ client, prefix, commandTimeoutMs: 300 });
  closers.push(() => shared.close());
  return shared;
}

/**
 * Two instances sharing one prefix, with a long grace; a session opened on the first, whose call of
 * `report` there closes its stream after the priming event (SEP-1699) and answers once released.
 */
async function polledOnFirst() {
  const prefix = `delivered-${prefixes++}:`;
  const release = signal();
  const answering = signal();
  const [first, second] = await Promise.all(
    [0, 1].map(async () => {
      const server = pico({
        name: "shared",
        requestStateKey: KEY,
        state: await state(prefix),
        signals: false,
        limits: { shutdownGraceMs: GRACE_MS },
      }).tool("report", {
        run: async (_args, ctx) => {
          ctx.closeStream();
          await release.promise;
          answering.resolve();
          return "the report";
        },
      });
      closers.push(() => server.close());
      return server;
    }),
  );
  const session = await initialize(first!);
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "report", arguments: {} } };
  const polled = await new EventReader(await first!.fetch(inSession(session, call))).rest(5000);
  expect(polled).toHaveLength(1);
  const headers = { accept: BOTH, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
  const priming = polled[0]!.id!;
  const resume = (on: typeof first) => on!.fetch(bare("GET", { ...headers, "last-event-id": priming }));
  return { first: first!, second: second!, release, answering, resume, priming };
}

const ANSWER = { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "the report" }] } };

describe("close() of an instance whose answer a client waits for", () => {
  it(
    "resolves once the answer is in the shared history and the client read it on another instance (was: it waited out the whole grace)",
    async () => {
      const { first, second, release, resume, priming } = await polledOnFirst();
      // The stream is opened in the shared history a moment after its priming event went out.
      const resumed = await onceFound(() => resume(second), 50);
      expect(resumed.status).toBe(200);
      const elsewhere = await new EventReader(resumed).primed(priming);
      release.resolve();
      expect(messageOf(await elsewhere.next(5000))).toEqual(ANSWER);
      expect(await elsewhere.rest(5000)).toEqual([]);
      await within(first.close(), CLOSE_BOUND_MS, "the first instance's close()");
    },
    CLOSE_BOUND_MS + 10_000,
  );

  it(
    "waits for the client to take the answer from this instance when the shared history could not keep it (Redis away)",
    async () => {
      const { first, release, answering, resume, priming } = await polledOnFirst();
      redis.get().freeze();
      release.resolve();
      await within(answering.promise, 5000, "the tool answering");
      let closed = false;
      const closing = first.close().then(() => {
        closed = true;
      });
      // Past the command timeout (300 ms): the answer's write to the shared history has failed.
      await new Promise((wake) => setTimeout(wake, 1000));
      expect(closed).toBe(false);
      const resumed = await resume(first);
      expect(resumed.status).toBe(200);
      expect((await (await new EventReader(resumed).primed(priming)).rest(5000)).map(messageOf)).toEqual([ANSWER]);
      await within(closing, CLOSE_BOUND_MS, "the first instance's close()");
    },
    CLOSE_BOUND_MS + 10_000,
  );
});
