/**
 * `npm run scaling --prefix bench`: what sharing state on Redis costs (picomcp/redis, docs/scaling.md),
 * as server CPU per call over HTTP, measured from /proc: 2025-11-25 session calls and 2026-07-28 tasks
 * (create, then tasks/get until completed; CPU per task), with the state in memory (one instance) against on Redis
 * (one instance, then three with every client's requests rotating over them). Needs redis-server.
 *
 * Options: --rounds N (default 3), --seconds S per round and setup (default 3), --clients N (default 16).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { HttpConnection } from "./http-client.js";
import { cpuMicros, format, median, option, ROOT, ratio, rotate, save, start, stop, table, within } from "./lib.js";

const rounds = option("rounds", 3);
const measureMs = option("seconds", 3) * 1000;
const clientCount = option("clients", 16);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === "object" && address ? address.port : 0;
}

const redisPort = await freePort();
const redis: ChildProcess = spawn(
  "redis-server",
  ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
  { stdio: "ignore" },
);
process.on("exit", () => redis.kill("SIGKILL"));
await new Promise((resolve) => setTimeout(resolve, 300));

interface Instance {
  child: ChildProcess;
  port: number;
}

async function startInstance(): Promise<Instance> {
  const child = start(["--import", "tsx", `${ROOT}/bench/servers/scaling-server.ts`]);
  const port = await within(
    new Promise<number>((resolve) =>
      child.stdout!.once("data", (data: Buffer) => resolve(Number(data.toString().trim()))),
    ),
    20_000,
    "an instance's start",
  );
  return { child, port };
}

/** A setup: its instances' state and count, and the workload. */
interface Setup {
  label: string;
  state: "memory" | "redis";
  instances: number;
  work: "sessions" | "tasks";
}

const SETUPS: Setup[] = [
  { label: "sessions, memory, 1 instance", state: "memory", instances: 1, work: "sessions" },
  { label: "sessions, Redis, 1 instance", state: "redis", instances: 1, work: "sessions" },
  { label: "sessions, Redis, 3 instances", state: "redis", instances: 3, work: "sessions" },
  { label: "tasks, memory, 1 instance", state: "memory", instances: 1, work: "tasks" },
  { label: "tasks, Redis, 1 instance", state: "redis", instances: 1, work: "tasks" },
  { label: "tasks, Redis, 3 instances", state: "redis", instances: 3, work: "tasks" },
];

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
};
let nextId = 1;

/** One client: a connection to every instance, its requests rotating over them. */
class Client {
  readonly #connections: HttpConnection[];
  #turn = 0;
  session = "";

  constructor(connections: HttpConnection[]) {
    this.#connections = connections;
  }

  async post(body: object, headers: Record<string, string> = {}) {
    const connection = this.#connections[this.#turn++ % this.#connections.length]!;
    const answer = await connection.post("/mcp", JSON.stringify({ jsonrpc: "2.0", ...body }), headers);
    if (answer.status !== 200 && answer.status !== 202) throw new Error(`HTTP ${answer.status}`);
    return answer;
  }

  close(): void {
    for (const connection of this.#connections) connection.close();
  }

  get legacy(): Record<string, string> {
    return { "mcp-session-id": this.session, "mcp-protocol-version": "2025-11-25" };
  }

  modern(method: string, name: string): Record<string, string> {
    return { "mcp-protocol-version": "2026-07-28", "mcp-method": method, "mcp-name": name };
  }

  async open(): Promise<void> {
    const answer = await this.post({
      id: nextId++,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
    });
    this.session = answer.headers["mcp-session-id"]!;
    await this.post({ method: "notifications/initialized" }, this.legacy);
  }

  /** One unit of work (a call; a task created and polled to its end); answers how many requests it took. */
  async work(kind: Setup["work"]): Promise<number> {
    if (kind === "sessions") {
      const answer = await this.post(
        { id: nextId++, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } },
        this.legacy,
      );
      if (!JSON.stringify(answer.messages).includes('"hi"')) throw new Error("echo did not answer hi");
      return 1;
    }
    const created = await this.post(
      { id: nextId++, method: "tools/call", params: { name: "quick", _meta: MODERN_META } },
      this.modern("tools/call", "quick"),
    );
    const taskId = (created.messages[0] as { result: { taskId: string } }).result.taskId;
    for (let polls = 1; polls <= 100; polls++) {
      const got = await this.post(
        { id: nextId++, method: "tasks/get", params: { taskId, _meta: MODERN_META } },
        this.modern("tasks/get", taskId),
      );
      const status = (got.messages[0] as { result: { status: string } }).result.status;
      if (status === "completed") return 1 + polls;
    }
    throw new Error(`task ${taskId} did not complete`);
  }
}

