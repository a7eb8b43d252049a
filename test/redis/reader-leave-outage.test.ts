/**
 * A reader of a shared session's stream on another instance (remote-reader.ts) is marked among the
 * session's readers in Redis (`<prefix>hr:<id>`) while it follows the stream, and the history's caps
 * keep the answers and questions it is still to send (2025-11-25 "Resumability and Redelivery").
 * A reader that ends while Redis is away from its instance cannot take its mark away then; its
 * instance still runs, so the mark would count as live, and hold the session past its caps, for as
 * long as the instance does. Was: the leave was tried once and dropped, the mark stayed, and the
 * caps never applied to that stream again. Now the instance tries again until Redis takes it: once
 * Redis is back the mark goes and the caps apply. The reader's instance talks to the test's real
 * redis-server as a Redis user of its own, whose connections the test kills and keeps away (ACL),
 * as a network blip does. Every wait is bounded. Skipped (with the install command as the reason)
 * without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { expect, it } from "vitest";
import { redisState } from "../../src/redis.js";
import { BOUND_MS, busLoss } from "./bus-loss.js";
import { live } from "./records.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();
const { opened, client, userClient } = busLoss(redis);

const TEN = "0123456789";
/** The caps: two events for the session. */
const BOUNDS = { maxEvents: 2, maxSessionBytes: 1_000_000, maxBytes: 1_000_000 };

/** Polls `check` until it holds, within BOUND_MS. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (const start = Date.now(); !(await check()); ) {
    if (Date.now() - start > BOUND_MS) throw new Error(`${what} did not happen within ${BOUND_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it("takes away the mark of a reader that ended while Redis was away from its instance once Redis is back, and the caps apply again (was: the mark stayed for the instance's life)", async () => {
  const prefix = "leave-outage:";
  const admin = await client();
  const writer = await redisState({ client: admin, prefix });
  opened.push(() => writer.close());
  const readerClient = await userClient("leaver");
  // A lease renewed every second: the reader's instance stays live through the blip.
  const reader = await redisState({ client: readerClient, prefix, leaseMs: 3000 });
  opened.push(() => reader.close());
  await live(writer, "s");
  const kept = async () => (await writer.events.read("s", 7, 0)).events.map((event) => event.seq);
  const append = (seq: number) => writer.events.append("s", { stream: 7, seq, text: TEN }, BOUNDS);

  await append(1);
  await reader.events.follow!("s", "r", { stream: 7, after: 0 });
  // Answers 1 to 3, none sent by the reader: the history keeps them past its cap of two.
  await append(2);
  await append(3);
  expect(await kept()).toEqual([1, 2, 3]);
  expect(await admin.hLen(`${prefix}hr:s`)).toBe(1);

  // Redis goes away from the reader's instance: its connections are killed and kept from coming back.
  await admin.sendCommand(["ACL", "SETUSER", "leaver", "off"]);
  await admin.sendCommand(["CLIENT", "KILL", "USER", "leaver"]);
  const away = () =>
    reader.events.read("s", 7, 0).then(
      () => false,
      () => true,
    );
  await eventually(away, "the reader's instance losing Redis");
  // The reader ends meanwhile (its client went away, or its own read failed): its leave fails.
  await expect(reader.events.leave!("s", "r")).rejects.toThrow();
  expect(await admin.hLen(`${prefix}hr:s`)).toBe(1);

  // Redis is back: the instance's leave reaches it, and its mark goes.
  await admin.sendCommand(["ACL", "SETUSER", "leaver", "on"]);
  await eventually(async () => (await admin.hLen(`${prefix}hr:s`)) === 0, "the reader's mark going");
  // The reader's instance is alive (its lease is there), yet the caps apply again.
  expect(await admin.keys(`${prefix}i:*`)).toHaveLength(1);
  await append(4);
  expect(await kept()).toEqual([3, 4]);
});
