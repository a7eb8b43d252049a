/**
 * Every limit of docs/limits.md: its default, what happens at it, and the exact error a client sees,
 * over stdio (serveLines in-process) and HTTP (server.fetch, no network).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { RequestContext } from "../src/core/context.js";
import { Registry } from "../src/core/registry.js";
import type { Schema } from "../src/core/schema.js";
import { compileTool, type ToolConfig } from "../src/core/tools.js";
import { type Context, ErrorCode, McpError, pico } from "../src/index.js";
import { DEFAULT_LIMITS, resolveLimits } from "../src/limits/limits.js";
import type { Limits } from "../src/limits/options.js";
import { DEFAULT_MAX_TASKS } from "../src/tasks/store.js";
import type { HttpOptions } from "../src/transports/http/options.js";
import { SseChannel, Streams } from "../src/transports/http/sse.js";
import { serveLines } from "../src/transports/stdio.js";
import { readId } from "../src/transports/too-large.js";
import { serverDispatcher } from "./core-helpers.js";
import { AFTER_SHUTDOWN, call, MODERN_META, pipe } from "./hardening-helpers.js";
import {
  BOTH,
  bare,
  EventReader,
  initialize,
  inSession,
  messageOf,
  modern,
  modernMessage,
  post,
  signal,
  within,
} from "./http-helpers.js";
import { modernCall, send } from "./wire-helpers.js";

type AnyTool = ToolConfig<Schema | undefined, Schema | undefined>;

function dispatcher(limits: Limits = {}, tools: Record<string, AnyTool> = {}) {
  const registry = new Registry({ name: "limits", version: "1" });
  const all: Record<string, AnyTool> = {
    echo: { input: z.object({ s: z.string() }), run: ({ s }: { s: string }) => s } as unknown as AnyTool,
    ...tools,
  };
  for (const [name, config] of Object.entries(all)) registry.addTool(compileTool(name, config));
  return serverDispatcher(registry, limits);
}

const line = (message: unknown) => `${JSON.stringify(message)}\n`;

describe("limits: options", () => {
  it("has the documented defaults", () => {
    expect(resolveLimits()).toEqual({
      maxMessageBytes: 4 * 1024 * 1024,
      maxConcurrentRequests: 1024,
      maxConcurrentRequestsPerConnection: 256,
      handlerTimeoutMs: 300_000,
      maxSseStreams: 1000,
      maxSseBufferBytes: 1024 * 1024,
      maxHistoryBytesPerSession: 8 * 1024 * 1024,
      maxHistoryBytes: 256 * 1024 * 1024,
      shutdownGraceMs: 10_000,
      maxUsedRequestStates: 10_000,
      maxSubscriptionsPerSession: 1000,
      maxSubscriptionBytesPerSession: 65_536,
      maxUrlElicitationsPerSession: 100,
      maxTasks: 1000,
      maxTasksPerCaller: 100,
      headersTimeoutMs: 10_000,
      receiveTimeoutMs: 30_000,
      maxConnections: 10_000,
    });
    expect(DEFAULT_LIMITS.maxMessageBytes).toBe(4_194_304);
    // The in-memory task store's own default is the instance's bound of running tasks.
    expect(DEFAULT_LIMITS.maxTasks).toBe(DEFAULT_MAX_TASKS);
  });

  it("rejects a limit that is not a positive integer, and unknown names, at start-up", () => {
    expect(() => pico({ name: "x", version: "1", limits: { maxMessageBytes: 0 } })).toThrow(
      "limits.maxMessageBytes must be an integer of at least 1, at most 2^53 - 1, or Infinity; got 0.",
    );
    expect(() => pico({ name: "x", version: "1", limits: { handlerTimeoutMs: 1.5 } })).toThrow(TypeError);
    // Past 2^53 a number is no longer a count a runtime takes (Node's server options refuse one at serve()).
    expect(() => pico({ name: "x", version: "1", limits: { receiveTimeoutMs: 2 ** 60 } })).toThrow(
      "limits.receiveTimeoutMs must be an integer of at least 1, at most 2^53 - 1, or Infinity; got 1152921504606847000.",
    );
    expect(() => pico({ name: "x", version: "1", limits: { maxSessions: 3 } as Limits })).toThrow(
      /^Unknown limit "maxSessions"\. The limits are maxMessageBytes, /,
    );
    expect(() =>
      pico({ name: "x", version: "1", limits: { handlerTimeoutMs: Infinity, shutdownGraceMs: 0 } }),
    ).not.toThrow();
  });

  it("keeps limits out of serverInfo", async () => {
    const app = pico({ name: "x", version: "1", limits: { maxMessageBytes: 10_000 }, signals: false });
    const response = await app.fetch(
      post({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {} },
      }),
    );
    expect((await response.json()).result.serverInfo).toEqual({ name: "x", version: "1" });
  });
});

describe("limits: message size on stdio", () => {
  it("answers an oversized line with -32600 naming the limit and its id, and keeps serving", async () => {
    const io = pipe();
    const served = serveLines(dispatcher({ maxMessageBytes: 1000 }), io);
    io.push(line(call(1, "echo", { s: "x".repeat(2000) })), line(call(2, "echo", { s: "small" })));
    io.end();
    await served;
    const [tooLarge, small] = io.messages();
    expect(tooLarge).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32600,
        message:
          "Invalid Request: the message is larger than 1000 bytes (limits.maxMessageBytes) and was skipped; send smaller messages",
      },
    });
    expect(small).toMatchObject({ id: 2, result: { content: [{ type: "text", text: "small" }] } });
  });

  it("measures a CRLF line without its CR, wherever the chunks split it", async () => {
    const message = JSON.stringify(call(1, "echo", { s: "" }));
    // Exactly the limit, then the CR and the LF: in one chunk, and with the chunk ending after the CR.
    const exact = JSON.stringify(call(1, "echo", { s: "z".repeat(1000 - message.length) }));
    expect(exact).toHaveLength(1000);
    const io = pipe();
    const served = serveLines(dispatcher({ maxMessageBytes: 1000 }), io);
    io.push(`${exact}\r\n`);
    await io.until((messages) => messages.length === 1);
    io.push(`${exact.replace('"id":1', '"id":2')}\r`);
    await new Promise((resolve) => setTimeout(resolve, 20));
    io.push("\n");
    io.end();
    await served;
    expect(io.messages().map((answer) => [answer.id, "result" in answer])).toEqual([
      [1, true],
      [2, true],
    ]);
  });

  it("skips an oversized line as it streams in, answering before its end arrives", async () => {
    const io = pipe();
    const served = serveLines(dispatcher({ maxMessageBytes: 1000 }), io);
    const huge = line(call("big", "echo", { s: "y".repeat(50_000) }));
    // 500-byte chunks: the error is written once the line passes the limit, long before its newline.
    for (let at = 0; at < 2000; at += 500) io.push(huge.slice(at, at + 500));
    await io.until((messages) => messages.length === 1);
    expect(io.messages()[0]).toMatchObject({ id: "big", error: { code: -32600 } });
    for (let at = 2000; at < huge.length; at += 500) io.push(huge.slice(at, at + 500));
    io.push(line(call(3, "echo", { s: "after" })));
    io.end();
    await served;
    expect(io.messages()).toHaveLength(2);
    expect(io.messages()[1]).toMatchObject({ id: 3, result: { content: [{ text: "after" }] } });
  });

  it("counts bytes, not characters: 400 three-byte characters pass a 1000-character check but not 1000 bytes", async () => {
    const io = pipe();
    const served = serveLines(dispatcher({ maxMessageBytes: 1000 }), io);
    io.push(line(call(1, "echo", { s: "€".repeat(400) })), line(call(2, "echo", { s: "€".repeat(100) })));
    io.end();
    await served;
    expect(io.messages().map((message) => [message.id, "error" in message])).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it("answers an oversized last line without a newline, and one whose id is unreadable without an id", async () => {
    const io = pipe();
    const served = serveLines(dispatcher({ maxMessageBytes: 100 }), io);
    io.push(`${JSON.stringify({ jsonrpc: "2.0", method: "tools/call", params: { a: "z".repeat(5000) }, id: 9 })}\n`);
    io.push(JSON.stringify(call(7, "echo", { s: "w".repeat(300) })));
    io.end();
    await served;
    expect(io.messages()).toEqual([
      { jsonrpc: "2.0", error: expect.objectContaining({ code: -32600 }) },
      { jsonrpc: "2.0", id: 7, error: expect.objectContaining({ code: -32600 }) },
    ]);
  });

  it("answers an oversized line whose id JSON does not allow without an id, and keeps reading", async () => {
    const io = pipe();
    const served = serveLines(dispatcher({ maxMessageBytes: 400 }), io);
    // A raw tab in the id string, an escape JSON does not have, a number with a leading zero: the
    // head's id is not JSON, so the error has no id (was: readId threw and reading stopped there).
    const pad = "p".repeat(500);
    for (const id of ['"a\tb"', '"\\q"', "012"])
      io.push(`{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"pad":"${pad}"}}\n`);
    io.push(line(call(4, "echo", { s: "after" })));
    io.end();
    await served;
    expect(io.messages()).toEqual([
      ...[1, 2, 3].map(() => ({ jsonrpc: "2.0", error: expect.objectContaining({ code: -32600 }) })),
      expect.objectContaining({
        id: 4,
        result: expect.objectContaining({ content: [{ type: "text", text: "after" }] }),
      }),
    ]);
    expect(readId('{"id":"a\tb",')).toBeUndefined();
    expect(readId('{"id":"\\u00zz",')).toBeUndefined();
    expect(readId('{"id":-01,')).toBeUndefined();
  });

  it("reads the top-level id from the start of a line only", () => {
    expect(readId('{"jsonrpc":"2.0","id":42,"method":"x"')).toBe(42);
    expect(readId('{"jsonrpc":"2.0","id":"a\\"b","method":"x"')).toBe('a"b');
    expect(readId('{"params":{"id":1},"method":"id","id":"top",')).toBe("top");
    expect(readId('{"params":{"id":1}')).toBeUndefined();
    expect(readId('[{"id":1}]')).toBeUndefined();
    expect(readId('{"id":1.5,')).toBeUndefined();
    expect(readId('{"id":null,')).toBeUndefined();
    expect(readId('{"method":"x","id":12')).toBeUndefined();
  });
});

describe("limits: message size on HTTP", () => {
  it("defaults the HTTP body limit to maxMessageBytes", async () => {
    const app = pico({ name: "x", version: "1", limits: { maxMessageBytes: 500 }, signals: false });
    const response = await app.fetch(post({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "p".repeat(600) } }));
    expect(response.status).toBe(413);
    expect((await response.json()).error).toEqual({
      code: -32600,
      message: "Payload Too Large: request bodies are limited to 500 bytes",
    });
  });
});

/** A tool that waits until released, and counts its runs. */
function gated() {
  const gate = signal();
  let started = 0;
  const tool = {
    run: async () => {
      started++;
      await gate.promise;
      return "done";
    },
  } as unknown as AnyTool;
  return { gate, tool, started: () => started };
}

