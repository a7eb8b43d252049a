/**
 * `picomcp run <file>`: serves the exported server over stdio (the command `install` writes into a
 * client's configuration), or over Streamable HTTP on 127.0.0.1 with `--port` (what `dev` runs and
 * restarts). The server closes itself on SIGINT and SIGTERM unless it was built with `signals: false`;
 * as `dev`'s child it also closes when its stdin ends.
 */
import { basename, extname } from "node:path";
import { flagValue, parseArgs, UsageError } from "./args.js";
import { serverName } from "./client.js";
import { loadServer } from "./load.js";
import { watchServerEnds } from "./server-ends.js";
import { CannotRun, EXIT, keepStdout, print, printJson, type Verb, warn } from "./verb.js";

/** The line `run --port` prints once it listens; `dev` waits for it. */
export const READY = "picomcp run: serving";

/**
 * Set by `dev` in its child's environment: the child serves until its stdin, a pipe from `dev`,
 * ends, which `dev` does to stop it and the OS does when `dev` dies, even by SIGKILL.
 */
export const DEV_CHILD = "PICOMCP_DEV_CHILD";

export const run: Verb = {
  name: "run",
  serverOwnsStdout: true,
  summary: "serve the server over stdio (what install puts in a client's config), or HTTP with --port",
  help: `Usage: picomcp run <server file> [--port <port>] [--export <name>] [--json]

Serves the server the file exports: over stdio by default (stdout carries the protocol only), or
over Streamable HTTP on 127.0.0.1 with --port (0 picks a free port), printing
"${READY} <name> on <url>" (with --json: {"name","url"}) once it listens.

Options:
  --port    serve Streamable HTTP on this port of 127.0.0.1
  --export  the export that holds the server, if not the default one

Exit codes: 0 served until the end of stdin or a signal, 2 the module or server cannot be loaded
or the port is taken or needs privileges.
`,
  async run(argv) {
    const args = parseArgs(argv, { values: ["port", "export"] });
    const [file, extra] = args.positionals;
    if (!file || extra) throw new UsageError(file ? `unexpected argument "${extra}"` : "which server file?");
    const asked = flagValue(args, "port");
    const port = asked === undefined ? undefined : portNumber(asked);
    // Read once and taken out, so that processes the server starts do not think they are dev's child.
    const devChild = process.env[DEV_CHILD] === "1";
    delete process.env[DEV_CHILD];
    const devGone = devChild ? stdinEnded() : undefined;
    // Over stdio, stdout is the protocol's from the first byte (2025-11-25 and 2026-07-28, Transports,
    // "stdio"): what the module writes as it loads (a console.log at its top level) goes to stderr
    // until serve() takes stdout for itself.
    const release = port === undefined ? keepStdout() : undefined;
    // Run by dev, it speaks as dev, whose --export it was given.
    const said = devChild ? "dev" : "run";
    // What the module does to the process as it loads (a process.exit, an await nothing settles) is
    // said as under the other verbs; once it serves, the process is the server's, which ends it itself.
    const unwatch = watchServerEnds(said, "the server did not start");
    let loaded: Awaited<ReturnType<typeof loadServer>>;
    try {
      loaded = await loadServer(file, {
        name: flagValue(args, "export"),
        command: `picomcp ${said}`,
        flag: "--export",
      });
    } finally {
      unwatch();
      release?.();
    }
    const { server } = loaded;
    if (port === undefined) {
      // Typed in a terminal, stdio serving shows nothing until a message comes, and looks hung.
      if (process.stdin.isTTY) {
        warn(
          `${READY} ${file} over stdio: it reads an MCP client's JSON-RPC messages from stdin, this terminal, ` +
            "and answers on stdout. A client starts this command itself (picomcp install adds it to one); " +
            `to try the server from a terminal, run picomcp list, call or dev ${file}. Ctrl+C stops it.`,
        );
      }
      await server.serve();
      return EXIT.ok;
    }
    // A server with auth refuses the tokenless session that would name it: it is named after its file.
    const name = (await serverName(server)) ?? basename(file, extname(file));
    const listening = await server.serve({ port }).catch((error: NodeJS.ErrnoException) => {
      throw portError(error, port);
    });
    if (args.switches.has("json")) printJson({ name, url: listening.url });
    else print(`${READY} ${name} on ${listening.url}`);
    if (!devGone) {
      // The listener keeps the process alive; the server's signal handling ends it.
      return new Promise<number>(() => {});
    }
    await devGone;
    await listening.close();
    return EXIT.ok;
  },
};

/** A --port value: a whole number from 0 (a free port) to 65535, or a UsageError. */
export function portNumber(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new UsageError(`--port ${value}: give a port number from 0 to 65535`);
  }
  return Number(value);
}

/** A failure to listen on `port` of 127.0.0.1 as the user can act on it: taken, or privileged. */
export function portError(error: NodeJS.ErrnoException, port: number): Error {
  if (error.code === "EADDRINUSE") {
    return new CannotRun(
      `port ${port} of 127.0.0.1 is in use: stop what listens there, or pass another --port (0 picks a free one).`,
    );
  }
  if (error.code === "EACCES") {
    return new CannotRun(
      `port ${port} of 127.0.0.1 needs privileges: pass a --port above 1023, or 0 to pick a free one.`,
    );
  }
  return error;
}

/** Resolves when stdin ends; what comes before is read and dropped, since a paused stream never ends. */
function stdinEnded(): Promise<void> {
  return new Promise((done) => process.stdin.once("end", done).resume());
}
