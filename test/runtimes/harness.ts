/**
 * How the runtime smoke tests start test/runtimes/server.ts on a runtime, and what they check
 * through it with both official clients. Every child is bounded by a timeout and killed by its pid.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { statSync } from "node:fs";
import { type IncomingMessage, request } from "node:http";
import { createRequire } from "node:module";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "vitest";
import { META } from "../../src/core/types.js";
import { initialize, originRefused, remote, sessionStream, within } from "../http-helpers.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const SERVER = "test/runtimes/server.ts";
/** server.ts with the keep-alive interval of event streams run as 100 ms (see the file). */
export const KEEP_ALIVE_SERVER = "test/runtimes/keep-alive-fast.ts";
/** Long enough for a cold start of the slowest runtime on a busy 2-core machine. */
export const START_TIMEOUT = 60_000;

const require = createRequire(import.meta.url);
export const run = promisify(execFile);

/** The version a devDependency was installed at. */
export function versionOf(pkg: string): string {
  return (require(`${pkg}/package.json`) as { version: string }).version;
}

/** The Bun executable of the `bun` devDependency (its postinstall puts it in place; the platform package has it too). */
export function bunExecutable(): string {
  const installed = require.resolve("bun/bin/bun.exe");
  if (statSync(installed).size > 1_000_000) return installed;
  const arch = process.arch === "arm64" ? "aarch64" : process.arch;
  return require.resolve(`@oven/bun-${process.platform}-${arch}/bin/bun`);
}

/** The Deno executable of the `deno` devDependency, placed by its own installer from the platform package. */
export function denoExecutable(): string {
  return (require("deno/install_api.cjs") as { runInstall(): string }).runInstall();
}

/** The workerd executable of the `workerd` devDependency. */
export function workerdExecutable(): string {
  return (require("workerd") as { default: string }).default;
}

export interface Started {
  readonly url: string;
  /** What the child wrote to stdout and stderr, for failure messages. */
  readonly output: () => string;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Where the child announces its endpoint: stdout (default), stderr, or the control pipe on fd 3. */
  from?: "stdout" | "stderr" | "fd3";
  /** The endpoint URL a line announces, if it is one; by default server.ts's `{"url"}` line. */
  endpoint?: (line: string) => string | undefined;
}

/** server.ts's announcement, one JSON line: `{"url": "http://127.0.0.1:…/mcp"}`. */
function printedUrl(line: string): string | undefined {
  try {
    return (JSON.parse(line) as { url?: string }).url;
  } catch {
    return undefined;
  }
}

/** Spawns a runtime (with PICO_PORT=0 unless `env` says otherwise) and waits for the endpoint it announces. */
export function start(command: string, args: string[], options: StartOptions = {}): Promise<Started> {
  const { from = "stdout", endpoint = printedUrl } = options;
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, PICO_PORT: "0", ...options.env },
    stdio: ["ignore", "pipe", "pipe", ...(from === "fd3" ? ["pipe" as const] : [])],
  });
  let output = "";
  const log = (chunk: Buffer) => {
    output += chunk.toString();
  };
  // Both pipes are read to the end: one that nobody drains would stall the child once full.
  child.stdout!.on("data", log);
  child.stderr!.on("data", log);
  const stop = () => kill(child);
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`${command} ${args.join(" ")}: ${why}\n${output}`)));
    };
    const timer = setTimeout(() => fail(`no endpoint after ${START_TIMEOUT} ms`), START_TIMEOUT);
    child.once("error", (error) => fail(error.message));
    child.once("exit", (code, signal) => fail(`exited early (${signal ?? code})`));
    let buffered = "";
    const source = from === "fd3" ? (child.stdio[3] as NodeJS.ReadableStream) : child[from]!;
    source.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let newline = buffered.indexOf("\n"); newline !== -1; newline = buffered.indexOf("\n")) {
        const url = endpoint(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (url === undefined) continue;
        clearTimeout(timer);
        child.removeAllListeners("exit");
        resolve({ url, output: () => output, stop });
        return;
      }
    });
  });
}

/** SIGTERM, then SIGKILL if the child is still there after 5 s; resolves once it has exited. */
function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** A ping to 127.0.0.1 with the Host header given (fetch would send its own), as a DNS-rebound page does. */
export function postWithHost(host: string, port: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/mcp",
        method: "POST",
        headers: { host, "content-type": "application/json", accept: "application/json, text/event-stream" },
        timeout: 5000,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.once("error", reject);
    req.once("timeout", () => req.destroy(new Error("no answer within 5 s")));
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
  });
}