describe("limits: concurrent requests", () => {
  it("answers past maxConcurrentRequestsPerConnection with a busy error, then serves again", async () => {
    const { gate, tool, started } = gated();
    const io = pipe();
    const served = serveLines(dispatcher({ maxConcurrentRequestsPerConnection: 3 }, { wait: tool }), io);
    for (let id = 1; id <= 5; id++) io.push(line(call(id, "wait")));
    await io.until((messages) => messages.length === 2);
    expect(started()).toBe(3);
    expect(io.messages()).toEqual(
      [4, 5].map((id) => ({
        jsonrpc: "2.0",
        id,
        error: {
          code: -32603,
          message:
            "Server busy: too many requests in progress on this connection (limits.maxConcurrentRequestsPerConnection = 3); retry after a request in progress has been answered",
          data: { limit: "maxConcurrentRequestsPerConnection", max: 3 },
        },
      })),
    );
    gate.resolve();
    await io.until((messages) => messages.length === 5);
    io.push(line(call(6, "echo", { s: "again" })));
    io.end();
    await served;
    expect(io.messages().at(-1)).toMatchObject({ id: 6, result: { content: [{ text: "again" }] } });
  });

  it("frees a cancelled request's slot, and its id, as the cancellation is read", async () => {
    const { gate, tool, started } = gated();
    const io = pipe();
    const served = serveLines(dispatcher({ maxConcurrentRequestsPerConnection: 2 }, { wait: tool }), io);
    io.push(line(call(1, "wait")), line(call(2, "wait")));
    await io.until(() => started() === 2);
    // One chunk: the cancellation, then a request in its slot, then one reusing the cancelled id (the
    // client is done with it, 2025-11-25 "Cancellation"). Before, both were refused: the slot and the
    // id stayed taken until the handler settled.
    io.push(
      [
        line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }),
        line(call(3, "wait")),
        line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } }),
        line(call(1, "wait")),
      ].join(""),
    );
    await io.until(() => started() === 4);
    gate.resolve();
    io.end();
    await served;
    const answers = io.messages().map((message) => [message.id, message.error ?? "done"]);
    expect(answers).toEqual([
      [2, "done"],
      [1, "done"],
    ]);
  });

  it("answers past maxConcurrentRequests on HTTP with 503, Retry-After and the busy error", async () => {
    const gate = signal();
    const app = pico({ name: "x", version: "1", limits: { maxConcurrentRequests: 2 }, signals: false }).tool("wait", {
      run: async () => {
        await gate.promise;
        return "done";
      },
    });
    const first = [
      app.fetch(modern("tools/call", { name: "wait" })),
      app.fetch(modern("tools/call", { name: "wait" })),
    ];
    await new Promise((resolve) => setTimeout(resolve, 20));
    const refused = await app.fetch(modern("tools/call", { name: "wait" }, {}, { id: "third" }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({
      id: "third",
      error: { code: -32603, data: { limit: "maxConcurrentRequests", max: 2 } },
    });
    gate.resolve();
    for (const response of await Promise.all(first)) expect(response.status).toBe(200);
  });

  it.each([
    ["with sessions", {}],
    ["without sessions", { sessions: false as const }],
  ])("refuses an initialize during the shutdown with 503 and Retry-After, %s", async (_, http) => {
    const gate = signal();
    const app = pico({ name: "x", version: "1", signals: false, http }).tool("wait", {
      run: async () => {
        await gate.promise;
        return "done";
      },
    });
    const first = app.fetch(modern("tools/call", { name: "wait" }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The call in progress has the grace period to finish: the server is shutting down meanwhile.
    const closed = app.close();
    const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
    const refused = await app.fetch(post({ jsonrpc: "2.0", id: 7, method: "initialize", params }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    // Refused with its id: a POST is read while closing, so that a client's answers still reach requests in progress.
    expect(await refused.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32603, message: expect.stringMatching(/^Server shutting down/) },
    });
    gate.resolve();
    expect((await first).status).toBe(200);
    await closed;
  });

  it("does not count subscriptions/listen streams against the request limits", async () => {
    const app = pico({ name: "x", version: "1", limits: { maxConcurrentRequests: 1 }, signals: false }).tool("t", {
      run: () => "ok",
    });
    const listen = await app.fetch(modern("subscriptions/listen", { notifications: { toolsListChanged: true } }));
    const reader = new EventReader(listen);
    await reader.next();
    const response = await app.fetch(modern("tools/call", { name: "t" }));
    expect((await response.json()).result.content).toEqual([{ type: "text", text: "ok" }]);
    await reader.cancel();
  });
});

describe("limits: handler timeout", () => {
  it("answers a tool that runs too long with a tool error, and aborts its signal with a TimeoutError", async () => {
    const reason = signal<unknown>();
    const io = pipe();
    const slow = {
      run: (_args: unknown, ctx: Context) =>
        new Promise(() => ctx.signal.addEventListener("abort", () => reason.resolve(ctx.signal.reason))),
    } as unknown as AnyTool;
    const served = serveLines(dispatcher({ handlerTimeoutMs: 40 }, { slow }), io);
    io.push(line(call(1, "slow")));
    await io.until((messages) => messages.length === 1);
    expect(io.messages()[0]).toMatchObject({
      id: 1,
      result: {
        content: [
          {
            type: "text",
            text: 'Tool "slow" did not finish within 0.04 s (limits.handlerTimeoutMs) and was cancelled.',
          },
        ],
        isError: true,
        resultType: "complete",
      },
    });
    const aborted = (await within(reason.promise)) as DOMException;
    expect(aborted.name).toBe("TimeoutError");
    io.end();
    await served;
  });

  it("answers any other method that runs too long with -32603", async () => {
    const app = pico({ name: "x", version: "1", limits: { handlerTimeoutMs: 30 }, signals: false }).resource(
      "slow://r",
      {
        read: () => new Promise<string>(() => {}),
      },
    );
    const response = await app.fetch(modern("resources/read", { uri: "slow://r" }));
    expect((await response.json()).error).toEqual({
      code: -32603,
      message:
        'Request timed out: "resources/read" did not finish within 0.03 s (limits.handlerTimeoutMs) and was cancelled',
    });
  });
});

describe("limits: SSE streams", () => {
  const progressTool = (started: () => void, gate: Promise<void>) => ({
    run: async (_args: unknown, ctx: Context) => {
      (ctx as RequestContext).emit?.({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: 1, progress: 1 },
      });
      started();
      await gate;
      return "finished";
    },
  });

  it("answers a GET past maxSseStreams with 503, and JSON (no stream) to a request that can take it", async () => {
    const gate = signal();
    const started = signal();
    const app = pico({ name: "x", version: "1", limits: { maxSseStreams: 1 }, signals: false }).tool(
      "progress",
      progressTool(started.resolve, gate.promise) as never,
    );
    const session = await initialize(app);
    const get = await app.fetch(bare("GET", { accept: "text/event-stream", "mcp-session-id": session }));
    expect(get.status).toBe(200);
    // Another session's: a GET of this one takes the place of its open stream (test/http-dead-stream.test.ts).
    const other = await initialize(app);
    const second = await app.fetch(bare("GET", { accept: "text/event-stream", "mcp-session-id": other }));
    expect(second.status).toBe(503);
    expect((await second.json()).error).toMatchObject({ code: -32603, data: { limit: "maxSseStreams", max: 1 } });
    // A request whose handler emits a notification would stream; at the limit it gets plain JSON.
    const pending = app.fetch(inSession(session, call(5, "progress", {}, false)));
    await started.promise;
    gate.resolve();
    const response = await pending;
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ id: 5, result: { content: [{ text: "finished" }] } });
    // SSE-only clients and listen need a stream: 503.
    const sseOnly = await app.fetch(
      inSession(session, call(6, "progress", {}, false), { accept: "text/event-stream" }),
    );
    expect(sseOnly.status).toBe(503);
    const listen = await app.fetch(modern("subscriptions/listen", { notifications: {} }));
    expect(listen.status).toBe(503);
    await get.body!.cancel();
    const again = await app.fetch(bare("GET", { accept: "text/event-stream", "mcp-session-id": other }));
    expect(again.status).toBe(200);
    await again.body!.cancel();
  });

  it("drops a stream whose reader falls more than maxSseBufferBytes behind, and cancels its request", async () => {
    const aborted = signal<unknown>();
    let sent = 0;
    const app = pico({ name: "x", version: "1", limits: { maxSseBufferBytes: 10_000 }, signals: false }).tool("flood", {
      run: async (_args, ctx) => {
        // Far more than the buffer allows, each write waiting a turn so the stream can be read (it is not).
        while (!ctx.signal.aborted && sent < 10_000) {
          (ctx as RequestContext).emit?.({
            jsonrpc: "2.0",
            method: "notifications/message",
            params: { level: "info", data: "x".repeat(500) },
          });
          sent++;
          await new Promise((resolve) => setTimeout(resolve, 0));
        }
        aborted.resolve(ctx.signal.reason);
        return "never sent";
      },
    });
    const response = await app.fetch(modern("tools/call", { name: "flood" }, { accept: BOTH }));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reason = (await within(aborted.promise, 5000, "the dropped stream cancelling the request")) as Error;
    expect(reason.message).toBe("The client stopped reading the stream");
    // The logs past 10 kB were let go, not queued (a request's own stream sheds them); the reader, still
    // behind a second later, was dropped and the tool cancelled long before its 10,000th log.
    expect(sent).toBeLessThan(10_000);
    await expect(response.text()).rejects.toThrow();
  });

  it.each([
    ["a tool call's stream: 200 logs of 1 kB, then the result", "burst"],
    ["a listen stream: updates of 200 resources", "listen"],
  ])("keeps %s written at once past maxSseBufferBytes (64 KiB) for a reader that keeps up", async (_, what) => {
    const big = "x".repeat(1000);
    const app = pico({ name: "x", version: "1", limits: { maxSseBufferBytes: 64 * 1024 }, signals: false })
      .tool("burst", {
        run: (_args, ctx) => {
          for (let i = 0; i < 200; i++) ctx.log.info(`${i} ${big}`);
          return "all sent";
        },
      })
      .resource("notes://{id}", { read: ({ id }) => id });
    const listener = await app.serve({ port: 0 });
    try {
      const params =
        what === "burst"
          ? { name: "burst", arguments: {}, _meta: { "io.modelcontextprotocol/logLevel": "info" } }
          : { notifications: { resourceSubscriptions: ["notes://"] } };
      const { headers, body } = modernMessage(what === "burst" ? "tools/call" : "subscriptions/listen", params);
      const response = await fetch(listener.url, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", accept: BOTH },
        body: JSON.stringify(body),
      });
      const reader = new EventReader(response);
      if (what === "listen") {
        expect(messageOf(await reader.next()).method).toBe("notifications/subscriptions/acknowledged");
        for (let i = 0; i < 200; i++) app.resourceUpdated(`notes://${i}-${big}`);
        app.resourceUpdated("notes://last");
      }
      // Was: the stream dropped (the fetch "terminated", nothing read) though the reader read as fast as it could.
      const got: Record<string, unknown>[] = [];
      const last = (message: Record<string, unknown> | undefined) =>
        message?.id !== undefined || (message?.params as { uri?: string } | undefined)?.uri === "notes://last";
      while (!last(got.at(-1))) got.push(messageOf(await reader.next()));
      expect(got).toHaveLength(201);
      if (what === "burst") expect(got.at(-1)).toMatchObject({ result: { content: [{ text: "all sent" }] } });
      await reader.cancel();
    } finally {
      await listener.close();
    }
  });

  it("drops a stream left more than twice maxSseBufferBytes behind by one burst once its turn ends", async () => {
    const streams = new Streams(10, 100);
    let cancelled = 0;
    const channel = new SseChannel({ onCancel: () => cancelled++, streams });
    let queued = 0;
    let aborted = false;
    // A reader that takes nothing: everything written stays queued.
    channel.attach({
      write: (chunk) => {
        queued += chunk.length;
        return false;
      },
      close: () => {},
      backlog: () => queued,
      abort: () => {
        aborted = true;
      },
    });
    for (let i = 0; i < 10; i++) channel.write("z".repeat(40));
    expect(channel.closed).toBe(false);
    // Was: nothing more written, nothing checked: the 400 bytes stayed held as long as the connection lasted.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(channel.closed).toBe(true);
    expect(aborted).toBe(true);
    expect(cancelled).toBe(1);
    expect(streams.open).toBe(0);
  });

  it("bounds what a channel holds before anyone attaches, and frees its slot", async () => {
    const streams = new Streams(10, 100);
    let cancelled = 0;
    const channel = new SseChannel({ onCancel: () => cancelled++, streams });
    expect(streams.open).toBe(1);
    // A write a turn: what one turn writes is not counted until it ends (a burst does not drop a reader).
    for (let i = 0; i < 10; i++) {
      channel.write("z".repeat(40));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(channel.closed).toBe(true);
    expect(cancelled).toBe(1);
    expect(streams.open).toBe(0);
    const written: string[] = [];
    channel.attach({
      write: (chunk) => written.push(String(chunk)) > 0,
      close: () => written.push("closed"),
    });
    expect(written).toEqual(["closed"]);
  });
});

