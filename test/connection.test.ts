import { describe, expect, it, vi } from "vitest";
import type { Context } from "../src/core/context.js";
import type { JsonRpcMessage } from "../src/core/jsonrpc.js";
import { Registry } from "../src/core/registry.js";
import type { Schema } from "../src/core/schema.js";
import { compileTool, type ToolConfig } from "../src/core/tools.js";
import type { Limits } from "../src/limits/options.js";
import { SubscriptionSet } from "../src/resources/subscriptions.js";
import { Connection } from "../src/transports/connection.js";
import { holdMessages } from "../src/transports/held.js";
import { serverDispatcher } from "./core-helpers.js";
import { within } from "./http-helpers.js";

type AnyToolConfig = ToolConfig<Schema | undefined, Schema | undefined>;

function setup(tools: Record<string, AnyToolConfig> = { echo: { run: () => "echo" } }, limits?: Limits) {
  const registry = new Registry({ name: "t", version: "1" });
  for (const [name, config] of Object.entries(tools)) registry.addTool(compileTool(name, config));
  const sent: (JsonRpcMessage | JsonRpcMessage[])[] = [];
  const connection = new Connection(serverDispatcher(registry, limits), { deliver: (message) => sent.push(message) });
  return { registry, connection, sent };
}

const initialize = (version = "2025-11-25", id: number | string = 0) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "c", version: "1" } },
});
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * A 2025 session on `connection`, told an update of a resource it subscribed to whose read check never
 * answers: what is sent after it is held (Connection's #tell). `sent` is emptied first.
 */
async function stuckUpdate({ connection, registry, sent }: ReturnType<typeof setup>): Promise<void> {
  await connection.receive(initialize());
  await connection.receive(initialized);
  const session = connection.session!;
  session.subscriptions = new SubscriptionSet(["notes://stuck"]);
  session.readCheck = { allows: () => new Promise<boolean>(() => {}), hold: holdMessages };
  sent.length = 0;
  registry.emit({ type: "resources/updated", uri: "notes://stuck" });
}

/** A tool `say` that logs, then answers: a log and a response, sent after an update in the tests that hold one. */
const saysAfterTheUpdate: Record<string, AnyToolConfig> = {
  say: {
    run: (_args, ctx) => {
      ctx.log.info("after the update");
      return "said";
    },
  },
};

describe("single messages", () => {
  it("answers requests and sends the answer", async () => {
    const { connection, sent } = setup();
    await connection.receive({ jsonrpc: "2.0", id: 1, method: "ping" });
    expect(sent).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
  });

  it("never answers notifications, responses or unknown notifications", async () => {
    const { connection, sent } = setup();
    await connection.receive(initialize());
    sent.length = 0;
    await connection.receive(initialized);
    await connection.receive({ jsonrpc: "2.0", method: "notifications/whatever", params: { x: 1 } });
    await connection.receive({ jsonrpc: "2.0", id: 99, result: {} });
    await connection.receive({ jsonrpc: "2.0", id: 98, error: { code: -1, message: "no" } });
    expect(sent).toEqual([]);
  });

  it("omits the id from errors when it cannot be read", async () => {
    const { connection, sent } = setup();
    const cases: [unknown, string][] = [
      [42, "Invalid Request: expected a JSON-RPC object, got number 42"],
      ["ping", 'Invalid Request: expected a JSON-RPC object, got string "ping"'],
      [null, "Invalid Request: expected a JSON-RPC object, got null"],
      [{ jsonrpc: "2.0", id: null, method: "ping" }, 'Invalid Request: "id" must be a string or an integer, got null'],
      [
        { jsonrpc: "2.0", id: 1.5, method: "ping" },
        'Invalid Request: "id" must be a string or an integer, got number 1.5',
      ],
      [
        { jsonrpc: "2.0", id: { n: 1 }, method: "ping" },
        'Invalid Request: "id" must be a string or an integer, got an object',
      ],
      [
        { jsonrpc: "2.0", id: [1], method: "ping" },
        'Invalid Request: "id" must be a string or an integer, got an array',
      ],
      [{ jsonrpc: "1.0", method: "ping" }, 'Invalid Request: "jsonrpc" must be "2.0"'],
      [{ jsonrpc: "2.0", method: 5 }, 'Invalid Request: "method" must be a string'],
      [{ jsonrpc: "2.0", method: "notifications/x", params: [1] }, 'Invalid Request: "params" must be an object'],
    ];
    for (const [value, message] of cases) {
      sent.length = 0;
      await connection.receive(value);
      expect(sent, JSON.stringify(value)).toEqual([{ jsonrpc: "2.0", error: { code: -32600, message } }]);
    }
  });

  it("keeps a readable id on errors about the rest of the message", async () => {
    const { connection, sent } = setup();
    await connection.receive({ jsonrpc: "1.0", id: 1, method: "ping" });
    await connection.receive({ id: "a", method: "ping" });
    await connection.receive({ jsonrpc: "2.0", id: 2 });
    await connection.receive({ jsonrpc: "2.0", id: 3, method: "ping", params: "x" });
    await connection.receive({ jsonrpc: "2.0", id: 4, method: "ping", params: [] });
    expect(sent).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' } },
      { jsonrpc: "2.0", id: "a", error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' } },
      { jsonrpc: "2.0", id: 2, error: { code: -32600, message: 'Invalid Request: "method" must be a string' } },
      {
        jsonrpc: "2.0",
        id: 3,
        error: { code: -32602, message: 'Invalid params: "params" must be an object, got string "x"' },
      },
      {
        jsonrpc: "2.0",
        id: 4,
        error: { code: -32602, message: 'Invalid params: "params" must be an object, got an array' },
      },
    ]);
  });
});

