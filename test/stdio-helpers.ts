/**
 * Helpers of the stdio wire tests: test/fixtures/stdio-wire-server.ts as a child process that serves
 * through `server.serve()`, with its stdout read message by message (without keeping large answers)
 * and its stdin written with backpressure, so that hundreds of MiB can go either way.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isObject } from "../src/core/jsonrpc.js";
import { MODERN_META } from "./hardening-helpers.js";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const FIXTURE = "test/fixtures/stdio-wire-server.ts";
export const MiB = 1024 * 1024;

export interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** What a line longer than this carries is counted, not kept. */
const KEPT = 64 * 1024;

const children = new Set<ChildProcessWithoutNullStreams>();

/** Kills whatever is still running (afterAll). */
export function killWireChildren(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

export class WireChild {
  readonly process: ChildProcessWithoutNullStreams;
  stderr = "";
  /** Bytes read from stdout so far. */
  stdoutBytes = 0;
  /** The first bytes the child wrote on stdout. */
  head = "";
  /** How many answers each id got. */
  readonly answers = new Map<unknown, number>();
  /** Every message of a line up to 64 KiB, in order (larger ones are only counted in `answers`). */
  readonly messages: Record<string, unknown>[] = [];
  /** The length of each large line, by id. */
  readonly sizes = new Map<unknown, number>();
  /** How many messages of each method (notifications, the server's requests) came, large ones too. */
  readonly methods = new Map<string, number>();
  /** Lines that are not a JSON-RPC message: must stay empty. */
  readonly garbage: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly #waiters = new Set<() => void>();
  #parts: string[] = [];
  #partLength = 0;

  constructor(command: string, args: string[], env: Record<string, string> = {}) {
    this.process = spawn(command, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? "", ...env } });
    children.add(this.process);
    this.process.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      this.stdoutBytes += Buffer.byteLength(chunk);
      if (this.head.length < 256) this.head += chunk.slice(0, 256 - this.head.length);
      this.#take(chunk);
      this.#wake();
    });
    this.process.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderr += chunk;
      this.#wake();
    });
    this.exited = new Promise((resolve) => {
      this.process.on("exit", (code, signal) => {
        children.delete(this.process);
        this.#wake();
        resolve({ code, signal });
      });
    });
  }

  /** Text left on stdout without its newline. */
  get partial(): number {
    return this.#partLength;
  }

  /** Writes to the child's stdin, waiting while its pipe is full. */
  async write(text: string): Promise<void> {
    if (!this.process.stdin.write(text)) {
      await new Promise<void>((resolve) => this.process.stdin.once("drain", resolve));
    }
  }

  send(message: unknown): Promise<void> {
    return this.write(`${JSON.stringify(message)}\n`);
  }

  /** Resolves once `test` holds, failing after `timeoutMs`. */
  async until(test: () => boolean, timeoutMs = 20_000, what = "the condition"): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!test()) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`${what} did not happen within ${timeoutMs} ms; stderr: ${this.stderr.slice(-2000)}`);
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.#waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, Math.min(left, 200));
        this.#waiters.add(done);
      });
    }
  }

  /** The (small) response with this id, once it arrives. */
  async response(id: unknown, timeoutMs = 20_000): Promise<Record<string, unknown>> {
    const find = () => this.messages.find((message) => message.id === id && !("method" in message));
    await this.until(() => find() !== undefined, timeoutMs, `the response to ${JSON.stringify(id)}`);
    return find()!;
  }

  /** The server's memory, from its `memory` tool. */
  async memory(id: string): Promise<Memory> {
    await this.send(call(id, "memory"));
    const response = (await this.response(id)) as { result: { content: { text: string }[] } };
    return JSON.parse(response.result.content[0]!.text) as Memory;
  }

  /** The last `memory {…}` line the server wrote on stderr (WIRE_REPORT_MS). */
  reported(): Memory | undefined {
    const at = this.stderr.lastIndexOf("memory {");
    if (at === -1) return undefined;
    const end = this.stderr.indexOf("\n", at);
    return end === -1 ? undefined : (JSON.parse(this.stderr.slice(at + 7, end)) as Memory);
  }

  /** How many `memory` lines the server has written on stderr. */
  reports(): number {
    return this.stderr.split("memory {").length - 1;
  }

  #take(chunk: string): void {
    let start = 0;
    for (let newline = chunk.indexOf("\n"); newline !== -1; newline = chunk.indexOf("\n", start)) {
      this.#parts.push(chunk.slice(start, newline));
      const line = this.#parts.join("");
      this.#parts = [];
      this.#partLength = 0;
      this.#line(line);
      start = newline + 1;
    }
    if (start < chunk.length) {
      this.#parts.push(chunk.slice(start));
      this.#partLength += chunk.length - start;
    }
  }

  #line(line: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.garbage.push(line.slice(0, 200));
      return;
    }
    // The answers to a 2025-03-26 batch come in one line, as an array.
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) this.#message(message, line);
  }

  #message(message: unknown, line: string): void {
    if (!isObject(message) || message.jsonrpc !== "2.0") {
      this.garbage.push(line.slice(0, 200));
      return;
    }
    const method = message.method;
    if (typeof method === "string") this.methods.set(method, (this.methods.get(method) ?? 0) + 1);
    else this.answers.set(message.id, (this.answers.get(message.id) ?? 0) + 1);
    if (line.length <= KEPT) this.messages.push(message);
    else this.sizes.set(message.id, line.length);
  }

  #wake(): void {
    for (const wake of this.#waiters) wake();
  }
}

/** The wire fixture on Node, through tsx, with a GC the `memory` tool can run. */
export function nodeWire(env: Record<string, string> = {}): WireChild {
  return new WireChild(process.execPath, ["--expose-gc", "--import", "tsx", FIXTURE], env);
}

export function call(id: unknown, name: string, args: Record<string, unknown> = {}): unknown {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: MODERN_META } };
}

export const mib = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;
