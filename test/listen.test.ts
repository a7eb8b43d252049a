import { beforeAll, describe, expect, it, vi } from "vitest";
import type { JsonRpcMessage } from "../src/core/jsonrpc.js";
import { listenLayer } from "../src/core/methods.js";
import { Registry } from "../src/core/registry.js";
import { compileTool } from "../src/core/tools.js";
import { META } from "../src/core/types.js";
import { pico } from "../src/index.js";
import { resourceChecks } from "../src/listen/watchers.js";
import { compilePrompt } from "../src/prompts/prompts.js";
import { compileResource } from "../src/resources/resources.js";
import { Connection } from "../src/transports/connection.js";
import { createEndpoint } from "../src/transports/http/endpoint.js";
import { createWebEndpoint } from "../src/transports/http/web.js";
import { serveLines } from "../src/transports/stdio.js";
import { addPrompt, addResource, envelope, SERVER_INFO, SERVER_INFO_META, serverDispatcher } from "./core-helpers.js";
import { EventReader, messageOf, modern, within } from "./http-helpers.js";

const EVERYTHING = {
  toolsListChanged: true,
  promptsListChanged: true,
  resourcesListChanged: true,
  resourceSubscriptions: ["docs://readme", "files://dir"],
};

/** A registry with a tool, a prompt and a resource, whose live registry listeners are counted. */
function registry(kinds: ("tool" | "prompt" | "resource")[] = ["tool", "prompt", "resource"]) {
  const registry = new Registry(SERVER_INFO);
  if (kinds.includes("tool")) registry.addTool(compileTool("hello", { run: () => "hi" }));
  if (kinds.includes("prompt")) addPrompt(registry, compilePrompt("greet", { get: () => "Hi" }));
  if (kinds.includes("resource")) addResource(registry, compileResource("docs://readme", { read: () => "" }));
  const subscribe = registry.subscribe.bind(registry);
  const live = { count: 0 };
  registry.subscribe = (listener) => {
    live.count++;
    const stop = subscribe(listener);
    return () => {
      live.count--;
      return stop();
    };
  };
  return { registry, live };
}

/** A stdio-like connection: messages in, everything sent out recorded in order. */
function connect(registryToUse: Registry) {
  const sent: JsonRpcMessage[] = [];
  const connection = new Connection(serverDispatcher(registryToUse), {
    deliver(message) {
      if (!Array.isArray(message)) sent.push(message);
    },
  });
  const listen = (id: string | number, notifications: unknown) =>
    connection.receive({
      jsonrpc: "2.0",
      id,
      method: "subscriptions/listen",
      params: { _meta: envelope(), notifications },
    });
  return { connection, sent, listen };
}

const tagged = (id: string | number) => ({ [META.subscriptionId]: id });
const ack = (id: string | number, notifications: unknown) => ({
  jsonrpc: "2.0",
  method: "notifications/subscriptions/acknowledged",
  params: { notifications, _meta: tagged(id) },
});

// The listen code (the listen layer) loads with the first request for it, and the resources layer's read
// checks with the first listen that watches resources; from then on a listen is acknowledged synchronously,
// which is what these tests read; the first request of a process is acknowledged once the code has loaded.
beforeAll(async () => {
  await listenLayer.load();
  await resourceChecks.load();
});

