/**
 * `picomcp dev`: started as a child process on a free port, it prints the client configurations and
 * its ready line; a tool answers over real HTTP; a change to the server file restarts it on the same
 * URL with the new code, one server at a time however fast the saves come; folders made while it
 * runs are watched; SIGTERM and SIGHUP stop it and its server, and its server stops even when dev is
 * killed; a port that is taken ends it with exit code 2.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { harness } from "../../src/testing.js";
import { collect, exitOf, killGroup, lines, ROOT, start, stopsAnswering } from "./helpers.js";

const INDEX = pathToFileURL(join(ROOT, "src/index.ts")).href;
/** The server file: `answer` is what its version tool says; `more` adds to the chain after its tools. */
const source = (answer: string, more = "") =>
  `import { pico } from ${JSON.stringify(INDEX)};\n` +
  `export default pico({ name: "dev-test" })\n` +
  `  .tool("version", { description: "Says which version of the file runs.", run: () => ${JSON.stringify(answer)} })\n` +
  // A call that keeps its server stopping for seconds, saying on stderr when it is under way.
  `  .tool("slow", { description: "Answers after four seconds.", run: () => { console.error("slow: started"); return new Promise((done) => setTimeout(() => done("slow"), 4000)); } })${more};\n`;

/** Holds tools/list until the server's release tool is called: a server slow to list its tools. */
const HELD_LIST =
  `\n  .tool("release", { description: "Lets tools/list answer.", run: () => { release(); return "released"; } })` +
  `\n  .use("tools/list", async (_, next) => { await released; return next(); })`;
const HELD_SOURCE =
  `let release = () => {};\nconst released = new Promise<void>((done) => { release = done; });\n` +
  source("first", HELD_LIST);

