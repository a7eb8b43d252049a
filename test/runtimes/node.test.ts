/** The runtime smoke test on the Node that runs the tests (Node 20 in CI): server.ts run with tsx, `serve()` on node:http. */
import { afterAll, beforeAll, describe, it } from "vitest";
import { checksAnUpperCaseScheme, SERVER, START_TIMEOUT, type Started, smokeV1, smokeV2, start } from "./harness.js";

const runtime = `node ${process.version.slice(1)}`;
let server: Started;

beforeAll(async () => {
  server = await start(process.execPath, ["--import", "tsx", SERVER]);
}, START_TIMEOUT);

afterAll(() => server?.stop());

describe(`server.serve() on ${runtime}`, () => {
  it("serves the v1 client: session, list, call, progress over SSE, validation error, DELETE", () =>
    smokeV1(server.url, runtime));
  it("serves the v2 client in the 2026-07-28 era", () => smokeV2(server.url, runtime));
  it("takes an absolute-form target's upper-case HTTPS scheme as https for the Origin check", () =>
    checksAnUpperCaseScheme(server.url));
});
