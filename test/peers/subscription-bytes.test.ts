/**
 * `limits.maxSubscriptionBytesPerSession` (docs/limits.md) as the official clients meet it over
 * Streamable HTTP, at its default (65,536 characters). A hostile 2025-11-25 session (v1 client) that
 * subscribes to URIs of the longest length taken (8,192 characters) gets 8 of them; the 9th, and
 * every one after, is -32602 naming the limit, so what the session holds stays at 64 Ki characters
 * (before: 1,000 such URIs, 8 Mi characters a session, and with 1,000 sessions 8 Gi). A URI it holds
 * can be subscribed again, an unsubscribe makes room, and a session of ordinary URIs is unaffected.
 * A 2026-07-28 `subscriptions/listen` (v2 client) is bounded the same way.
 */
import type { Client as ModernClient } from "@modelcontextprotocol/client";
import type { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { until } from "./resources-helpers.js";
import { servedToClients } from "./served.js";

const MAX_BYTES = 65_536;
const LONGEST = 8192;

const server = pico({ name: "notes", version: "1.0.0" }).resource("notes://{id}", {
  description: "A note.",
  read: ({ id }) => `note ${id}`,
});

const TOO_MANY = {
  code: -32602,
  data: { limit: "maxSubscriptionBytesPerSession", max: MAX_BYTES },
};

/** The `n`th URI of the longest length a subscription takes. */
const long = (n: number) => {
  const head = `notes://${String(n).padStart(4, "0")}/`;
  return head + "x".repeat(LONGEST - head.length);
};

const clients = servedToClients(server);

async function legacyClient(updated: string[] = []): Promise<LegacyClient> {
  return clients.legacy(undefined, (client) =>
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
    }),
  );
}

describe("a 2025-11-25 session (official v1 client)", () => {
  const updated: string[] = [];
  let client: LegacyClient;

  beforeAll(async () => {
    client = await legacyClient(updated);
  });

  it("holds at most 64 Ki characters of URIs, however many it sends", async () => {
    const held: string[] = [];
    for (let n = 0; n < 100; n++) {
      const uri = long(n);
      const answer = await client.subscribeResource({ uri }).then(
        () => "subscribed",
        (error: unknown) => error,
      );
      if (answer === "subscribed") held.push(uri);
      else expect(answer).toMatchObject(TOO_MANY);
    }
    // Was: all 100 (819,200 characters; up to 1,000 of them, 8 Mi, the count's limit).
    expect(held).toHaveLength(MAX_BYTES / LONGEST);
    expect(held.join("").length).toBeLessThanOrEqual(MAX_BYTES);
    await expect(client.subscribeResource({ uri: "notes://a" })).rejects.toThrow(
      "Too many subscriptions: this session's subscribed URIs would come to 65545 characters with this one of 9, and the most is 65536 (limits.maxSubscriptionBytesPerSession = 65536). Subscribe to a parent URI instead, which covers the resources under it, or unsubscribe from those you no longer need first.",
    );
    // A URI it holds is no new subscription, at the limit too.
    expect(await client.subscribeResource({ uri: long(0) })).toEqual({});
  });

  it("keeps its subscriptions, not the refused ones, and makes room on unsubscribe", async () => {
    server.resourceUpdated(long(8));
    server.resourceUpdated(long(7));
    await until(() => expect(updated).toEqual([long(7)]));
    expect(await client.unsubscribeResource({ uri: long(7) })).toEqual({});
    expect(await client.subscribeResource({ uri: long(8) })).toEqual({});
    await expect(client.subscribeResource({ uri: long(7) })).rejects.toMatchObject(TOO_MANY);
  });

  it("counts per session: another session subscribes as usual", async () => {
    const other = await legacyClient();
    for (let n = 0; n < 100; n++) expect(await other.subscribeResource({ uri: `notes://${n}` })).toEqual({});
    expect(await other.subscribeResource({ uri: long(0) })).toEqual({});
  });
});

describe("a 2026-07-28 listen request (official v2 client)", () => {
  let client: ModernClient;

  beforeAll(async () => {
    client = await clients.modern();
  });

  it("names URIs of up to 64 Ki characters in all", async () => {
    const uris = Array.from({ length: MAX_BYTES / LONGEST }, (_, n) => long(n));
    const subscription = await client.listen({ resourceSubscriptions: [...uris, uris[0] as string] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: uris });
  });

  it("refuses a listen naming more with -32602, before any acknowledgement", async () => {
    const uris = Array.from({ length: MAX_BYTES / LONGEST + 1 }, (_, n) => long(n));
    const refused = client.listen({ resourceSubscriptions: uris });
    await expect(refused).rejects.toMatchObject(TOO_MANY);
    await expect(refused).rejects.toThrow(
      "Too many subscriptions: the URIs of notifications.resourceSubscriptions come to 73728 characters, and the most is 65536 (limits.maxSubscriptionBytesPerSession = 65536).",
    );
  });
});
