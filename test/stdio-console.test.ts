/**
 * stdout carries protocol only (issue 13, item 8): a tool that calls every console method, and
 * process.stdout.write, over a real stdio child process on Node, Bun and Deno. Every line on stdout
 * is a JSON-RPC message and the console text is on stderr; after serving, console is given back.
 * And the commands the docs give for the example over stdio write protocol first (no npm banner).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claimStdout } from "../src/transports/stdout.js";
import { bunExecutable, denoExecutable } from "./runtimes/harness.js";
import { call, FIXTURE, killWireChildren, nodeWire, ROOT, WireChild } from "./stdio-helpers.js";

afterAll(killWireChildren);

/** What each console method of the fixture's `console` tool writes, and where it must end up (stderr). */
const MARKERS = [
  "log",
  "info",
  "debug",
  "dir",
  "dirxml",
  "table",
  "trace",
  "count",
  "time",
  "group",
  "groupCollapsed",
  "warn",
  "error",
  "assert",
  "stdout.write",
];

const runtimes: [name: string, start: () => WireChild][] = [
  ["Node", () => nodeWire()],
  ["Bun", () => new WireChild(bunExecutable(), [FIXTURE])],
  [
    "Deno",
    () =>
      new WireChild(denoExecutable(), ["run", "--no-lock", "--no-prompt", "--sloppy-imports", "--allow-env", FIXTURE], {
        DENO_NO_UPDATE_CHECK: "1",
      }),
  ],
];

describe("stdout carries protocol only", () => {
  for (const [name, start] of runtimes) {
    it(`on ${name}: every console method in a tool writes to stderr, and stdout holds only JSON-RPC`, async () => {
      const child = start();
      await child.send(call(1, "console"));
      await child.send(call(2, "console"));
      expect(await child.response(1, 60_000)).toMatchObject({ result: { content: [{ text: "logged" }] } });
      expect(await child.response(2, 60_000)).toMatchObject({ result: { content: [{ text: "logged" }] } });
      child.process.stdin.end();
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(child.garbage).toEqual([]);
      expect(child.partial).toBe(0);
      expect(child.head.startsWith('{"jsonrpc":"2.0"')).toBe(true);
      expect(child.messages.map((message) => message.id)).toEqual([1, 2]);
      for (const method of MARKERS) expect(child.stderr, method).toContain(`console-${method}-marker`);
      // The counter is the Console's own: the second call counts 1 again after countReset.
      expect(child.stderr.match(/console-count-marker: 1/g)).toHaveLength(2);
    }, 90_000);
  }
});

describe("claimStdout", () => {
  it("diverts stdout.write and every stdout console method while claimed, and gives both back on release", () => {
    const out: string[] = [];
    const err: string[] = [];
    const stdout = { write: (chunk: string | Uint8Array) => out.push(String(chunk)) > 0 };
    const stderr = { write: (chunk: string | Uint8Array) => err.push(String(chunk)) > 0 };
    const write = stdout.write;
    const before = { log: console.log, dir: console.dir, table: console.table, error: console.error };
    const claimed = claimStdout(stdout, stderr);
    stdout.write("stray\n");
    claimed.write("protocol\n");
    expect(out).toEqual(["protocol\n"]);
    expect(err).toEqual(["stray\n"]);
    expect(console.log).not.toBe(before.log);
    expect(console.dir).not.toBe(before.dir);
    expect(console.table).not.toBe(before.table);
    // error writes to stderr already, and a logger installed there stays in charge of it.
    expect(console.error).toBe(before.error);
    const logger = () => {};
    console.dir = logger;
    claimed.release();
    expect(stdout.write).toBe(write);
    expect(console.log).toBe(before.log);
    expect(console.table).toBe(before.table);
    // Installed while claimed: kept.
    expect(console.dir).toBe(logger);
    console.dir = before.dir;
  });
});

/** Every way the docs tell a reader to start the example over stdio with npm. */
function documentedCommands(): string[] {
  const texts = ["README.md", "docs/README.md", "examples/projects/server.ts", "examples/projects/stdio.ts"].map(
    (file) => readFileSync(join(ROOT, file), "utf8"),
  );
  const commands = texts.flatMap((text) => [...text.matchAll(/npm start[^`\n"]*--stdio/g)].map((match) => match[0]));
  return [...new Set(commands)];
}

describe("the example's documented stdio command", () => {
  const data = mkdtempSync(join(tmpdir(), "picomcp-stdio-"));
  afterAll(() => rmSync(data, { recursive: true, force: true }));

  it("writes protocol first: npm's banner is not on stdout", async () => {
    const commands = documentedCommands();
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      const [program, ...args] = command.split(" ");
      const child = spawn(program!, args, {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", HOME: data, PROJECTS_FILE: join(data, "projects.json") },
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
      child.stdin.end(`${JSON.stringify(call(1, "list_projects"))}\n`);
      const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
      const code = await exited;
      clearTimeout(guard);
      expect(code, `${command}: ${stderr}`).toBe(0);
      expect(stdout.startsWith('{"jsonrpc":"2.0","id":1,"result":'), `${command}: ${stdout.slice(0, 300)}`).toBe(true);
      expect(stdout.split("\n").filter((line) => line !== "")).toHaveLength(1);
      expect(stderr).toContain("projects: serving MCP over stdio");
    }
  }, 120_000);
});
