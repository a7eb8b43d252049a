/**
 * The runtime smoke test on Node 22, from the npm package `node` (pinned, run through npx; the
 * machine's own Node is 20): server.ts run with tsx, `serve()` on node:http via getBuiltinModule.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run, SERVER, START_TIMEOUT, type Started, smokeV1, smokeV2, start } from "./harness.js";

const NODE_22 = "node@22.23.3";
let server: Started;
let runtime: string;

beforeAll(async () => {
  // npx installs the package once into its cache; then the binary is started directly, so it is the child we stop.
  const { stdout } = await run("npx", ["-y", "-p", NODE_22, "node", "-p", "process.execPath + ' ' + process.version"], {
    timeout: 4 * START_TIMEOUT,
  });
  const [executable, version] = stdout.trim().split(" ");
  expect(version).toBe(`v${NODE_22.split("@")[1]}`);
  runtime = `node ${version!.slice(1)}`;
  server = await start(executable!, ["--import", "tsx", SERVER]);
}, 5 * START_TIMEOUT);

afterAll(() => server?.stop());

describe(`server.serve() on ${NODE_22}`, () => {
  it("serves the v1 client: session, list, call, progress over SSE, validation error, DELETE", () =>
    smokeV1(server.url, runtime));
  it("serves the v2 client in the 2026-07-28 era", () => smokeV2(server.url, runtime));
});
