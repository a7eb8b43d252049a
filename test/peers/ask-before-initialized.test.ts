/**
 * A question a handler asks before its session is initialized waits for `notifications/initialized`
 * (2025-11-25 "Lifecycle": the server SHOULD NOT send requests other than pings before receiving it),
 * within the question's own bounds: sent once the notification comes, or, when it never does, failed
 * after askTimeoutMs with a message that says so; cancelled with its request. Was: the question went
 * to the client at once, before the notification. The official v1 client over Streamable HTTP on
 * 127.0.0.1, whose `notifications/initialized` POST the test holds back (its client sees it sent).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CancelledNotificationSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import type { Listening } from "../../src/transports/listen.js";
import { signal, within } from "../http-helpers.js";

const BOUND_MS = 8000;
const ASK_TIMEOUT_MS = 1000;

const server = pico({ name: "early-asker", version: "1.0.0", askTimeoutMs: ASK_TIMEOUT_MS }).tool("ask_name", {
  description: "Asks the user's name.",
  run: async (_, ctx) => {
    // Logging is allowed before notifications/initialized: it tells the test the question is next.
    ctx.log.info("asking");
    try {
      const answer = await ctx.elicit("Your name?", z.object({ name: z.string() }));
      return answer.action === "accept" ? `hello ${answer.content.name}` : answer.action;
    } catch (thrown) {
      return `failed: ${(thrown as Error).message}`;
    }
  },
});

const closing: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const each of closing.reverse()) await each.close();
});

let listening: Listening | undefined;
async function url(): Promise<URL> {
  listening ??= await server.serve({ port: 0 });
  return new URL(listening.url);
}

/**
 * A v1 client whose `notifications/initialized` reaches the server only on `release()` (the client
 * is told 202 at once, so its connect resolves); what it was asked and told, in order.
 */
async function connect() {
  const events: string[] = [];
  const released = signal();
  let initializedSent = false;
  const holding: typeof fetch = async (input, init) => {
    if (typeof init?.body === "string" && init.body.includes('"notifications/initialized"')) {
      void released.promise.then(async () => {
        initializedSent = true;
        events.push("initialized");
        await (await fetch(input, init)).text();
      });
      return new Response(null, { status: 202 });
    }
    return fetch(input, init);
  };
  const client = new Client({ name: "v1-early", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  const logged = signal();
  client.setNotificationHandler(LoggingMessageNotificationSchema, () => logged.resolve());
  const cancelled: string[] = [];
  client.setNotificationHandler(CancelledNotificationSchema, (notification) => {
    cancelled.push(String(notification.params.requestId));
  });
  client.setRequestHandler(ElicitRequestSchema, async () => {
    events.push(initializedSent ? "asked" : "asked before initialized");
    return { action: "accept", content: { name: "Ada" } };
  });
  await client.connect(new StreamableHTTPClientTransport(await url(), { fetch: holding }));
  closing.push(client);
  return { client, events, release: () => released.resolve(), logged: logged.promise, cancelled };
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

describe("a question asked before notifications/initialized", () => {
  it("is sent once the notification comes, and answered", async () => {
    const { client, events, release, logged } = await connect();
    const called = client.callTool({ name: "ask_name" });
    await within(logged, BOUND_MS, "the tool's log before its question");
    release();
    expect(textOf(await within(called, BOUND_MS, "the tool's answer"))).toBe("hello Ada");
    expect(events).toEqual(["initialized", "asked"]);
  });

  it("fails after askTimeoutMs, saying why, when the notification never comes", async () => {
    const { client, events, cancelled } = await connect();
    const result = await within(client.callTool({ name: "ask_name" }), BOUND_MS, "the tool's answer");
    expect(textOf(result)).toBe(
      "failed: The client did not send notifications/initialized within 1 s, so elicitation/create could not be sent (a server may send no request before it).",
    );
    // Never sent: neither asked nor cancelled.
    expect(events).toEqual([]);
    expect(cancelled).toEqual([]);
  });

  it("is withdrawn with its request, unsent", async () => {
    const { client, events, release, logged, cancelled } = await connect();
    const abort = new AbortController();
    const called = client.callTool({ name: "ask_name" }, undefined, { signal: abort.signal });
    await within(logged, BOUND_MS, "the tool's log before its question");
    abort.abort("changed my mind");
    await expect(called).rejects.toThrow();
    release();
    // The session goes on: a question asked now is sent at once.
    expect(textOf(await within(client.callTool({ name: "ask_name" }), BOUND_MS, "the next call"))).toBe("hello Ada");
    expect(events).toEqual(["initialized", "asked"]);
    expect(cancelled).toEqual([]);
  });
});
