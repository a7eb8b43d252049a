/**
 * The official v1 client (@modelcontextprotocol/sdk, legacy era) drives `server.serve({ port: 0 })`
 * over Streamable HTTP: stateful sessions with their GET stream and resumable SSE, and the
 * stateless legacy mode (`http: { sessions: false }`).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type Progress, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Listening } from "../../src/transports/listen.js";
import {
  eventIds,
  makeServer,
  PRICE,
  type Recorded,
  recordingFetch,
  SEED_VALIDATION_ERROR,
  sseMessages,
} from "./http-fixture.js";

const open: { close(): Promise<void> }[] = [];

afterAll(async () => {
  // Clients first, so that their streams end before the servers close.
  for (const each of open.reverse()) await each.close();
});

async function connect(url: string, name: string) {
  const wire = recordingFetch();
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: wire.fetch });
  const client = new Client({ name, version: "1.0.0" }, { capabilities: { roots: {} } });
  open.push(client);
  await client.connect(transport);
  return { client, transport, exchanges: wire.exchanges };
}

/** The POST exchanges that carried a request for `method`. */
function posts(exchanges: Recorded[], method: string): Recorded[] {
  return exchanges.filter((each) => each.method === "POST" && (each.body as { method?: string }).method === method);
}

describe("v1 client over Streamable HTTP, stateful sessions", () => {
  const { server, gates, cancels } = makeServer({ sessions: { retryMs: 10 } });
  let listening: Listening;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  let exchanges: Recorded[];
  const listChanged: unknown[] = [];

  beforeAll(async () => {
    listening = await server.serve({ port: 0 });
    open.push(listening);
    ({ client, transport, exchanges } = await connect(listening.url, "v1-http"));
    client.setNotificationHandler(ToolListChangedNotificationSchema, (notification) => {
      listChanged.push(notification);
    });
  });

  const call = (name: string, args?: Record<string, unknown>) => client.callTool({ name, arguments: args });

  it("listens on 127.0.0.1 at /mcp and gives the client a session id at initialize", () => {
    expect(listening.url).toBe(`http://127.0.0.1:${listening.port}/mcp`);
    expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
    const [initialize] = posts(exchanges, "initialize");
    expect(initialize).toMatchObject({ status: 200, contentType: "application/json" });
    expect(client.getServerVersion()).toEqual({ name: "http-peer", version: "1.0.0", title: "HTTP peer" });
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true } });
    expect(client.getInstructions()).toBe("Test only.");
    // Every request after initialize names the session and the negotiated version.
    const later = exchanges.slice(1);
    expect(later.length).toBeGreaterThan(0);
    for (const each of later) {
      expect(each.headers.get("mcp-session-id")).toBe(transport.sessionId);
      expect(each.headers.get("mcp-protocol-version")).toBe("2025-11-25");
    }
  });

  it("gives each client its own session", async () => {
    const other = await connect(listening.url, "v1-http-other");
    expect(other.transport.sessionId).toBeDefined();
    expect(other.transport.sessionId).not.toBe(transport.sessionId);
    expect(await other.client.ping()).toEqual({});
  });

  it("lists the tools in registration order, with their schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "search_issues",
      "get_price",
      "forbidden",
      "count",
      "poll",
      "drop",
      "wait_for_cancel",
      "add_tool",
    ]);
    expect(tools[0]).toMatchObject({
      name: "search_issues",
      title: "Search issues",
      annotations: { readOnlyHint: true, openWorldHint: true },
      inputSchema: { type: "object", required: ["repo", "query"] },
    });
    expect(tools[1]!.outputSchema).toMatchObject({ type: "object", required: ["sku", "cents", "currency"] });
  });

  it("calls a tool and answers with plain JSON when the tool emits nothing", async () => {
    expect(await call("search_issues", { repo: "a/b", query: "bug" })).toEqual({
      content: [{ type: "text", text: "a/b bug 10" }],
    });
    expect(posts(exchanges, "tools/call").at(-1)).toMatchObject({ status: 200, contentType: "application/json" });
  });

  it("answers invalid arguments with the seed's tool error", async () => {
    expect(await call("search_issues", { repo: "a/b", query: "q", limit: 99 })).toEqual({
      content: [{ type: "text", text: SEED_VALIDATION_ERROR }],
      isError: true,
    });
  });

  it("sends structured output, validated, with extra fields stripped, plus a JSON text copy", async () => {
    expect(await call("get_price", { sku: "A-1" })).toEqual({
      content: [{ type: "text", text: JSON.stringify(PRICE) }],
      structuredContent: PRICE,
    });
  });

  it("turns McpError into a JSON-RPC error, and an unknown tool into -32602", async () => {
    const forbidden = await call("forbidden").catch((thrown: unknown) => thrown);
    expect(forbidden).toBeInstanceOf(McpError);
    expect(forbidden).toMatchObject({ code: -32001, data: { workspace: "acme" } });
    const unknown = await call("no_such_tool").catch((thrown: unknown) => thrown);
    expect(unknown).toMatchObject({ code: -32602 });
    expect((unknown as Error).message).toContain('Unknown tool "no_such_tool"');
  });

  it("delivers the notifications a call emits on its SSE reply, with resumable event ids, before the result", async () => {
    const seen: Progress[] = [];
    const result = await client.callTool({ name: "count", arguments: { steps: 3 } }, undefined, {
      onprogress: (update) => seen.push(update),
    });
    expect(result).toEqual({ content: [{ type: "text", text: "counted to 3" }] });
    expect(seen.map((update) => update.progress)).toEqual([1, 2, 3]);
    const reply = posts(exchanges, "tools/call").at(-1)!;
    expect(reply).toMatchObject({ status: 200, contentType: "text/event-stream" });
    const messages = sseMessages(reply.text);
    expect(messages.map((message) => message.method ?? "result")).toEqual([
      "notifications/progress",
      "notifications/progress",
      "notifications/progress",
      "result",
    ]);
    // A priming event (an id, empty data) first, then an id on every message, all distinct (SEP-1699).
    const ids = eventIds(reply.text);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    expect(reply.text.startsWith(`id: ${ids[0]}\nretry: 10\ndata: \n\n`)).toBe(true);
  });

  it("cancels a call the client aborts: notifications/cancelled aborts the tool's signal, and no result is sent", async () => {
    const controller = new AbortController();
    const pending = client.callTool({ name: "wait_for_cancel" }, undefined, { signal: controller.signal });
    await expect.poll(() => cancels.started, { timeout: 5000 }).toBe(1);
    controller.abort("user pressed stop");
    await expect(pending).rejects.toThrow(/user pressed stop/);
    await expect.poll(() => cancels.reasons, { timeout: 5000 }).toEqual(["AbortError"]);
    const [cancel] = posts(exchanges, "notifications/cancelled");
    expect(cancel).toMatchObject({ status: 202, text: "" });
    expect(cancel!.body).toMatchObject({ params: { reason: "user pressed stop" } });
    // The aborted call's own POST ends without a JSON-RPC response.
    await expect
      .poll(
        () =>
          posts(exchanges, "tools/call").find(
            (each) => (each.body as { params: { name: string } }).params.name === "wait_for_cancel",
          ),
        { timeout: 5000 },
      )
      .toMatchObject({ done: true, text: "" });
  });

  it("sends notifications/tools/list_changed on the session's GET stream when a tool is added", async () => {
    // The client opens its GET stream once initialized; wait until the server has answered it.
    await expect.poll(() => exchanges.find((each) => each.method === "GET")?.status, { timeout: 5000 }).toBe(200);
    const stream = exchanges.find((each) => each.method === "GET")!;
    expect(stream.contentType).toBe("text/event-stream");
    expect(listChanged).toEqual([]);
    expect(await call("add_tool", { name: "late_tool" })).toEqual({
      content: [{ type: "text", text: "added late_tool" }],
    });
    await expect.poll(() => listChanged, { timeout: 5000 }).toEqual([{ method: "notifications/tools/list_changed" }]);
    // It came on the GET stream, not on the reply to the call that caused it.
    expect(sseMessages(stream.text)).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
    expect(posts(exchanges, "tools/call").at(-1)!.contentType).toBe("application/json");
    const { tools } = await client.listTools();
    expect(tools.at(-1)!.name).toBe("late_tool");
    expect(await call("late_tool")).toEqual({ content: [{ type: "text", text: "hello from late_tool" }] });
  });

  it("resumes with Last-Event-ID after the server closes the stream to make the client poll (SEP-1699)", async () => {
    const seen: Progress[] = [];
    const result = await client.callTool({ name: "poll" }, undefined, { onprogress: (update) => seen.push(update) });
    expect(result).toEqual({ content: [{ type: "text", text: "finished while the client was away" }] });
    expect(seen.map((update) => update.progress)).toEqual([1]);

    // The POST stream carried the priming event and the progress, then ended without the result.
    const reply = posts(exchanges, "tools/call").at(-1)!;
    expect(reply.contentType).toBe("text/event-stream");
    expect(sseMessages(reply.text).map((message) => message.method)).toEqual(["notifications/progress"]);
    const lastId = eventIds(reply.text).at(-1)!;
    // The client came back with GET and Last-Event-ID, and the result was replayed there.
    const resumed = exchanges.filter((each) => each.method === "GET" && each.headers.get("last-event-id") !== null);
    expect(resumed).toHaveLength(1);
    expect(resumed[0]!.headers.get("last-event-id")).toBe(lastId);
    expect(resumed[0]!.headers.get("mcp-session-id")).toBe(transport.sessionId);
    expect(resumed[0]).toMatchObject({ status: 200, contentType: "text/event-stream" });
    const replayed = sseMessages(resumed[0]!.text);
    expect(replayed).toEqual([
      {
        jsonrpc: "2.0",
        id: (reply.body as { id: number }).id,
        result: { content: [{ type: "text", text: "finished while the client was away" }] },
      },
    ]);
  });

  it("resumes with Last-Event-ID after the connection drops mid-call, and gets the result", async () => {
    const seen: Progress[] = [];
    const before = exchanges.length;
    let dropped: Recorded | undefined;
    const pending = client.callTool({ name: "drop" }, undefined, {
      onprogress: (update) => {
        seen.push(update);
        // The progress arrived on the call's stream: now the network goes away.
        dropped = posts(exchanges.slice(before), "tools/call")[0]!;
        dropped.cut();
      },
    });
    // The client reconnects by itself; once the server has answered that GET, the tool may finish.
    await expect
      .poll(() => exchanges.slice(before).find((each) => each.method === "GET")?.status, { timeout: 5000 })
      .toBe(200);
    gates.drop.open();
    expect(await pending).toEqual({ content: [{ type: "text", text: "finished after the connection dropped" }] });
    expect(seen.map((update) => update.progress)).toEqual([1]);
    const resumed = exchanges.slice(before).find((each) => each.method === "GET")!;
    expect(resumed.headers.get("last-event-id")).toBe(eventIds(dropped!.text).at(-1));
    expect(sseMessages(resumed.text)).toEqual([
      {
        jsonrpc: "2.0",
        id: (dropped!.body as { id: number }).id,
        result: { content: [{ type: "text", text: "finished after the connection dropped" }] },
      },
    ]);
  });

  it("ends the session on terminateSession; its id then answers 404", async () => {
    const doomed = await connect(listening.url, "v1-http-doomed");
    const id = doomed.transport.sessionId!;
    expect(
      (await doomed.client.callTool({ name: "search_issues", arguments: { repo: "a/b", query: "x" } })).content,
    ).toEqual([{ type: "text", text: "a/b x 10" }]);
    await doomed.transport.terminateSession();
    expect(doomed.exchanges.at(-1)).toMatchObject({ method: "DELETE", status: 200 });
    expect(doomed.transport.sessionId).toBeUndefined();

    // A client that still holds the old id (a reconnecting one skips initialize) is told the session is gone.
    const wire = recordingFetch();
    const stale = new Client({ name: "v1-http-stale", version: "1.0.0" });
    open.push(stale);
    const staleTransport = new StreamableHTTPClientTransport(new URL(listening.url), {
      fetch: wire.fetch,
      sessionId: id,
    });
    staleTransport.setProtocolVersion("2025-11-25");
    await stale.connect(staleTransport);
    const error = await stale.listTools().catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 404 });
    expect((error as Error).message).toContain("Session not found");
    expect(wire.exchanges.at(-1)).toMatchObject({ method: "POST", status: 404 });
    expect(wire.exchanges.at(-1)!.headers.get("mcp-session-id")).toBe(id);
  });
});

