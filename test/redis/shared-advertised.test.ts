/**
 * A 2025-11-25 session shared on a real Redis (`pico({ state })`, docs/scaling.md) is told of list
 * changes only for the lists its `initialize` advertised with listChanged (2025-11-25 "Lifecycle",
 * Operation: MUST only use capabilities that were successfully negotiated), on the instance that
 * opened it and on one that made its copy from the record: the record keeps what was advertised.
 * Was: a shared session's copy, on either instance, did not know it (the record lacked it), and was
 * told of every change. The official v1 client; two instances on 127.0.0.1, each with a prompt and
 * a resource removed before serving (their layers loaded, nothing advertised); every wait bounded.
 * Skipped (with the install command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { signal, within } from "../http-helpers.js";
import { BOUND_MS, busLoss } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING } from "./shared-state.js";

const redis = useRedisServer();
const { opened, userState, routedClient } = busLoss(redis);

/** An instance named `name` sharing its state under `prefix`: tools only advertised, its prompts and resources layers loaded. */
async function instance(name: string, prefix: string) {
  const server = pico({
    name: "shared-advertised",
    ...SHARING,
    state: await userState(name, prefix),
  })
    .tool("whoami", { description: "Says hello.", run: () => "hello" })
    .prompt("seed", { description: "Removed before serving.", get: () => "hello" })
    .resource("notes://seed", { description: "Removed before serving.", read: () => "a note" });
  await server.ready();
  server.remove("prompt", "seed");
  server.remove("resource", "notes://seed");
  const listening = await server.serve({ port: 0, host: "127.0.0.1" });
  opened.push(() => listening.close());
  return { server, url: new URL(listening.url) };
}

/** A v1 client whose session was opened on `a`, each later request sent to `to`; the list changes it is told of. */
async function sessionOn(a: URL, to: URL) {
  const changed: string[] = [];
  const toolsChanged = signal();
  const { client } = await routedClient(a, (init) => (String(init?.body ?? "").includes('"initialize"') ? a : to));
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void changed.push("prompts"));
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void changed.push("resources"));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changed.push("tools");
    toolsChanged.resolve();
  });
  expect(client.getServerCapabilities()).toEqual({ logging: {}, tools: { listChanged: true } });
  // Its GET stream is open once a request has been answered after connect (the client opens it then).
  await client.listTools();
  return { changed, toolsChanged: toolsChanged.promise };
}

it("tells a shared session of the lists its initialize advertised only, on the instance that opened it and on another", async () => {
  const prefix = "advertised:";
  const a = await instance("adv-a", prefix);
  const b = await instance("adv-b", prefix);
  const opener = await sessionOn(a.url, a.url);
  const adopted = await sessionOn(a.url, b.url);
  // A prompt and a resource, then a tool, on each instance: the tool's notification, on the same
  // stream, comes after theirs, so once it has come, so would have they.
  for (const { server } of [a, b]) {
    server.prompt("added", { description: "Added at run time.", get: () => "hello" });
    server.resource("notes://added", { description: "Added at run time.", read: () => "a note" });
    server.tool("added", { description: "Added at run time.", run: () => "added" });
  }
  await within(opener.toolsChanged, BOUND_MS, "tools/list_changed on instance a");
  await within(adopted.toolsChanged, BOUND_MS, "tools/list_changed on instance b");
  expect(opener.changed[0]).toBe("tools");
  expect(adopted.changed[0]).toBe("tools");
  expect([...opener.changed, ...adopted.changed].filter((list) => list !== "tools")).toEqual([]);
});
