/**
 * Raw JSON lines over the fixture's real stdin/stdout, for what the SDK clients cannot express:
 * exact wire shapes, version negotiation, batches, bad input, era mixing on one pipe, and that no
 * response is ever written for a cancelled request.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { CAPABILITIES, CONTENT_CASES, fixture, TOOL_NAMES } from "./fixture.js";

type Message = Record<string, unknown> & { id?: unknown; result?: Record<string, unknown>; error?: ErrorBody };
type ErrorBody = { code: number; message: string; data?: unknown };

const children = new Set<ChildProcessWithoutNullStreams>();

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
});

/** The fixture as a child process, read line by line. */
class Peer {
  readonly lines: string[] = [];
  stderr = "";
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #waiters = new Set<() => void>();
  #buffer = "";

  constructor(env: Record<string, string> = {}) {
    const { command, args, cwd, env: childEnv } = fixture(env);
    this.#child = spawn(command, args, { cwd, env: childEnv });
    children.add(this.#child);
    this.#child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      this.#buffer += chunk;
      const parts = this.#buffer.split("\n");
      this.#buffer = parts.pop()!;
      this.lines.push(...parts);
      for (const wake of this.#waiters) wake();
    });
    this.#child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      this.#child.on("exit", (code, signal) => {
        children.delete(this.#child);
        resolve({ code, signal });
      });
    });
  }

  /** Writes text or bytes as they are: no newline is added. */
  write(text: string | Uint8Array): void {
    this.#child.stdin.write(text);
  }

  send(message: unknown): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  /** The message on stdout line `index` (0-based), once it has arrived. */
  async at(index: number): Promise<Message> {
    while (this.lines.length <= index) await this.#wake();
    return JSON.parse(this.lines[index]!);
  }

  /** Writes one line and resolves to the next line the server writes. */
  async exchange(line: unknown): Promise<Message> {
    const index = this.lines.length;
    if (typeof line === "string") this.write(`${line}\n`);
    else this.send(line);
    return this.at(index);
  }

  /** Sends a request and resolves to the response with its id, wherever it lands. */
  async request(id: string | number, method: string, params?: Record<string, unknown>): Promise<Message> {
    this.send({ jsonrpc: "2.0", id, method, ...(params && { params }) });
    for (let index = 0; ; index++) {
      const message = await this.at(index);
      if (message.id === id && !("method" in message)) return message;
    }
  }

  /** Runs the legacy handshake. */
  async initialize(protocolVersion = "2025-11-25"): Promise<Message> {
    const response = await this.request("init", "initialize", {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: "raw", version: "0" },
    });
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return response;
  }

  /** Closes stdin, waits for the exit, and checks that stdout only ever carried JSON-RPC messages. */
  async end(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.#child.stdin.end();
    const exit = await this.exited;
    expect(this.#buffer).toBe("");
    for (const line of this.lines) {
      const value = JSON.parse(line);
      for (const message of Array.isArray(value) ? value : [value]) expect(message).toMatchObject({ jsonrpc: "2.0" });
    }
    return exit;
  }

  #wake(): Promise<void> {
    return new Promise((resolve, reject) => {
      const wake = () => {
        this.#waiters.delete(wake);
        resolve();
      };
      this.#waiters.add(wake);
      this.exited.then(() => {
        if (this.#waiters.delete(wake)) reject(new Error(`The fixture exited; stderr:\n${this.stderr}`));
      });
    });
  }
}

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { roots: {} },
  "io.modelcontextprotocol/clientInfo": { name: "raw-modern", version: "3.0.0" },
};
const SERVER_INFO = { name: "fixture", version: "1.2.3", title: "Peer fixture" };
const SERVER_INFO_META = { "io.modelcontextprotocol/serverInfo": SERVER_INFO };
const CLEAN_EXIT = { code: 0, signal: null };

const modern = (params: Record<string, unknown> = {}) => ({ ...params, _meta: ENVELOPE });
const parseText = (message: Message) => JSON.parse((message.result!.content as { text: string }[])[0]!.text);

