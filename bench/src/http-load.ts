/**
 * Drives one HTTP server child with raw HTTP/1.1 over keep-alive connections: throughput and latency
 * with N connections each keeping one call in flight, the server's CPU time from /proc, and the heap
 * held by idle legacy sessions. Every answer is checked.
 */
import type { ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";
import { type HttpAnswer, HttpConnection } from "./http-client.js";
import { cpuMicros, percentile, start, stderrOf, stop, within } from "./lib.js";
import { call, checkOpening, checkTools, ENVELOPE, LEGACY_VERSION, MODERN_VERSION, opening } from "./workload.js";

export type Mode = "modern" | "stateless" | "sessions";

export const MODES: { mode: Mode; title: string }[] = [
  { mode: "modern", title: "2026-07-28 stateless requests (_meta envelope and Mcp-* headers)" },
  { mode: "stateless", title: "2025-11-25 without sessions (legacy stateless)" },
  { mode: "sessions", title: "2025-11-25 sessions (Mcp-Session-Id)" },
];

export interface HttpTarget {
  label: string;
  file: string;
  args?: string[];
  modes: Mode[];
}

type Message = { id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } };

/** Two heap readings this close agree: readings in a row of picomcp's and the bare server differ by 3 KB at most. */
const SETTLED_BYTES = 4096;
/** Readings at most: two agree almost always (a server whose heap keeps moving gets its last, and a warning). */
const MAX_HEAP_READINGS = 5;

/** A running HTTP server child, with its side channel (see servers/control.ts). */
export class HttpServer {
  readonly #waiting: ((line: string) => void)[] = [];
  port = 0;

