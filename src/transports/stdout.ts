/**
 * stdout carries protocol only: over stdio "the server MUST NOT write anything to its stdout that is
 * not a valid MCP message" (2025-11-25 and 2026-07-28, Transports, "stdio"). Two layers, because the
 * runtimes differ:
 * - Node's console writes through `process.stdout.write`, but Bun's and Deno's write to fd 1 natively,
 *   past it. So every console method that writes to stdout on any of them (and those that share their
 *   state: labels, counters, indentation) becomes the same method of a Console bound to stderr, which
 *   keeps its formatting (`dir`'s options, `table`'s grid, `group`'s indentation).
 * - While stdio is served, `process.stdout.write` itself forwards to stderr and the protocol keeps the
 *   real one: a stray `process.stdout.write` in user code cannot corrupt the stream, nor can a console
 *   method this list does not know on Node (whose console always goes through that write).
 */

/** Node's `stream.write(chunk, encoding?, callback?)`, as stdout and stderr have it everywhere. */
type WriteStream = {
  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean;
};

interface Runtime {
  getBuiltinModule?(id: string): unknown;
}

type ConsoleClass = new (options: { stdout: WriteStream; stderr: WriteStream }) => Console;

/**
 * The console methods that write to stdout: Node's log, info, debug, dir, dirxml, table, count,
 * timeLog, timeEnd, group and groupCollapsed; Deno's clear as well (and Bun's trace and write, below).
 * With them, the ones holding their state (countReset, time, groupEnd). error, warn and assert write
 * to stderr everywhere.
 */
const STDOUT_METHODS =
  "log info debug dir dirxml table count countReset time timeLog timeEnd group groupCollapsed groupEnd clear".split(
    " ",
  );

const runtime = (): Runtime | undefined => (globalThis as { process?: Runtime }).process;

/** The Console on stderr, one for the process: labels, counters and indentation carry over between uses. */
let shared: Record<string, unknown> | undefined;

/**
 * Puts `ours` at `name` on `target` and keeps what was there, to put back (unless something replaced
 * ours since: a logger installed meanwhile is kept).
 */
type Replace = (target: Record<string, unknown>, name: string, ours: unknown) => void;

/**
 * Sends every console method that writes to stdout to `stderr` instead (nothing on a runtime without
 * node:console's Console).
 */
function consoleToStderr(stderr: WriteStream, replace: Replace): void {
  // node:console's Console exists on Node (also as console.Console before getBuiltinModule), Bun and Deno.
  const builtin = runtime()?.getBuiltinModule?.("node:console") as { Console?: ConsoleClass } | undefined;
  const Sink = builtin?.Console ?? (console as unknown as { Console?: ConsoleClass }).Console;
  if (!Sink) return;
  shared ??= new Sink({ stdout: stderr, stderr }) as unknown as Record<string, unknown>;
  const sink = shared;
  const target = console as unknown as Record<string, unknown>;
  for (const name of STDOUT_METHODS) {
    const method = sink[name];
    if (typeof method === "function" && typeof target[name] === "function") replace(target, name, method.bind(sink));
  }
  // Bun's trace writes to stdout, and its Console's trace drops the message: the stack goes through error.
  const error = (sink.error as Console["error"]).bind(sink);
  replace(target, "trace", (...data: unknown[]) => {
    error("Trace:", ...data);
    error(new Error().stack?.split("\n").slice(2).join("\n"));
  });
  // Bun's console.write(...data) writes its arguments to stdout as they are.
  if (typeof target.write === "function") {
    replace(target, "write", (...data: (string | Uint8Array)[]) => {
      for (const each of data) stderr.write(each);
    });
  }
}

/** stdout while stdio is served: the protocol's real write, and what gives stdout back. */
export interface ClaimedStdout {
  write(chunk: string, callback?: (error?: unknown) => void): boolean;
  release(): void;
}

/**
 * Makes stdout the protocol's alone: console methods and every other `stdout.write` go to stderr
 * until `release`, which restores both (unless something replaced them since).
 */
export function claimStdout(stdout: WriteStream, stderr: WriteStream): ClaimedStdout {
  const original = stdout.write;
  const replaced: [target: Record<string, unknown>, name: string, original: unknown, ours: unknown][] = [];
  const replace: Replace = (target, name, ours) => {
    replaced.push([target, name, target[name], ours]);
    target[name] = ours;
  };
  replace(stdout, "write", (chunk: string | Uint8Array, ...rest: unknown[]) => stderr.write(chunk, ...rest));
  consoleToStderr(stderr, replace);
  return {
    write: (chunk, callback) => original.call(stdout, chunk, callback),
    release() {
      for (const [target, name, was, ours] of replaced) if (target[name] === ours) target[name] = was;
    },
  };
}

/** The process as stdio serving uses it (Node, Bun and Deno all provide `process`). */
export interface StdioProcess {
  stdin: AsyncIterable<Uint8Array> & { destroy?: () => void };
  stdout: {
    write(chunk: string, callback?: (error?: unknown) => void): boolean;
    on(event: "error", listener: (error: unknown) => void): unknown;
    off(event: "error", listener: (error: unknown) => void): unknown;
  };
  stderr: { write(chunk: string): boolean };
}

/** The process, whose stdin and stdout `serve()` takes; a runtime without one cannot serve stdio. */
export function stdioProcess(): StdioProcess {
  const proc = (globalThis as { process?: StdioProcess }).process;
  if (!proc) throw new Error("serve() over stdio needs process.stdin and process.stdout (Node, Bun or Deno).");
  return proc;
}
