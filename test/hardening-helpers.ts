/**
 * Helpers of the hardening tests: the hardening fixture as a child process read line by line, and
 * the checks every line a server writes must pass (valid JSON-RPC, no stack, no file path).
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** How every answer to a request or server.call the shutdown cancelled ends (src/limits/shutdown.ts): what to do. */
export const AFTER_SHUTDOWN =
  ", perhaps partly done; send it again in a moment: another instance of the server, or this one once restarted, will answer it";

export const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

const children = new Set<ChildProcessWithoutNullStreams>();

/** Kills whatever is still running (afterAll). */
export function killChildren(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

/** The hardening fixture (or another fixture that serves stdio) as a child process. */
export class Child {
  readonly lines: string[] = [];
  stderr = "";
  readonly process: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #waiters = new Set<() => void>();
  #buffer = "";

  constructor(env: Record<string, string> = {}, script = "test/fixtures/hardening-server.ts") {
    this.process = spawn(process.execPath, ["--import", "tsx", script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    children.add(this.process);
    this.process.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      this.#buffer += chunk;
      const parts = this.#buffer.split("\n");
      this.#buffer = parts.pop()!;
      this.lines.push(...parts);
      for (const wake of this.#waiters) wake();
    });
    this.process.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr += chunk;
      for (const wake of this.#waiters) wake();
    });
    this.exited = new Promise((resolve) => {
      this.process.on("exit", (code, signal) => {
        children.delete(this.process);
        for (const wake of this.#waiters) wake();
        resolve({ code, signal });
      });
    });
  }

  /** Text left on stdout without a newline (must be empty for a protocol stream). */
  get partial(): string {
    return this.#buffer;
  }

  write(data: string | Uint8Array): void {
    this.process.stdin.write(data);
  }

  send(message: unknown): void {
    this.write(`${JSON.stringify(message)}\n`);
  }

  messages(): Record<string, unknown>[] {
    return this.lines.filter((line) => line !== "").map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  /** Resolves once `test` holds, failing after `timeoutMs`. */
  async until(test: () => boolean, timeoutMs = 10_000, what = "the condition"): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${what} did not happen within ${timeoutMs} ms; stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(left, 200));
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.#waiters.add(done);
      });
    }
  }

  /** Opens a 2025-11-25 session on this stdio server: initialize, its answer, notifications/initialized. */
  async initialize(): Promise<void> {
    this.send({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    await this.response("init");
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  /** The response with this id, once it arrives. */
  async response(id: unknown, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    const find = () => this.messages().find((message) => message.id === id && !("method" in message));
    await this.until(() => find() !== undefined, timeoutMs, `the response to ${JSON.stringify(id)}`);
    return find()!;
  }
}

export function call(id: unknown, name: string, args: Record<string, unknown> = {}, modern = true): unknown {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args, ...(modern ? { _meta: MODERN_META } : {}) },
  };
}

/** A stack frame or a source path in text a client sees: never allowed. */
export const LEAK = /\n\s+at |\bat [^\s]+ \(|file:\/\/|\/src\/|\/node_modules\/|\.ts:\d+|\.js:\d+/;

/** Checks one line a server wrote: a JSON-RPC 2.0 message with nothing a client should not see. */
export function checkLine(line: string): Record<string, unknown> {
  let message: unknown;
  expect(() => (message = JSON.parse(line)), `not JSON: ${line.slice(0, 200)}`).not.toThrow();
  if (Array.isArray(message)) {
    for (const each of message) checkMessage(each);
    return { batch: message };
  }
  checkMessage(message);
  return message as Record<string, unknown>;
}

export function checkMessage(message: unknown): void {
  expect(message, "a JSON-RPC object").toBeTypeOf("object");
  const record = message as Record<string, unknown>;
  expect(record.jsonrpc).toBe("2.0");
  const text = JSON.stringify(record);
  expect(text, "a stack or a path leaked").not.toMatch(LEAK);
  if ("method" in record) {
    expect(record.method).toBeTypeOf("string");
    return;
  }
  expect("result" in record !== "error" in record, `exactly one of result and error: ${text.slice(0, 300)}`).toBe(true);
  if (record.id !== undefined) expect(["string", "number"]).toContain(typeof record.id);
  if ("error" in record) {
    const error = record.error as Record<string, unknown>;
    expect(Number.isInteger(error.code), text.slice(0, 300)).toBe(true);
    expect(error.message).toBeTypeOf("string");
  }
}

/** An input the test feeds by hand, and the lines the server writes (for serveLines in-process). */
export function pipe() {
  const queue: (Uint8Array | string)[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const input: AsyncIterable<Uint8Array | string> = {
    async *[Symbol.asyncIterator]() {
      while (true) {
        const chunk = queue.shift();
        if (chunk !== undefined) yield chunk;
        else if (ended) return;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
  const writes: string[] = [];
  const watchers = new Set<() => void>();
  const write = (chunk: string) => {
    writes.push(chunk);
    for (const watcher of watchers) watcher();
  };
  const lines = () =>
    writes
      .join("")
      .split("\n")
      .filter((line) => line !== "");
  const messages = () => lines().map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    input,
    write,
    writes,
    lines,
    messages,
    push(...chunks: (Uint8Array | string)[]) {
      queue.push(...chunks);
      const w = wake;
      wake = undefined;
      w?.();
    },
    end() {
      ended = true;
      const w = wake;
      wake = undefined;
      w?.();
    },
    /** Resolves once `test` holds for the messages written, failing after `timeoutMs`. */
    async until(test: (messages: Record<string, unknown>[]) => boolean, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!test(messages())) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`not written within ${timeoutMs} ms: ${lines().slice(-3).join(" | ")}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(left, 100));
          function done() {
            clearTimeout(timer);
            watchers.delete(done);
            resolve();
          }
          watchers.add(done);
        });
      }
    },
  };
}
