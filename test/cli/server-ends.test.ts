/**
 * A server module that ends the process under `list`, `call` or `install` (process.exit, or a
 * throw in a timer or an unawaited promise): the verb says so in one line, with where the throw
 * was, and exits 2 when it happened as the module loaded (it did not load), 1 after; never a
 * silent exit 0, never Node's stack dump.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collect, exitOf, killGroup, picomcp, ROOT, start } from "./helpers.js";

const INDEX = pathToFileURL(join(ROOT, "src/index.ts")).href;
let folder: string;

/** A server file in the temporary folder: `top` at its top level, `run` as its one tool's body. */
function server(name: string, top: string, run = 'return "done";'): string {
  const file = join(folder, `${name}.ts`);
  writeFileSync(
    file,
    `import { pico } from ${JSON.stringify(INDEX)};\n${top}\n` +
      'export default pico({ name: "ends", version: "1.0.0" })\n' +
      `  .tool("work", { description: "Does some work, for trying the CLI.", run: async () => { ${run} } });\n`,
  );
  return file;
}

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "picomcp-ends-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe("a server module that ends the process", () => {
  it("with process.exit as it loads: list and install say it did not load, exit 2, and install changes nothing", () => {
    const file = server("exits", "process.exit(0);");
    const said = (verb: string) =>
      `picomcp ${verb}: the server's code ended the process with process.exit(0) while it loaded, so ${verb} ` +
      "did not finish. A server module exports its server and leaves the process to picomcp.\n";
    expect(picomcp(["list", file])).toEqual({ code: 2, stdout: "", stderr: said("list") });
    const home = join(folder, "home");
    mkdirSync(join(home, ".cursor"), { recursive: true });
    expect(picomcp(["install", "cursor", file], { env: { HOME: home } })).toEqual({
      code: 2,
      stdout: "",
      stderr: said("install"),
    });
    expect(readdirSync(join(home, ".cursor"))).toEqual([]);
  });

  it("as it loads under run (as a client starts it) and dev: says so, exit 2, instead of a silent exit 0 or 13", async () => {
    // Was: `run` ended with process.exit's code (0) or Node's 13 for the await, without a word, and
    // `dev` said only "the server stopped (exit code 0)".
    writeFileSync(join(folder, "package.json"), '{ "type": "module" }');
    const exits = server("exits", "process.exit(0);");
    const never = server("never", "await new Promise(() => {});");
    const exited = (verb: string) =>
      `picomcp ${verb}: the server's code ended the process with process.exit(0) while it loaded, so the server ` +
      "did not start. A server module exports its server and leaves the process to picomcp.\n";
    expect(picomcp(["run", exits])).toEqual({ code: 2, stdout: "", stderr: exited("run") });
    expect(picomcp(["run", never])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "picomcp run: the server's code awaits a promise that nothing can settle any more (no timer, socket or " +
        "request is left to settle it) while it loaded, so the server did not start. Look for a promise whose " +
        "resolve is never called.\n",
    });
    const dev = start(["dev", exits, "--port", "0"]);
    try {
      const stderr = collect(dev.stderr!);
      for (const deadline = Date.now() + 15_000; !stderr.text.includes("the server stopped"); ) {
        if (Date.now() > deadline) throw new Error(`dev said no stop within 15 s; saw:\n${stderr.text}`);
        await new Promise((done) => setTimeout(done, 50));
      }
      expect(stderr.text).toBe(
        `${exited("dev")}picomcp dev: the server stopped (exit code 2); it starts again on the next change.\n`,
      );
    } finally {
      killGroup(dev);
    }
  });

  it("with process.exit in a tool: call says the call did not finish, exit 1, whatever code it exited with", () => {
    for (const code of [0, 7]) {
      const file = server(`exits-${code}`, "", `process.exit(${code});`);
      expect(picomcp(["call", file, "work"])).toEqual({
        code: 1,
        stdout: "",
        stderr:
          `picomcp call: the server's code ended the process with process.exit(${code}) before call was done, so ` +
          "call did not finish. A server module exports its server and leaves the process to picomcp.\n",
      });
    }
  });

  it("with an await on a promise nothing can settle: says so instead of a process.exit(0) it did not call, or, in a tool, that only --timeout can end it", () => {
    // Nothing else is pending (no timer, no socket), so Node's event loop empties and the process would end.
    const never = "await new Promise(() => {});";
    // A top-level await needs the file to be an ES module.
    writeFileSync(join(folder, "package.json"), '{ "type": "module" }');
    const said = (verb: string, when: string) =>
      `picomcp ${verb}: the server's code awaits a promise that nothing can settle any more (no timer, socket or ` +
      `request is left to settle it) ${when}, so ${verb} did not finish. Look for a promise whose resolve is never called.\n`;
    expect(picomcp(["list", server("never-loads", never)])).toEqual({
      code: 2,
      stdout: "",
      stderr: said("list", "while it loaded"),
    });
    // In a request, its cancellation at --timeout is what is left: said at once, and done when it passes
    // (what is said of a tool that waits for its ctx.signal alone too: test/cli/timeout.test.ts).
    const file = server("never-answers", "", `${never} return "done";`);
    expect(picomcp(["call", file, "work", "--timeout", "500"])).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "picomcp call: the request waits on nothing the process can still deliver (no timer, socket or request of " +
        "the server's own is left), so only its cancellation can end it: picomcp cancels it when --timeout has " +
        "passed; Ctrl+C stops now. A handler that waits for its ctx.signal ends then; one that awaits a promise " +
        "whose resolve is never called does not.\n" +
        'picomcp call: the tool "work" did not answer within 500 ms (--timeout), so picomcp cancelled the request. ' +
        "If it needs longer, raise --timeout (such as --timeout 2000); if it should have answered by now, check the " +
        "server: a handler, or a middleware before it, waits on something that does not come " +
        "(limits.handlerTimeoutMs bounds that on the server's side, unless it is Infinity).\n",
    });
  });

  it("with a throw nothing catches (a timer, a promise nobody awaits): call names it and where, in one line, exit 1", () => {
    const wait = "await new Promise((done) => setTimeout(done, 100));";
    const timer = server(
      "timer",
      "",
      `setTimeout(() => { throw new TypeError("late boom"); }); ${wait} return "done";`,
    );
    const rejected = server("rejected", "", `Promise.reject(new Error("no database")); ${wait} return "done";`);
    for (const [file, error] of [
      [timer, "TypeError: late boom"],
      [rejected, "Error: no database"],
    ] as const) {
      const ran = picomcp(["call", file, "work"]);
      expect(ran).toMatchObject({ code: 1, stdout: "" });
      expect(ran.stderr).toMatch(
        new RegExp(
          "^picomcp call: the server's code threw outside any request \\(in a timer, or a promise nothing awaited\\), " +
            `so call did not finish: ${error} \\(at ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:4:\\d+\\)\n$`,
        ),
      );
    }
  });
});