let folder: string | undefined;
let child: ReturnType<typeof start> | undefined;
afterEach(() => {
  killGroup(child);
  child = undefined;
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

/** `picomcp dev` on a free port for a server file in a new folder; its output, read as it comes. */
function dev(code = source("first"), flags: string[] = []) {
  folder = mkdtempSync(join(tmpdir(), "picomcp-dev-"));
  const file = join(folder, "server.ts");
  writeFileSync(file, code);
  child = start(["dev", file, "--port", "0", ...flags]);
  return { file, folder, child, stdout: lines(child.stdout!), stderr: collect(child.stderr!) };
}

/** The URL of a `picomcp dev: ready at <url>` line. */
function urlOf(ready: string[]): string {
  return /ready at (\S+?)(?: \(restart \d+\))?$/.exec(ready.at(-1)!)![1]!;
}

async function callTool(url: string, tool: string): Promise<unknown> {
  const client = harness({ fetch: (request) => fetch(new Request(url, request)) });
  const answer = await client.callTool(tool);
  await client.close();
  return answer.result?.content;
}

describe("picomcp dev", () => {
  it("serves on 127.0.0.1, prints client configs, restarts on a change, and stops on SIGTERM", async () => {
    const { file, child, stdout, stderr } = dev();
    const start = await stdout(/^picomcp dev: ready at /);
    const url = urlOf(start);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const printed = start.join("\n");
    expect(printed).toContain(`picomcp dev: dev-test on ${url} (Streamable HTTP)`);
    expect(printed).toContain(`claude mcp add --transport http dev-test ${url}`);
    expect(printed).toContain(`[mcp_servers.dev-test]\n  url = "${url}"`);
    expect(printed).toContain(`npx @modelcontextprotocol/inspector@2 --transport http --server-url ${url}`);
    for (const client of ["Claude Code", "Codex", "Claude Desktop", "Cursor", "VS Code", "MCP Inspector"]) {
      expect(printed).toContain(`\n${client} (`);
    }
    // After the ready line, the Inspector CLI's, whose call names the server's first tool, asked of
    // it over HTTP, as a shell runs it pasted.
    expect((await stdout(/--method tools\/call/)).join("\n")).toBe(
      `\nMCP Inspector CLI (in a terminal: the tools as a client lists them, then one call):\n` +
        `  npx @modelcontextprotocol/inspector@2 --cli ${url} --method tools/list\n` +
        `  npx @modelcontextprotocol/inspector@2 --cli ${url} --method tools/call --tool-name version`,
    );
    expect(await callTool(url, "version")).toEqual([{ type: "text", text: "first" }]);

    writeFileSync(file, source("second"));
    const restart = await stdout(/^picomcp dev: ready at /);
    expect(restart.at(-1)).toBe(`picomcp dev: ready at ${url} (restart 1)`);
    expect(await callTool(url, "version")).toEqual([{ type: "text", text: "second" }]);
    // What docs/getting-started.md shows: dev's line, not the old server's own shutdown line.
    expect(stderr.text).toBe(`picomcp dev: ${file} changed, restarting\n`);

    child.kill("SIGTERM");
    expect(await exitOf(child)).toBe(0);
    // Its server stopped with it: nothing answers on the port any more.
    await expect(fetch(url, { method: "POST", signal: AbortSignal.timeout(5000) })).rejects.toThrow();
  });

  // Was: the first ready event waited for the server's tools/list (5 s at most), so a restart in the
  // meantime printed its own first, and both events said restarts: 1.
  it("--json: says ready at once, and the Inspector CLI's lines in a second event once the server lists its tools", async () => {
    const { stdout } = dev(HELD_SOURCE, ["--json"]);
    const ready = JSON.parse((await stdout(/"event":"ready"/)).at(-1)!);
    expect(ready).toMatchObject({ event: "ready", name: "dev-test", restarts: 0 });
    expect(ready.snippets.map((snippet: { client: string }) => snippet.client)).toEqual([
      "Claude Code",
      "Codex",
      "Claude Desktop",
      "Cursor",
      "VS Code",
      "MCP Inspector",
    ]);
    expect(await callTool(ready.url, "release")).toEqual([{ type: "text", text: "released" }]);
    expect(JSON.parse((await stdout(/"event":"snippets"/)).at(-1)!)).toEqual({
      event: "snippets",
      snippets: [
        {
          client: "MCP Inspector CLI",
          where: "in a terminal: the tools as a client lists them, then one call",
          text:
            `npx @modelcontextprotocol/inspector@2 --cli ${ready.url} --method tools/list\n` +
            `npx @modelcontextprotocol/inspector@2 --cli ${ready.url} --method tools/call --tool-name version`,
        },
      ],
    });
  });

  it("starts one server for saves made while the old one is still stopping", async () => {
    const { file, stdout, stderr } = dev();
    const url = urlOf(await stdout(/^picomcp dev: ready at /));
    // The old server cannot stop before this call ends, four seconds on.
    const slow = callTool(url, "slow").catch(() => undefined);
    await waitFor(() => stderr.text.includes("slow: started"));
    writeFileSync(file, source("second"));
    await waitFor(() => stderr.text.includes("changed, restarting"));
    writeFileSync(file, source("third"));
    expect((await stdout(/^picomcp dev: ready at /)).at(-1)).toBe(`picomcp dev: ready at ${url} (restart 1)`);
    expect(await callTool(url, "version")).toEqual([{ type: "text", text: "third" }]);
    expect(stderr.text).not.toMatch(/in use|stopped/);
    await slow;
  });

  it("watches a folder made after it started", async () => {
    const { folder, stdout } = dev();
    const url = urlOf(await stdout(/^picomcp dev: ready at /));
    mkdirSync(join(folder, "lib"));
    writeFileSync(join(folder, "lib", "helper.ts"), "export const one = 1;\n");
    expect((await stdout(/^picomcp dev: ready at /)).at(-1)).toBe(`picomcp dev: ready at ${url} (restart 1)`);
    writeFileSync(join(folder, "lib", "helper.ts"), "export const two = 2;\n");
    expect((await stdout(/^picomcp dev: ready at /)).at(-1)).toBe(`picomcp dev: ready at ${url} (restart 2)`);
  });

  it("says once that it does not watch every folder of a folder with too many", async () => {
    const many = mkdtempSync(join(tmpdir(), "picomcp-dev-many-"));
    try {
      for (let i = 0; i < 201; i++) mkdirSync(join(many, `folder-${i}`));
      writeFileSync(join(many, "server.ts"), source("first"));
      child = start(["dev", join(many, "server.ts"), "--port", "0"]);
      const stderr = collect(child.stderr!);
      await lines(child.stdout!)(/^picomcp dev: ready at /);
      mkdirSync(join(many, "one-more"));
      writeFileSync(join(many, "server.ts"), source("second"));
      await waitFor(() => stderr.text.includes("changed, restarting"));
      const warnings = stderr.text.match(/^picomcp dev: only 200 folders under .* are watched;.*$/gm) ?? [];
      expect(warnings, stderr.text).toHaveLength(1);
    } finally {
      rmSync(many, { recursive: true, force: true });
    }
  });

  it.each(["SIGHUP", "SIGINT"] as const)("stops with its server on %s, exit code 0", async (signal) => {
    const { child, stdout } = dev();
    const url = urlOf(await stdout(/^picomcp dev: ready at /));
    child.kill(signal);
    expect(await exitOf(child)).toBe(0);
    await stopsAnswering(url);
  });

  it("says at once on SIGINT that it stops its server, and that it killed one that did not stop in time", async () => {
    // Was: nothing until the server exited, up to 5 s of a terminal that looked frozen after Ctrl+C.
    const hang = `\n  .tool("hang", { description: "Never answers.", run: () => { console.error("hang: started"); return new Promise(() => {}); } })`;
    const { child, stdout, stderr } = dev(source("first", hang));
    const url = urlOf(await stdout(/^picomcp dev: ready at /));
    // A call its server waits for on the way out (its grace period, 10 s), past dev's 5 s.
    void callTool(url, "hang").catch(() => undefined);
    await waitFor(() => stderr.text.includes("hang: started"));
    const exited = exitOf(child);
    child.kill("SIGINT");
    await waitFor(() => stderr.text.includes("stopping"), 2000);
    expect(child.exitCode).toBeNull();
    expect(stderr.text).toBe(
      "hang: started\npicomcp dev: SIGINT, stopping the server (it has 5 s to finish, then it is killed)\n",
    );
    expect(await exited).toBe(0);
    expect(stderr.text).toMatch(/\npicomcp dev: the server did not stop within 5 s, so it was killed\.\n$/);
    await stopsAnswering(url);
  });

  it("leaves no server behind when it is killed with SIGKILL", async () => {
    const { child, stdout } = dev();
    const url = urlOf(await stdout(/^picomcp dev: ready at /));
    child.kill("SIGKILL");
    await exitOf(child);
    await stopsAnswering(url);
  });

  it("stops, and its server, once what reads its stdout has ended (picomcp dev | head)", async () => {
    // Was: Node's "Error: write EPIPE" and its stack, at the first line printed after.
    const { file, child, stdout, stderr } = dev();
    const url = urlOf(await stdout(/^picomcp dev: ready at /));
    await stdout(/--method tools\/call/);
    child.stdout!.destroy();
    // The restart's ready line is the next thing dev prints.
    writeFileSync(file, source("second"));
    expect(await exitOf(child)).toBe(0);
    expect(stderr.text).toMatch(
      /changed, restarting\npicomcp dev: stdout was closed \(what read it ended\), so dev stops, and its server\.\n$/,
    );
    await stopsAnswering(url);
  });

  it("exits 2 when the file is not there (a typo), instead of waiting for a change to a file that may never come", async () => {
    folder = mkdtempSync(join(tmpdir(), "picomcp-dev-"));
    const missing = join(folder, "srver.ts");
    child = start(["dev", missing, "--port", "0"]);
    const stderr = collect(child.stderr!);
    expect(await exitOf(child)).toBe(2);
    expect(stderr.text).toBe(
      `picomcp dev: there is no file ${missing} (looked for ${missing}): give the path of the file that exports the server, such as server.ts.\n`,
    );
  });

  it("names itself, not the run it starts, when the server file cannot be loaded", async () => {
    folder = mkdtempSync(join(tmpdir(), "picomcp-dev-"));
    const file = join(folder, "server.ts");
    writeFileSync(file, "export const nothing = 1;\n");
    child = start(["dev", file, "--port", "0"]);
    const stderr = collect(child.stderr!);
    await waitFor(() => stderr.text.includes("the server stopped"));
    expect(stderr.text).toBe(
      `picomcp dev: ${file} exports no server. Export the pico() server without serving it (\`export default server\`); picomcp serves it.\n` +
        "picomcp dev: the server stopped (exit code 2); it starts again on the next change.\n",
    );
  });

  it("says its own --export takes an export's name when the one given is not a server's", async () => {
    // Was: "(list and check take an export's name after the file, not a tool's)", of dev's --export.
    const { file, stderr } = dev(source("first"), ["--export", "version"]);
    await waitFor(() => stderr.text.includes("the server stopped"));
    expect(stderr.text).toBe(
      `picomcp dev: ${file} exports no server named "version"; its server is its default export: name it, or no export ` +
        "for the default or first one (picomcp dev takes an export's name with --export, not a tool's).\n" +
        "picomcp dev: the server stopped (exit code 2); it starts again on the next change.\n",
    );
  });

  it("exits 2 when its port is taken, saying so", async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, "127.0.0.1", done));
    const address = taken.address();
    const port = typeof address === "object" && address ? address.port : 0;
    try {
      folder = mkdtempSync(join(tmpdir(), "picomcp-dev-"));
      writeFileSync(join(folder, "server.ts"), source("first"));
      child = start(["dev", join(folder, "server.ts"), "--port", String(port)]);
      const stderr = collect(child.stderr!);
      expect(await exitOf(child)).toBe(2);
      expect(stderr.text).toBe(
        `picomcp dev: port ${port} of 127.0.0.1 is in use: stop what listens there, or pass another --port (0 picks a free one).\n`,
      );
    } finally {
      await new Promise((done) => taken.close(done));
    }
  });
});

/** Resolves once `condition` holds, checking every 50 ms, failing after `ms`. */
async function waitFor(condition: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`still waiting after ${ms} ms`);
    await new Promise((done) => setTimeout(done, 50));
  }
}
