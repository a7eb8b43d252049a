/**
 * A 2025-11-25 session is told of list changes only for the lists its handshake advertised
 * (2025-11-25 "Lifecycle", Operation: both parties MUST only use capabilities that were
 * successfully negotiated; "Prompts" and "Resources": servers that declared `listChanged` send
 * the notification). A server that had only tools when an official v1 client connected, and then
 * registers a prompt and a resource, sends that session `notifications/tools/list_changed`
 * but neither `notifications/prompts/list_changed` nor `notifications/resources/list_changed`;
 * a session opened once they exist is told of all three. Before, every session got all three.
 * (A server's first prompt or resource comes before it serves, test/peers/late-registrations.test.ts:
 * this one had one of each, removed before serving, so its layers are loaded but nothing is advertised.)
 */
import type { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { until } from "./resources-helpers.js";
import { servedToClients } from "./served.js";

const server = pico({ name: "growing", version: "1.0.0" })
  .tool("grow", {
    description: "Registers a prompt and a resource named after `name`.",
    input: z.object({ name: z.string() }),
    run: ({ name }) => {
      server.prompt(`prompt_${name}`, { description: "Added at run time.", get: () => "hello" });
      server.resource(`notes://${name}`, { description: "Added at run time.", read: () => "a note" });
      return `grew ${name}`;
    },
  })
  .tool("mark", {
    description: "Registers a tool named after `name`.",
    input: z.object({ name: z.string() }),
    run: ({ name }) => {
      server.tool(`tool_${name}`, { description: "Added at run time.", run: () => "hello" });
      return `marked ${name}`;
    },
  });

server.prompt("prompt_seed", { description: "Removed before serving.", get: () => "hello" });
server.resource("notes://seed", { description: "Removed before serving.", read: () => "a note" });
await server.ready();
server.remove("prompt", "prompt_seed");
server.remove("resource", "notes://seed");

const clients = servedToClients(server);

/**
 * Registers a prompt and a resource, then a tool: the tool's notification, on the same stream, comes
 * after theirs, so once it has come, so would have they.
 */
async function grow(client: LegacyClient, name: string): Promise<void> {
  await client.callTool({ name: "grow", arguments: { name } });
  await client.listTools();
  await client.callTool({ name: "mark", arguments: { name } });
}

/** A v1 client whose list-changed notifications are collected, in the order they came. */
async function connect(): Promise<{ client: LegacyClient; changed: string[] }> {
  const changed: string[] = [];
  const client = await clients.legacy(undefined, (client) => {
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void changed.push("prompts"));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void changed.push("resources"));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed.push("tools"));
  });
  return { client, changed };
}

describe("list_changed follows the capabilities a session's initialize advertised", () => {
  it("tells a tools-only session of tool changes only, and a later session of all three lists", async () => {
    const early = await connect();
    expect(early.client.getServerCapabilities()).toEqual({ logging: {}, tools: { listChanged: true } });

    await grow(early.client, "a");
    await until(() => expect(early.changed).toContain("tools"));
    expect(early.changed).toEqual(["tools"]);

    const late = await connect();
    expect(late.client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { listChanged: true },
    });
    await grow(late.client, "b");
    await until(() => expect(late.changed).toContain("tools"));
    expect(late.changed).toEqual(["prompts", "resources", "tools"]);
    await until(() => expect(early.changed).toEqual(["tools", "tools"]));
  });
});
