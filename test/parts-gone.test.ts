/**
 * A server whose package was replaced on disk while it runs (an upgrade in place: the build's chunks
 * are named by their content, so the old process finds none of its parts that load on first use).
 * Each part it can no longer load fails only what needed it, never an answer, the reading of its
 * input, or the process: the limits' interruptions (limits/interruptions.ts, for requests and
 * `server.call`s), the answer to an oversized stdio line (transports/too-large.ts), the reading of
 * stdin that is not UTF-8 (transports/utf8-lines.ts) and the HTTP faces (transports/http/faces.ts).
 * The server runs from a copy of src/ in a temporary folder, the part deleted from the copy once
 * the server has started, over stdio to the official v1 client, or as a program of its own.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { AFTER_SHUTDOWN, Child, killChildren, MODERN_META } from "./hardening-helpers.js";
import { ROOT, tsxProgram } from "./peers/fixture.js";

/** How the shutdown says it ended a request or call without a grace period, the interruptions' module gone. */
const WITHOUT_GRACE =
  "was cancelled at once, without its grace period (picomcp could not load limits/interruptions; the error is logged)";

const folder = mkdtempSync(join(tmpdir(), "picomcp-parts-gone-"));
afterAll(() => {
  killChildren();
  rmSync(folder, { recursive: true, force: true });
});

let copies = 0;
/** A copy of src/ with `program` beside it (it imports "./src/index.js"): the copy's folder. */
function copyWith(program: string): string {
  const copy = join(folder, String(++copies));
  cpSync(join(ROOT, "src"), join(copy, "src"), { recursive: true });
  // Modules, as the package's own (its package.json says "type": "module").
  writeFileSync(join(copy, "package.json"), '{ "type": "module" }');
  writeFileSync(join(copy, "server.ts"), program);
  return copy;
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/**
 * Waits until the child's stderr says `text`: it comes on a pipe of its own, which the test may read
 * after the answer that followed it on stdout (a CI run read the answer first and stderr still empty).
 */
function saidOnStderr(stderr: () => string, text: string): Promise<void> {
  return vi.waitFor(() => expect(stderr()).toContain(text), { timeout: 10_000, interval: 20 });
}

/** The official v1 client, connected over stdio to the server of `copy`. */
async function connect(copy: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport(tsxProgram(join(copy, "server.ts")));
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "parts-gone", version: "1.0.0" });
  clients.push(client);
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

it("answers a request its deadline cut short when the interruptions' module can no longer load", async () => {
  const copy = copyWith(`
import { pico } from "./src/index.js";
pico({ name: "gone", limits: { handlerTimeoutMs: 200 } })
  .tool("hang", { description: "Never answers.", run: () => new Promise(() => {}) })
  .serve();
`);
  const { client, stderr } = await connect(copy);
  rmSync(join(copy, "src/limits/interruptions.ts"));
  // Bounded: without an answer, the client's own timeout ends the wait.
  const calling = client.callTool({ name: "hang" }, undefined, { timeout: 15_000 });
  await expect(calling).rejects.toMatchObject({
    code: -32603,
    message: expect.stringContaining("did not finish within 0.2 s (limits.handlerTimeoutMs)"),
  });
  // The server goes on serving, and says why the answer is not the usual one.
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["hang"]);
  await saidOnStderr(stderr, "interruptions");
}, 30_000);

it("shuts down with a request in progress when the interruptions' module can no longer load", async () => {
  const copy = copyWith(`
import { pico } from "./src/index.js";
const server = pico({ name: "gone", limits: { shutdownGraceMs: 60_000 } });
server
  .tool("hang", { description: "Never answers.", run: () => new Promise(() => {}) })
  .tool("shut_down", {
    description: "Closes the server.",
    run: () => {
      setTimeout(() => void server.close());
      return "closing";
    },
  })
  .serve();
`);
  const { client, stderr } = await connect(copy);
  rmSync(join(copy, "src/limits/interruptions.ts"));
  // Read before shut_down, so running when close() begins; bounded by the client's own timeout.
  const calling = client.callTool({ name: "hang" }, undefined, { timeout: 15_000 });
  await client.callTool({ name: "shut_down" });
  // No grace period without the module (its 60 s would outlast the client's wait), but an answer that
  // says what to do (was: "The server is shutting down", the abort's own words).
  await expect(calling).rejects.toMatchObject({
    code: -32603,
    message: `MCP error -32603: Server shutting down: "tools/call" ${WITHOUT_GRACE}${AFTER_SHUTDOWN}`,
  });
  await saidOnStderr(stderr, "interruptions");
}, 30_000);

it("answers an HTTP request the shutdown ends with 503 and what to do when the interruptions' module can no longer load", async () => {
  const copy = copyWith(`
import { rmSync } from "node:fs";
import { pico } from "./src/index.js";
let started;
const running = new Promise((resolve) => (started = resolve));
const server = pico({ name: "gone", limits: { shutdownGraceMs: 60_000 }, signals: false }).tool("hang", {
  description: "Never answers.",
  run: () => {
    started();
    return new Promise(() => {});
  },
});
rmSync(new URL("./src/limits/interruptions.ts", import.meta.url));
const answer = server.fetch(
  new Request("http://localhost/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "hang",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "hang", arguments: {}, _meta: ${JSON.stringify(MODERN_META)} } }),
  }),
);
await running;
await server.close();
const response = await answer;
console.log(response.status, response.headers.get("retry-after"), JSON.parse(await response.text()).error.message);
`);
  const { code, stdout, stderr } = await run(copy);
  // No grace period without the module (its 60 s would outlast the run), but a refusal a client
  // retries, saying what to do. Was: 200 and "The server is shutting down", the abort's own words.
  expect(stdout).toBe(`503 1 Server shutting down: "tools/call" ${WITHOUT_GRACE}${AFTER_SHUTDOWN}\n`);
  expect(stderr).toContain("interruptions");
  expect(code).toBe(0);
}, 30_000);