describe("limits: legacy sessions", () => {
  it("does not evict a live session for an initialize that fails at maxSessions", async () => {
    const app = pico({ name: "x", version: "1", http: { sessions: { maxSessions: 1 } }, signals: false }).tool("t", {
      run: () => "ok",
    });
    const session = await initialize(app);
    const bad = await app.fetch(post({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }));
    expect(bad.status).toBe(400);
    const still = await app.fetch(inSession(session, call(2, "t", {}, false)));
    expect(still.status).toBe(200);
    expect((await still.json()).result.content).toEqual([{ type: "text", text: "ok" }]);
  });
});

describe("limits: the numbers among the HTTP options", () => {
  it("refuses a session lifetime of 0, and its siblings out of range, naming the option and what it may be", async () => {
    // Before: sessions.idleTimeoutMs 0 served, and forgot every session before its next request.
    const zero = pico({ name: "x", version: "1", http: { sessions: { idleTimeoutMs: 0 } }, signals: false });
    // serve() rejects with it; server.fetch answers 500 and logs it (http-start-failure.test.ts).
    await expect(zero.serve({ port: 0, host: "127.0.0.1" })).rejects.toThrow(
      new TypeError("The HTTP option sessions.idleTimeoutMs must be an integer of at least 1; got 0."),
    );
    // The one such option at the top level of pico(), checked there: 0 failed every question at once.
    expect(() => pico({ name: "x", askTimeoutMs: 0 })).toThrow(
      new TypeError("askTimeoutMs must be an integer from 1 to 2147483647 (ms); got 0."),
    );
    expect(() => pico({ name: "x", askTimeoutMs: 2 ** 31 })).toThrow(TypeError);
    for (const [http, message] of [
      [{ sessions: { maxSessions: 0 } }, "sessions.maxSessions must be an integer of at least 1; got 0."],
      [{ sessions: { eventHistory: -1 } }, "sessions.eventHistory must be an integer of at least 1; got -1."],
      [
        { sessions: { idleTimeoutMs: Number.NaN } },
        "sessions.idleTimeoutMs must be an integer of at least 1; got NaN.",
      ],
      [{ sessions: { retryMs: Infinity } }, "sessions.retryMs must be an integer of at least 0; got Infinity."],
      [{ sessions: { maxSessions: Infinity } }, "sessions.maxSessions must be an integer of at least 1; got Infinity."],
      [{ sessions: { retryMs: 1.5 } }, "sessions.retryMs must be an integer of at least 0; got 1.5."],
      [{ maxBodyBytes: 0 }, "maxBodyBytes must be an integer of at least 1; got 0."],
      [{ sessions: { idleTimeoutMs: "60000" } }, "sessions.idleTimeoutMs must be an integer of at least 1; got 60000."],
    ] as const) {
      const app = pico({ name: "x", version: "1", http: http as HttpOptions, signals: false });
      await expect(app.serve({ port: 0, host: "127.0.0.1" })).rejects.toThrow(`The HTTP option ${message}`);
    }
  });

  it("serves with each at its least (a lifetime of 1 ms aside, which would end the session under the test)", async () => {
    const sessions = { idleTimeoutMs: 60_000, maxSessions: 1, eventHistory: 1, retryMs: 0 };
    await initialize(pico({ name: "x", version: "1", http: { sessions, maxBodyBytes: 1024 }, signals: false }));
  });
});