describe("batches", () => {
  it("are refused before initialize and under versions other than 2025-03-26", async () => {
    for (const version of [undefined, "2025-11-25", "2025-06-18", "2024-11-05"]) {
      const { connection, sent } = setup();
      if (version) await connection.receive(initialize(version));
      sent.length = 0;
      await connection.receive([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
      expect(sent, version).toEqual([
        {
          jsonrpc: "2.0",
          error: {
            code: -32600,
            message: "Invalid Request: batches are only allowed under protocol 2025-03-26; send one message at a time",
          },
        },
      ]);
    }
  });

  it("are answered with one array, in order, under 2025-03-26", async () => {
    const { connection, sent } = setup();
    await connection.receive(initialize("2025-03-26"));
    sent.length = 0;
    await connection.receive([
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      initialized,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo" } },
      { jsonrpc: "2.0", id: 3, method: "nope" },
      42,
      { jsonrpc: "2.0", id: 9, result: {} },
      { jsonrpc: "2.0", id: 4, method: "ping" },
    ]);
    expect(sent).toEqual([
      [
        {
          jsonrpc: "2.0",
          id: 1,
          result: { tools: [{ name: "echo", inputSchema: { type: "object", additionalProperties: false } }] },
        },
        { jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "echo" }] } },
        {
          jsonrpc: "2.0",
          id: 3,
          error: { code: -32601, message: 'Method not found: "nope" is not available in protocol 2025-03-26' },
        },
        {
          jsonrpc: "2.0",
          error: { code: -32600, message: "Invalid Request: expected a JSON-RPC object, got number 42" },
        },
        { jsonrpc: "2.0", id: 4, result: {} },
      ],
    ]);
  });

  it("send nothing when every member is a notification", async () => {
    const { connection, sent } = setup();
    await connection.receive(initialize("2025-03-26"));
    sent.length = 0;
    await connection.receive([
      initialized,
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } },
    ]);
    expect(sent).toEqual([]);
  });

  it("may not contain initialize", async () => {
    const { connection, sent } = setup();
    await connection.receive(initialize("2025-03-26"));
    sent.length = 0;
    await connection.receive([initialize("2025-03-26", 5), { jsonrpc: "2.0", id: 6, method: "ping" }]);
    expect(sent).toEqual([
      [
        {
          jsonrpc: "2.0",
          id: 5,
          error: { code: -32600, message: "Invalid Request: initialize must not be part of a batch" },
        },
        { jsonrpc: "2.0", id: 6, result: {} },
      ],
    ]);
  });

  it("may not be empty", async () => {
    for (const version of [undefined, "2025-03-26"]) {
      const { connection, sent } = setup();
      if (version) await connection.receive(initialize(version));
      sent.length = 0;
      await connection.receive([]);
      expect(sent).toEqual([
        {
          jsonrpc: "2.0",
          error: { code: -32600, message: "Invalid Request: an empty batch; send one message at a time" },
        },
      ]);
    }
  });
});

