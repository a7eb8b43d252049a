/**
 * The runtime smoke test on Bun (the `bun` devDependency), running server.ts as TypeScript, with
 * `serve()` on Bun.serve. It is imported from an eval rather than run as the entry point: Bun starts
 * a server of its own on port 3000 for an entry module whose default export has `fetch`.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import { bunExecutable, SERVER, START_TIMEOUT, type Started, smokeV1, smokeV2, start, versionOf } from "./harness.js";

const runtime = `bun ${versionOf("bun")}`;
let server: Started;

beforeAll(async () => {
  server = await start(bunExecutable(), ["--eval", `await import(${JSON.stringify(`./${SERVER}`)})`]);
}, START_TIMEOUT);

afterAll(() => server?.stop());

describe(`server.serve() on ${runtime}`, () => {
  it("serves the v1 client: session, list, call, progress over SSE, validation error, DELETE", () =>
    smokeV1(server.url, runtime));
  it("serves the v2 client in the 2026-07-28 era", () => smokeV2(server.url, runtime));
});