interface Run {
  cpuMicrosPerUnit: number;
  unitsPerSecond: number;
  redisMicrosPerUnit: number;
  requestsPerUnit: number;
}

async function run(setup: Setup): Promise<Run> {
  process.env.STATE = setup.state;
  process.env.REDIS_URL = `redis://127.0.0.1:${redisPort}`;
  const instances = await Promise.all(Array.from({ length: setup.instances }, () => startInstance()));
  const clients = await Promise.all(
    Array.from(
      { length: clientCount },
      async () => new Client(await Promise.all(instances.map((i) => HttpConnection.open(i.port)))),
    ),
  );
  if (setup.work === "sessions") for (const client of clients) await client.open();
  const loop = async (client: Client, until: number, count: { units: number; requests: number }) => {
    while (Date.now() < until) {
      // Read after the await: `count.requests += await …` would read it before, losing the other clients' counts.
      const requests = await client.work(setup.work);
      count.requests += requests;
      count.units++;
    }
  };
  await Promise.all(clients.map((client) => loop(client, Date.now() + 1000, { units: 0, requests: 0 })));
  const cpu = () => instances.reduce((sum, instance) => sum + cpuMicros(instance.child.pid!), 0);
  const before = cpu();
  const redisBefore = cpuMicros(redis.pid!);
  const started = Date.now();
  const count = { units: 0, requests: 0 };
  await Promise.all(clients.map((client) => loop(client, started + measureMs, count)));
  const elapsed = Date.now() - started;
  const result = {
    cpuMicrosPerUnit: (cpu() - before) / count.units,
    unitsPerSecond: (count.units * 1000) / elapsed,
    redisMicrosPerUnit: (cpuMicros(redis.pid!) - redisBefore) / count.units,
    requestsPerUnit: count.requests / count.units,
  };
  for (const client of clients) client.close();
  await Promise.all(instances.map((instance) => stop(instance.child)));
  return result;
}

const runs = new Map<string, Run[]>();
for (let round = 0; round < rounds; round++) {
  for (const setup of rotate(SETUPS, round)) {
    const result = await run(setup);
    runs.set(setup.label, [...(runs.get(setup.label) ?? []), result]);
    process.stderr.write(
      `round ${round + 1}/${rounds} ${setup.label.padEnd(30)} ${format(result.unitsPerSecond)}/s, ${format(result.cpuMicrosPerUnit, 1)} µs server CPU each, ${format(result.redisMicrosPerUnit, 1)} µs Redis CPU each, ${format(result.requestsPerUnit, 2)} requests each\n`,
    );
  }
}

const med = (label: string, key: keyof Run) => median((runs.get(label) ?? []).map((run) => run[key]));
const rows = SETUPS.map((setup) => {
  const base = `${setup.work}, memory, 1 instance`;
  return [
    setup.label,
    format(med(setup.label, "unitsPerSecond")),
    format(med(setup.label, "cpuMicrosPerUnit"), 1),
    format(med(setup.label, "redisMicrosPerUnit"), 1),
    format(med(setup.label, "requestsPerUnit"), 2),
    ratio(med(setup.label, "cpuMicrosPerUnit"), med(base, "cpuMicrosPerUnit")),
    ratio(med(setup.label, "unitsPerSecond"), med(base, "unitsPerSecond")),
  ];
});
console.log(
  table(
    [
      "calls (sessions) or tasks (created, polled to the end)",
      "per second",
      "server CPU each (µs)",
      "Redis CPU each (µs)",
      "requests each",
      "CPU / memory",
      "per second / memory",
    ],
    rows,
  ),
);
console.log(`\nresults: ${save("scaling", { rounds, measureMs, clientCount, runs: Object.fromEntries(runs) })}`);
redis.kill("SIGKILL");
process.exit(0);
