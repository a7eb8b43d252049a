/**
 * Drives one stdio server child with raw newline-delimited JSON-RPC (no SDK client, so the client's
 * own cost stays out of the figures): cold start, sequential latency, and throughput with a window of
 * calls in flight. Every answer is checked.
 */
import type { ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import { cpuMicros, peakRssMiB, percentile, start, stderrOf, stop, within } from "./lib.js";
import { type Call, call, checkOpening, checkTools, ENVELOPE, type Era, opening } from "./workload.js";

type Message = { id?: number; result?: Record<string, unknown>; error?: { code: number; message: string } };

export class StdioPeer {
  readonly child: ChildProcess;
  readonly #pending = new Map<number, (message: Message) => void>();
  #buffer = "";
  #nextId = 1;
  #failure: Error | undefined;
  /** Runs after each chunk of answers has been handled: the throughput loop refills its window there. */
  afterChunk: (() => void) | undefined;

  constructor(
    child: ChildProcess,
    readonly label: string,
  ) {
    this.child = child;
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => this.#data(chunk));
    child.once("exit", (code, signal) => {
      if (this.#pending.size > 0)
        this.#fail(
          new Error(
            `${label} exited (${code ?? signal}) with ${this.#pending.size} calls unanswered: ${stderrOf(child)}`,
          ),
        );
    });
  }

  #data(chunk: string): void {
    this.#buffer += chunk;
    let start = 0;
    let newline = this.#buffer.indexOf("\n");
    while (newline !== -1) {
      const line = this.#buffer.slice(start, newline);
      start = newline + 1;
      newline = this.#buffer.indexOf("\n", start);
      if (line.trim() === "") continue;
      let message: Message;
      try {
        message = JSON.parse(line);
      } catch {
        this.#fail(new Error(`${this.label} wrote a line that is not JSON: ${line.slice(0, 200)}`));
        return;
      }
      if (message.id === undefined) continue; // a notification
      const settle = this.#pending.get(message.id);
      if (!settle) {
        this.#fail(new Error(`${this.label} answered an id it was not asked: ${line.slice(0, 200)}`));
        return;
      }
      this.#pending.delete(message.id);
      settle(message);
    }
    this.#buffer = this.#buffer.slice(start);
    this.afterChunk?.();
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const settle of this.#pending.values()) settle({ error: { code: 0, message: error.message } });
    this.#pending.clear();
  }

  get failure(): Error | undefined {
    return this.#failure;
  }

  /** The line of a request, registering what to do with its answer. */
  line(method: string, params: Record<string, unknown> | undefined, settle: (message: Message) => void): string {
    const id = this.#nextId++;
    this.#pending.set(id, settle);
    return `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`;
  }

  request(method: string, params?: Record<string, unknown>): Promise<Message> {
    return new Promise((resolve) => this.child.stdin!.write(this.line(method, params, resolve)));
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
  }

  get inflight(): number {
    return this.#pending.size;
  }
}

function verify(label: string, what: string, wrong: string | undefined, message: unknown): void {
  if (wrong)
    throw new Error(`${label}: ${what} was answered wrongly (${wrong}): ${JSON.stringify(message).slice(0, 400)}`);
}

export interface StdioTarget {
  label: string;
  file: string;
  args?: string[];
}

/** Spawns the server and measures the time to the answer of its opening request. */
export async function open(
  target: StdioTarget,
  era: Era,
  node: string[] = [],
): Promise<{ peer: StdioPeer; coldMs: number }> {
  const t0 = performance.now();
  const child = start([target.file, ...(target.args ?? [])], { node });
  const peer = new StdioPeer(child, target.label);
  const first = opening(era);
  const answer = await within(peer.request(first.method, first.params), 10_000, `${target.label} ${first.method}`);
  const coldMs = performance.now() - t0;
  verify(target.label, first.method, checkOpening(answer, era), answer);
  if (era === "legacy") peer.notify("notifications/initialized");
  const tools = await within(
    peer.request("tools/list", era === "modern" ? { _meta: ENVELOPE } : undefined),
    5000,
    `${target.label} tools/list`,
  );
  verify(target.label, "tools/list", checkTools(tools), tools);
  return { peer, coldMs };
}

