/**
 * What test/size.test.ts needs to measure a program by running it: its split build written to a
 * temporary folder, the program run there with Node under module loading hooks that record every
 * chunk it imports (test/size/record-loads.mjs), and the two clients that drive it, over stdio and
 * over Streamable HTTP, in both protocol eras. Node also writes its V8 coverage of each run there
 * (NODE_V8_COVERAGE), from which `executedText` takes the code that actually ran.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect } from "vitest";
import { modernMessage } from "./http-helpers.js";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RECORD_LOADS = join(ROOT, "test/size/record-loads.mjs");
/** Bounds every wait on the program: a failure guard, not a measurement. */
const TIMEOUT_MS = 10_000;

/** A build written to disk: `dir` holds the output files at their paths relative to the repository root. */
export interface WrittenBuild {
  dir: string;
  dispose(): void;
}

/**
 * Writes esbuild's output files into a fresh temporary folder, with a package.json that makes its
 * `.js` files ES modules and a node_modules link to the repository's, so the external zod resolves.
 */
export function writeBuild(files: { path: string; contents: Uint8Array }[]): WrittenBuild {
  // The real path: Node's file: URLs name it, and the hooks compare against them.
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "picomcp-size-")));
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  for (const file of files) {
    const target = join(dir, relative(ROOT, file.path));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.contents);
  }
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A running program: its process, what it wrote on stderr so far, and when it exits. */
export interface Program {
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  exited: Promise<number | null>;
}

/**
 * Starts a TypeScript program of the repository (`file`, relative to its root) under tsx with only PATH
 * in its environment, adds it to `running` (for the test's clean-up), and talks to it over its stdio.
 */
export function spawnLineClient(file: string, running: Program[]): LineClient {
  const child = spawn(process.execPath, ["--import", "tsx", file], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "" },
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const program: Program = { child, stderr: () => stderr, exited };
  running.push(program);
  return new LineClient(program);
}

/** How a program is stopped once its client is done: its stdin closed (stdio), or SIGTERM (HTTP). */
export type Stop = "stdin" | "SIGTERM";

/**
 * Runs `entry` (an output path relative to the repository root) from `build` with Node, lets `drive`
 * talk to it, then stops it as `stop` says and returns the output files Node loaded, relative to the
 * repository root as esbuild's metafile names them, in the order Node loaded them.
 */