describe("v1 client whose GET stream's connection dies without closing", () => {
  /**
   * The server cannot tell such a connection from a quiet one: it holds it open. The client comes
   * back on a new one, with the last event id that connection read (the SDK keeps its cursor per
   * connection): every stream, a resumed one too, starts with a priming event that carries one
   * (2025-11-25 "Resumability and Redelivery"). Was: that GET answered 409 while the dead connection
   * was open, and the client gave up after two tries, hearing nothing more of the session.
   */
  async function vanishing(retryMs: number) {
    const { server } = makeServer({ sessions: { retryMs } });
    const listening = await server.serve({ port: 0 });
    open.push(listening);
    const { client, exchanges } = await connect(listening.url, "v1-http-vanishing");
    const heard = { count: 0 };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      heard.count++;
    });
    const gets = () => exchanges.filter((each) => each.method === "GET");
    const add = (name: string) => server.tool(name, { run: () => name });
    await expect.poll(() => gets()[0]?.text, { timeout: 5000 }).toContain("id: 0-0");
    add("first");
    await expect.poll(() => heard.count, { timeout: 5000 }).toBe(1);
    // Dead just as the next change was written to it: the client resumes after the last event it read.
    gets()[0]!.vanish();
    add("second");
    await expect.poll(() => heard.count, { timeout: 5000 }).toBe(2);
    return { heard, gets, add };
  }

  it("comes back on a new connection, with Last-Event-ID each time, and hears every notification once", async () => {
    const { heard, gets, add } = await vanishing(10);
    // Dead again, then once more before its new connection carried anything but its priming event.
    gets()[1]!.vanish();
    await expect.poll(() => gets()[2]?.text, { timeout: 5000 }).toContain("id: 0-2");
    gets()[2]!.vanish();
    await expect.poll(() => gets().length, { timeout: 5000 }).toBe(4);
    add("third");
    await expect.poll(() => heard.count, { timeout: 5000 }).toBe(3);
    expect(gets().map((each) => [each.status, each.headers.get("last-event-id")])).toEqual([
      [200, null],
      [200, "0-1"],
      [200, "0-2"],
      [200, "0-2"],
    ]);
  });

  /**
   * The server wrote a change to a resumed connection that died before the client read anything of
   * it. Was: no priming event on a resumed stream, so the client came back without Last-Event-ID and
   * the new stream started after the change, which it never heard.
   */
  it("hears what was written to a resumed connection that died before carrying any event", async () => {
    // Long enough for the change to be written to the dead connection before the client is back.
    const { heard, gets, add } = await vanishing(200);
    gets()[1]!.vanish();
    await expect.poll(() => gets()[2]?.status, { timeout: 5000 }).toBe(200);
    gets()[2]!.vanish();
    add("third");
    await expect.poll(() => gets().length, { timeout: 5000 }).toBe(4);
    add("fourth");
    await expect.poll(() => heard.count, { timeout: 5000 }).toBe(4);
    // Once each: nothing heard twice after a while.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard.count).toBe(4);
    expect(gets().map((each) => each.headers.get("last-event-id"))).toEqual([null, "0-1", "0-2", "0-2"]);
  });
});

