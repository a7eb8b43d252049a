/**
 * `picomcp run --port`, and `dev` which runs it: a server with `auth` is served, named after its
 * file; a port out of range is a usage mistake and a privileged one says what to pass, each in one
 * line with exit code 2. `picomcp run` over stdio: stdout carries the protocol alone, from before
 * the module loads, and on a terminal stderr says what it waits for.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { BIN, collect, exitOf, FIXTURE, killGroup, lines, picomcp, ROOT, start } from "./helpers.js";

const INDEX = pathToFileURL(join(ROOT, "src/index.ts")).href;
const AUTH_SERVER =
  `import { pico } from ${JSON.stringify(INDEX)};\n` +
  `export default pico({ name: "signed-in", auth: { resource: "http://127.0.0.1/mcp", authorizationServers: ["https://auth.example.com"], verify: async () => undefined } })\n` +
  `  .tool("hello", { description: "Says hello to a signed-in caller.", run: () => "hello" });\n`;

/** Whether this process may not listen on port 80 (Linux below ip_unprivileged_port_start, as most are). */
const PORT_80_PRIVILEGED = (() => {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_unprivileged_port_start", "utf8")) > 80;
  } catch {
    return false;
  }
})();
/** root may listen anywhere: it asks as nobody instead. */
const UNPRIVILEGED = process.getuid?.() === 0 ? { uid: 65534 } : {};

let folder: string | undefined;
let child: ReturnType<typeof start> | undefined;
afterEach(() => {
  killGroup(child);
  child = undefined;
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = undefined;
});

describe("picomcp run --port", () => {
  it.each([
    ["run", /^picomcp run: serving auth-server on (\S+)$/],
    ["dev", /^picomcp dev: auth-server on (\S+) \(Streamable HTTP\)$/],
  ])(
    "%s serves a server with auth, named after its file since it answers nobody without a token",
    async (verb, ready) => {
      folder = mkdtempSync(join(tmpdir(), "picomcp-run-"));
      const file = join(folder, "auth-server.ts");
      writeFileSync(file, AUTH_SERVER);
      child = start([verb, file, "--port", "0"]);
      const printed = await lines(child.stdout!)(ready);
      const url = ready.exec(printed.at(-1)!)![1]!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        signal: AbortSignal.timeout(5000),
      });
      await response.body?.cancel();
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer /);
    },
  );

  it.each(["run", "dev"])("%s refuses a port above 65535 as a usage mistake, in one line", (verb) => {
    const { code, stderr } = picomcp([verb, "test/fixtures/cli-server.ts", "--port", "99999"]);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^picomcp ${verb}: --port 99999: give a port number from 0 to 65535\n\nUsage: `));
  });

  it.runIf(PORT_80_PRIVILEGED).each(["run", "dev"])(
    "%s says a privileged port needs privileges and what to pass instead, in one line",
    async (verb) => {
      child = start([verb, "test/fixtures/cli-server.ts", "--port", "80"], UNPRIVILEGED);
      const stderr = collect(child.stderr!);
      expect(await exitOf(child)).toBe(2);
      expect(stderr.text).toBe(
        `picomcp ${verb}: port 80 of 127.0.0.1 needs privileges: pass a --port above 1023, or 0 to pick a free one.\n`,
      );
    },
  );
});

describe("picomcp run over stdio", () => {
  it("keeps stdout for the protocol from the start: what the module writes as it loads goes to stderr", () => {
    folder = mkdtempSync(join(tmpdir(), "picomcp-run-"));
    const file = join(folder, "noisy.ts");
    writeFileSync(
      file,
      `import { pico } from ${JSON.stringify(INDEX)};\n` +
        'console.log("connecting to the database");\nprocess.stdout.write("ready\\n");\n' +
        'export default pico({ name: "noisy", version: "1.0.0" })\n' +
        '  .tool("hello", { description: "Says hello, for trying run.", run: () => "hello" });\n',
    );
    const initialize = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
    const { code, stdout, stderr } = picomcp(["run", file], {
      input: `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: initialize })}\n`,
    });
    expect(code).toBe(0);
    const answers = stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(answers).toMatchObject([{ id: 1, result: { serverInfo: { name: "noisy" } } }]);
    expect(stderr).toBe("connecting to the database\nready\n");
  });

  // util-linux `script` gives the child a terminal (a pty) for stdin, and forwards what is piped to it.
  it.runIf(process.platform === "linux")(
    "says on stderr, when stdin is a terminal, that it waits for a client's messages and what to run instead",
    () => {
      const command = [process.execPath, "--import", "tsx", BIN, "run", FIXTURE].join(" ");
      const initialize = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
      const child = spawnSync("script", ["-qec", command, "/dev/null"], {
        cwd: ROOT,
        encoding: "utf8",
        input: `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: initialize })}\n`,
        timeout: 30_000,
      });
      expect(child.status).toBe(0);
      // Was: nothing at all, a command that looked hung.
      expect(child.stdout).toContain(
        `picomcp run: serving ${FIXTURE} over stdio: it reads an MCP client's JSON-RPC messages from stdin, ` +
          "this terminal, and answers on stdout. A client starts this command itself (picomcp install adds it to one); " +
          `to try the server from a terminal, run picomcp list, call or dev ${FIXTURE}. Ctrl+C stops it.`,
      );
      // Still served: the notice went to stderr, and the answer came.
      expect(child.stdout).toMatch(/"id":1,"result":\{"protocolVersion":"2025-11-25"/);
    },
  );

  it("says nothing of the kind when stdin is not a terminal, as when a client starts it", () => {
    const { code, stderr } = picomcp(["run", FIXTURE]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
  });
});
