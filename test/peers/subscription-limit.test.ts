/**
 * `limits.maxSubscriptionsPerSession` (docs/limits.md) as the official clients meet it over Streamable
 * HTTP. A 2025-11-25 session (v1 client) may be subscribed to that many resources at once, a URI
 * subscribed again counting once; past it `resources/subscribe` is -32602 naming the limit and its
 * value, the session keeps its subscriptions, and an unsubscribe makes room. A 2026-07-28
 * `subscriptions/listen` (v2 client) may name that many resources, a URI named twice counting once.
 * Before the limit, one session's subscriptions grew without bound: 10,000 subscribes of 8,000-character
 * URIs added 99 MB of heap.
 */
import type { Client as ModernClient } from "@modelcontextprotocol/client";
import type { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { until } from "./resources-helpers.js";
import { servedToClients } from "./served.js";

const MAX = 3;

const server = pico({ name: "notes", version: "1.0.0", limits: { maxSubscriptionsPerSession: MAX } }).resource(
  "notes://{id}",
  { description: "A note.", read: ({ id }) => `note ${id}` },
);

const TOO_MANY = {
  code: -32602,
  data: { limit: "maxSubscriptionsPerSession", max: MAX },
};

const clients = servedToClients(server);

describe("a 2025-11-25 session (official v1 client)", () => {
  let client: LegacyClient;
  const updated: string[] = [];

  beforeAll(async () => {
    client = await clients.legacy(undefined, (client) =>
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        updated.push(notification.params.uri);
      }),
    );
  });

  it("subscribes to the limit, a URI subscribed again counting once, and refuses one more with -32602", async () => {
    for (const uri of ["notes://a", "notes://b", "notes://a", "notes://c", "notes://c"]) {
      expect(await client.subscribeResource({ uri })).toEqual({});
    }
    const refused = client.subscribeResource({ uri: "notes://d" });
    await expect(refused).rejects.toMatchObject(TOO_MANY);
    await expect(refused).rejects.toThrow(
      "Too many subscriptions: this session is subscribed to 3 resources already, and the most is 3 (limits.maxSubscriptionsPerSession = 3). Subscribe to a parent URI instead, which covers the resources under it, or unsubscribe from those you no longer need first.",
    );
    // Subscribing again to one it has is no new subscription, at the limit too.
    expect(await client.subscribeResource({ uri: "notes://b" })).toEqual({});
  });

  it("keeps its subscriptions, not the refused one, and makes room on unsubscribe", async () => {
    server.resourceUpdated("notes://d");
    server.resourceUpdated("notes://a");
    await until(() => expect(updated).toEqual(["notes://a"]));
    expect(await client.unsubscribeResource({ uri: "notes://a" })).toEqual({});
    expect(await client.subscribeResource({ uri: "notes://d" })).toEqual({});
    await expect(client.subscribeResource({ uri: "notes://a" })).rejects.toMatchObject(TOO_MANY);
    server.resourceUpdated("notes://a");
    server.resourceUpdated("notes://d");
    await until(() => expect(updated).toEqual(["notes://a", "notes://d"]));
  });

  it("counts per session: another session has the whole limit", async () => {
    const other = await clients.legacy();
    for (const uri of ["notes://x", "notes://y", "notes://z"]) {
      expect(await other.subscribeResource({ uri })).toEqual({});
    }
    await expect(other.subscribeResource({ uri: "notes://w" })).rejects.toMatchObject(TOO_MANY);
  });
});

describe("a 2026-07-28 listen request (official v2 client)", () => {
  let client: ModernClient;

  beforeAll(async () => {
    client = await clients.modern();
  });

  it("names up to the limit, a URI named twice counting once", async () => {
    const subscription = await client.listen({
      resourceSubscriptions: ["notes://a", "notes://b", "notes://a", "notes://c"],
    });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ["notes://a", "notes://b", "notes://c"] });
  });

  it("refuses a listen naming more with -32602, before any acknowledgement", async () => {
    const refused = client.listen({ resourceSubscriptions: ["notes://a", "notes://b", "notes://c", "notes://d"] });
    await expect(refused).rejects.toMatchObject(TOO_MANY);
    await expect(refused).rejects.toThrow(
      "Too many subscriptions: notifications.resourceSubscriptions names 4 resources, and the most is 3 (limits.maxSubscriptionsPerSession = 3).",
    );
  });

  it("refuses a listen naming a URI longer than resources/subscribe takes, with -32602", async () => {
    const long = `notes://${"a".repeat(8_200)}`;
    const refused = client.listen({ resourceSubscriptions: ["notes://a", long] });
    await expect(refused).rejects.toMatchObject({ code: -32602 });
    await expect(refused).rejects.toThrow(
      "Invalid params: a URI of notifications.resourceSubscriptions is 8208 characters long; resource URIs are limited to 8192.",
    );
  });
});
