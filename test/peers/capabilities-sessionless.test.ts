/**
 * What a server advertises over Streamable HTTP without sessions (`http: { sessions: false }`, the
 * default on Workers), to each era's official client. A 2025-11-25 client is told only what the
 * server can do there (2025-11-25 "Lifecycle", capability negotiation): each request is served on its
 * own and GET answers 405, so nothing is ever pushed, and neither `listChanged` nor
 * `resources.subscribe` is offered. With sessions both are. A 2026-07-28 client is told both either
 * way, since `subscriptions/listen` sends its notifications on the request's own stream: shown by a
 * listen that is sent a list change and a resource update.
 */

import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import type { Listening } from "../../src/transports/listen.js";
import { until } from "./resources-helpers.js";

const closing: { close(): Promise<void> }[] = [];

afterAll(async () => {
  // Clients first, so that their streams end before the listeners close.
  for (const each of closing.reverse()) await each.close();
});

/** A server with a tool, a resource and a prompt, served on 127.0.0.1 with or without sessions. */
async function served(sessions: boolean) {
  const server = pico({ name: "notes", version: "1.0.0", http: { sessions } })
    .tool("search", { run: () => "found" })
    .resource("notes://index", { read: () => "index" })
    .prompt("summarise", { get: () => "Summarise the notes." });
  const listening: Listening = await server.serve({ port: 0 });
  closing.push(listening);
  return { server, url: new URL(listening.url) };
}

async function legacyClient(sessions: boolean): Promise<LegacyClient> {
  const { url } = await served(sessions);
  const client = new LegacyClient({ name: "v1", version: "1.0.0" });
  closing.push(client);
  await client.connect(new LegacyTransport(url));
  return client;
}

describe("a 2025-11-25 client (official v1 SDK)", () => {
  it("is offered no list changes and no subscriptions without sessions", async () => {
    const client = await legacyClient(false);
    expect(client.getServerCapabilities()).toEqual({
      logging: {},
      tools: {},
      resources: {},
      prompts: {},
      completions: {},
    });
  });

  it("is offered both with sessions", async () => {
    const client = await legacyClient(true);
    expect(client.getServerCapabilities()).toEqual({
      logging: {},
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
  });
});

describe("a 2026-07-28 client (official v2 SDK) without sessions", () => {
  it("is offered both, and a listen is sent a list change and a resource update", async () => {
    const { server, url } = await served(false);
    const client = new ModernClient({ name: "v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
    closing.push(client);
    const seen: string[] = [];
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      seen.push("tools/list_changed");
    });
    client.setNotificationHandler("notifications/resources/updated", (notification) => {
      seen.push(`resources/updated ${notification.params.uri}`);
    });
    await client.connect(new ModernTransport(url));
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
    });
    const subscription = await client.listen({ toolsListChanged: true, resourceSubscriptions: ["notes://index"] });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true, resourceSubscriptions: ["notes://index"] });
    server.resourceUpdated("notes://index");
    server.tool("archive", { run: () => "archived" });
    await until(() => expect(seen).toEqual(["resources/updated notes://index", "tools/list_changed"]));
    await subscription.close();
  });
});
