/**
 * Command-line arguments of one verb: its positionals and its `--flags`, checked against what the
 * verb accepts, so a typo is a usage error that names the flag instead of a silently ignored word.
 */

/** What a verb accepts: flags that stand alone, and flags that take a value (`--port 3000`, `--port=3000`). */
export interface ArgSpec {
  switches?: readonly string[];
  values?: readonly string[];
}

export interface Args {
  readonly positionals: string[];
  /** Each value flag's values, in order (a flag may repeat, such as `--arg`). */
  readonly values: Map<string, string[]>;
  readonly switches: Set<string>;
}

/** A mistake in the command line: the verb prints it with its usage and exits 2. */
export class UsageError extends Error {}

export function parseArgs(argv: readonly string[], spec: ArgSpec): Args {
  const switches = new Set(["help", "json", ...(spec.switches ?? [])]);
  const valued = new Set(spec.values ?? []);
  const args: Args = { positionals: [], values: new Map(), switches: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "-h") {
      args.switches.add("help");
      continue;
    }
    if (arg === "--") {
      args.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      args.positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = arg.slice(2, equals === -1 ? undefined : equals);
    if (switches.has(name) && equals === -1) {
      args.switches.add(name);
    } else if (valued.has(name)) {
      const value = equals === -1 ? argv[++i] : arg.slice(equals + 1);
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      args.values.set(name, [...(args.values.get(name) ?? []), value]);
    } else {
      throw new UsageError(`unknown option ${arg}`);
    }
  }
  return args;
}

/** The last value of a value flag, if given. */
export function flagValue(args: Args, name: string): string | undefined {
  return args.values.get(name)?.at(-1);
}