/**
 * Writes `text` on a socket of its own to 127.0.0.1:`port`, as it is (no header added), and reads the
 * response: its status and body, once the body has come whole (by its Content-Length, else the
 * socket's end). Fails after 8 s without one.
 */
export function rawExchange(port: number, text: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, timeout: 8000 });
    let received = "";
    const answer = (ended: boolean) => {
      const split = received.indexOf("\r\n\r\n");
      if (split === -1) return;
      const length = /\r\ncontent-length: *(\d+)/i.exec(received.slice(0, split))?.[1];
      const body = received.slice(split + 4);
      if (!ended && (length === undefined || Buffer.byteLength(body) < Number(length))) return;
      socket.destroy();
      resolve({ status: Number(received.slice(9, 12)), body });
    };
    socket.setEncoding("utf8").on("data", (chunk: string) => {
      received += chunk;
      answer(false);
    });
    socket.once("end", () => answer(true));
    socket.once("error", reject);
    socket.once("timeout", () => socket.destroy(new Error(`no whole answer within 8 s; received: ${received}`)));
    socket.write(text);
  });
}

/** The headers `initializeWithTarget` sends as given: Host always, Origin when there is one. */
export interface TargetHeaders {
  host: string;
  origin?: string;
}

/**
 * An initialize written on a socket of its own with the request line's target and the Host header given,
 * as node:http and fetch will not send them: an absolute-form target (RFC 9112 §3.2.2, what a client
 * sends a proxy) whose authority is not the Host header's, or whose scheme is in upper case.
 */
export function initializeWithTarget(
  port: number,
  target: string,
  { host, origin }: TargetHeaders,
): Promise<{ status: number; body: string }> {
  const clientInfo = { name: "raw", version: "1.0.0" };
  const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo };
  const initialize = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params });
  const head = [
    `POST ${target} HTTP/1.1`,
    `Host: ${host}`,
    ...(origin === undefined ? [] : [`Origin: ${origin}`]),
    "Content-Type: application/json",
    "Accept: application/json, text/event-stream",
    `Content-Length: ${initialize.length}`,
    "Connection: close",
  ];
  return rawExchange(port, `${head.join("\r\n")}\r\n\r\n${initialize}`);
}

/**
 * An absolute-form target's scheme is read whatever its case (RFC 3986 §3.1: schemes are
 * case-insensitive): `HTTPS://host/mcp` was sent to https://host, the request's own origin for the
 * Origin check, and http://host is not. Was: only a lower-case "https:" was taken for https, so the
 * page of the request's own https origin was refused 403, and the plain-http page was accepted.
 */
export async function checksAnUpperCaseScheme(url: string): Promise<void> {
  const port = Number(new URL(url).port);
  const authority = `127.0.0.1:${port}`;
  const target = `HTTPS://${authority}/mcp`;
  const own = await initializeWithTarget(port, target, { host: authority, origin: `https://${authority}` });
  expect(own.status).toBe(200);
  expect(JSON.parse(own.body)).toMatchObject({ id: 1, result: { serverInfo: { name: "runtime-smoke" } } });
  const plain = await initializeWithTarget(port, target, { host: authority, origin: `http://${authority}` });
  expect(plain.status).toBe(403);
  expect(JSON.parse(plain.body)).toMatchObject({
    error: { message: originRefused(`http://${authority}`) },
  });
}

const GREETING_ERROR = 'Invalid arguments for tool "greet":\nname: Too small: expected string to have >=1 characters';

/**
 * The v1 client (legacy era): list, call, a call that streams progress, a validation error, DELETE.
 * With `session: false` the server must serve it without a session: no `Mcp-Session-Id`, the GET
 * stream answered 405 (which the client takes as "not offered"), and so no DELETE to send.
 */
export async function smokeV1(url: string, runtime: string, { session = true } = {}): Promise<void> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name: "runtime-smoke-v1", version: "1.0.0" });
  try {
    await client.connect(transport);
    if (session) expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
    else expect(transport.sessionId).toBeUndefined();
    expect(client.getServerVersion()).toMatchObject({ name: "runtime-smoke", version: "1.0.0" });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["greet"]);
    expect(await client.callTool({ name: "greet", arguments: { name: "Ada" } })).toEqual({
      content: [{ type: "text", text: `Hello, Ada, from ${runtime}` }],
    });
    const progress: number[] = [];
    const streamed = await client.callTool({ name: "greet", arguments: { name: "Bob" } }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(streamed).toEqual({ content: [{ type: "text", text: `Hello, Bob, from ${runtime}` }] });
    expect(progress).toEqual([1]);
    expect(await client.callTool({ name: "greet", arguments: { name: "" } })).toEqual({
      content: [{ type: "text", text: GREETING_ERROR }],
      isError: true,
    });
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
  } finally {
    await client.close();
  }
}