describe("cancellation", () => {
  function slow() {
    const held = gate();
    const started = gate();
    let ctx: Context | undefined;
    const it = setup({
      slow: {
        run: async (_args, context) => {
          ctx = context;
          started.open();
          await held.opened;
          return "done";
        },
      },
    });
    return { ...it, release: held.open, started: started.opened, ctx: () => ctx! };
  }

  for (const era of ["legacy", "modern"] as const) {
    it(`sends no response for a cancelled ${era} request`, async () => {
      const { connection, sent, release, started, ctx } = slow();
      if (era === "legacy") {
        await connection.receive(initialize());
        await connection.receive(initialized);
      }
      sent.length = 0;
      const params = era === "modern" ? { name: "slow", _meta: envelope } : { name: "slow" };
      const done = connection.receive({ jsonrpc: "2.0", id: "call-1", method: "tools/call", params });
      await started;
      const signal = ctx().signal;
      await connection.receive({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: "call-1", reason: "User pressed stop" },
      });
      expect(signal.aborted).toBe(true);
      expect(signal.reason).toMatchObject({ name: "AbortError", message: "User pressed stop" });
      release();
      await done;
      expect(sent).toEqual([]);
      expect(connection.size).toBe(0);
    });
  }

  it("cancels a request only from its own connection, though a connection keeps the map of its requests only while one runs", async () => {
    const running: { signal: AbortSignal; finish: () => void }[] = [];
    const { connection: a, sent } = setup({
      wait: {
        run: (_args, ctx) =>
          new Promise<string>((resolve) => running.push({ signal: ctx.signal, finish: () => resolve("done") })),
      },
    });
    const b = new Connection(a.dispatcher, { deliver: (message) => sent.push(message) });
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait", _meta: envelope } };
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } };
    // a's request ends, and a keeps no map: b's request, of the same id, is in the one a left.
    const first = a.receive(call);
    await vi.waitFor(() => expect(running).toHaveLength(1));
    running[0]!.finish();
    await first;
    const second = b.receive(call);
    await vi.waitFor(() => expect(running).toHaveLength(2));
    await a.receive(cancel);
    expect(running[1]!.signal.aborted).toBe(false);
    expect([a.size, b.size]).toEqual([0, 1]);
    await b.receive(cancel);
    expect(running[1]!.signal.aborted).toBe(true);
    await second;
    expect([a.size, b.size]).toEqual([0, 0]);
    expect(sent.map((message) => "id" in message && message.id)).toEqual([1]);
  });

  it("gives a handler that reads its signal after the cancel an aborted signal", async () => {
    const held = gate();
    const started = gate();
    let aborted: boolean | undefined;
    const { connection, sent } = setup({
      t: {
        run: async (_args, ctx) => {
          started.open();
          await held.opened;
          aborted = ctx.signal.aborted;
          return "";
        },
      },
    });
    const done = connection.receive({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "t", _meta: envelope },
    });
    await started.opened;
    await connection.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    held.open();
    await done;
    expect(aborted).toBe(true);
    expect(sent).toEqual([]);
  });

  it("cancels only the request it names", async () => {
    const { connection, sent, release, started, ctx } = slow();
    const done = connection.receive({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "slow", _meta: envelope },
    });
    await started;
    await connection.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } });
    expect(ctx().signal.aborted).toBe(false);
    release();
    await done;
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        result: {
          content: [{ type: "text", text: "done" }],
          resultType: "complete",
          _meta: { "io.modelcontextprotocol/serverInfo": { name: "t", version: "1" } },
        },
      },
    ]);
  });

  it("refuses a second request with an id in flight, then answers the first", async () => {
    const { connection, sent, release, started } = slow();
    const first = connection.receive({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "slow", _meta: envelope },
    });
    await started;
    await connection.receive({ jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: envelope } });
    expect(sent).toEqual([
      {
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: -32600,
          message: "Invalid Request: id 7 is already used by a request in progress; give every request a new id",
        },
      },
    ]);
    release();
    await first;
    expect(sent[1]).toMatchObject({ id: 7, result: { content: [{ type: "text", text: "done" }] } });
  });

  it("cancels what is still running when the connection closes", async () => {
    const { connection, sent, release, started, ctx } = slow();
    const done = connection.receive({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "slow", _meta: envelope },
    });
    await started;
    connection.close();
    expect(ctx().signal.reason).toMatchObject({ name: "AbortError", message: "The connection closed" });
    release();
    await done;
    expect(sent).toEqual([]);
  });
});