describe("raw stdio: legacy handshake", () => {
  it.concurrent.for([
    ["2025-11-25", "2025-11-25"],
    ["2025-06-18", "2025-06-18"],
    ["2025-03-26", "2025-03-26"],
    ["2024-11-05", "2024-11-05"],
    ["2024-01-01", "2025-11-25"],
  ])("initialize with %s is answered with %s, and the session serves tools", async ([requested, answered], t) => {
    const peer = new Peer();
    t.expect(await peer.initialize(requested)).toEqual({
      jsonrpc: "2.0",
      id: "init",
      result: {
        protocolVersion: answered,
        capabilities: CAPABILITIES,
        serverInfo: SERVER_INFO,
        instructions: "Test only.",
      },
    });
    const list = await peer.request(2, "tools/list");
    t.expect((list.result!.tools as { name: string }[]).map((tool) => tool.name)).toEqual(TOOL_NAMES);
    t.expect(list.result).not.toHaveProperty("resultType");
    t.expect(await peer.end()).toEqual(CLEAN_EXIT);
  });

  it("answers requests before initialize precisely, answers ping, and stays up", async () => {
    const peer = new Peer();
    expect(await peer.exchange({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32600,
        message:
          'Invalid Request: "tools/list" arrived before initialize. Send initialize first, or send 2026-07-28 requests with params._meta["io.modelcontextprotocol/protocolVersion"].',
      },
    });
    expect(await peer.exchange({ jsonrpc: "2.0", id: 2, method: "ping" })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: {},
    });
    const discover = await peer.exchange({ jsonrpc: "2.0", id: 3, method: "server/discover" });
    expect(discover).toMatchObject({ id: 3, error: { code: -32602 } });
    expect(discover.error!.message).toContain("io.modelcontextprotocol/protocolVersion");
    // A failed initialize opens no session.
    const noVersion = await peer.exchange({
      jsonrpc: "2.0",
      id: 4,
      method: "initialize",
      params: { capabilities: {} },
    });
    expect(noVersion).toMatchObject({ id: 4, error: { code: -32602 } });
    expect((await peer.exchange({ jsonrpc: "2.0", id: 5, method: "tools/list" })).error).toMatchObject({
      code: -32600,
    });
    expect((await peer.initialize()).result).toMatchObject({ protocolVersion: "2025-11-25" });
    expect((await peer.request(6, "tools/list")).result).toHaveProperty("tools");
    expect((await peer.request(7, "ping")).result).toEqual({});
    const again = await peer.request(8, "initialize", { protocolVersion: "2025-11-25", capabilities: {} });
    expect(again.error).toMatchObject({ code: -32600 });
    expect(again.error!.message).toContain("already initialized");
    expect(await peer.end()).toEqual(CLEAN_EXIT);
  });

  it("answers a batch under 2025-03-26 with an array, without entries for notifications", async () => {
    const peer = new Peer();
    await peer.initialize("2025-03-26");
    const batch = await peer.exchange([
      { jsonrpc: "2.0", id: "b1", method: "ping" },
      { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
      { jsonrpc: "2.0", id: "b2", method: "tools/call", params: { name: "content", arguments: { kind: "string" } } },
      { jsonrpc: "2.0", id: "b3", method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {} } },
      42,
    ]);
    expect(batch).toEqual([
      { jsonrpc: "2.0", id: "b1", result: {} },
      { jsonrpc: "2.0", id: "b2", result: { content: CONTENT_CASES.string } },
      {
        jsonrpc: "2.0",
        id: "b3",
        error: { code: -32600, message: "Invalid Request: initialize must not be part of a batch" },
      },
      {
        jsonrpc: "2.0",
        error: { code: -32600, message: "Invalid Request: expected a JSON-RPC object, got number 42" },
      },
    ]);
    const empty = await peer.exchange("[]");
    expect(empty).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    expect(empty).not.toHaveProperty("id");
    expect(await peer.end()).toEqual(CLEAN_EXIT);
  });

  it("rejects a batch under 2025-11-25 with one -32600 and keeps serving", async () => {
    const peer = new Peer();
    await peer.initialize("2025-11-25");
    const rejected = await peer.exchange([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    expect(rejected).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32600,
        message: "Invalid Request: batches are only allowed under protocol 2025-03-26; send one message at a time",
      },
    });
    expect(await peer.exchange({ jsonrpc: "2.0", id: 2, method: "ping" })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: {},
    });
    expect(await peer.end()).toEqual(CLEAN_EXIT);
  });
});