/** One call at a time; latency of each in µs. Bounded by `count` and `ms`. */
export async function sequential(peer: StdioPeer, era: Era, count: number, ms: number): Promise<number[]> {
  const latencies: number[] = [];
  const deadline = performance.now() + ms;
  for (let i = 0; i < count && performance.now() < deadline; i++) {
    const c = call(i, era);
    const t = performance.now();
    const answer = await within(peer.request("tools/call", c.params), 5000, `${peer.label} ${c.tool}`);
    latencies.push((performance.now() - t) * 1000);
    verify(peer.label, `call ${i} (${c.tool})`, c.check(answer), answer);
  }
  return latencies;
}

export interface Burst {
  calls: number;
  seconds: number;
  callsPerSecond: number;
  cpuMicrosPerCall: number;
}

/**
 * Keeps `window` calls in flight for `ms` (and at most `max` calls), then waits for the last answers.
 * Reads the server's CPU time from /proc before and after.
 */
export async function burst(peer: StdioPeer, era: Era, window: number, ms: number, max: number): Promise<Burst> {
  const pid = peer.child.pid!;
  let sent = 0;
  let done = 0;
  let failure: Error | undefined;
  const cpu0 = cpuMicros(pid);
  const t0 = performance.now();
  const deadline = t0 + ms;
  let finished: () => void = () => {};
  const over = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const answered = (c: Call, i: number) => (message: Message) => {
    done++;
    const wrong = c.check(message);
    if (wrong && !failure)
      failure = new Error(
        `${peer.label}: call ${i} (${c.tool}) was answered wrongly (${wrong}): ${JSON.stringify(message).slice(0, 400)}`,
      );
  };
  const refill = () => {
    const open = !failure && sent < max && performance.now() < deadline;
    if (open) {
      let out = "";
      while (sent - done < window && sent < max) {
        const c = call(sent, era);
        out += peer.line("tools/call", c.params, answered(c, sent));
        sent++;
      }
      if (out) peer.child.stdin!.write(out);
    } else if (done === sent) finished();
  };
  peer.afterChunk = refill;
  refill();
  await within(over, ms + 10_000, `${peer.label} burst`);
  peer.afterChunk = undefined;
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuMicros(pid) - cpu0;
  if (failure) throw failure;
  if (peer.failure) throw peer.failure;
  return { calls: done, seconds, callsPerSecond: done / seconds, cpuMicrosPerCall: cpu / done };
}

export interface StdioRun {
  coldMs: number;
  p50Micros: number;
  p99Micros: number;
  callsPerSecond: number;
  cpuMicrosPerCall: number;
  peakRssMiB: number;
  calls: number;
}

export interface StdioPlan {
  /** Extra start-ups per round that only time the opening answer: cold start is the noisiest figure. */
  extraColdStarts: number;
  warmupMs: number;
  sequentialCalls: number;
  burstMs: number;
  window: number;
}

/** One round for one server: start, warm up, measure, stop. */
export async function runStdio(target: StdioTarget, era: Era, plan: StdioPlan, node: string[] = []): Promise<StdioRun> {
  const colds: number[] = [];
  for (let i = 0; i < plan.extraColdStarts; i++) {
    const started = await open(target, era, node);
    colds.push(started.coldMs);
    await stop(started.peer.child);
  }
  const { peer, coldMs } = await open(target, era, node);
  colds.push(coldMs);
  try {
    await burst(peer, era, plan.window, plan.warmupMs, 1_000_000);
    const latencies = await sequential(peer, era, plan.sequentialCalls, 20_000);
    const measured = await burst(peer, era, plan.window, plan.burstMs, 2_000_000);
    return {
      coldMs: percentile(colds, 50),
      p50Micros: percentile(latencies, 50),
      p99Micros: percentile(latencies, 99),
      callsPerSecond: measured.callsPerSecond,
      cpuMicrosPerCall: measured.cpuMicrosPerCall,
      peakRssMiB: peakRssMiB(peer.child.pid!),
      calls: measured.calls,
    };
  } finally {
    await stop(peer.child);
  }
}
