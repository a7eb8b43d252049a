/**
 * Several instances of test/fixtures/scaling-server.ts as child processes, behind a round-robin
 * proxy: what a load balancer without sticky sessions does. The proxy passes bodies through as they
 * stream, says which instance answered (`x-instance`), skips an instance that refuses connections
 * (killed), and sends a request with `x-to: <n>` to instance n, for tests that need a given one.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createServer, request as httpRequest, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import { within } from "../http-helpers.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface Instance {
  readonly url: URL;
  readonly process: ChildProcessWithoutNullStreams;
  readonly pid: number;
}

export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ["--import", "tsx", "test/fixtures/scaling-server.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  let stdout = "";
  const started = new Promise<Instance>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const end = stdout.indexOf("\n");
      if (end === -1) return;
      const { url, pid } = JSON.parse(stdout.slice(0, end)) as { url: string; pid: number };
      resolve({ url: new URL(url), process: child, pid });
    });
    child.on("exit", (code) => reject(new Error(`an instance exited with ${code}: ${stderr}`)));
  });
  return within(started, 20_000, "an instance's start");
}

export class Cluster {
  readonly instances: Instance[];
  readonly #proxy: Server;
  readonly url: string;
  #next = 0;

  private constructor(instances: Instance[], proxy: Server, url: string) {
    this.instances = instances;
    this.#proxy = proxy;
    this.url = url;
  }

  static async start(count: number, env: Record<string, string>): Promise<Cluster> {
    const started = await Promise.allSettled(Array.from({ length: count }, () => startInstance(env)));
    const instances = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    const failed = started.find((result) => result.status === "rejected");
    if (failed) {
      // One did not start: the others are not left running.
      for (const instance of instances) instance.process.kill("SIGKILL");
      throw failed.reason;
    }
    let cluster: Cluster | undefined;
    const proxy = createServer((incoming, outgoing) => cluster!.forward(incoming, outgoing));
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    const address = proxy.address();
    if (address === null || typeof address === "string") throw new Error("the proxy did not bind");
    cluster = new Cluster(instances, proxy, `http://127.0.0.1:${address.port}/mcp`);
    return cluster;
  }

  /** Kills instance `n` at once (SIGKILL), as a crash does. */
  async kill(n: number): Promise<void> {
    const child = this.instances[n]!.process;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  async close(): Promise<void> {
    await Promise.all(this.instances.map((_, n) => this.kill(n)));
    this.#proxy.closeAllConnections();
    await new Promise<void>((resolve) => this.#proxy.close(() => resolve()));
  }

  forward(incoming: import("node:http").IncomingMessage, outgoing: import("node:http").ServerResponse): void {
    const pinned = incoming.headers["x-to"];
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const first = pinned === undefined ? this.#next++ % this.instances.length : Number(pinned);
      const attempt = (tries: number, n: number) => {
        const target = this.instances[n]!.url;
        const upstream = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            path: target.pathname,
            method: incoming.method,
            headers: incoming.headers,
          },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, { ...answer.headers, "x-instance": String(n) });
            answer.pipe(outgoing);
            outgoing.on("close", () => answer.destroy());
          },
        );
        upstream.on("error", (error: NodeJS.ErrnoException) => {
          // A killed instance: the balancer takes the next one (unless the test asked for this one).
          if (error.code === "ECONNREFUSED" && pinned === undefined && tries < this.instances.length) {
            attempt(tries + 1, (n + 1) % this.instances.length);
          } else if (!outgoing.headersSent) {
            outgoing.writeHead(502).end();
          } else outgoing.destroy();
        });
        upstream.end(body);
      };
      attempt(1, first);
    });
  }
}