export async function runRecordingLoads(
  build: WrittenBuild,
  entry: string,
  { drive, stop }: { drive: (program: Program) => Promise<void>; stop: Stop },
): Promise<string[]> {
  const loads = join(build.dir, `loads-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(loads, "");
  const child = spawn(process.execPath, ["--import", pathToFileURL(RECORD_LOADS).href, join(build.dir, entry)], {
    cwd: build.dir,
    env: {
      PATH: process.env.PATH ?? "",
      SIZE_BUILD: pathToFileURL(`${build.dir}/`).href,
      SIZE_LOADS: loads,
      NODE_V8_COVERAGE: coverageDir(build),
    },
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const program = { child, stderr: () => stderr, exited };
  try {
    await drive(program);
  } finally {
    if (stop === "stdin") child.stdin.end();
    else child.kill("SIGTERM");
    const ended = await Promise.race([exited.then(() => true), delay(TIMEOUT_MS).then(() => false)]);
    if (!ended) child.kill("SIGKILL");
  }
  // A program that crashed or hung on the way out did not run the path a client sees end to end.
  expect(await exited, `the program's exit code; stderr: ${stderr}`).toBe(0);
  const base = pathToFileURL(`${build.dir}/`).href;
  return readFileSync(loads, "utf8")
    .split("\n")
    .filter((url) => url !== "")
    .map((url) => decodeURIComponent(url.slice(base.length)));
}

function coverageDir(build: WrittenBuild): string {
  return join(build.dir, "coverage");
}

/** One script of a V8 coverage file (NODE_V8_COVERAGE): its URL and, per function, its block ranges with their counts. */
interface ScriptCoverage {
  url: string;
  functions: { ranges: { startOffset: number; endOffset: number; count: number }[] }[];
}

/**
 * The text of `chunks` (output paths relative to the repository root, and their text) that ran in the
 * programs run from `build` so far, in the chunks' order: each character is kept when V8's block
 * coverage counted its innermost range as run in any of those processes. It is the code the measured
 * exchanges needed, with every branch they did not take (error paths, options left unset) left out.
 */
export function executedText(build: WrittenBuild, chunks: { path: string; text: string }[]): string {
  const ran = new Map(
    chunks.map((chunk) => [pathToFileURL(join(build.dir, chunk.path)).href, new Uint8Array(chunk.text.length)]),
  );
  const dir = coverageDir(build);
  for (const file of existsSync(dir) ? readdirSync(dir) : []) {
    const scripts: ScriptCoverage[] = JSON.parse(readFileSync(join(dir, file), "utf8")).result;
    for (const script of scripts) {
      const marks = ran.get(script.url);
      if (!marks) continue;
      // Outer ranges first, so that a nested range (a block, an inner function) decides its own characters.
      const ranges = script.functions
        .flatMap((fn) => fn.ranges)
        .sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
      const counts = new Int32Array(marks.length);
      for (const range of ranges) counts.fill(range.count, range.startOffset, Math.min(range.endOffset, marks.length));
      for (let i = 0; i < marks.length; i++) if (counts[i]! > 0) marks[i] = 1;
    }
  }
  // V8's offsets count UTF-16 code units, as JavaScript strings do.
  return chunks
    .map((chunk) => {
      const marks = ran.get(pathToFileURL(join(build.dir, chunk.path)).href)!;
      let text = "";
      for (let i = 0; i < marks.length; i++) if (marks[i]) text += chunk.text[i];
      return text;
    })
    .join("");
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export type Message = Record<string, unknown>;

/** A JSON-RPC client over the program's stdin and stdout, one message a line. */
export class LineClient {
  readonly #program: Program;
  /** Every message the program sent, in order: answers, notifications and its own requests. */
  readonly #received: Message[] = [];
  readonly #waiters = new Set<() => void>();
  #buffer = "";

  constructor(program: Program) {
    this.#program = program;
    program.child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      this.#buffer += chunk;
      for (let end = this.#buffer.indexOf("\n"); end !== -1; end = this.#buffer.indexOf("\n")) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 1);
        this.#received.push(JSON.parse(line) as Message);
      }
      for (const wake of this.#waiters) wake();
    });
  }

  notify(message: Message): void {
    this.#program.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Sends a request and waits for the answer with its id. */
  request(message: Message): Promise<Message> {
    this.notify(message);
    return this.waitFor(
      (received) => received.id === message.id && !("method" in received),
      `an answer to ${JSON.stringify(message)}`,
    );
  }

  /** Waits for the first message from the program that `matches` (`what` names it in the failure). */
  async waitFor(matches: (message: Message) => boolean, what: string): Promise<Message> {
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      const found = this.#received.find(matches);
      if (found) return found;
      if (Date.now() > deadline) {
        throw new Error(`No ${what} within ${TIMEOUT_MS} ms; stderr: ${this.#program.stderr()}`);
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#waiters.delete(wake);
          resolve();
        };
        this.#waiters.add(wake);
        delay(200).then(wake);
      });
    }
  }
}

/** The URL a program that serves HTTP prints on stderr as `{"url": …}`. */
export async function announcedUrl(program: Program): Promise<string> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const match = /\{"url":"([^"]+)"\}/.exec(program.stderr());
    if (match) return match[1]!;
    if (Date.now() > deadline) throw new Error(`The program announced no URL; stderr: ${program.stderr()}`);
    await delay(20);
  }
}

/** A POST of one JSON-RPC message; the answer is read from a JSON body or from the events of an SSE one. */
export async function post(
  url: string,
  body: Message,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; message: Message | undefined }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  let message: Message | undefined;
  if (type.startsWith("text/event-stream")) {
    const data = text
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => JSON.parse(line.slice(5)) as Message);
    message = data.find((each) => each.id === body.id);
  } else if (text !== "") {
    message = JSON.parse(text) as Message;
  }
  return { status: response.status, headers: response.headers, message };
}

