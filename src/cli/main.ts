/** `picomcp <verb>`: finds the verb, runs it, and turns its failures into exit codes. */
import { readFileSync } from "node:fs";
import { UsageError } from "./args.js";
import { call } from "./call.js";
import { check } from "./check.js";
import { RpcError } from "./client.js";
import { dev } from "./dev.js";
import { install } from "./install.js";
import { list } from "./list.js";
import { CODE_FILE, needsStripTypesFlag, rerunStrippingTypes } from "./load.js";
import { DEV_CHILD, run } from "./run.js";
import { watchServerEnds } from "./server-ends.js";
import { CannotRun, EXIT, EXIT_CODES, keepStdout, print, type Verb, warn } from "./verb.js";

const VERBS: Verb[] = [dev, list, call, install, run, check];

const HELP = `picomcp: serve, list, call, check and install an MCP server written with picomcp

Usage: picomcp <verb> <server file> [options]      picomcp <verb> --help for each verb's options

Verbs:
${VERBS.map((verb) => `  ${verb.name.padEnd(9)}${verb.summary}`).join("\n")}

The server file exports its server, without serving it: \`export default pico({ name: "x" }).tool(...)\`.
TypeScript files load with Node's own type stripping (Node 22.18+ and 23.6+; from 22.6 picomcp
adds --experimental-strip-types); on Node 20, with tsx when the project has it installed.

Every verb takes --help, and --json to print JSON instead of text for people.
picomcp --version prints picomcp's version.

${EXIT_CODES}`;

/** `packageJson`: picomcp's package.json, where the command's entry file finds it (see src/bin.ts). */
export async function main(argv: string[], packageJson: URL): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? warn : print)(HELP);
    return name === undefined ? EXIT.cannotRun : EXIT.ok;
  }
  if (name === "--version" || name === "-v") {
    print(versionIn(packageJson));
    return EXIT.ok;
  }
  const verb = VERBS.find((candidate) => candidate.name === name);
  if (!verb) {
    const verbs = `The verbs are ${VERBS.map((v) => v.name).join(", ")}.`;
    // `picomcp server.ts`, the verb forgotten: the file is the word that says what went wrong.
    const wrong = CODE_FILE.test(name)
      ? `${name} is a file: give a verb before it, such as picomcp dev ${name}.`
      : `unknown verb "${name}".`;
    warn(`picomcp: ${wrong} ${verbs}\n\n${HELP}`);
    return EXIT.cannotRun;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    print(verb.help);
    return EXIT.ok;
  }
  const file = rest.find((arg) => /\.[mc]?tsx?$/.test(arg));
  if (file && needsStripTypesFlag(file)) return rerunStrippingTypes();
  // `run` and `dev` give the process to the server; the other verbs only load it, and finish.
  const release = verb.serverOwnsStdout ? undefined : keepStdout();
  const unwatch = verb.serverOwnsStdout ? undefined : watchServerEnds(verb.name);
  // `dev` serves through a child `run` whose stderr is its own: the user typed `picomcp dev`, so its
  // child's failures (a file that does not load) are said in that name.
  const said = verb === run && process.env[DEV_CHILD] === "1" ? "dev" : verb.name;
  try {
    return await verb.run(rest);
  } catch (thrown) {
    if (thrown instanceof UsageError) {
      warn(`picomcp ${said}: ${thrown.message}\n\n${verb.help}`);
      return EXIT.cannotRun;
    }
    if (thrown instanceof CannotRun) {
      warn(`picomcp ${said}: ${thrown.message}`);
      return EXIT.cannotRun;
    }
    if (thrown instanceof RpcError) {
      // Code 0: no JSON-RPC answer came (a 401, an HTTP error), and the message says what came instead.
      const what = thrown.code === 0 ? "" : `the server answered with JSON-RPC error ${thrown.code}: `;
      warn(`picomcp ${said}: ${what}${thrown.message}`);
      return EXIT.failed;
    }
    // Anything else (a listen error, a server that throws while it answers) is said, not dumped as a stack.
    warn(`picomcp ${said}: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
    return EXIT.failed;
  } finally {
    unwatch?.();
    release?.();
  }
}

/**
 * The version in picomcp's package.json, found by its path, not by picomcp's name: a copy of dist/
 * vendored into another project would find another copy's by the name, or none (a stack). "unknown"
 * when the file is missing or is another package's (that project's own, next to the vendored dist/).
 */
function versionIn(packageJson: URL): string {
  try {
    const { name, version }: { name?: unknown; version?: unknown } = JSON.parse(readFileSync(packageJson, "utf8"));
    return name === "picomcp" && typeof version === "string" ? version : "unknown";
  } catch {
    return "unknown";
  }
}
