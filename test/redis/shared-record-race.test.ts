/**
 * A shared 2025-11-25 session's record (`<prefix>s:<id>`) rewritten by one instance's copy after a
 * request changed the session, while another instance serves its DELETE or a change of its own:
 * the copy reads the record, applies its change, writes it back. Whatever lands between the read
 * and the write, a deleted session is never made again (it would live again for idleTimeoutMs, for
 * whoever holds its id), and another instance's change is not lost. The official v1 client's
 * `logging/setLevel` and `resources/subscribe` go to instance a, its DELETE to b; test doubles around
 * a's real session records on Redis force each order. Two in-process servers on 127.0.0.1; every
 * wait is bounded. Skipped (with the install command as the reason) without redis-server, failed
 * with PICOMCP_REQUIRE_REDIS.
 */
import { describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import type { SessionRecords } from "../../src/state/state.js";
import { signal, within } from "../http-helpers.js";
import { BOUND_MS, busLoss, postIn } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING } from "./shared-state.js";

const redis = useRedisServer();
let prefixes = 0;

const { opened, client: admin, userState, recordThere, routedClient } = busLoss(redis);

/**
 * An instance sharing its state under `prefix`, listening on 127.0.0.1, with a resource to subscribe
 * to. `records`, if given, stands between the instance and its real session records on Redis.
 */
async function instance(name: string, prefix: string, records?: (real: SessionRecords) => Partial<SessionRecords>) {
  const state = await userState(name, prefix);
  const real = state.sessions;
  const sessions: SessionRecords = {
    get: (id, idleMs) => real.get(id, idleMs),
    put: (record, idleMs) => real.put(record, idleMs),
    replace: (current, next, idleMs) => real.replace!(current, next, idleMs),
    delete: (id) => real.delete(id),
    ...records?.(real),
  };
  const server = pico({
    name: "shared-record-race",
    ...SHARING,
    state: { ...state, sessions },
  }).resource("notes://{id}", { read: ({ id }) => `note ${id}` });
  const listening = await server.serve({ port: 0, host: "127.0.0.1" });
  opened.push(() => listening.close());
  return new URL(listening.url);
}

/**
 * Both of `real`'s writes over an existing record (`put`, which the copy used before `replace`, and
 * `replace`): once `arm` is called, the next one calls `reached` and waits for `go`; `written`
 * resolves after it.
 */
function heldWrite(real: SessionRecords, go: { reached: () => void; go: Promise<void> }) {
  const written = signal();
  let armed = false;
  const held = async <T>(write: () => Promise<T>): Promise<T> => {
    if (!armed) return write();
    armed = false;
    go.reached();
    await within(go.go, BOUND_MS, "the go-ahead for instance a's write");
    try {
      return await write();
    } finally {
      written.resolve();
    }
  };
  return {
    arm: () => {
      armed = true;
    },
    written: written.promise,
    records: (): Partial<SessionRecords> => ({
      put: (record, idleMs) => held(() => real.put(record, idleMs)),
      replace: (current, next, idleMs) => held(() => real.replace!(current, next, idleMs)),
    }),
  };
}

/** Instances a and b on a new prefix, a's next write of a session's record once armed held until `go` (heldWrite). */
async function heldOnA(go: Promise<void>) {
  const prefix = `race-${prefixes++}:`;
  const reached = signal();
  let write: ReturnType<typeof heldWrite> | undefined;
  const a = await instance(`a${prefixes}`, prefix, (real) => {
    write = heldWrite(real, { reached: reached.resolve, go });
    return write.records();
  });
  const b = await instance(`b${prefixes}`, prefix);
  return { prefix, a, b, reached: reached.promise, write: write! };
}

/** The official v1 client on a session of instance `a`; its DELETE goes to instance `b`. */
async function deletingOn(a: URL, b: URL) {
  const { client, transport } = await routedClient(a, (init) => (init?.method === "DELETE" ? b : a));
  return { client, transport, id: transport.sessionId! };
}

/** The status a `tools/list` of session `id` gets from the instance at `url`: 404 once the session is gone there. */
async function statusIn(url: URL, id: string): Promise<number> {
  const response = await postIn(url, id, { jsonrpc: "2.0", id: 7, method: "tools/list" });
  await response.body?.cancel();
  return response.status;
}

