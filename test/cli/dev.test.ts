/**
 * `picomcp dev`: started as a child process on a free port, it prints the client configurations and
 * its ready line; a tool answers over real HTTP; a change to the server file restarts it on the same
 * URL with the new code; SIGTERM stops it and its server.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { harness } from "../../src/testing.js";
import { BIN, ROOT } from "./helpers.js";

const INDEX = pathToFileURL(join(ROOT, "src/index.ts")).href;
const source = (answer: string) =>
  `import { pico } from ${JSON.stringify(INDEX)};\n` +
  `export default pico({ name: "dev-test" }).tool("version", { description: "Says which version of the file runs.", run: () => ${JSON.stringify(answer)} });\n`;

let folder: string | undefined;
let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill("SIGKILL");
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The lines of the child's stdout, one promise per line to come, each failing after `ms`. */
function lines(process: ChildProcess) {
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: process.stdout! }).on("line", (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else queue.push(line);
  });
  return async (matching: RegExp, ms = 15_000): Promise<string[]> => {
    const seen: string[] = [];
    const deadline = Date.now() + ms;
    for (let read = 0; read < 200; read++) {
      const line =
        queue.shift() ??
        (await new Promise<string>((done, fail) => {
          waiting.push(done);
          setTimeout(
            () => fail(new Error(`no line matching ${matching} within ${ms} ms; saw:\n${seen.join("\n")}`)),
            deadline - Date.now(),
          );
        }));
      seen.push(line);
      if (matching.test(line)) return seen;
    }
    throw new Error(`no line matching ${matching} in 200 lines`);
  };
}

async function callVersion(url: string): Promise<unknown> {
  const client = harness({ fetch: (request) => fetch(new Request(url, request)) });
  const answer = await client.callTool("version");
  await client.close();
  return answer.result?.content;
}

describe("picomcp dev", () => {
  it("serves on 127.0.0.1, prints client configs, restarts on a change, and stops on SIGTERM", async () => {
    folder = mkdtempSync(join(tmpdir(), "picomcp-dev-"));
    const file = join(folder, "server.ts");
    writeFileSync(file, source("first"));
    child = spawn(process.execPath, ["--import", "tsx", BIN, "dev", file, "--port", "0"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const next = lines(child);

    const start = await next(/^picomcp dev: ready at /);
    const url = /ready at (\S+)$/.exec(start.at(-1)!)![1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const printed = start.join("\n");
    expect(printed).toContain(`picomcp dev: dev-test on ${url} (Streamable HTTP)`);
    expect(printed).toContain(`claude mcp add --transport http dev-test ${url}`);
    expect(printed).toContain(`[mcp_servers.dev-test]\n  url = "${url}"`);
    expect(printed).toContain(`npx @modelcontextprotocol/inspector@2 --transport http --server-url ${url}`);
    expect(printed).toContain(`npx @modelcontextprotocol/inspector@2 --cli ${url} --method tools/list`);
    for (const client of ["Claude Code", "Codex", "Claude Desktop", "Cursor", "VS Code", "MCP Inspector"]) {
      expect(printed).toContain(`\n${client} (`);
    }
    expect(await callVersion(url)).toEqual([{ type: "text", text: "first" }]);

    writeFileSync(file, source("second"));
    const restart = await next(/^picomcp dev: ready at /);
    expect(restart.at(-1)).toBe(`picomcp dev: ready at ${url} (restart 1)`);
    expect(await callVersion(url)).toEqual([{ type: "text", text: "second" }]);

    const exited = new Promise<number | null>((done) => child!.once("exit", done));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    // Its server stopped with it: nothing answers on the port any more.
    await expect(fetch(url, { method: "POST", signal: AbortSignal.timeout(5000) })).rejects.toThrow();
  });
});
