/**
 * Spellings of one resource URI, as each era's official client sends them over Streamable HTTP. RFC
 * 3986 §6.2.2 (syntax-based normalisation) makes these the same URI: the scheme and host in any case,
 * an unreserved character escaped or not ("%7E" and "~"), an escape's hex in either case. picomcp
 * compares URIs in that form for reads (fixed resources and templates), 2025 subscriptions and
 * 2026-07-28 listen streams, and updates; resources/list and reads answer the URI as registered.
 */

import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import type { Listening } from "../../src/transports/listen.js";
import { until } from "./resources-helpers.js";

const server = pico({ name: "spellings", version: "1.0.0" })
  .resource("docs://a%7Eb", { read: ({ uri }) => `read at ${uri}` })
  .resource("notes://{id}", { read: ({ uri, id }) => `note ${id} at ${uri}` });

let listening: Listening;
const closing: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  listening = await server.serve({ port: 0 });
});

afterAll(async () => {
  for (const each of closing.reverse()) await each.close();
  await listening.close();
});

/** Each client with the URIs of the updates it was told of. */
async function legacy() {
  const client = new LegacyClient({ name: "v1", version: "1.0.0" });
  closing.push(client);
  const updated: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updated.push(notification.params.uri);
  });
  await client.connect(new LegacyTransport(new URL(listening.url)));
  return { client, updated };
}

async function modern() {
  const client = new ModernClient({ name: "v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
  closing.push(client);
  const updated: string[] = [];
  client.setNotificationHandler("notifications/resources/updated", (notification) => {
    updated.push(notification.params.uri);
  });
  await client.connect(new ModernTransport(new URL(listening.url)));
  return { client, updated };
}

/** The same reads for each era's client. */
function readsOf(connect: () => Promise<{ client: Pick<LegacyClient, "readResource" | "listResources"> }>) {
  it("reads a resource registered as docs://a%7Eb by any spelling, answering its registered URI", async () => {
    const { client } = await connect();
    for (const uri of ["docs://a%7Eb", "docs://a~b", "docs://a%7eb", "DOCS://A~b", "Docs://a%7eb"]) {
      expect((await client.readResource({ uri })).contents, uri).toEqual([
        { uri: "docs://a%7Eb", text: "read at docs://a%7Eb" },
      ]);
    }
    expect((await client.listResources()).resources).toEqual([{ uri: "docs://a%7Eb", name: "docs://a%7Eb" }]);
  });

  it("matches a template against the URI's normal form when it does not match as sent", async () => {
    const { client } = await connect();
    expect((await client.readResource({ uri: "NOTES://%69dea" })).contents).toEqual([
      { uri: "NOTES://%69dea", text: "note idea at NOTES://%69dea" },
    ]);
    // As sent, a host's case reaches read.
    expect((await client.readResource({ uri: "notes://Idea" })).contents).toEqual([
      { uri: "notes://Idea", text: "note Idea at notes://Idea" },
    ]);
  });
}

describe("a 2025-11-25 client (official v1 SDK)", () => {
  readsOf(legacy);

  it("is told of an update to notes://index, subscribed as notes://%69ndex, and of docs://a%7Eb as DOCS://a~b", async () => {
    const { client, updated } = await legacy();
    await client.subscribeResource({ uri: "notes://%69ndex" });
    await client.subscribeResource({ uri: "DOCS://a~b" });
    server.resourceUpdated("notes://index");
    server.resourceUpdated("docs://a%7Eb");
    server.resourceUpdated("notes://other");
    await until(() => expect(updated).toEqual(["notes://index", "docs://a~b"]));
  });

  it("unsubscribes by any spelling", async () => {
    const { client, updated } = await legacy();
    await client.subscribeResource({ uri: "notes://index" });
    await client.subscribeResource({ uri: "notes://marker" });
    await client.unsubscribeResource({ uri: "Notes://%69ndex" });
    server.resourceUpdated("notes://index");
    server.resourceUpdated("notes://marker");
    // The marker's update comes after the other's would have, on the same stream.
    await until(() => expect(updated).toEqual(["notes://marker"]));
  });
});

describe("a 2026-07-28 client (official v2 SDK)", () => {
  readsOf(modern);

  it("is told on a listen stream of updates to the URIs it named, however spelt", async () => {
    const { client, updated } = await modern();
    const subscription = await client.listen({ resourceSubscriptions: ["notes://%69ndex", "DOCS://a~b"] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ["notes://%69ndex", "DOCS://a~b"] });
    server.resourceUpdated("notes://index");
    server.resourceUpdated("docs://a%7Eb");
    server.resourceUpdated("notes://other");
    await until(() => expect(updated).toEqual(["notes://index", "docs://a~b"]));
    await subscription.close();
  });
});