describe("list_changed", () => {
  const listChanged = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };

  it("is sent to an initialized legacy session when a tool is added later", async () => {
    const { connection, registry, sent } = setup();
    await connection.receive(initialize());
    await connection.receive(initialized);
    sent.length = 0;
    registry.addTool(compileTool("later", { run: () => "" }));
    expect(sent).toEqual([listChanged]);
  });

  it("is not sent before notifications/initialized", async () => {
    const { connection, registry, sent } = setup();
    await connection.receive(initialize());
    sent.length = 0;
    registry.addTool(compileTool("later", { run: () => "" }));
    expect(sent).toEqual([]);
  });

  it("is not sent to a connection without a legacy session (modern clients use subscriptions/listen)", async () => {
    const { connection, registry, sent } = setup();
    await connection.receive({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope } });
    sent.length = 0;
    registry.addTool(compileTool("later", { run: () => "" }));
    expect(sent).toEqual([]);
  });

  it("stops once the connection is closed", async () => {
    const { connection, registry, sent } = setup();
    await connection.receive(initialize());
    await connection.receive(initialized);
    connection.close();
    sent.length = 0;
    registry.addTool(compileTool("later", { run: () => "" }));
    expect(sent).toEqual([]);
  });

  it("waits for a resource update's read check at most 10 s: one that never answers sends nothing, and what follows goes on", async () => {
    vi.useFakeTimers();
    try {
      const { connection, registry, sent } = setup();
      await stuckUpdate({ connection, registry, sent });
      registry.addTool(compileTool("later", { run: () => "" }));
      await vi.advanceTimersByTimeAsync(9_999);
      expect(sent).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(sent).toEqual([listChanged]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("holds a response and a log sent after an update whose check waits behind it, 10 s at most", async () => {
    vi.useFakeTimers();
    try {
      const { connection, registry, sent } = setup(saysAfterTheUpdate);
      await stuckUpdate({ connection, registry, sent });
      let answered = false;
      void connection.receive({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "say" } })?.then(() => {
        answered = true;
      });
      await vi.advanceTimersByTimeAsync(9_999);
      expect(sent).toEqual([]);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(sent).toEqual([
        { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "after the update" } },
        { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "said" }] } },
      ]);
      expect(answered).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("sends what waits behind an update whose check has not answered when the connection closes, and drops that update", async () => {
    const { connection, registry, sent } = setup(saysAfterTheUpdate);
    await stuckUpdate({ connection, registry, sent });
    const answered = connection.receive({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "say" } });
    expect(sent).toEqual([]);
    connection.close();
    // Was: they waited for the check (10 s at most) after the close, the response lost if serving had ended by then.
    expect(sent).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "after the update" } },
      { jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "said" }] } },
    ]);
    await within(Promise.resolve(answered), 1000, "the response to count as gone");
    expect(connection.sent()).toBeUndefined();
  });

  it("holds one change notification of each kind behind a check that never answers, however many changes", async () => {
    vi.useFakeTimers();
    try {
      const { connection, registry, sent } = setup();
      await stuckUpdate({ connection, registry, sent });
      for (let i = 0; i < 1000; i++) {
        registry.addTool(compileTool(`later_${i}`, { run: () => "" }));
        registry.emit({ type: "resources/updated", uri: "notes://stuck" });
      }
      // Was: 2,001 held (the update, then each list change and each update) for the check's 10 s.
      expect(connection.holding).toBe(2);
      await vi.advanceTimersByTimeAsync(10_000);
      // The client lists after the one list change it gets, and sees every tool added.
      expect(sent).toEqual([listChanged]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("holds no more than limits.maxSseBufferBytes of other notifications: later ones are dropped, never the response", async () => {
    vi.useFakeTimers();
    try {
      const flood: Record<string, AnyToolConfig> = {
        flood: {
          run: (_args, ctx) => {
            for (let i = 0; i < 10_000; i++) ctx.log.info(`line ${i}`);
            return "flooded";
          },
        },
      };
      const { connection, registry, sent } = setup(flood, { maxSseBufferBytes: 4096 });
      await stuckUpdate({ connection, registry, sent });
      void connection.receive({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "flood" } });
      // Was: 10,002 held (the update, every log and the response) for the check's 10 s, in memory.
      expect(connection.holding).toBeLessThan(100);
      await vi.advanceTimersByTimeAsync(10_000);
      const logs = sent.slice(0, -1);
      expect(logs.length).toBeGreaterThan(0);
      // The first logs, in order, within the limit; then the response.
      expect(logs).toEqual(
        logs.map((_, i) => ({
          jsonrpc: "2.0",
          method: "notifications/message",
          params: { level: "info", data: `line ${i}` },
        })),
      );
      expect(logs.reduce((sum, log) => sum + JSON.stringify(log).length, 0)).toBeLessThanOrEqual(4096);
      expect(sent.at(-1)).toEqual({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "flooded" }] } });
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps the order when a later read check fails while an earlier one still waits", async () => {
    const { connection, registry, sent } = setup();
    await connection.receive(initialize());
    await connection.receive(initialized);
    const session = connection.session!;
    session.subscriptions = new SubscriptionSet(["notes://"]);
    const first = gate();
    session.readCheck = {
      allows: (uri) => (uri === "notes://slow" ? first.opened.then(() => true) : Promise.reject(new Error("x"))),
      hold: holdMessages,
    };
    sent.length = 0;
    registry.emit({ type: "resources/updated", uri: "notes://slow" });
    registry.emit({ type: "resources/updated", uri: "notes://failing" });
    registry.addTool(compileTool("later", { run: () => "" }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toEqual([]);
    first.open();
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent).toEqual([
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "notes://slow" } },
      listChanged,
    ]);
  });

  it("goes to every initialized connection of the same server", async () => {
    const registry = new Registry({ name: "t", version: "1" });
    registry.addTool(compileTool("first", { run: () => "" }));
    const dispatcher = serverDispatcher(registry);
    const inboxes: unknown[][] = [[], [], []];
    const connections = inboxes.map(
      (inbox) => new Connection(dispatcher, { deliver: (message) => inbox.push(message) }),
    );
    for (const connection of connections.slice(0, 2)) {
      await connection.receive(initialize());
      await connection.receive(initialized);
    }
    for (const inbox of inboxes) inbox.length = 0;
    registry.addTool(compileTool("later", { run: () => "" }));
    expect(inboxes).toEqual([[listChanged], [listChanged], []]);
  });
});