it("goes on reading its input when the oversized line's answer can no longer load", async () => {
  const copy = copyWith(`
import { pico } from "./src/index.js";
pico({ name: "gone", limits: { maxMessageBytes: 2000 } })
  .tool("echo", { description: "Answers.", run: () => "ok" })
  .serve();
`);
  const { client, stderr } = await connect(copy);
  rmSync(join(copy, "src/transports/too-large.ts"));
  // Its answer needed the module: it never comes (the client's close ends the wait), and nothing else is lost.
  const oversized = client.callTool({ name: "echo", arguments: { text: "x".repeat(5000) } });
  oversized.catch(() => {});
  // Read after the oversized line, so answered only if the reading went on past it.
  const listed = await client.listTools(undefined, { timeout: 15_000 });
  expect(listed.tools.map((tool) => tool.name)).toEqual(["echo"]);
  await saidOnStderr(stderr, "too-large");
}, 30_000);

it("goes on reading its input when the reading of bytes that are not UTF-8 can no longer load", async () => {
  const copy = copyWith(`
import { pico } from "./src/index.js";
pico({ name: "gone" }).tool("echo", { description: "Answers.", run: () => "ok" }).serve();
`);
  const child = new Child({}, join(copy, "server.ts"));
  child.send({ jsonrpc: "2.0", id: "first", method: "ping", params: { _meta: MODERN_META } });
  await child.response("first");
  rmSync(join(copy, "src/transports/utf8-lines.ts"));
  // A Latin-1 "é": its line is read as it was before the module existed, and the next one still is.
  child.write(Buffer.from('{"jsonrpc":"2.0","id":"caf\xe9","method":"ping"}\n', "latin1"));
  child.send({ jsonrpc: "2.0", id: "after", method: "ping", params: { _meta: MODERN_META } });
  await child.response("after");
  expect(child.stderr).toContain("utf8-lines");
  child.process.stdin.end();
  expect(await child.exited).toEqual({ code: 0, signal: null });
}, 30_000);

/** Runs the program of `copy` to its end (at most 20 s): its exit code and output. */
function run(copy: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { command, args, cwd, env } = tsxProgram(join(copy, "server.ts"));
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

it("neither crashes on onListen nor rejects close() when the HTTP faces can no longer load", async () => {
  const copy = copyWith(`
import { rmSync } from "node:fs";
import { pico } from "./src/index.js";
const server = pico({ name: "gone" });
server.tool("echo", { description: "Answers.", run: () => "ok" });
rmSync(new URL("./src/transports/http/faces.ts", import.meta.url));
// What deno serve calls as it listens: nothing awaits what it starts.
server.onListen({ hostname: "127.0.0.1", port: 8080 });
const request = new Request("http://127.0.0.1:8080/mcp", { method: "POST", body: "{}" });
console.log("fetch:", await server.fetch(request).then(() => "answered", () => "rejected"));
await server.close();
console.log("closed");
`);
  const { code, stdout } = await run(copy);
  expect(stdout).toBe("fetch: rejected\nclosed\n");
  expect(code).toBe(0);
}, 30_000);

it("shuts down with a server.call in progress when the interruptions' module can no longer load", async () => {
  const copy = copyWith(`
import { rmSync } from "node:fs";
import { pico } from "./src/index.js";
let started;
const running = new Promise((resolve) => (started = resolve));
const server = pico({ name: "gone", limits: { shutdownGraceMs: 60_000 } }).tool("hang", {
  description: "Never answers.",
  run: () => {
    started();
    return new Promise(() => {});
  },
});
const call = server.call("hang").then(() => "answered", (error) => error.message);
await running;
rmSync(new URL("./src/limits/interruptions.ts", import.meta.url));
await server.close();
console.log("closed;", await call);
`);
  const { code, stdout, stderr } = await run(copy);
  // No grace period without the module (its 60 s would outlast the run), but close() goes on and the
  // call rejects, saying so. Was: close() rejected with the module's loading error, the call left
  // running; then the call rejected saying it "did not finish within the 60 s grace period".
  expect(stdout).toBe(`closed; Server shutting down: server.call("hang") ${WITHOUT_GRACE}${AFTER_SHUTDOWN}\n`);
  expect(stderr).toContain("interruptions");
  expect(code).toBe(0);
}, 30_000);

it("stops watching for unhandled rejections once serve({ port }) failed to load the HTTP faces", async () => {
  const copy = copyWith(`
import { rmSync } from "node:fs";
import { pico } from "./src/index.js";
const server = pico({ name: "gone" });
server.tool("echo", { description: "Answers.", run: () => "ok" });
rmSync(new URL("./src/transports/http/faces.ts", import.meta.url));
console.log("serve:", await server.serve({ port: 0 }).then(() => "listening", () => "rejected"));
// The application's own unhandled rejection ends the process, as Node's default has it: the server does not serve.
Promise.reject(new Error("the application's own"));
setTimeout(() => console.log("still running"), 1000);
`);
  const { code, stdout, stderr } = await run(copy);
  expect(stdout).toBe("serve: rejected\n");
  expect(stderr).toContain("the application's own");
  expect(code).toBe(1);
}, 30_000);