describe("subscriptions/listen over a connection", () => {
  it("acknowledges first, with what it will honour, tagged with the listen id", async () => {
    const { registry: server } = registry();
    const { sent, listen } = connect(server);
    void listen("L1", EVERYTHING);
    expect(sent).toEqual([ack("L1", EVERYTHING)]);
  });

  it("honours only what the server supports, and only what was asked for", async () => {
    const { registry: toolsOnly } = registry(["tool"]);
    const { sent, listen } = connect(toolsOnly);
    void listen(1, EVERYTHING);
    expect(sent).toEqual([ack(1, { toolsListChanged: true })]);
    const { registry: all } = registry();
    const other = connect(all);
    void other.listen(2, { toolsListChanged: false, promptsListChanged: true, resourceSubscriptions: ["a://1", 7] });
    expect(other.sent).toEqual([ack(2, { promptsListChanged: true, resourceSubscriptions: ["a://1"] })]);
  });

  it("sends only the requested notifications, each tagged with the listen id (its JSON type kept)", async () => {
    const { registry: server } = registry();
    const { sent, listen } = connect(server);
    void listen(7, { promptsListChanged: true, resourceSubscriptions: ["docs://readme"] });
    sent.length = 0;
    server.addTool(compileTool("later", { run: () => "" }));
    addResource(server, compileResource("docs://later", { read: () => "" }));
    server.emit({ type: "resources/updated", uri: "docs://other" });
    addPrompt(server, compilePrompt("later", { get: () => "" }));
    server.emit({ type: "resources/updated", uri: "docs://readme" });
    expect(sent).toEqual([
      { jsonrpc: "2.0", method: "notifications/prompts/list_changed", params: { _meta: tagged(7) } },
      {
        jsonrpc: "2.0",
        method: "notifications/resources/updated",
        params: { uri: "docs://readme", _meta: tagged(7) },
      },
    ]);
  });

  it("sends updates of a subscribed URI and of the resources under it, as 2025 sessions get them", async () => {
    const { registry: server } = registry();
    const { sent, listen } = connect(server);
    void listen("L", { resourceSubscriptions: ["files://dir"] });
    sent.length = 0;
    for (const uri of ["files://dir", "files://dir/a.txt", "files://dirty", "files://di"]) {
      server.emit({ type: "resources/updated", uri });
    }
    expect(sent.map((message) => (message as unknown as { params: { uri: string } }).params.uri)).toEqual([
      "files://dir",
      "files://dir/a.txt",
    ]);
  });

  it("keeps several subscriptions of one connection apart", async () => {
    const { registry: server } = registry();
    const { sent, listen } = connect(server);
    void listen("tools", { toolsListChanged: true });
    void listen("prompts", { promptsListChanged: true });
    sent.length = 0;
    server.remove("tool", "hello");
    server.remove("prompt", "greet");
    expect(sent).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: tagged("tools") } },
      { jsonrpc: "2.0", method: "notifications/prompts/list_changed", params: { _meta: tagged("prompts") } },
    ]);
  });

  it("ends with its result when the server closes, and stops listening", async () => {
    const { registry: server, live } = registry();
    const { sent, listen } = connect(server);
    const before = live.count;
    const done = listen("L", { toolsListChanged: true });
    expect(live.count).toBe(before + 1);
    server.emit({ type: "closed" });
    await done;
    expect(sent.at(-1)).toEqual({
      jsonrpc: "2.0",
      id: "L",
      result: { resultType: "complete", _meta: { ...SERVER_INFO_META, ...tagged("L") } },
    });
    expect(live.count).toBe(before);
    const count = sent.length;
    server.addTool(compileTool("after", { run: () => "" }));
    expect(sent).toHaveLength(count);
  });

  it("ends without a response when the client cancels it, and stops listening", async () => {
    const { registry: server, live } = registry();
    const { sent, listen, connection } = connect(server);
    const before = live.count;
    const done = listen("L", { toolsListChanged: true });
    await connection.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "L" } });
    await done;
    expect(live.count).toBe(before);
    server.addTool(compileTool("after", { run: () => "" }));
    expect(sent).toEqual([ack("L", { toolsListChanged: true })]);
  });

  it("ends when the connection closes", async () => {
    const { registry: server, live } = registry();
    const { listen, connection } = connect(server);
    const before = live.count;
    const done = listen("L", { toolsListChanged: true });
    connection.close();
    await done;
    // The connection's own listener (legacy list_changed) goes too.
    expect(live.count).toBe(before - 1);
  });

  it("answers a request without notifications with -32602, and a legacy one with -32601", async () => {
    const { registry: server } = registry();
    const { sent, listen, connection } = connect(server);
    await listen("L", undefined);
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        id: "L",
        error: {
          code: -32602,
          message: "subscriptions/listen needs params.notifications: the notification types to receive",
        },
      },
    ]);
    await connection.receive({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25" },
    });
    await connection.receive({
      jsonrpc: "2.0",
      id: "old",
      method: "subscriptions/listen",
      params: { notifications: {} },
    });
    expect(sent.at(-1)).toMatchObject({ id: "old", error: { code: -32601 } });
  });
});