describe("raw stdio: cancellation", () => {
  it("aborts the handler and never writes a response for the cancelled id, in either era", async () => {
    const peer = new Peer();
    await peer.initialize();
    peer.send({ jsonrpc: "2.0", id: "w1", method: "tools/call", params: { name: "wait_for_cancel" } });
    peer.send({ jsonrpc: "2.0", id: "m1", method: "tools/call", params: modern({ name: "wait_for_cancel" }) });
    expect(parseText(await peer.request("s1", "tools/call", { name: "stats" })).runs).toEqual({ wait_for_cancel: 2 });

    // An id still in flight cannot be reused.
    const reused = await peer.request("w1", "ping");
    expect(reused.error).toMatchObject({ code: -32600 });
    expect(reused.error!.message).toContain("already used by a request in progress");

    const cancelledAt = peer.lines.length;
    peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "w1", reason: "user stop" } });
    // Cancellation is era-neutral: a modern request is cancelled by id too.
    peer.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "m1", reason: "modern stop" },
    });
    // Unknown and malformed cancellations are ignored, never answered.
    peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "never-sent" } });
    peer.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: null } });
    peer.send({ jsonrpc: "2.0", method: "notifications/cancelled" });
    const after = await peer.request("s2", "tools/call", { name: "stats" });
    expect(parseText(after).aborts).toEqual([
      { tool: "wait_for_cancel", reason: "user stop", name: "AbortError" },
      { tool: "wait_for_cancel", reason: "modern stop", name: "AbortError" },
    ]);

    expect(await peer.end()).toEqual(CLEAN_EXIT);
    // Both handlers returned a value after the abort; neither reached stdout, and nothing else did either.
    const written = peer.lines.slice(cancelledAt).map((line) => JSON.parse(line) as Message);
    expect(written.map((message) => message.id)).toEqual(["s2"]);
  });
});

