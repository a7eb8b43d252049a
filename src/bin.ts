#!/usr/bin/env node
/**
 * `picomcp check <module> [export]`: lints the tool plan of the server a module exports (its
 * default export, the named one, or the first export that is a server) and prints each tool's
 * contract as a checklist, then the findings. Exit code 1 when there are errors (or warnings,
 * with --strict), 2 when the module or server cannot be loaded. For a TypeScript module, run it
 * under a loader: `node --import tsx node_modules/.bin/picomcp check src/server.ts`.
 */
import { lint } from "./lint.js";
import { Server } from "./server.js";

interface NodeProcess {
  argv: string[];
  cwd(): string;
  exitCode?: number;
  stdout: { write(text: string): void };
  stderr: { write(text: string): void };
}

const USAGE = "usage: picomcp check <module> [export] [--strict] [--json]\n";

async function main(proc: NodeProcess): Promise<number> {
  const args = proc.argv.slice(2);
  const flags = new Set(args.filter((arg) => arg.startsWith("--")));
  const [command, file, name] = args.filter((arg) => !arg.startsWith("--"));
  if (command !== "check" || !file) {
    proc.stderr.write(USAGE);
    return 2;
  }
  const url = new URL(file, `file://${proc.cwd().replace(/\\/g, "/")}/`).href;
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (thrown) {
    const error = thrown as { code?: string; message?: string };
    const hint =
      error.code === "ERR_UNKNOWN_FILE_EXTENSION"
        ? "\nFor a TypeScript module, run picomcp under a loader: node --import tsx node_modules/.bin/picomcp check ..."
        : "";
    proc.stderr.write(`picomcp check: cannot import ${file}: ${error.message}${hint}\n`);
    return 2;
  }
  const candidates = name ? [module[name]] : [module.default, ...Object.values(module)];
  const server = candidates.find((value) => value instanceof Server);
  if (!server) {
    proc.stderr.write(
      `picomcp check: ${file} exports no server${name ? ` named "${name}"` : ""}; export the pico() server (without serving it).\n`,
    );
    return 2;
  }
  const report = lint(server as Server);
  proc.stdout.write(flags.has("--json") ? `${JSON.stringify(report.findings, null, 2)}\n` : String(report));
  return report.errors > 0 || (flags.has("--strict") && report.warnings > 0) ? 1 : 0;
}

const proc = (globalThis as unknown as { process: NodeProcess }).process;
proc.exitCode = await main(proc);
