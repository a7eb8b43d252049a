/**
 * `picomcp dev <file>`: the server under development, served over Streamable HTTP on 127.0.0.1 by
 * a child `picomcp run --port`, restarted when code in its folder changes, with the configuration
 * to paste into each client printed once it is ready. The port stays the same across restarts, so
 * a connected client reconnects to the same URL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { dirname, relative, resolve } from "node:path";
import { createInterface } from "node:readline";
import { isObject } from "../core/jsonrpc.js";
import { flagValue, parseArgs, UsageError } from "./args.js";
import { Client } from "./client.js";
import { type ExampleCall, httpSnippets, inspectorCliSnippet, type Snippet } from "./configs.js";
import { mustBeFile } from "./load.js";
import { DEV_CHILD, portError, portNumber, READY } from "./run.js";
import { EXIT, print, type Verb, warn } from "./verb.js";
import { watchCode } from "./watch.js";

const DEBOUNCE_MS = 100;
/** How long a server has to stop once its stdin ends before it is killed. */
const STOP_MS = 5000;

export const dev: Verb = {
  name: "dev",
  serverOwnsStdout: true,
  summary: "serve over Streamable HTTP on 127.0.0.1, restart on change, print client configs",
  help: `Usage: picomcp dev <server file> [--port <port>] [--export <name>] [--json]

Serves the server the file exports over Streamable HTTP on http://127.0.0.1:<port>/mcp and
restarts it when a code file (.ts, .js, ...) in the file's folder or below changes (not
node_modules, dist or hidden folders). Once it first listens, prints the configuration to paste
into Claude Code, Codex, Claude Desktop, Cursor and VS Code, and the MCP Inspector command; then
"picomcp dev: ready at <url>" after every start; and after the first, once the server has listed
its tools, the MCP Inspector CLI's lines, whose call names its first tool. Ctrl+C stops it.

Options:
  --port    the port (default 3000; 0 picks a free one, kept across restarts)
  --export  the export that holds the server, if not the default one
  --json    print one JSON line per event instead: {"event":"ready","name","url","restarts"},
            {"event":"exit","code"}, with the snippets in the first ready event, and the
            Inspector CLI's in {"event":"snippets","snippets"} after it

Exit codes: 0 stopped by Ctrl+C or a signal, 2 a usage mistake, no file at the path given, or the port
is taken or needs privileges.
`,
  async run(argv) {
    const args = parseArgs(argv, { values: ["port", "export"] });
    const [file, extra] = args.positionals;
    if (!file || extra) throw new UsageError(file ? `unexpected argument "${extra}"` : "which server file?");
    const asked = portNumber(flagValue(args, "port") ?? "3000");
    // Both checked here, not left to the server, which would only stop and wait for a change.
    await mustBeFile(resolve(file), file);
    const port = await claimable(asked);
    const json = args.switches.has("json");
    const exportName = flagValue(args, "export");
    const root = dirname(resolve(file));
    const childArgs = [...process.execArgv, process.argv[1]!, "run", file, "--port", String(port)];
    if (exportName) childArgs.push("--export", exportName);

    let child: ChildProcess | undefined;
    let restarts = -1;
    let announced = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    /** The changed file not yet restarted for, and the restart under way: one at a time. */
    let pending: string | undefined;
    let restarting: Promise<void> | undefined;
    let closing = false;

    const start = () => {
      // This server's count, kept for its ready line: a restart may begin before the line is read.
      const count = ++restarts;
      // stdin is a pipe the child serves until it ends (see DEV_CHILD): how it is stopped, and why
      // it stops when dev dies however it dies.
      const current = spawn(process.execPath, childArgs, {
        stdio: ["pipe", "pipe", "inherit"],
        env: { ...process.env, [DEV_CHILD]: "1" },
      });
      // A child that exited on its own has closed the pipe: ending it then is nothing to report.
      current.stdin?.on("error", () => {});
      child = current;
      createInterface({ input: current.stdout! }).on("line", (line) => {
        if (!line.startsWith(`${READY} `)) return print(line);
        const [, name = "server", url = ""] = /^\S+ \S+ serving (.*) on (\S+)$/.exec(line) ?? [];
        const ready = `picomcp dev: ready at ${url}${count ? ` (restart ${count})` : ""}`;
        const event = { event: "ready", name, url, restarts: count };
        if (announced) return print(json ? JSON.stringify(event) : ready);
        announced = true;
        // The first start comes with the snippets, at once: the Inspector CLI's follows when the
        // server has said which tool its call line names, for a slow tools/list must not hold up
        // the ready line that scripts and people wait for.
        const snippets = httpSnippets(name, url);
        print(json ? JSON.stringify({ ...event, snippets }) : `${howToConnect(name, url, snippets)}${ready}`);
        void exampleCall(url).then((call) => {
          const cli = inspectorCliSnippet(url, call);
          print(json ? JSON.stringify({ event: "snippets", snippets: [cli] }) : `\n${block(cli)}`);
        });
      });
      current.on("exit", (code, signal) => {
        if (child !== current) return;
        child = undefined;
        if (json) print(JSON.stringify({ event: "exit", code, signal }));
        else
          warn(
            `picomcp dev: the server stopped (${signal ?? `exit code ${code}`}); it starts again on the next change.`,
          );
      });
    };

    const restart = async () => {
      // A change made while the old server stops is in the code the next one loads: one start for all.
      while (pending !== undefined) {
        const shown = relative(process.cwd(), pending);
        if (!json) warn(`picomcp dev: ${shown.startsWith("..") ? pending : shown} changed, restarting`);
        pending = undefined;
        // Forgotten first, so that its exit is not reported as a stop.
        const old = child;
        child = undefined;
        await stop(old);
      }
      if (!closing) start();
    };

    const unwatch = watchCode(root, (path) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        pending = path;
        restarting ??= restart().finally(() => {
          restarting = undefined;
        });
      }, DEBOUNCE_MS);
    });
    start();
    await new Promise<void>((done) => {
      // SIGHUP too: a terminal closed under it must not leave its server running (nothing is said
      // then: there is no terminal to read it).
      for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
        process.once(signal, () => {
          // Said at once: the server may take STOP_MS to stop, and a silent terminal looks frozen.
          if (signal !== "SIGHUP" && !json && (child || restarting)) {
            warn(
              `picomcp dev: ${signal}, stopping the server (it has ${STOP_MS / 1000} s to finish, then it is killed)`,
            );
          }
          done();
        });
      }
      // What read stdout has ended (`picomcp dev | head`): what dev prints has nowhere to go, and
      // Node would end it with EPIPE's stack. A stop, as Ctrl+C is; the listener stays for later writes.
      let said = false;
      process.stdout.on("error", () => {
        if (!said) warn("picomcp dev: stdout was closed (what read it ended), so dev stops, and its server.");
        said = true;
        done();
      });
    });
    closing = true;
    clearTimeout(timer);
    unwatch();
    await restarting;
    const last = child;
    child = undefined;
    await stop(last);
    return EXIT.ok;
  },
};