describe("raw stdio: 2026-07-28 requests", () => {
  it("serves server/discover and then a legacy initialize on the same pipe (probe, then fallback)", async () => {
    const peer = new Peer();
    expect(await peer.exchange({ jsonrpc: "2.0", id: 1, method: "server/discover", params: modern() })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        supportedVersions: ["2026-07-28"],
        capabilities: CAPABILITIES,
        instructions: "Test only.",
        resultType: "complete",
        ttlMs: 0,
        cacheScope: "private",
        _meta: SERVER_INFO_META,
      },
    });
    const init = await peer.initialize("2025-06-18");
    expect(init.result).toEqual({
      protocolVersion: "2025-06-18",
      capabilities: CAPABILITIES,
      serverInfo: SERVER_INFO,
      instructions: "Test only.",
    });
    // Claim-less requests now belong to the session; claimed ones are still served statelessly.
    const legacy = await peer.request(2, "tools/call", { name: "content", arguments: { kind: "string" } });
    expect(legacy.result).toEqual({ content: CONTENT_CASES.string });
    const stateless = await peer.request(3, "tools/call", modern({ name: "content", arguments: { kind: "string" } }));
    expect(stateless.result).toEqual({
      content: CONTENT_CASES.string,
      resultType: "complete",
      _meta: SERVER_INFO_META,
    });
    expect(await peer.end()).toEqual(CLEAN_EXIT);
  });

  it("answers methods removed in 2026-07-28 with -32601, and version and envelope faults precisely", async () => {
    const peer = new Peer();
    const ask = async (
      id: number,
      method: string,
      meta: Record<string, unknown>,
      params: Record<string, unknown> = {},
    ) => (await peer.exchange({ jsonrpc: "2.0", id, method, params: { ...params, _meta: meta } })) as Message;

    for (const [id, method] of [
      [1, "ping"],
      [2, "initialize"],
      [3, "logging/setLevel"],
      [4, "no/such/method"],
    ] as const) {
      const answer = await ask(id, method, ENVELOPE, method === "initialize" ? { protocolVersion: "2025-11-25" } : {});
      expect(answer).toMatchObject({ id, error: { code: -32601 } });
      expect(answer.error!.message).toContain(`"${method}"`);
    }

    for (const [id, requested] of [
      [5, "2030-01-01"],
      [6, "2025-11-25"],
    ] as const) {
      const answer = await ask(id, "server/discover", {
        ...ENVELOPE,
        "io.modelcontextprotocol/protocolVersion": requested,
      });
      expect(answer).toMatchObject({
        id,
        error: { code: -32022, data: { supported: ["2026-07-28"], requested } },
      });
    }

    const malformed: [number, Record<string, unknown>, string][] = [
      [7, { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": 20260728 }, "protocolVersion"],
      [8, { "io.modelcontextprotocol/protocolVersion": "2026-07-28" }, "clientCapabilities"],
      [9, { ...ENVELOPE, "io.modelcontextprotocol/clientInfo": { name: "x" } }, "clientInfo"],
      [10, { ...ENVELOPE, "io.modelcontextprotocol/logLevel": "loud" }, "logLevel"],
    ];
    for (const [id, meta, key] of malformed) {
      const answer = await ask(id, "tools/list", meta);
      expect(answer).toMatchObject({ id, error: { code: -32602 } });
      expect(answer.error!.message).toContain(`io.modelcontextprotocol/${key}`);
    }

    // A request without clientInfo is still served.
    const anonymous = Object.fromEntries(Object.entries(ENVELOPE).filter(([key]) => !key.endsWith("/clientInfo")));
    expect((await ask(11, "tools/list", anonymous)).result).toMatchObject({ resultType: "complete" });
    expect(await peer.end()).toEqual(CLEAN_EXIT);
  });

  it("gives the handler the envelope as ctx.meta and the request id as sent", async () => {
    const peer = new Peer();
    const answer = await peer.request("ctx-1", "tools/call", {
      name: "context",
      _meta: { ...ENVELOPE, progressToken: "p-1" },
    });
    expect(parseText(answer)).toEqual({
      meta: { ...ENVELOPE, progressToken: "p-1" },
      requestId: "ctx-1",
      protocolVersion: "2026-07-28",
      era: "modern",
      client: { info: { name: "raw-modern", version: "3.0.0" }, capabilities: { roots: {} } },
    });
    expect(await peer.end()).toEqual(CLEAN_EXIT);
  });

  it("sends no unsolicited list_changed to a pipe without a legacy session", async () => {
    const peer = new Peer();
    const next = await peer.exchange({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: modern({ name: "add_tool", arguments: { name: "late_tool" } }),
    });
    // Had a notification been sent, it would have been written before this response.
    expect(next).toMatchObject({ id: 1, result: { content: [{ type: "text", text: "added late_tool" }] } });
    const list = await peer.request(2, "tools/list", modern());
    expect((list.result!.tools as { name: string }[]).map((tool) => tool.name)).toEqual([...TOOL_NAMES, "late_tool"]);
    expect(await peer.end()).toEqual(CLEAN_EXIT);
    expect(peer.lines.some((line) => line.includes("list_changed"))).toBe(false);
  });
});

