/** What every verb of the `picomcp` command shares: its exit codes and how it reports failure. */
import { claimStdout } from "../transports/stdout.js";

/**
 * The exit codes of every verb (printed by `picomcp --help`): 0 when it did what was asked; 1 when
 * it ran and the answer is a failure (a tool error, a JSON-RPC error, lint errors); 2 when it could
 * not run (a usage mistake, a module that does not load or exports no server, a server that does
 * not start, a client whose configuration is not where expected).
 */
export const EXIT = { ok: 0, failed: 1, cannotRun: 2 } as const;

export const EXIT_CODES = `Exit codes:
  0  done
  1  it ran and failed: a tool error, a JSON-RPC error, lint errors (check)
  2  it could not run: a usage mistake, a module that does not load or exports no server,
     a server that does not start, a client configuration that is not where expected (install)
`;

/** A failure that stops the verb before it ran: printed as `picomcp <verb>: <message>`, exit 2. */
export class CannotRun extends Error {}

export interface Verb {
  readonly name: string;
  /** One line for `picomcp --help`. */
  readonly summary: string;
  /** The whole of `picomcp <verb> --help`. */
  readonly help: string;
  /**
   * The server it runs owns stdout: `run` serves stdio on it, and `dev` passes its server's lines on.
   * Every other verb keeps stdout for what it prints (see keepStdout).
   */
  readonly serverOwnsStdout?: boolean;
  run(argv: string[]): Promise<number>;
}

const toStdout = (text: string) => process.stdout.write(text);
let write = toStdout;

/**
 * Keeps stdout for what the verb prints, until the returned function is called: whatever else writes
 * there (the server module's console.log as it loads or as a tool runs, a stray process.stdout.write)
 * goes to stderr, so that `--json` output is JSON alone and a result is not mixed with logs.
 */
export function keepStdout(): () => void {
  const claimed = claimStdout(process.stdout, process.stderr);
  write = (text) => claimed.write(text);
  return () => {
    write = toStdout;
    claimed.release();
  };
}

export function print(text: string): void {
  write(text.endsWith("\n") ? text : `${text}\n`);
}

export function warn(text: string): void {
  process.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
}

export function printJson(value: unknown): void {
  print(JSON.stringify(value, null, 2));
}
