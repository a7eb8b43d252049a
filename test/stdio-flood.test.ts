/**
 * A stdio client that stops reading while a tool floods `ctx.log` and `ctx.progress`: log and progress
 * notifications are best-effort (2025-11-25 "Logging", "Progress"), so past `limits.maxSseBufferBytes`
 * waiting for the client they are dropped rather than queued, while every response still goes out, in
 * order, once the client reads again. In-process (serveLines, with a stdout whose drain the test
 * controls), and over a real child process serving through `server.serve()` on Node, Bun and Deno.
 */
import { afterAll, describe, expect, it } from "vitest";
import { Registry } from "../src/core/registry.js";
import type { Schema } from "../src/core/schema.js";
import { compileTool, type ToolConfig } from "../src/core/tools.js";
import type { Context } from "../src/index.js";
import type { Limits } from "../src/limits/options.js";
import { serveLines } from "../src/transports/stdio.js";
import { serverDispatcher } from "./core-helpers.js";
import { MODERN_META, pipe } from "./hardening-helpers.js";
import { signal, within } from "./http-helpers.js";
import { bunExecutable, denoExecutable } from "./runtimes/harness.js";
import { FIXTURE, killWireChildren, type Memory, mib, nodeWire, WireChild } from "./stdio-helpers.js";

afterAll(killWireChildren);

type AnyTool = ToolConfig<Schema | undefined, Schema | undefined>;

/** A 2026-07-28 call that asks for log messages from `info` up and for progress. */
const flooding = (id: unknown, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: {
    name,
    arguments: args,
    _meta: { ...MODERN_META, "io.modelcontextprotocol/logLevel": "info", progressToken: `p-${String(id)}` },
  },
});
const line = (message: unknown) => `${JSON.stringify(message)}\n`;

const LOGS = 200;
const LOG = "x".repeat(1024);

/** A flood of LOGS log messages of 1 KiB, each with a progress report, in one turn; and calls that answer 2 KiB once `open` resolves. */
function tools(open: Promise<void>): Record<string, AnyTool> {
  const flood = {
    run: async (_args: unknown, ctx: Context) => {
      for (let i = 0; i < LOGS; i++) {
        ctx.log.info(LOG);
        ctx.progress(i + 1, LOGS);
      }
      return "flooded";
    },
  };
  const later = { run: async () => open.then(() => "y".repeat(2048)) };
  return { flood: flood as unknown as AnyTool, later: later as unknown as AnyTool };
}

/**
 * Serves 20 `later` calls then a flood, over a stdout that is full from the first write until the
 * test drains it; the `later` calls answer while it is full. What was written before and after.
 */
async function floodWhileFull(limits: Limits) {
  const registry = new Registry({ name: "flood", version: "1" });
  const open = signal();
  for (const [name, tool] of Object.entries(tools(open.promise))) registry.addTool(compileTool(name, tool));
  const io = pipe();
  const written: string[] = [];
  let full = true;
  const drain = signal();
  const served = serveLines(serverDispatcher(registry, limits), {
    input: io.input,
    write: (chunk) => written.push(chunk) > 0 && !full,
    drained: () => drain.promise,
  });
  const later = Array.from({ length: 20 }, (_, i) => line(flooding(`later-${i}`, "later")));
  io.push(later.join("") + line(flooding("flood", "flood")));
  // The flood fills the first batch (64 KiB) and blocks the output; the rest waits or is dropped.
  while (written.length === 0) await new Promise((resolve) => setImmediate(resolve));
  open.resolve();
  for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
  const whileFull = written.length;
  full = false;
  drain.resolve();
  io.end();
  await within(served, 5000, "serveLines resolving");
  const messages = written
    .join("")
    .split("\n")
    .filter(Boolean)
    .map((text) => JSON.parse(text) as { id?: string; method?: string; params?: { progress?: number } });
  const afterDrain = written.slice(1).join("");
  return { messages, whileFull, afterDrain };
}

describe("stdio's output under a flood of notifications, in-process", () => {
  it("drops log and progress notifications past maxSseBufferBytes while stdout is full, never a response", async () => {
    const max = 16 * 1024;
    const { messages, whileFull, afterDrain } = await floodWhileFull({ maxSseBufferBytes: max });
    expect(whileFull, "writes while stdout was full").toBe(1);
    const logs = messages.filter((message) => message.method === "notifications/message");
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.length).toBeLessThan(LOGS);
    // Queued while full: what fit under the limit, then the responses (20 of 2 KiB: past it, yet all kept).
    const notifications = afterDrain
      .split("\n")
      .filter((text) => text.includes('"method":"notifications/'))
      .join("\n");
    expect(notifications.length).toBeLessThanOrEqual(max + 2 * LOG.length);
    const responses = messages.filter((message) => message.method === undefined).map((message) => message.id);
    // The flood's response waits for its progress to be written, then goes a write later (line-output.ts's
    // AFTER_PROGRESS_MS), so the later calls' responses, which wait for nothing, go first.
    expect(responses).toEqual([...Array.from({ length: 20 }, (_, i) => `later-${i}`), "flood"]);
    // The progress that went out still increases, and all of it came before the flood's response.
    const progress = messages
      .filter((message) => message.method === "notifications/progress")
      .map((message) => message.params!.progress!);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const answered = messages.findIndex((message) => message.id === "flood");
    expect(messages.findLastIndex((message) => message.method?.startsWith("notifications/"))).toBeLessThan(answered);
  });

  it("drops nothing while the queue stays within maxSseBufferBytes", async () => {
    const { messages } = await floodWhileFull({ maxSseBufferBytes: 1024 * 1024 });
    expect(messages.filter((message) => message.method === "notifications/message")).toHaveLength(LOGS);
    expect(messages.filter((message) => message.method === "notifications/progress")).toHaveLength(LOGS);
    expect(messages.filter((message) => message.method === undefined)).toHaveLength(21);
  });
});

