/**
 * `picomcp run <file>`: serves the exported server over stdio (the command `install` writes into a
 * client's configuration), or over Streamable HTTP on 127.0.0.1 with `--port` (what `dev` runs and
 * restarts). The server closes itself on SIGINT and SIGTERM unless it was built with `signals: false`.
 */
import { flagValue, parseArgs, UsageError } from "./args.js";
import { Client } from "./client.js";
import { loadServer } from "./load.js";
import { CannotRun, EXIT, print, printJson, type Verb } from "./verb.js";

/** The line `run --port` prints once it listens; `dev` waits for it. */
export const READY = "picomcp run: serving";

export const run: Verb = {
  name: "run",
  summary: "serve the server over stdio (what install puts in a client's config), or HTTP with --port",
  help: `Usage: picomcp run <server file> [--port <port>] [--export <name>] [--json]

Serves the server the file exports: over stdio by default (stdout carries the protocol only), or
over Streamable HTTP on 127.0.0.1 with --port (0 picks a free port), printing
"${READY} <name> on <url>" (with --json: {"name","url"}) once it listens.

Options:
  --port    serve Streamable HTTP on this port of 127.0.0.1
  --export  the export that holds the server, if not the default one

Exit codes: 0 served until the end of stdin or a signal, 2 the module or server cannot be loaded
or the port is taken.
`,
  async run(argv) {
    const args = parseArgs(argv, { values: ["port", "export"] });
    const [file, extra] = args.positionals;
    if (!file || extra) throw new UsageError(file ? `unexpected argument "${extra}"` : "which server file?");
    const port = flagValue(args, "port");
    if (port !== undefined && !/^\d{1,5}$/.test(port)) throw new UsageError(`--port ${port}: give a port number`);
    const { server } = await loadServer(file, flagValue(args, "export"));
    if (port === undefined) {
      await server.serve();
      return EXIT.ok;
    }
    const client = await Client.open(server);
    const name = client.serverName;
    await client.close();
    const listening = await server.serve({ port: Number(port) }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EADDRINUSE") throw error;
      throw new CannotRun(
        `port ${port} of 127.0.0.1 is in use: stop what listens there, or pass another --port (0 picks a free one).`,
      );
    });
    if (args.switches.has("json")) printJson({ name, url: listening.url });
    else print(`${READY} ${name} on ${listening.url}`);
    // The listener keeps the process alive; the server's signal handling ends it.
    return new Promise<number>(() => {});
  },
};