describe("v1 client over Streamable HTTP, stateless (http: { sessions: false })", () => {
  const { server } = makeServer({ sessions: false });
  let listening: Listening;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  let exchanges: Recorded[];

  beforeAll(async () => {
    listening = await server.serve({ port: 0 });
    open.push(listening);
    ({ client, transport, exchanges } = await connect(listening.url, "v1-http-stateless"));
  });

  const call = (name: string, args?: Record<string, unknown>) => client.callTool({ name, arguments: args });

  it("initializes without a session id, and the GET stream is refused with 405", async () => {
    expect(transport.sessionId).toBeUndefined();
    expect(client.getServerVersion()).toEqual({ name: "http-peer", version: "1.0.0", title: "HTTP peer" });
    await expect.poll(() => exchanges.find((each) => each.method === "GET")?.status, { timeout: 5000 }).toBe(405);
    for (const each of exchanges) expect(each.headers.get("mcp-session-id")).toBeNull();
  });

  it("lists and calls tools, with validation errors and structured output", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("get_price");
    expect(await call("search_issues", { repo: "a/b", query: "bug", limit: 3 })).toEqual({
      content: [{ type: "text", text: "a/b bug 3" }],
    });
    expect(await call("search_issues", { repo: "a/b", query: "q", limit: 99 })).toEqual({
      content: [{ type: "text", text: SEED_VALIDATION_ERROR }],
      isError: true,
    });
    expect((await call("get_price", { sku: "A-1" })).structuredContent).toEqual(PRICE);
    await expect(call("forbidden")).rejects.toMatchObject({ code: -32001 });
  });

  it("delivers a call's notifications on its SSE reply, without event ids since nothing can resume", async () => {
    const seen: Progress[] = [];
    const result = await client.callTool({ name: "count", arguments: { steps: 2 } }, undefined, {
      onprogress: (update) => seen.push(update),
    });
    expect(result).toEqual({ content: [{ type: "text", text: "counted to 2" }] });
    expect(seen.map((update) => update.progress)).toEqual([1, 2]);
    const reply = posts(exchanges, "tools/call").at(-1)!;
    expect(reply.contentType).toBe("text/event-stream");
    expect(sseMessages(reply.text)).toHaveLength(3);
    expect(eventIds(reply.text)).toEqual([]);
  });
});