describe("a shared 2025-11-25 session's record rewritten by one instance while another serves its DELETE (official v1 client)", () => {
  it("is not made again when the DELETE lands between the copy's read of the record and its write", async () => {
    const deleted = signal();
    const { prefix, a, b, reached, write } = await heldOnA(deleted.promise);
    const { client, transport, id } = await deletingOn(a, b);
    write.arm();
    const setting = client.setLoggingLevel("debug").catch(() => {});
    await within(reached, BOUND_MS, "instance a about to write the record it read");
    await transport.terminateSession();
    deleted.resolve();
    await within(write.written, BOUND_MS, "instance a's write");
    await within(setting, BOUND_MS, "the answer to logging/setLevel");
    // Was: a's write made the record again (SET), and the deleted session was served, by either
    // instance, for another idleTimeoutMs.
    expect(await recordThere(prefix, id)).toBe(false);
    expect(await statusIn(b, id)).toBe(404);
    expect(await statusIn(a, id)).toBe(404);
  });

  it("is not made again when the DELETE lands before the copy reads the record", async () => {
    const prefix = `race-${prefixes++}:`;
    let armed = false;
    const reading = signal();
    const deleted = signal();
    const a = await instance(`a${prefixes}`, prefix, (real) => ({
      get: async (id, idleMs) => {
        if (armed) {
          armed = false;
          reading.resolve();
          await within(deleted.promise, BOUND_MS, "the DELETE on instance b");
        }
        return real.get(id, idleMs);
      },
    }));
    const b = await instance(`b${prefixes}`, prefix);
    const { client, transport, id } = await deletingOn(a, b);
    armed = true;
    const setting = client.setLoggingLevel("debug").catch(() => {});
    await within(reading.promise, BOUND_MS, "instance a about to read the record");
    await transport.terminateSession();
    deleted.resolve();
    await within(setting, BOUND_MS, "the answer to logging/setLevel");
    expect(await recordThere(prefix, id)).toBe(false);
    expect(await statusIn(b, id)).toBe(404);
    expect(await statusIn(a, id)).toBe(404);
  });

  it("is gone when the DELETE lands after the copy wrote the record", async () => {
    const prefix = `race-${prefixes++}:`;
    const a = await instance(`a${prefixes}`, prefix);
    const b = await instance(`b${prefixes}`, prefix);
    const { client, transport, id } = await deletingOn(a, b);
    // Answered once a's copy has written the record (shared.ts's route).
    await client.setLoggingLevel("debug");
    expect(await recordThere(prefix, id)).toBe(true);
    await transport.terminateSession();
    expect(await recordThere(prefix, id)).toBe(false);
    expect(await statusIn(b, id)).toBe(404);
  });
});

describe("a shared 2025-11-25 session's record rewritten by two instances at once (official v1 client)", () => {
  it("keeps both changes when the other's lands between one copy's read and its write", async () => {
    const otherWrote = signal();
    const { prefix, a, b, reached, write } = await heldOnA(otherWrote.promise);
    const { client, id } = await deletingOn(a, b);
    write.arm();
    const subscribing = client.subscribeResource({ uri: "notes://1" });
    await within(reached, BOUND_MS, "instance a about to write the record it read");
    // The same client subscribes to another resource through instance b meanwhile.
    const subscribe = { jsonrpc: "2.0", id: 90, method: "resources/subscribe", params: { uri: "notes://2" } };
    const other = await postIn(b, id, subscribe);
    expect(other.status).toBe(200);
    await other.text();
    otherWrote.resolve();
    await within(write.written, BOUND_MS, "instance a's write");
    await within(subscribing, BOUND_MS, "the answer to resources/subscribe on instance a");
    const record = JSON.parse(String(await (await admin()).sendCommand(["GET", `${prefix}s:${id}`])));
    // Was: ["notes://1"]: a wrote the record it had read, with its subscription, over b's.
    expect([...record.subscriptions].sort()).toEqual(["notes://1", "notes://2"]);
  });
});