describe("a server module that never finishes loading", () => {
  // A connection that never answers: the timer keeps the process alive, so only a bound ends the wait.
  const hangs = "await new Promise((done) => setTimeout(done, 600_000));";
  const said = (verb: string, file: string) =>
    `picomcp ${verb}: ${file} did not load within 1 s: its top level, or its server's start, waits on something ` +
    "that does not come (a connection, a file, an await). Give that wait a timeout of its own, or make it in " +
    "the tool that needs it; if it only needs longer, allow more with PICOMCP_LOAD_TIMEOUT=<seconds> (30 by default).\n";

  it("list and run (serving stdio, as a client starts it) give up after PICOMCP_LOAD_TIMEOUT seconds, exit 2", () => {
    writeFileSync(join(folder, "package.json"), '{ "type": "module" }');
    const file = server("hangs", hangs);
    const env = { PICOMCP_LOAD_TIMEOUT: "1" };
    for (const verb of ["list", "run"]) {
      expect(picomcp([verb, file], { env })).toEqual({ code: 2, stdout: "", stderr: said(verb, file) });
    }
  });

  it("refuses a PICOMCP_LOAD_TIMEOUT that is not a number of seconds, exit 2", () => {
    expect(picomcp(["list", server("quick", "")], { env: { PICOMCP_LOAD_TIMEOUT: "soon" } })).toEqual({
      code: 2,
      stdout: "",
      stderr: "picomcp list: PICOMCP_LOAD_TIMEOUT=soon: give the seconds a server file may take to load, such as 60.\n",
    });
  });
});

describe("a server module that serves itself as it loads, as the README's quick start does", () => {
  /** The quick start's shape: the server kept in a const, then `await server.serve(…)` at the top level. */
  function serving(name: string, serve: string): string {
    writeFileSync(join(folder, "package.json"), '{ "type": "module" }');
    const file = join(folder, `${name}.ts`);
    writeFileSync(
      file,
      `import { pico } from ${JSON.stringify(INDEX)};\n` +
        'const server = pico({ name: "github", version: "1.0.0" })\n' +
        '  .tool("work", { description: "Does some work, for trying the CLI.", run: () => "done" });\n' +
        `await server.serve(${serve});\n`,
    );
    return file;
  }
  const said = (verb: string, file: string) =>
    `picomcp ${verb}: ${file} serves itself: it calls server.serve() as it loads, and picomcp serves the server ` +
    "a file exports. Export the server instead (`export default server` in place of `await server.serve()`), " +
    `or run the file without picomcp: \`npx tsx ${file}\` on Node 20, \`node ${file}\` where Node runs it as it is.\n`;

  /** The verb run with its stdin open, as from a terminal; PICOMCP_LOAD_TIMEOUT bounds the wait it made before. */
  async function ran(args: string[], env: Record<string, string> = {}) {
    const child = start(args, { stdin: "pipe", env: { PICOMCP_LOAD_TIMEOUT: "3", ...env } });
    const stdout = collect(child.stdout!);
    const stderr = collect(child.stderr!);
    try {
      return { code: await exitOf(child), stdout: stdout.text, stderr: stderr.text };
    } finally {
      killGroup(child);
    }
  }

  it("over stdio: every verb says so at once and exits 2, instead of serving stdio on the terminal until the load's bound", async () => {
    const file = serving("stdio", "");
    const home = join(folder, "home");
    mkdirSync(join(home, ".cursor"), { recursive: true });
    for (const [verb, ...rest] of [["list"], ["check"], ["call", "work"], ["install", "cursor"], ["run"]] as const) {
      const args = verb === "install" ? [verb, ...rest, file] : [verb, file, ...rest];
      expect(await ran(args, { HOME: home })).toEqual({ code: 2, stdout: "", stderr: said(verb, file) });
    }
    expect(readdirSync(join(home, ".cursor"))).toEqual([]);
  });

  it("over HTTP: says so instead of listening and then finding no export", async () => {
    const file = serving("http", "{ port: 0 }");
    expect(await ran(["list", file])).toEqual({ code: 2, stdout: "", stderr: said("list", file) });
  });
});
