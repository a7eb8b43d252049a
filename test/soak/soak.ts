/**
 * Soak: a bounded load over stdio (serveLines in-process, under a stop signal as `serve()` passes
 * one; test/stdio-memory.test.ts drives `serve()` itself in a child process) and Streamable HTTP (a
 * real loopback listener, legacy sessions opening and closing beside stateless 2026-07-28 calls),
 * checking that every request is answered exactly once, that memory returns to its baseline after
 * GC, and that no handle, timer or listener is left behind. Not part of `npm test`
 * (test/soak.test.ts runs a short version). Run it with:
 *
 *   node --expose-gc --import tsx test/soak/soak.ts [stdioCalls=500000] [httpCalls=200000]
 */
import { z } from "zod";
import { Registry } from "../../src/core/registry.js";
import type { Schema } from "../../src/core/schema.js";
import { compileTool, type ToolConfig } from "../../src/core/tools.js";
import { pico } from "../../src/index.js";
import { serveLines } from "../../src/transports/stdio.js";
import { serverDispatcher } from "../core-helpers.js";

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

export interface Figures {
  calls: number;
  answered: number;
  /** Requests answered more than once, or not at all (cancelled ones excepted). */
  wrong: number;
  cancelled: number;
  errors: number;
  seconds: number;
  callsPerSecond: number;
  heapBeforeMiB?: number;
  /** stdio: the heap after GC once every call is answered, while the connection still serves (what a long-lived server holds). */
  heapServingMiB?: number;
  heapAfterMiB?: number;
  handlesBefore: Record<string, number>;
  handlesAfter: Record<string, number>;
  listenersBefore: number;
  listenersAfter: number;
  sessionsOpened?: number;
}

type AnyTool = ToolConfig<Schema | undefined, Schema | undefined>;

const gc = (globalThis as { gc?: () => void }).gc;

async function settle(): Promise<void> {
  // Long enough for the deadline timer to notice it is idle and stop (it ticks at most every second).
  await new Promise((resolve) => setTimeout(resolve, 1100));
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 100) / 100;

/** Handles and requests the process holds, by type (timers, sockets, pipes…). */
export function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

function processListeners(): number {
  return ["SIGTERM", "SIGINT", "unhandledRejection", "uncaughtException", "exit"].reduce(
    (sum, event) => sum + process.listenerCount(event),
    0,
  );
}

/** `calls` tools/call requests over one stdio connection, `window` in flight, 1 in 1000 cancelled, 1 in 97 failing. */
export async function soakStdio(calls: number, window = 64): Promise<Figures> {
  const registry = new Registry({ name: "soak", version: "1" });
  registry.addTool(
    compileTool("echo", { input: z.object({ s: z.string() }), run: ({ s }: { s: string }) => s } as unknown as AnyTool),
  );
  registry.addTool(
    compileTool("fail", {
      run: () => {
        throw new Error("planned failure");
      },
    } as unknown as AnyTool),
  );
  registry.addTool(
    compileTool("wait", {
      run: (_args: unknown, ctx: { signal: AbortSignal }) =>
        new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve("late"), { once: true })),
    } as unknown as AnyTool),
  );
  const dispatcher = serverDispatcher(registry);
  const answers = new Uint8Array(calls);
  const cancelled = new Uint8Array(calls);
  let errors = 0;
  let answered = 0;

  // The input: lines pushed by the driver, pulled by serveLines.
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const input: AsyncIterable<string> = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (queue.length > 0) yield queue.splice(0).join("");
        else if (ended) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
  const push = (text: string) => {
    queue.push(text);
    const w = wake;
    wake = undefined;
    w?.();
  };

  let next = 0;
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  let outstanding = 0;
  const send = () => {
    if (next >= calls) {
      if (outstanding === 0) done();
      return;
    }
    const id = next++;
    outstanding++;
    if (id % 1000 === 999) {
      // Cancelled: it never answers (unless the answer wins the race, which is allowed).
      cancelled[id] = 1;
      push(
        `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "wait", _meta: MODERN_META } })}\n` +
          `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } })}\n`,
      );
      outstanding--;
      queueMicrotask(send);
      return;
    }
    const name = id % 97 === 0 ? "fail" : "echo";
    push(
      `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: { s: `call ${id}` }, _meta: MODERN_META } })}\n`,
    );
  };
  let partial = "";
  const write = (chunk: string) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      const message = JSON.parse(line) as { id: number; result?: { isError?: boolean; content: { text: string }[] } };
      answers[message.id] = (answers[message.id] ?? 0) + 1;
      answered++;
      if (message.result?.isError) errors++;
      else if (message.result?.content[0]?.text !== `call ${message.id}`) answers[message.id] = 99;
      outstanding--;
      send();
    }
  };

  if (gc) await settle();
  const heapBefore = gc ? process.memoryUsage().heapUsed : undefined;
  const handlesBefore = handles();
  const listenersBefore = processListeners();
  const started = performance.now();
  // serve() always passes a signal (its stop): reading under one must keep nothing it has read.
  const stop = new AbortController();
  const served = serveLines(dispatcher, { input, write, signal: stop.signal });
  for (let i = 0; i < window; i++) send();
  await finished;
  const seconds = (performance.now() - started) / 1000;
  if (gc) await settle();
  const heapServing = gc ? process.memoryUsage().heapUsed : undefined;
  ended = true;
  wake?.();
  await served;
  let wrong = 0;
  for (let id = 0; id < calls; id++) {
    if (cancelled[id] ? answers[id]! > 1 : answers[id] !== 1) wrong++;
  }
  await settle();
  return {
    calls,
    answered,
    wrong,
    cancelled: cancelled.reduce((sum, each) => sum + each, 0),
    errors,
    seconds: Math.round(seconds * 10) / 10,
    callsPerSecond: Math.round(calls / seconds),
    heapBeforeMiB: heapBefore === undefined ? undefined : mib(heapBefore),
    heapServingMiB: heapServing === undefined ? undefined : mib(heapServing),
    heapAfterMiB: gc ? mib(process.memoryUsage().heapUsed) : undefined,
    handlesBefore,
    handlesAfter: handles(),
    listenersBefore,
    listenersAfter: processListeners(),
  };
}