describe("subscriptions/listen over HTTP", () => {
  async function endpoint() {
    const { registry: server, live } = registry();
    const web = createWebEndpoint(createEndpoint(serverDispatcher(server), {}, { auth: undefined }), undefined);
    return { server, live, web };
  }

  it("streams the acknowledgement first, then tagged notifications, and the result when the server closes", async () => {
    const { server, web } = await endpoint();
    const response = await web.fetch(
      modern("subscriptions/listen", { notifications: { toolsListChanged: true } }, {}, { id: "H1" }),
    );
    expect(response.status).toBe(200);
    const reader = new EventReader(response);
    expect(messageOf(await reader.next())).toEqual(ack("H1", { toolsListChanged: true }));
    addPrompt(server, compilePrompt("ignored", { get: () => "" }));
    server.addTool(compileTool("later", { run: () => "" }));
    expect(messageOf(await reader.next())).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
      params: { _meta: tagged("H1") },
    });
    server.emit({ type: "closed" });
    expect(messageOf(await reader.next())).toEqual({
      jsonrpc: "2.0",
      id: "H1",
      result: { resultType: "complete", _meta: { ...SERVER_INFO_META, ...tagged("H1") } },
    });
    expect(await reader.next()).toBeUndefined();
  });

  it("stops listening when the client goes away", async () => {
    const { live, web } = await endpoint();
    const before = live.count;
    const client = new AbortController();
    const response = await web.fetch(
      modern("subscriptions/listen", { notifications: { toolsListChanged: true } }, {}, { signal: client.signal }),
    );
    const reader = new EventReader(response);
    await reader.next();
    expect(live.count).toBe(before + 1);
    client.abort();
    await within(
      (async () => {
        while (live.count !== before) await new Promise((resolve) => setTimeout(resolve, 5));
      })(),
      2000,
      "the listener going away",
    );
  });

  it("answers a client that accepts only JSON with -32600: a listen is a stream", async () => {
    const { web } = await endpoint();
    const response = await web.fetch(
      modern("subscriptions/listen", { notifications: { toolsListChanged: true } }, { accept: "application/json" }),
    );
    expect(await response.json()).toMatchObject({
      error: {
        code: -32600,
        message: "subscriptions/listen streams notifications: over HTTP, accept text/event-stream",
      },
    });
  });

  it("ends every open stream gracefully on server.close()", async () => {
    const server = pico(SERVER_INFO).tool("hello", { run: () => "hi" });
    const responses = await Promise.all(
      ["A", "B"].map((id) =>
        server.fetch(modern("subscriptions/listen", { notifications: { toolsListChanged: true } }, {}, { id })),
      ),
    );
    const readers = responses.map((response) => new EventReader(response));
    for (const reader of readers) await reader.next();
    server.close();
    for (const [index, id] of ["A", "B"].entries()) {
      expect((await readers[index]!.rest()).map(messageOf)).toEqual([
        { jsonrpc: "2.0", id, result: { resultType: "complete", _meta: { ...SERVER_INFO_META, ...tagged(id) } } },
      ]);
    }
  });
});