  private constructor(
    readonly child: ChildProcess,
    readonly label: string,
  ) {
    let buffer = "";
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      buffer += chunk;
      let newline = buffer.indexOf("\n");
      while (newline !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf("\n");
        if (line.startsWith("bench:")) this.#waiting.shift()?.(line.slice(6));
      }
    });
  }

  static async start(target: HttpTarget, mode: Mode, node: string[] = []): Promise<HttpServer> {
    const child = start([target.file, mode, ...(target.args ?? [])], { node });
    const server = new HttpServer(child, target.label);
    const exited = new Promise<never>((_, reject) =>
      child.once("exit", (code) => reject(new Error(`${target.label} exited (${code}): ${stderrOf(child)}`))),
    );
    const line = await within(Promise.race([server.#next(), exited]), 10_000, `${target.label} listening`);
    server.port = Number(line.split(" ")[1]);
    exited.catch(() => {});
    return server;
  }

  #next(): Promise<string> {
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /**
   * JS heap in use after full garbage collections, measured inside the server (needs --expose-gc):
   * read again until two readings in a row agree (within SETTLED_BYTES). The first reading after a
   * burst of requests now and then counts 80 to 220 KB of old-space objects that the collections of
   * the next reading free: they go once the server's event loop has run an I/O callback between the
   * two (a stdout write's or an fs call's callback frees them; 50 ms of timers does not), which a
   * second command is. Read once, one idle session in ten read 0.05 to 0.2 KiB instead of 0.48 at
   * 300 sessions (the eleventh session's 0.11 and 0.15), and too high where the reading after was the first.
   */
  async heapUsed(): Promise<number> {
    let reading = await this.#heapReading();
    for (let tries = 1; tries < MAX_HEAP_READINGS; tries++) {
      const next = await this.#heapReading();
      if (Math.abs(next - reading) <= SETTLED_BYTES) return next;
      reading = next;
    }
    process.stderr.write(`${this.label}: the heap did not settle in ${MAX_HEAP_READINGS} readings; the last is used\n`);
    return reading;
  }

  async #heapReading(): Promise<number> {
    const answer = this.#next();
    this.child.stdin!.write("heap\n");
    return Number((await within(answer, 10_000, `${this.label} heap`)).split(" ")[1]);
  }

  stop(): Promise<void> {
    return stop(this.child);
  }
}

/** One client on one keep-alive connection: its session (if any) and request ids. */
export class HttpClient {
  sessionId: string | undefined;
  #nextId = 1;

  private constructor(
    readonly connection: HttpConnection,
    readonly mode: Mode,
    readonly label: string,
  ) {}

  static async open(port: number, mode: Mode, label: string): Promise<HttpClient> {
    return new HttpClient(await HttpConnection.open(port), mode, label);
  }

  /** A new legacy session over a connection that already exists (one connection carries many sessions in turn). */
  static over(connection: HttpConnection, label: string): HttpClient {
    return new HttpClient(connection, "sessions", label);
  }

  /** The opening exchange: server/discover (modern) or initialize, then notifications/initialized. */
  async begin(): Promise<void> {
    const era = this.mode === "modern" ? "modern" : "legacy";
    const first = opening(era);
    const { answer, message } = await this.request(first.method, first.params);
    const wrong = checkOpening(message, era);
    if (wrong) throw new Error(`${this.label}: ${first.method} was answered wrongly (${wrong})`);
    if (this.mode === "sessions") {
      this.sessionId = answer.headers["mcp-session-id"];
      if (!this.sessionId) throw new Error(`${this.label}: initialize gave no Mcp-Session-Id`);
    }
    if (era === "legacy") {
      const sent = await this.connection.post(
        "/mcp",
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
        this.#headers("notifications/initialized"),
      );
      if (sent.status !== 202) throw new Error(`${this.label}: notifications/initialized answered ${sent.status}`);
    }
  }

  async checkTools(): Promise<void> {
    const { message } = await this.request("tools/list", this.mode === "modern" ? { _meta: ENVELOPE } : undefined);
    const wrong = checkTools(message);
    if (wrong) throw new Error(`${this.label}: ${wrong}`);
  }

  /** Ends the session (DELETE), for the sessions used only to warm the server up. */
  async end(): Promise<void> {
    const answer = await within(this.#delete(), 5000, `${this.label} DELETE`);
    if (answer.status !== 200 && answer.status !== 204)
      throw new Error(`${this.label}: DELETE answered ${answer.status}`);
  }

  #delete(): Promise<HttpAnswer> {
    return this.connection.request("DELETE", "/mcp", "", this.#headers("delete"));
  }

  async request(
    method: string,
    params?: Record<string, unknown>,
    name?: string,
  ): Promise<{ answer: HttpAnswer; message: Message }> {
    const id = this.#nextId++;
    const answer = await within(
      this.connection.post("/mcp", JSON.stringify({ jsonrpc: "2.0", id, method, params }), this.#headers(method, name)),
      10_000,
      `${this.label} ${method}`,
    );
    const message = (answer.messages as Message[]).find((m) => m.id === id);
    if (answer.status !== 200 || !message)
      throw new Error(
        `${this.label}: ${method} answered HTTP ${answer.status} ${JSON.stringify(answer.messages).slice(0, 300)}`,
      );
    return { answer, message };
  }

  #headers(method: string, name?: string): Record<string, string> {
    const headers: Record<string, string> = {};
    if (this.mode === "modern") {
      headers["MCP-Protocol-Version"] = MODERN_VERSION;
      headers["Mcp-Method"] = method;
      if (name) headers["Mcp-Name"] = name;
    } else if (method !== "initialize") headers["MCP-Protocol-Version"] = LEGACY_VERSION;
    if (this.sessionId) headers["Mcp-Session-Id"] = this.sessionId;
    return headers;
  }

  close(): void {
    this.connection.close();
  }
}

export interface Load {
  calls: number;
  seconds: number;
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuMicrosPerCall: number;
}

/** Every client keeps one call in flight for `ms` (at most `max` calls in all); every answer checked. */
export async function load(server: HttpServer, clients: HttpClient[], ms: number, max: number): Promise<Load> {
  const era = clients[0]!.mode === "modern" ? "modern" : "legacy";
  const latencies: number[] = [];
  let next = 0;
  const pid = server.child.pid!;
  const cpu0 = cpuMicros(pid);
  const t0 = performance.now();
  const deadline = t0 + ms;
  await within(
    Promise.all(
      clients.map(async (client) => {
        while (next < max && performance.now() < deadline) {
          const i = next++;
          const c = call(i, era);
          const t = performance.now();
          const { message } = await client.request("tools/call", c.params, c.tool);
          latencies.push(performance.now() - t);
          const wrong = c.check(message);
          if (wrong)
            throw new Error(
              `${server.label}: call ${i} (${c.tool}) was answered wrongly (${wrong}): ${JSON.stringify(message).slice(0, 300)}`,
            );
        }
      }),
    ),
    ms + 15_000,
    `${server.label} load`,
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuMicros(pid) - cpu0;
  return {
    calls: latencies.length,
    seconds,
    callsPerSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    cpuMicrosPerCall: cpu / latencies.length,
  };
}

export async function openClients(server: HttpServer, mode: Mode, count: number): Promise<HttpClient[]> {
  const clients = await Promise.all(
    Array.from({ length: count }, () => HttpClient.open(server.port, mode, server.label)),
  );
  await Promise.all(clients.map((client) => client.begin()));
  await clients[0]!.checkTools();
  return clients;
}

export interface HttpPlan {
  connections: number;
  warmupMs: number;
  measureMs: number;
}

/** One round for one server in one mode: start, open the connections, warm up, measure, stop. */
export async function runHttp(target: HttpTarget, mode: Mode, plan: HttpPlan, node: string[] = []): Promise<Load> {
  const server = await HttpServer.start(target, mode, node);
  const clients: HttpClient[] = [];
  try {
    clients.push(...(await openClients(server, mode, plan.connections)));
    await load(server, clients, plan.warmupMs, 1_000_000);
    return await load(server, clients, plan.measureMs, 2_000_000);
  } finally {
    for (const client of clients) client.close();
    await server.stop();
  }
}

/**
 * JS heap per idle legacy session: what one more idle session costs. A few sessions warm the server up
 * and are ended; `count` sessions are opened (initialize + notifications/initialized) on the keep-alive
 * connections and left idle, then `count` more. The heap is read inside the server after full
 * collections, before and after the second `count`: the first carries what is made once, not per
 * session (the connections' sockets, the feedback V8 keeps for the code that ran). The server runs
 * without V8's optimizing compilers (`--max-opt=0`): the code they make as the handshake grows hot, and
 * its metadata, came at 0.3 to 0.8 KiB per session at 300 sessions, present or not in one reading
 * depending on when they ran, so that two rounds of one build read 1.0 and 1.7 KiB.
 */
export async function sessionHeap(target: HttpTarget, count: number, connections: number): Promise<number> {
  const server = await HttpServer.start(target, "sessions", ["--expose-gc", "--max-opt=0"]);
  const sockets: HttpConnection[] = [];
  try {
    const warm = await openClients(server, "sessions", 4);
    for (const client of warm) {
      for (let i = 0; i < 30; i++) {
        const c = call(i, "legacy");
        const { message } = await client.request("tools/call", c.params, c.tool);
        const wrong = c.check(message);
        if (wrong) throw new Error(`${target.label}: ${wrong}`);
      }
      await client.end();
      sockets.push(client.connection);
    }
    const lanes = await Promise.all(Array.from({ length: connections }, () => HttpConnection.open(server.port)));
    sockets.push(...lanes);
    await openIdle(target, lanes, count);
    const before = await server.heapUsed();
    await openIdle(target, lanes, count);
    const after = await server.heapUsed();
    return (after - before) / count;
  } finally {
    for (const socket of sockets) socket.close();
    await server.stop();
  }
}

/** Opens `count` sessions over `lanes`, one at a time on each, and leaves them idle. */
async function openIdle(target: HttpTarget, lanes: HttpConnection[], count: number): Promise<void> {
  let opened = 0;
  await within(
    Promise.all(
      lanes.map(async (connection) => {
        while (opened < count) {
          opened++;
          await HttpClient.over(connection, target.label).begin();
        }
      }),
    ),
    60_000,
    `${target.label} ${count} sessions`,
  );
}