describe("batches", () => {
  it("answers 2026-07-28 requests inside a 2025-03-26 batch with -32600, on stdio and HTTP", async () => {
    const io = pipe();
    const served = serveLines(dispatcher(), io);
    io.push(
      line({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {} },
      }),
    );
    io.push(
      line([
        call(1, "echo", { s: "modern" }),
        call(2, "echo", { s: "legacy" }, false),
        { jsonrpc: "2.0", method: "notifications/progress", params: { _meta: MODERN_META } },
      ]),
    );
    io.end();
    await served;
    const batch = io.messages()[1] as unknown as Record<string, unknown>[];
    expect(batch).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32600,
          message: "Invalid Request: 2026-07-28 requests cannot be part of a batch; send each one on its own",
        },
      },
      expect.objectContaining({
        id: 2,
        result: expect.objectContaining({ content: [{ type: "text", text: "legacy" }] }),
      }),
    ]);

    const app = pico({ name: "x", version: "1", signals: false }).tool("t", { run: () => "ok" });
    const session = await initialize(app, "2025-03-26");
    const response = await app.fetch(
      inSession(session, [call(1, "t"), call(2, "t", {}, false)], { "mcp-protocol-version": "2025-03-26" }),
    );
    const answers = (await response.json()) as { id: number; error?: { code: number } }[];
    expect(answers.map((answer) => [answer.id, answer.error?.code])).toEqual([
      [1, -32600],
      [2, undefined],
    ]);
  });
  it("refuses a batch of more messages than maxConcurrentRequestsPerConnection with one -32600, on stdio and HTTP", async () => {
    // Before, each element was answered: a 4 MB batch of `1`s made a 224 MB answer and 650 MiB of heap.
    const max = 5;
    const overlong = (count: number) =>
      `Invalid Request: a batch of ${count} messages is more than the ${max} one connection may have in progress (limits.maxConcurrentRequestsPerConnection); send at most ${max} messages per batch`;
    const io = pipe();
    const served = serveLines(dispatcher({ maxConcurrentRequestsPerConnection: max }), io);
    io.push(
      line({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {} },
      }),
      line(Array.from({ length: 1000 }, () => 1)),
      line(Array.from({ length: max }, (_, i) => call(i + 1, "echo", { s: `${i}` }, false))),
    );
    io.end();
    await served;
    const [, refused, answered] = io.messages() as unknown[];
    expect(refused).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: overlong(1000) } });
    expect((answered as { id: number }[]).map((answer) => answer.id)).toEqual([1, 2, 3, 4, 5]);

    const app = pico({ name: "x", version: "1", signals: false, limits: { maxConcurrentRequestsPerConnection: max } });
    app.tool("t", { run: () => "ok" });
    const session = await initialize(app, "2025-03-26");
    const batch = (count: number) =>
      app.fetch(
        inSession(
          session,
          Array.from({ length: count }, (_, i) => call(i + 1, "t", {}, false)),
          { "mcp-protocol-version": "2025-03-26" },
        ),
      );
    const response = await batch(max + 1);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: overlong(max + 1) },
    });
    expect(((await (await batch(max)).json()) as unknown[]).length).toBe(max);
  });
});

