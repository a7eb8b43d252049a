/**
 * A burst written within one turn of the event loop on a 2025-11-25 session's streams (a tool's
 * logs on its POST stream, resource updates on the GET stream), larger than
 * `limits.maxSseBufferBytes`, reaches the official v1 client whole over `serve({ port: 0 })`: a
 * reader that keeps up is not dropped (docs/limits.md, "SSE streams").
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { signal, within } from "../http-helpers.js";

const BIG = "x".repeat(1000);
const BURST = 200;

function burstServer() {
  // The GET stream's burst needs 200 subscriptions of 1 kB each: more characters than a session may
  // hold by default (limits.maxSubscriptionBytesPerSession, 64 Ki), so the limit is raised here.
  const limits = { maxSseBufferBytes: 64 * 1024, maxSubscriptionBytesPerSession: 1024 * 1024 };
  return pico({ name: "burst", version: "1", limits, signals: false })
    .tool("burst", {
      run: (_args, ctx) => {
        for (let i = 0; i < BURST; i++) ctx.log.info(`${i} ${BIG}`);
        return "all sent";
      },
    })
    .resource("notes://{id}", { read: ({ id }) => id });
}

async function connect(url: string) {
  // No reconnection: a dropped stream shows as lost events, not as a resume that may hide it.
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 1,
      maxReconnectionDelay: 1,
      reconnectionDelayGrowFactor: 1,
    },
  });
  const client = new Client({ name: "burst", version: "1" });
  await client.connect(transport);
  return client;
}

describe("a 2025-11-25 session's streams: a burst past maxSseBufferBytes (64 KiB)", () => {
  it("sends 200 logs of 1 kB from one tool call, then its result, on its POST stream", async () => {
    const listening = await burstServer().serve({ port: 0 });
    const client = await connect(listening.url);
    try {
      const logs: string[] = [];
      client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
        logs.push(String(notification.params.data));
      });
      await client.setLoggingLevel("info");
      // Was: the stream dropped mid-burst though the client read as fast as it could, the result lost.
      const result = await within(client.callTool({ name: "burst" }), 5000, "the tool's result");
      expect(result.content).toEqual([{ type: "text", text: "all sent" }]);
      expect(logs).toHaveLength(BURST);
      expect(logs.map((log) => Number(log.split(" ")[0]))).toEqual([...Array(BURST).keys()]);
    } finally {
      await client.close();
      await listening.close();
    }
  });

  it("sends updates of 200 resources in a row on its GET stream", async () => {
    const server = burstServer();
    const listening = await server.serve({ port: 0 });
    const client = await connect(listening.url);
    try {
      const uris = Array.from({ length: BURST }, (_, i) => `notes://${i}-${BIG}`);
      const updated: string[] = [];
      const first = signal();
      const last = signal();
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
        const { uri } = notification.params;
        if (uri === "notes://first") first.resolve();
        else updated.push(uri);
        if (uri === "notes://last") last.resolve();
      });
      for (const uri of [...uris, "notes://first", "notes://last"]) await client.subscribeResource({ uri });
      // The GET stream is open and read before the burst.
      server.resourceUpdated("notes://first");
      await within(first.promise, 5000, "the first update on the GET stream");
      for (const uri of uris) server.resourceUpdated(uri);
      server.resourceUpdated("notes://last");
      // Was: the GET stream dropped mid-burst though the client read as fast as it could.
      await within(last.promise, 5000, "the last update on the GET stream");
      expect(updated).toEqual([...uris, "notes://last"]);
    } finally {
      await client.close();
      await listening.close();
    }
  });
});