const runtimes: [name: string, start: (env?: Record<string, string>) => WireChild][] = [
  ["Node", (env) => nodeWire(env)],
  ["Bun", (env) => new WireChild(bunExecutable(), [FIXTURE], env)],
  [
    "Deno",
    (env) =>
      new WireChild(
        denoExecutable(),
        ["run", "--no-lock", "--no-prompt", "--sloppy-imports", "--allow-env", "--v8-flags=--expose-gc", FIXTURE],
        { DENO_NO_UPDATE_CHECK: "1", ...env },
      ),
  ],
];

/** 2,000 log messages of 64 KiB (125 MiB), each with a progress report. */
const COUNT = 2000;

describe("a stdio client that stops reading while a tool floods ctx.log", () => {
  for (const [name, start] of runtimes) {
    it(`on ${name}: the server's memory stays near its baseline, and it answers every call once the client reads`, async () => {
      const child = start();
      const before = await child.memory("before");
      child.process.stdout.pause();
      await child.send(flooding("flood", "flood", { count: COUNT, kib: 64 }));
      await child.send(flooding("after", "memory"));
      // The flood finishes while nobody reads, on every runtime (before, Deno's write blocked the whole
      // process while the pipe was full: the flood went on only as the client read).
      await child.until(() => child.stderr.includes("flooded"), 60_000, "the flood to finish");
      child.process.stdout.resume();
      const flood = (await child.response("flood", 120_000)) as { result: { content: { text: string }[] } };
      await child.response("after", 20_000);
      const after = JSON.parse(flood.result.content[0]!.text) as Memory;
      const dropped = COUNT - (child.methods.get("notifications/message") ?? 0);
      console.error(
        `stdio on ${name}, ${COUNT} log messages of 64 KiB with the client paused: RSS ${mib(before.rss)} -> ${mib(after.rss)} MiB, heap ${mib(before.heapUsed)} -> ${mib(after.heapUsed)} MiB; ${dropped} dropped`,
      );
      // 125 MiB of log messages while nobody reads: the server holds about maxSseBufferBytes of them.
      expect(mib(after.rss - before.rss)).toBeLessThan(60);
      expect(mib(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers)).toBeLessThan(30);
      child.process.stdin.end();
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect([...child.answers.entries()]).toEqual(
        expect.arrayContaining([
          ["before", 1],
          ["flood", 1],
          ["after", 1],
        ]),
      );
      expect(child.garbage).toEqual([]);
    }, 180_000);
  }
});

describe("a stdio server shut down while its client does not read", () => {
  for (const [name, start] of runtimes) {
    it(`on ${name}: SIGTERM ends it once the grace period is over, though stdout is still full`, async () => {
      const child = start({ PICO_LIMITS: JSON.stringify({ shutdownGraceMs: 300 }) });
      await child.memory("ready");
      child.process.stdout.pause();
      // More than maxSseBufferBytes of log messages: stdout is full once the tool says so.
      await child.send(flooding("flood", "flood", { count: 100, kib: 64 }));
      await child.until(() => child.stderr.includes("flooded"), 60_000, "the flood to finish");
      child.process.kill("SIGTERM");
      // The client never reads again: before, the server waited for it forever.
      expect(await within(child.exited, 20_000, "the server exiting")).toEqual({ code: 0, signal: null });
      expect(child.stderr).toContain("picomcp: SIGTERM, shutting down");
    }, 90_000);
  }
});

describe("a stdio client that ends its input but does not read", () => {
  for (const [name, start] of runtimes) {
    it(`on ${name}: serving ends once the grace period is over, though stdout is still full`, async () => {
      const child = start({ PICO_LIMITS: JSON.stringify({ shutdownGraceMs: 300 }) });
      await child.memory("ready");
      child.process.stdout.pause();
      // More than maxSseBufferBytes of log messages: stdout is full once the tool says so.
      await child.send(flooding("flood", "flood", { count: 100, kib: 64 }));
      await child.until(() => child.stderr.includes("flooded"), 60_000, "the flood to finish");
      child.process.stdin.end();
      // The client does not read: before, serving waited for it forever. Now serve() resolves once the
      // grace period and as long again and a second are over, dropping what the client did not read.
      await child.until(() => child.stderr.includes("serve() resolved"), 20_000, "serve() resolving");
      // The runtime still holds the process for the write it had begun (see docs/limits.md): it ends as
      // the client reads that, or on the client's SIGTERM.
      child.process.stdout.resume();
      expect(await within(child.exited, 20_000, "the server exiting")).toEqual({ code: 0, signal: null });
      expect(child.answers.get("flood")).toBeUndefined();
    }, 90_000);
  }
});
