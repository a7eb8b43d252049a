/**
 * Messages to one connection keep the order they were sent in: an update whose read check
 * waits (the caller checks loading on first use, an asynchronous `allow`) goes out before a list
 * change, a log, a progress notification or a response sent after it, never after. The official v1 client drives test/fixtures/stdio-order-server.ts
 * over stdio, a fresh process, and records every notification in the order it arrives; every wait is bounded.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ProgressNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signal, within } from "../http-helpers.js";
import { tsxProgram } from "./fixture.js";

let client: Client;
/** What the client was told, in order: each notification's method, and its URI for an update. */
const told: string[] = [];
const waiters = new Set<() => void>();

beforeAll(async () => {
  const transport = new StdioClientTransport(tsxProgram("test/fixtures/stdio-order-server.ts"));
  client = new Client({ name: "order-peer", version: "1.0.0" });
  client.fallbackNotificationHandler = async (notification) => {
    const uri = (notification.params as { uri?: string } | undefined)?.uri;
    record(uri ? `${notification.method} ${uri}` : notification.method);
  };
  // Noted as it arrives: the client's own progress handler runs a turn later, after a response read
  // in the same chunk has already dropped its token.
  client.setNotificationHandler(ProgressNotificationSchema, (notification) => record(notification.method));
  await client.connect(transport);
  await client.subscribeResource({ uri: "notes://1" });
  await client.subscribeResource({ uri: "slow://1" });
});

afterAll(async () => {
  await client?.close();
});

/** Notes what the client was told, and wakes whoever waits for it. */
function record(entry: string): void {
  told.push(entry);
  for (const wake of waiters) wake();
}

/** The notifications the client is told from now on, once `count` have come. */
async function next(count: number): Promise<string[]> {
  const from = told.length;
  const done = signal();
  const check = () => {
    if (told.length >= from + count) done.resolve();
  };
  waiters.add(check);
  try {
    return await within(
      done.promise.then(() => told.slice(from)),
      8000,
      `${count} notifications`,
    );
  } finally {
    waiters.delete(check);
  }
}

it("sends an update whose check waits for its code to load before the list change sent after it", async () => {
  const arrived = next(2);
  await client.callTool({ name: "poke_notes" });
  // Was: the list change first, the update once the caller checks had loaded.
  expect(await arrived).toEqual(["notifications/resources/updated notes://1", "notifications/tools/list_changed"]);
});

it("sends an update whose asynchronous allow check answers later before the list change sent after it", async () => {
  const arrived = next(2);
  await client.callTool({ name: "poke_slow" });
  // Was: the list change first, the update once `allow` had answered.
  expect(await arrived).toEqual(["notifications/resources/updated slow://1", "notifications/tools/list_changed"]);
});

it("sends a log, a progress notification and the response issued after an update whose check waits after that update", async () => {
  const arrived = next(4);
  const answered = client
    .callTool({ name: "poke_told", _meta: { progressToken: "poke_told" } })
    .then(() => record("response"));
  // Was: the log, the progress and the response first, the update once `allow` had answered.
  expect(await arrived).toEqual([
    "notifications/resources/updated slow://1",
    "notifications/message",
    "notifications/progress",
    "response",
  ]);
  await answered;
});