/**
 * `calls` calls over a real loopback listener, `connections` clients at once: stateless 2026-07-28
 * calls, and every 10th client turn a legacy session that initializes, makes 10 calls and is deleted.
 */
export async function soakHttp(calls: number, connections = 32): Promise<Figures> {
  if (gc) await settle();
  const heapBefore = gc ? process.memoryUsage().heapUsed : undefined;
  const handlesBefore = handles();
  const listenersBefore = processListeners();
  const server = pico({ name: "soak", version: "1", signals: false }).tool("echo", {
    input: z.object({ s: z.string() }),
    run: ({ s }) => s,
  });
  const listening = await server.serve({ port: 0 });
  const url = listening.url;
  const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  let next = 0;
  let answered = 0;
  let wrong = 0;
  let sessionsOpened = 0;
  const check = (body: { id?: unknown; result?: { content: { text: string }[] } }, id: number) => {
    answered++;
    if (body.id !== id || body.result?.content[0]?.text !== `call ${id}`) wrong++;
  };
  const modernCall = async (id: number) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { ...json, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "echo", arguments: { s: `call ${id}` }, _meta: MODERN_META },
      }),
    });
    check(await response.json(), id);
  };
  const sessionTurn = async () => {
    sessionsOpened++;
    const init = await fetch(url, {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {} },
      }),
    });
    const session = init.headers.get("mcp-session-id")!;
    await init.json();
    const headers = { ...json, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    await (
      await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      })
    ).text();
    for (let i = 0; i < 10 && next < calls; i++) {
      const id = next++;
      const response = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "echo", arguments: { s: `call ${id}` } },
        }),
      });
      check(await response.json(), id);
    }
    const deleted = await fetch(url, { method: "DELETE", headers });
    if (deleted.status !== 200) wrong++;
    await deleted.text();
  };
  const started = performance.now();
  let turn = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < calls) {
        if (++turn % 10 === 0) await sessionTurn();
        else await modernCall(next++);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await listening.close();
  await settle();
  return {
    calls,
    answered,
    wrong: wrong + (calls - answered),
    cancelled: 0,
    errors: 0,
    seconds: Math.round(seconds * 10) / 10,
    callsPerSecond: Math.round(calls / seconds),
    heapBeforeMiB: heapBefore === undefined ? undefined : mib(heapBefore),
    heapAfterMiB: gc ? mib(process.memoryUsage().heapUsed) : undefined,
    handlesBefore,
    handlesAfter: handles(),
    listenersBefore,
    listenersAfter: processListeners(),
    sessionsOpened,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!gc) console.error("soak: run with node --expose-gc for the memory figures");
  const [stdioCalls = 500_000, httpCalls = 200_000] = process.argv.slice(2).map(Number);
  // A warm-up, so that the baseline already holds what the first calls allocate for good (JIT, pools).
  await soakStdio(10_000);
  await soakHttp(2_000);
  const stdio = await soakStdio(stdioCalls);
  console.log("stdio", JSON.stringify(stdio));
  const http = await soakHttp(httpCalls);
  console.log("http", JSON.stringify(http));
  process.exitCode = stdio.wrong + http.wrong === 0 ? 0 : 1;
}
