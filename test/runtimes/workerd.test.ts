/**
 * The runtime smoke test on workerd, the Cloudflare Workers runtime (the `workerd` devDependency):
 * server.ts bundled by esbuild, its default export (`server.fetch`) as the worker, served on a
 * 127.0.0.1 socket on a free port that workerd reports on its control fd.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, it } from "vitest";
import { ROOT, SERVER, START_TIMEOUT, type Started, smokeV1, smokeV2, start, workerdExecutable } from "./harness.js";

const CONFIG = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2026-01-01",
);
`;

let dir: string;
let server: Started;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "picomcp-workerd-"));
  await build({
    entryPoints: [join(ROOT, SERVER)],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    target: "es2022",
    outfile: join(dir, "worker.js"),
    logLevel: "silent",
  });
  await writeFile(join(dir, "config.capnp"), CONFIG);
  // workerd reports the port it bound on its control fd: `{"event":"listen","socket":"http","port":…}`.
  server = await start(workerdExecutable(), ["serve", "config.capnp", "--control-fd=3"], {
    cwd: dir,
    from: "fd3",
    endpoint: (line) => {
      const event = JSON.parse(line) as { event?: string; port?: number };
      return event.event === "listen" ? `http://127.0.0.1:${event.port}/mcp` : undefined;
    },
  });
}, START_TIMEOUT);

afterAll(async () => {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("export default server on workerd", () => {
  it("serves the v1 client: session, list, call, progress over SSE, validation error, DELETE", () =>
    smokeV1(server.url, "workerd"));
  it("serves the v2 client in the 2026-07-28 era", () => smokeV2(server.url, "workerd"));
});