/** The v2 client (2026-07-28 era, stateless): discover, list, call, a call that streams progress. */
export async function smokeV2(url: string, runtime: string): Promise<void> {
  const client = new ClientV2({ name: "runtime-smoke-v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
  try {
    await client.connect(new TransportV2(new URL(url)));
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["greet"]);
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "greet", arguments: { name: "Cy" } },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(result.content).toEqual([{ type: "text", text: `Hello, Cy, from ${runtime}` }]);
    expect(progress).toEqual([1]);
    const invalid = await client.callTool({ name: "greet", arguments: { name: "" } });
    expect(invalid).toMatchObject({ content: [{ type: "text", text: GREETING_ERROR }], isError: true });
  } finally {
    await client.close();
  }
}

/**
 * A session's GET stream at `url` (keep-alive-fast.ts's server), quiet, carries keep-alive comments
 * until it has two: as on Node, a write to a connection that died without closing then fails in
 * time, which ends the stream (docs/http.md "Streaming and resumability").
 */
export async function hearsKeepAlives(url: string): Promise<void> {
  const server = remote(url);
  const session = await initialize(server);
  const response = await server.fetch(sessionStream(session));
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const twice = async () => {
    while (text.split(": keep-alive\n\n").length < 3) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  };
  await within(twice(), 5000, "two keep-alive comments").catch((error: Error) => {
    throw new Error(`${error.message}; the stream carried ${JSON.stringify(text)}`);
  });
  expect(text).toMatch(/^id: 0-0\nretry: 1000\ndata: \n\n(: keep-alive\n\n){2}/);
  await reader.cancel();
}

/** How long a test waits for the server to report something: a failure guard, not a measure. */
const WAIT_MS = 10_000;

/** Resolves once the server's output contains `text`; fails after WAIT_MS with what it printed. */
export async function printed(server: Started, text: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!server.output().includes(text)) {
    if (Date.now() > deadline) {
      throw new Error(`The server did not print "${text}" within ${WAIT_MS} ms:\n${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface Exchange {
  /** The response's head, once the server sent it. */
  readonly response: Promise<IncomingMessage>;
  /** Closes the connection, as a client that goes away does. */
  drop(): void;
}

/** One POST on a connection of its own (no agent), so that dropping it closes that connection. */
export function post(url: string, headers: Record<string, string>, body: unknown): Exchange {
  const req = request(url, {
    method: "POST",
    agent: false,
    timeout: WAIT_MS,
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    req.once("response", resolve);
    req.once("error", reject);
    req.once("timeout", () => req.destroy(new Error(`no response head within ${WAIT_MS} ms`)));
  });
  // Dropping the connection rejects the head's promise when it had not come yet: nobody waits for it then.
  response.catch(() => {});
  req.end(JSON.stringify(body));
  return { response, drop: () => req.destroy() };
}

/** A 2026-07-28 tools/call: the envelope in `_meta`, the standard headers mirroring it. */
export function modernCall(url: string, name: string, args: Record<string, unknown>, accept?: string): Exchange {
  const headers: Record<string, string> = {
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": name,
  };
  if (accept) headers.accept = accept;
  return post(url, headers, {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name,
      arguments: args,
      _meta: { [META.protocolVersion]: "2026-07-28", [META.clientCapabilities]: {} },
    },
  });
}

/** A session of `version` (2025-11-25 unless said) opened by hand: its id, after `initialize` and `notifications/initialized`. */
export async function openSession(url: string, version = "2025-11-25"): Promise<string> {
  const init = await post(
    url,
    {},
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    },
  ).response;
  init.resume();
  const session = init.headers["mcp-session-id"];
  if (typeof session !== "string") throw new Error(`initialize answered ${init.statusCode} without a session id`);
  const initialized = await post(
    url,
    { "mcp-session-id": session, "mcp-protocol-version": version },
    { jsonrpc: "2.0", method: "notifications/initialized" },
  ).response;
  initialized.resume();
  return session;
}
