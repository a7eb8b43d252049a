/**
 * A real Redis for the tests: `redis-server` from the distribution's packages, on 127.0.0.1 at a
 * free port, without persistence, in a temporary folder; stopped (and restarted), or frozen, by the tests.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, connect as tcp } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach } from "vitest";

export const MISSING = "redis-server not found: apt-get install -y redis-server";

/** Whether redis-server can be run here. */
export function haveRedis(): boolean {
  return spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status === 0;
}

/** The tests need Redis (CI: .ci/run sets PICOMCP_REQUIRE_REDIS): a missing redis-server is then a failure. */
export const REQUIRED = Boolean(process.env.PICOMCP_REQUIRE_REDIS);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/** Whether Redis answers PING on `port`. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcp(port, "127.0.0.1");
    socket.setTimeout(500, () => {
      socket.destroy();
      resolve(false);
    });
    socket.on("error", () => resolve(false));
    socket.on("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
    socket.on("connect", () => socket.write("PING\r\n"));
  });
}

export class RedisServer {
  readonly port: number;
  readonly #dir: string;
  #process: ChildProcess | undefined;

  private constructor(port: number, dir: string) {
    this.port = port;
    this.#dir = dir;
  }

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), mkdtempSync(join(tmpdir(), "picomcp-redis-")));
    await server.resume();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts redis-server (again, on the same port after `stop`); resolves once it answers. */
  async resume(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
    this.#process = spawn("redis-server", [...args, "--dir", this.#dir], { stdio: "ignore" });
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await pings(this.port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not answer on port ${this.port}`);
  }

  /** Stops redis-server; resolves once it has exited. */
  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  /** Stops redis-server answering, its connections open (SIGSTOP): what a hung or overloaded Redis does. */
  freeze(): void {
    this.#process?.kill("SIGSTOP");
  }

  /** Lets a frozen redis-server answer again (SIGCONT). */
  thaw(): void {
    this.#process?.kill("SIGCONT");
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

/**
 * The redis-server of a test file: started before its tests and stopped after them (thawed first, in
 * case a test failed while it was frozen). Without redis-server each test is skipped with the install
 * command as the reason, and the file fails instead when PICOMCP_REQUIRE_REDIS is set. `get()` is the
 * server, inside a test. Call it before the file's own hooks: its `afterAll` then runs after theirs.
 */
export function useRedisServer(): { get(): RedisServer } {
  const available = haveRedis();
  let server: RedisServer | undefined;
  beforeAll(async () => {
    if (!available) {
      if (REQUIRED) throw new Error(`${MISSING} (PICOMCP_REQUIRE_REDIS is set, so Redis is required)`);
      return;
    }
    server = await RedisServer.start();
  });
  beforeEach((ctx) => {
    if (!available) ctx.skip(MISSING);
  });
  afterAll(async () => {
    server?.thaw();
    await server?.close();
  });
  return {
    get: () => {
      if (!server) throw new Error("redis-server is not running: useRedisServer() starts it before the tests");
      return server;
    },
  };
}