describe("SSE replies still answer once a reader catches up", () => {
  it("streams progress and the result to a reader that reads", async () => {
    const app = pico({ name: "x", version: "1", signals: false }).tool("p", {
      run: async (_args, ctx) => {
        (ctx as RequestContext).emit?.({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: 1, progress: 1 },
        });
        return "done";
      },
    });
    const reader = new EventReader(await app.fetch(modern("tools/call", { name: "p" })));
    const events = await reader.rest();
    expect(messageOf(events.at(-1))).toMatchObject({ result: { content: [{ text: "done" }] } });
  });
});

describe("limits: a refusal is known by what it is, not by its text", () => {
  /** One request to a real loopback listener: its status, Retry-After and the exact bytes of its body. */
  async function wire(url: string, method: string, params: Record<string, unknown>) {
    const request = modernCall(method, params);
    const reply = await send(url, request);
    const id = (request.body as { id: number }).id;
    return { status: reply.status, retryAfter: reply.headers["retry-after"], text: reply.text, id };
  }

  /** A tool that throws an McpError whose text reads like a refusal of the server's own. */
  const says = (message: string) => ({
    run: (): string => {
      throw new McpError(ErrorCode.InternalError, message);
    },
  });

  it("answers busy and closing with 503 and their exact bytes, and a tool's own words with 200", async () => {
    const gate = signal();
    const app = pico({ name: "x", version: "1", limits: { maxConcurrentRequests: 1 }, signals: false })
      .tool("wait", {
        run: async () => {
          await gate.promise;
          return "done";
        },
      })
      .tool("says_busy", says("Server busy: a tool's own words"))
      .tool("says_closing", says("Server shutting down: a tool's own words"));
    const listening = await app.serve({ port: 0 });
    try {
      // Text that looks like a refusal, from a tool: an ordinary in-band error (HTTP 200).
      for (const [name, text] of [
        ["says_busy", "Server busy: a tool's own words"],
        ["says_closing", "Server shutting down: a tool's own words"],
      ] as const) {
        const reply = await wire(listening.url, "tools/call", { name });
        expect(reply.status, name).toBe(200);
        expect(reply.retryAfter).toBeUndefined();
        expect(reply.text).toBe(`{"jsonrpc":"2.0","id":${reply.id},"error":{"code":-32603,"message":"${text}"}}`);
      }
      // A request past maxConcurrentRequests: 503, byte for byte what it always was.
      const waiting = wire(listening.url, "tools/call", { name: "wait" });
      let busy = await wire(listening.url, "tools/call", { name: "says_busy" });
      for (let tries = 0; busy.status === 200 && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        busy = await wire(listening.url, "tools/call", { name: "says_busy" });
      }
      expect(busy).toMatchObject({ status: 503, retryAfter: "1" });
      expect(busy.text).toBe(
        `{"jsonrpc":"2.0","id":${busy.id},"error":{"code":-32603,"message":"Server busy: too many requests in progress on this server (limits.maxConcurrentRequests = 1); retry after a request in progress has been answered","data":{"limit":"maxConcurrentRequests","max":1}}}`,
      );
      // Shutting down: a new request is refused with 503; the one in progress finishes.
      const closed = listening.close();
      const refused = await wire(listening.url, "tools/call", { name: "says_busy" });
      expect(refused).toMatchObject({ status: 503, retryAfter: "1" });
      expect(refused.text).toBe(
        `{"jsonrpc":"2.0","id":${refused.id},"error":{"code":-32603,"message":"Server shutting down: it accepts no new requests; send this one again in a moment, to another instance of the server or to this one once restarted"}}`,
      );
      gate.resolve();
      expect(await waiting).toMatchObject({ status: 200 });
      await closed;
    } finally {
      gate.resolve();
      await listening.close();
    }
  });

  it("answers a request that outlives the shutdown's grace period with 503, as before", async () => {
    const app = pico({ name: "x", version: "1", limits: { shutdownGraceMs: 20 }, signals: false }).tool("hang", {
      run: () => new Promise<string>(() => {}),
    });
    const hanging = app.fetch(modern("tools/call", { name: "hang" }, {}, { id: "late" }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    await app.close();
    const response = await hanging;
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.text()).toBe(
      `{"jsonrpc":"2.0","id":"late","error":{"code":-32603,"message":"Server shutting down: \\"tools/call\\" did not finish within the 0.02 s grace period of the shutdown (limits.shutdownGraceMs) and was cancelled${AFTER_SHUTDOWN}"}}`,
    );
  });

  it("gives requests in progress all the time they need with shutdownGraceMs: Infinity", async () => {
    let release: ((text: string) => void) | undefined;
    const app = pico({ name: "x", version: "1", limits: { shutdownGraceMs: Infinity }, signals: false }).tool("wait", {
      run: () =>
        new Promise<string>((resolve) => {
          release = resolve;
        }),
    });
    const waiting = app.fetch(modern("tools/call", { name: "wait" }, {}, { id: "patient" }));
    await expect.poll(() => release !== undefined, { timeout: 5000 }).toBe(true);
    const closed = app.close();
    // Well past the 1 ms a timer of Infinity fires after (was: the call was cut off then, with a 503
    // saying it did not finish "within the Infinity s grace period").
    await new Promise((resolve) => setTimeout(resolve, 50));
    release!("done");
    const response = await waiting;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      jsonrpc: "2.0",
      id: "patient",
      result: { content: [{ type: "text", text: "done" }] },
    });
    await closed;
  });
});