describe("subscriptions/listen when a read check fails", () => {
  it("sends nothing for that update, goes on with what follows, and leaves no rejection unhandled", async () => {
    const server = pico(SERVER_INFO)
      .tool("hello", { run: () => "hi" })
      .resource("docs://{name}", { read: ({ name }) => name });
    await server.ready();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    // The check of one URI fails, as when the resources run time fails to load; the others are checked as ever.
    const real = resourceChecks.now!;
    resourceChecks.now = {
      ...real,
      mayRead: (registry, ctx, uri) =>
        uri === "docs://broken"
          ? Promise.reject(new Error("the resources run time did not load"))
          : real.mayRead(registry, ctx, uri),
    };
    try {
      const subscriptions = ["docs://broken", "docs://fine"];
      const notifications = { toolsListChanged: true, resourceSubscriptions: subscriptions };
      const response = await server.fetch(modern("subscriptions/listen", { notifications }, {}, { id: "R1" }));
      const reader = new EventReader(response);
      expect(messageOf(await reader.next())).toEqual(ack("R1", notifications));
      server.resourceUpdated("docs://broken");
      server.tool("later", { run: () => "" });
      server.resourceUpdated("docs://fine");
      // Was: nothing more on the stream (every later send waited behind the rejected check), and a rejection per send.
      expect(messageOf(await reader.next())).toEqual({
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: tagged("R1") },
      });
      expect(messageOf(await reader.next())).toEqual({
        jsonrpc: "2.0",
        method: "notifications/resources/updated",
        params: { uri: "docs://fine", _meta: tagged("R1") },
      });
      await server.close();
      expect((await reader.rest()).map(messageOf)).toEqual([
        {
          jsonrpc: "2.0",
          id: "R1",
          result: { resultType: "complete", _meta: { ...SERVER_INFO_META, ...tagged("R1") } },
        },
      ]);
      // Node reports a rejection nobody handled once the microtasks have run: a macrotask later.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      resourceChecks.now = real;
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("subscriptions/listen when a read check does not answer", () => {
  it("waits for it 10 s at most, then counts it as a no: what follows goes on", async () => {
    const { registry: served } = registry();
    const { connection, sent, listen } = connect(served);
    const real = resourceChecks.now!;
    // An `allow` waiting on a store that never answers.
    resourceChecks.now = { ...real, mayRead: () => new Promise<boolean>(() => {}) };
    vi.useFakeTimers();
    try {
      const notifications = { toolsListChanged: true, resourceSubscriptions: ["docs://readme"] };
      void listen("L1", notifications);
      expect(sent).toEqual([ack("L1", notifications)]);
      served.emit({ type: "resources/updated", uri: "docs://readme" });
      served.addTool(compileTool("later", { run: () => "" }));
      await vi.advanceTimersByTimeAsync(9_999);
      expect(sent).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      // Was: nothing more, ever: every later notification of the stream waited behind the check.
      expect(sent.slice(1)).toEqual([
        { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: tagged("L1") } },
      ]);
    } finally {
      connection.close();
      vi.useRealTimers();
      resourceChecks.now = real;
    }
  });
});

describe("subscriptions/listen over stdio", () => {
  /** Serves one listen request with serveLines; `end` ends the input, `stop` stops serving as server.close() does. */
  function serve() {
    const { registry: server } = registry();
    const dispatcher = serverDispatcher(server);
    const lines: Record<string, unknown>[] = [];
    const stop = new AbortController();
    let end!: () => void;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    async function* input() {
      yield `${JSON.stringify({
        jsonrpc: "2.0",
        id: "S",
        method: "subscriptions/listen",
        params: { _meta: envelope(), notifications: { toolsListChanged: true } },
      })}\n`;
      await ended;
    }
    const served = serveLines(dispatcher, {
      input: input(),
      write: (chunk) => {
        for (const line of chunk.trim().split("\n")) lines.push(JSON.parse(line));
      },
      signal: stop.signal,
    });
    const acknowledged = within(
      (async () => {
        while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      })(),
    );
    return { dispatcher, lines, stop, end, served, acknowledged };
  }

  it("ends a listen with its final result when the server shuts down", async () => {
    const { dispatcher, lines, stop, served, acknowledged } = serve();
    await acknowledged;
    // What server.close() does: stop reading, then drain.
    stop.abort();
    void dispatcher.drain();
    await within(served);
    expect(lines).toEqual([
      ack("S", { toolsListChanged: true }),
      { jsonrpc: "2.0", id: "S", result: { resultType: "complete", _meta: { ...SERVER_INFO_META, ...tagged("S") } } },
    ]);
  });

  it("ends a listen at once, without a result, when the input ends (the client is gone)", async () => {
    const { lines, end, served, acknowledged } = serve();
    await acknowledged;
    end();
    // Well within the 10 s shutdown grace period that requests in progress get.
    await within(served, 2000, "serving to end");
    expect(lines).toEqual([ack("S", { toolsListChanged: true })]);
  });
});