/** The answers both eras' clients must get: the listing's forecast tool, named and run. */
const FORECAST_LISBON = "Lisbon:\ntoday: sunny, 14 to 24 °C\ntomorrow: sunny, 15 to 25 °C";
const FORECAST_OSLO = "Oslo:\ntoday: snow, -6 to -1 °C";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "size-test", version: "1.0.0" } },
};
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };
const LIST = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
const CALL = {
  jsonrpc: "2.0",
  id: 3,
  method: "tools/call",
  params: { name: "forecast", arguments: { city: "Lisbon", days: 2 } },
};

function expectInitialized(answer: Message | undefined): void {
  expect(answer).toMatchObject({
    jsonrpc: "2.0",
    id: 1,
    result: {
      protocolVersion: "2025-11-25",
      capabilities: { tools: expect.any(Object) },
      serverInfo: { name: "weather", version: "0.0.0" },
    },
  });
}

function expectListed(answer: Message | undefined): void {
  expect(answer).toMatchObject({
    jsonrpc: "2.0",
    id: 2,
    result: {
      tools: [
        {
          name: "forecast",
          title: "Weather forecast",
          inputSchema: {
            type: "object",
            properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 7, default: 3 } },
          },
          annotations: { readOnlyHint: true, openWorldHint: false },
        },
      ],
    },
  });
}

function expectForecast(answer: Message | undefined, id: unknown, text: string): void {
  expect(answer).toMatchObject({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });
  expect(answer).not.toMatchObject({ result: { isError: true } });
}

function expectDiscovered(answer: Message | undefined, id: unknown): void {
  expect(answer).toMatchObject({
    jsonrpc: "2.0",
    id,
    result: {
      supportedVersions: expect.arrayContaining(["2026-07-28"]),
      capabilities: { tools: expect.any(Object) },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "weather", version: "0.0.0" } },
    },
  });
}

/** A 2025-11-25 client over stdio: initialize, initialized, tools/list, tools/call. */
export async function legacyStdioClient(program: Program): Promise<void> {
  const client = new LineClient(program);
  expectInitialized(await client.request(INITIALIZE));
  client.notify(INITIALIZED);
  expectListed(await client.request(LIST));
  expectForecast(await client.request(CALL), 3, FORECAST_LISBON);
}

/** A 2026-07-28 client over stdio: server/discover, then tools/call, each with its `_meta` envelope. */
export async function modernStdioClient(program: Program): Promise<void> {
  const client = new LineClient(program);
  expectDiscovered(await client.request(modernMessage("server/discover", {}, 11).body), 11);
  const call = modernMessage("tools/call", { name: "forecast", arguments: { city: "Oslo", days: 1 } }, 12);
  expectForecast(await client.request(call.body), 12, FORECAST_OSLO);
}

/**
 * Over Streamable HTTP, at the URL the program announces: a 2025-11-25 session (initialize,
 * initialized, tools/list, tools/call, each POSTed), then a 2026-07-28 server/discover and tools/call.
 */
export async function httpClients(program: Program): Promise<void> {
  const url = await announcedUrl(program);
  const opened = await post(url, INITIALIZE);
  expect(opened.status).toBe(200);
  expectInitialized(opened.message);
  const session = opened.headers.get("mcp-session-id");
  expect(session).toMatch(/^[\x21-\x7e]+$/);
  const inSession = { "mcp-session-id": session!, "mcp-protocol-version": "2025-11-25" };
  expect((await post(url, INITIALIZED, inSession)).status).toBe(202);
  expectListed((await post(url, LIST, inSession)).message);
  expectForecast((await post(url, CALL, inSession)).message, 3, FORECAST_LISBON);

  const discover = modernMessage("server/discover", {}, 11);
  expectDiscovered((await post(url, discover.body, discover.headers)).message, 11);
  const call = modernMessage("tools/call", { name: "forecast", arguments: { city: "Oslo", days: 1 } }, 12);
  expectForecast((await post(url, call.body, call.headers)).message, 12, FORECAST_OSLO);
}
