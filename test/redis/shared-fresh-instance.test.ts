/**
 * An instance sharing state on a real Redis (`pico({ state })`, docs/scaling.md) relays its
 * changes to the other instances' sessions from the moment it serves, not from its first request:
 * a `server.resourceUpdated()` or a tool added on an instance that has not been sent a request yet
 * reaches a 2025-11-25 session's GET stream on another instance. The official v1 client holds its
 * session on instance b; instance a, started with `serve({ port })`, is never sent anything. Two
 * servers on 127.0.0.1; every wait is bounded. Skipped (with the install command as the reason)
 * without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { signal, within } from "../http-helpers.js";
import { BOUND_MS, busLoss } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING } from "./shared-state.js";

const redis = useRedisServer();
let prefixes = 0;

const { opened, userState } = busLoss(redis);

/**
 * An instance named `name` (its Redis user) sharing its state under `prefix`, listening on 127.0.0.1;
 * with the notes resources unless `resources` is false (an instance that only publishes updates).
 */
async function instance(name: string, prefix: string, resources = true) {
  const tools = pico({
    name: "shared-fresh-instance",
    ...SHARING,
    state: await userState(name, prefix),
  }).tool("whoami", { description: "Says hello.", run: () => "hello" });
  const server = resources ? tools.resource("notes://{id}", { read: ({ id }) => `note ${id}` }) : tools;
  const listening = await server.serve({ port: 0, host: "127.0.0.1" });
  opened.push(() => listening.close());
  return { server, url: new URL(listening.url) };
}

/** A v1 client's session on instance b, subscribed to notes://1, with its GET stream open; what it is told. */
async function sessionOn(b: { url: URL }) {
  const streaming = signal();
  const routed: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method === "GET" && response.ok) streaming.resolve();
    return response;
  };
  const client = new Client({ name: "v1", version: "1.0.0" });
  const updated = signal<string>();
  const changed = signal();
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
    updated.resolve(notification.params.uri),
  );
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed.resolve());
  await client.connect(new StreamableHTTPClientTransport(b.url, { fetch: routed }));
  opened.push(() => client.close());
  await client.subscribeResource({ uri: "notes://1" });
  await within(streaming.promise, BOUND_MS, "the client's GET stream on instance b");
  return { updated: updated.promise, changed: changed.promise };
}

it("relays a resource update published on an instance that has served no request yet", async () => {
  const prefix = `fresh-${prefixes++}:`;
  const told = await sessionOn(await instance(`fb${prefixes}`, prefix));
  // Started after the session, and never sent a request.
  const a = await instance(`fa${prefixes}`, prefix);
  a.server.resourceUpdated("notes://1");
  // Was: nothing, instance a relaying nothing on the bus before its first request.
  expect(await within(told.updated, BOUND_MS, "the update published on instance a")).toBe("notes://1");
});

it("relays a resource update published by an instance with no resources of its own", async () => {
  const prefix = `fresh-${prefixes++}:`;
  const told = await sessionOn(await instance(`fb${prefixes}`, prefix));
  // A publisher: it serves tools only, so the resources layer never loads on it.
  const a = await instance(`fa${prefixes}`, prefix, false);
  a.server.resourceUpdated("notes://1");
  // Was (2ba66f6): nothing, the update dropped on an instance whose resources layer had not loaded.
  expect(await within(told.updated, BOUND_MS, "the update published on instance a")).toBe("notes://1");
});

it("relays the tools/list_changed of a tool added on an instance that has served no request yet", async () => {
  const prefix = `fresh-${prefixes++}:`;
  const told = await sessionOn(await instance(`fb${prefixes}`, prefix));
  const a = await instance(`fa${prefixes}`, prefix);
  a.server.tool("added", { description: "Added at run time.", run: () => "added" });
  // Was: nothing, as for an update.
  await within(told.changed, BOUND_MS, "the tools/list_changed of the tool added on instance a");
});