/** Stops a running server: ends its stdin, then SIGKILL if it has not exited within STOP_MS, saying so. */
async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  child.stdin?.end();
  const timer = setTimeout(() => {
    // Its requests in progress were cut off: the user learns why the server's answers never came.
    warn(`picomcp dev: the server did not stop within ${STOP_MS / 1000} s, so it was killed.`);
    child.kill("SIGKILL");
  }, STOP_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * `port` of 127.0.0.1 if this process may listen on it now (nobody does, and it is not
 * privileged), or for 0 a free port asked of the OS once and kept for every restart.
 */
function claimable(port: number): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", (error) => fail(portError(error, port)));
    probe.listen(port, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * The server's first tool and its first argument (a required one if it has any), asked of it over
 * HTTP as a client would; none when it has no tool, answers nobody without a token, or does not
 * answer within 5 s: the call line then keeps its placeholders, and nothing else depends on it.
 */
async function exampleCall(url: string): Promise<ExampleCall | undefined> {
  try {
    const client = await Client.open({ fetch: (request) => fetch(new Request(url, request)) }, { timeoutMs: 5000 });
    const [tool] = await client.list("tools/list", "tools").finally(() => client.close());
    if (typeof tool?.name !== "string") return undefined;
    const schema = isObject(tool.inputSchema) ? tool.inputSchema : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    const arg =
      required.find((name): name is string => typeof name === "string") ??
      Object.keys(isObject(schema.properties) ? schema.properties : {})[0];
    return arg === undefined ? { tool: tool.name } : { tool: tool.name, arg };
  } catch {
    return undefined;
  }
}

function howToConnect(name: string, url: string, snippets: Snippet[]): string {
  return [`picomcp dev: ${name} on ${url} (Streamable HTTP)`, "", ...snippets.map(block), ""]
    .join("\n\n")
    .replace(/\n{3,}/g, "\n\n");
}

function block(snippet: Snippet): string {
  return `${snippet.client} (${snippet.where}):\n${indent(snippet.text)}`;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
