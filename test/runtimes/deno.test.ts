/**
 * The runtime smoke test on Deno (the `deno` devDependency), running server.ts as TypeScript: once
 * with `server.serve()` on Deno.serve, once as `export default server` under `deno serve`.
 * Permissions are the least it needs; --sloppy-imports maps the `.js` specifiers of the sources to
 * their `.ts` files, as TypeScript's NodeNext resolution does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostRefused } from "../http-helpers.js";
import {
  checksAnUpperCaseScheme,
  denoExecutable,
  hearsKeepAlives,
  initializeWithTarget,
  KEEP_ALIVE_SERVER,
  postWithHost,
  ROOT,
  run,
  SERVER,
  START_TIMEOUT,
  type Started,
  smokeV1,
  smokeV2,
  start,
  versionOf,
} from "./harness.js";

const runtime = `deno ${versionOf("deno")}`;
const FLAGS = ["--no-lock", "--no-prompt", "--sloppy-imports", "--allow-env=PICO_PORT", "--allow-net=127.0.0.1"];
// No update check: the only network here is the npm registry.
const ENV = { DENO_NO_UPDATE_CHECK: "1" };

/**
 * An absolute-form target's authority is the request's host, its Host header ignored (RFC 9112
 * §3.2.2), as on Node (test/node-bridge.test.ts). Was: Deno's Host header was checked instead, so a
 * foreign target with a loopback Host was served, and a loopback target with a foreign Host refused.
 */
async function checksTheTargetsAuthority(url: string): Promise<void> {
  const port = Number(new URL(url).port);
  const foreign = await initializeWithTarget(port, "http://evil.example.com/mcp", { host: `127.0.0.1:${port}` });
  expect(foreign.status).toBe(403);
  expect(JSON.parse(foreign.body)).toMatchObject({
    error: { message: hostRefused("evil.example.com") },
  });
  const own = await initializeWithTarget(port, `http://127.0.0.1:${port}/mcp`, { host: "evil.example.com" });
  expect(own.status).toBe(200);
  expect(JSON.parse(own.body)).toMatchObject({ id: 1, result: { serverInfo: { name: "runtime-smoke" } } });
  const malformed = await initializeWithTarget(port, "http://user@evil.example.com/mcp", { host: `127.0.0.1:${port}` });
  expect(malformed.status).toBe(400);
}

describe(`server.serve() on ${runtime}`, () => {
  let server: Started;
  beforeAll(async () => {
    server = await start(denoExecutable(), ["run", ...FLAGS, SERVER], { env: ENV });
  }, START_TIMEOUT);
  afterAll(() => server?.stop());

  it("serves the v1 client: session, list, call, progress over SSE, validation error, DELETE", () =>
    smokeV1(server.url, runtime));
  it("serves the v2 client in the 2026-07-28 era", () => smokeV2(server.url, runtime));
  it("checks an absolute-form target by its authority, not by the Host header", () =>
    checksTheTargetsAuthority(server.url));
  it("takes an absolute-form target's upper-case HTTPS scheme as https for the Origin check", () =>
    checksAnUpperCaseScheme(server.url));
  it("prints no warning of Deno's about reading request.signal", () =>
    expect(server.output()).not.toContain("request.signal"));
});

describe(`a quiet event stream of server.serve() on ${runtime}`, () => {
  let server: Started;
  beforeAll(async () => {
    server = await start(denoExecutable(), ["run", ...FLAGS, KEEP_ALIVE_SERVER], { env: ENV });
  }, START_TIMEOUT);
  afterAll(() => server?.stop());

  /** Was: none on Deno (only Workers and Node sent them), so a connection that died without closing held its stream, its slot and its session for good. */
  it("carries a keep-alive comment every 15 s (here 100 ms), as on Node", () => hearsKeepAlives(server.url));
});

describe(`export default server under deno serve, ${runtime}`, () => {
  let server: Started;
  beforeAll(async () => {
    // Without PICO_PORT server.ts does not serve itself: Deno serves its default export.
    server = await start(denoExecutable(), ["serve", ...FLAGS, "--host", "127.0.0.1", "--port", "0", SERVER], {
      env: { ...ENV, PICO_PORT: "" },
      from: "stderr",
      endpoint: (line) => /Listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(line)?.[1]?.concat("/mcp"),
    });
  }, START_TIMEOUT);
  afterAll(() => server?.stop());

  it("refuses a Host header that is not loopback with 403, as serve() does, on --host 127.0.0.1", async () => {
    const { status, body } = await postWithHost("evil.com", Number(new URL(server.url).port));
    expect(status).toBe(403);
    expect(JSON.parse(body)).toMatchObject({ error: { message: hostRefused("evil.com") } });
  });

  it("checks an absolute-form target by its authority, not by the Host header", () =>
    checksTheTargetsAuthority(server.url));
  it("takes an absolute-form target's upper-case HTTPS scheme as https for the Origin check", () =>
    checksAnUpperCaseScheme(server.url));
  it("serves the v1 client through server.fetch", () => smokeV1(server.url, runtime));
  it("serves the v2 client through server.fetch", () => smokeV2(server.url, runtime));
  it("prints no warning of Deno's about reading request.signal", () =>
    expect(server.output()).not.toContain("request.signal"));
});

describe(`a tool error that names a file by its file:// URL, ${runtime}`, () => {
  it("reaches the client with the URL as [path], as Node's path would", async () => {
    const { stdout } = await run(
      denoExecutable(),
      ["run", ...FLAGS, "--allow-read=.", "test/runtimes/missing-module.ts"],
      {
        cwd: ROOT,
        env: { ...process.env, ...ENV },
        timeout: START_TIMEOUT,
      },
    );
    // Was: 'Module not found "file:///…/test/runtimes/plugins/missing.ts".', the server's folders with it.
    expect(JSON.parse(stdout)).toEqual({
      content: [{ type: "text", text: 'Module not found "[path]".' }],
      isError: true,
    });
  });
});