describe("raw stdio: robustness", () => {
  it("answers bad input precisely and keeps answering", async () => {
    const peer = new Peer();
    await peer.initialize();
    const cases: [string, Record<string, unknown>][] = [
      ['{"jsonrpc":"2.0","id":1,', { error: { code: -32700 } }],
      ["42", { error: { code: -32600, message: "Invalid Request: expected a JSON-RPC object, got number 42" } }],
      ['"hello"', { error: { code: -32600 } }],
      ["null", { error: { code: -32600, message: "Invalid Request: expected a JSON-RPC object, got null" } }],
      ['{"jsonrpc":"2.0","id":null,"method":"ping"}', { error: { code: -32600 } }],
      ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', { error: { code: -32600 } }],
      ['{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', { error: { code: -32600 } }],
      ['{"jsonrpc":"2.0","id":true,"method":"ping"}', { error: { code: -32600 } }],
    ];
    for (const [line, expected] of cases) {
      const answer = await peer.exchange(line);
      expect(answer, line).toMatchObject({ jsonrpc: "2.0", ...expected });
      // The id could not be read, so it is left out rather than sent as null.
      expect(answer, line).not.toHaveProperty("id");
    }
    expect((await peer.exchange('{"jsonrpc":"2.0","id":1,')).error!.message).toMatch(/^Parse error: /);

    const withId: [string, number, number][] = [
      ['{"jsonrpc":"1.0","id":2,"method":"ping"}', 2, -32600],
      ['{"id":3,"method":"ping"}', 3, -32600],
      ['{"jsonrpc":"2.0","id":4,"method":7}', 4, -32600],
      ['{"jsonrpc":"2.0","id":5,"method":"no/such/method"}', 5, -32601],
      ['{"jsonrpc":"2.0","id":6,"method":"tools/list","params":[1]}', 6, -32602],
      ['{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{}}}', 7, -32602],
      ['{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"content","arguments":[1]}}', 8, -32602],
    ];
    for (const [line, id, code] of withId) {
      expect(await peer.exchange(line), line).toMatchObject({ jsonrpc: "2.0", id, error: { code } });
    }

    // Responses, unknown notifications and blank lines get no answer: the next line is the ping's.
    peer.write('{"jsonrpc":"2.0","id":99,"result":{}}\n{"jsonrpc":"2.0","method":"notifications/unknown"}\n\n   \n');
    expect(await peer.exchange({ jsonrpc: "2.0", id: 9, method: "ping" })).toEqual({
      jsonrpc: "2.0",
      id: 9,
      result: {},
    });
    // CRLF line endings are accepted.
    expect(await peer.exchange('{"jsonrpc":"2.0","id":10,"method":"ping"}\r')).toEqual({
      jsonrpc: "2.0",
      id: 10,
      result: {},
    });
    expect(await peer.end()).toEqual(CLEAN_EXIT);
  });

  it("answers a last line that has no newline before EOF, then exits with code 0", async () => {
    const peer = new Peer();
    peer.write('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    expect(await peer.end()).toEqual(CLEAN_EXIT);
    expect(peer.lines.map((line) => JSON.parse(line))).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
  });

  it("handles messages split across reads, even inside a UTF-8 character, and several per read", async () => {
    const peer = new Peer();
    // Once the server answers, it is reading: later writes are not merged into one read at start-up.
    expect(await peer.exchange({ jsonrpc: "2.0", id: 0, method: "ping" })).toMatchObject({ id: 0 });
    const bytes = Buffer.from('{"jsonrpc":"2.0","id":"é","method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    const cut = bytes.indexOf(0xa9); // the second byte of "é"
    // Pauses between writes so that the reads are likely separate; the outcome must not depend on it.
    for (const part of [bytes.subarray(0, 10), bytes.subarray(10, cut), bytes.subarray(cut)]) {
      peer.write(part);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await peer.end()).toEqual(CLEAN_EXIT);
    expect(peer.lines.map((line) => JSON.parse(line).id)).toEqual([0, "é", 2]);
  });

  it("keeps stdout for protocol only: console.log in a tool goes to stderr", async () => {
    const peer = new Peer();
    await peer.initialize();
    const answer = await peer.request(1, "tools/call", { name: "chatty" });
    expect(answer.result).toEqual({ content: [{ type: "text", text: "logged" }] });
    // end() checks that every stdout line is a JSON-RPC message.
    expect(await peer.end()).toEqual(CLEAN_EXIT);
    expect(peer.lines).toHaveLength(2);
    expect(peer.stderr).toContain("chatty: this line is a log, not protocol\n");
    expect(peer.stderr).toContain("chatty: so is this one\n");
  });
});
