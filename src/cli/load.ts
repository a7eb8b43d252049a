/**
 * Loads the user's server module and finds the server it exports, by the public API only: any
 * export with the `fetch` and `call` methods of a picomcp `Server` (the module may import another
 * copy of picomcp than the command's, so `instanceof` alone would miss it).
 *
 * TypeScript: Node strips types itself from 22.18 and 23.6 (from 22.6 with `--experimental-strip-types`,
 * which the command then adds by running itself again); older Nodes need a loader, so the command
 * registers tsx when the module's project has it, and otherwise says what to do.
 */
import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Server } from "../index.js";
import { SERVE_HOOK } from "../transports/process.js";
import { CannotRun } from "./verb.js";

const TYPESCRIPT = /\.[mc]?tsx?$/;
/** A JavaScript or TypeScript module's name, as Node and tsx load them: a server file, or code `dev` watches. */
export const CODE_FILE = /\.[mc]?[jt]sx?$/;

/**
 * The export a command was told to load, and how that command takes its name, for the message when the
 * name is not a server's: after the file (list, check) or with --export (run, call, install, dev).
 */
export interface ExportChoice {
  readonly name: string | undefined;
  /** The command as the user typed it: "picomcp list". */
  readonly command: string;
  readonly flag?: "--export";
}

export interface Loaded {
  readonly server: Server;
  /** The module's absolute path. */
  readonly path: string;
}

function isServer(value: unknown): value is Server {
  const candidate = value as { fetch?: unknown; call?: unknown; serve?: unknown } | null;
  return typeof candidate?.fetch === "function" && typeof candidate.call === "function";
}

/**
 * Whether this Node must run again with `--experimental-strip-types` to import `file`: a
 * TypeScript file, on a Node that has the flag but does not strip types by default (22.6 to 22.17,
 * 23.0 to 23.5), without the flag or a loader already in place.
 */
export function needsStripTypesFlag(file: string): boolean {
  if (!TYPESCRIPT.test(file)) return false;
  const features = process.features as { typescript?: string | false };
  if (features.typescript || process.execArgv.some((arg) => /strip-types|^--import|^--loader/.test(arg))) return false;
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  return (major === 22 && minor >= 6) || (major === 23 && minor < 6);
}

/**
 * Runs this command again under `node --experimental-strip-types`, with the same arguments and
 * stdio, and resolves with its exit code. Signals reach the child through the shared process group.
 */
export function rerunStrippingTypes(): Promise<number> {
  const args = ["--experimental-strip-types", "--disable-warning=ExperimentalWarning", ...process.execArgv];
  const child = spawn(process.execPath, [...args, ...process.argv.slice(1)], { stdio: "inherit" });
  return new Promise((done) => child.on("exit", (code) => done(code ?? 1)));
}

/** How many loads are under way: what the server's code does then, it does as its module loads. */
let loading = 0;

export function isLoading(): boolean {
  return loading > 0;
}

/** The seconds a server file may take to load and start, unless PICOMCP_LOAD_TIMEOUT says otherwise. */
const LOAD_SECONDS = 30;

/**
 * Imports `file` (relative to the working directory) and returns the server it exports, within
 * PICOMCP_LOAD_TIMEOUT seconds: a module whose top level awaits a connection that never answers
 * would otherwise hold `list` or `call`, or the client that started `run`, with no word of why.
 */
export async function loadServer(file: string, exported: ExportChoice): Promise<Loaded> {
  const seconds = loadSeconds();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, fail) => {
    // Past 2^31 - 1 ms Node would fire the timer at once: that many is as good as no bound.
    timer = setTimeout(() => fail(tooSlow(file, seconds)), Math.min(seconds * 1000, 2 ** 31 - 1));
    // The bound alone keeps nothing alive: a load that nothing else can finish is said at once
    // (server-ends.ts), not after the bound.
    timer.unref();
  });
  // A module that serves itself as it loads (`await server.serve()`, as the README's quick start ends)
  // would serve stdio on the terminal until the bound above: its serve() is refused at once instead.
  const servesItself = new Promise<never>((_, fail) => {
    Reflect.set(globalThis, SERVE_HOOK, () => {
      fail(selfServing(file));
      // The module's serve() never settles: the verb ends on the refusal.
      return new Promise<never>(() => {});
    });
  });
  loading++;
  try {
    return await Promise.race([loadOnce(file, exported), late, servesItself]);
  } finally {
    clearTimeout(timer);
    loading--;
    Reflect.deleteProperty(globalThis, SERVE_HOOK);
  }
}

function loadSeconds(): number {
  const asked = process.env.PICOMCP_LOAD_TIMEOUT;
  if (asked === undefined || asked === "") return LOAD_SECONDS;
  const seconds = Number(asked);
  if (!(seconds > 0) || !Number.isFinite(seconds)) {
    throw new CannotRun(`PICOMCP_LOAD_TIMEOUT=${asked}: give the seconds a server file may take to load, such as 60.`);
  }
  return seconds;
}

function tooSlow(file: string, seconds: number): CannotRun {
  return new CannotRun(
    `${file} did not load within ${seconds} s: its top level, or its server's start, waits on something that does ` +
      "not come (a connection, a file, an await). Give that wait a timeout of its own, or make it in the tool " +
      `that needs it; if it only needs longer, allow more with PICOMCP_LOAD_TIMEOUT=<seconds> (${LOAD_SECONDS} by default).`,
  );
}

function selfServing(file: string): CannotRun {
  return new CannotRun(
    `${file} serves itself: it calls server.serve() as it loads, and picomcp serves the server a file exports. ` +
      "Export the server instead (`export default server` in place of `await server.serve()`), " +
      `or run the file without picomcp: \`npx tsx ${file}\` on Node 20, \`node ${file}\` where Node runs it as it is.`,
  );
}

async function loadOnce(file: string, { name: exportName, command, flag }: ExportChoice): Promise<Loaded> {
  const path = resolve(file);
  await mustBeFile(path, file);
  const module = await importModule(path, file);
  const candidates = exportName ? [module[exportName]] : [module.default, ...Object.values(module)];
  const server = candidates.find(isServer);
  const servers = Object.keys(module).filter((key) => isServer(module[key]));
  // A name that is not the export's (a tool's, given to list after the file): the server is there.
  if (!server && servers.length > 0) {
    const which = servers.map((key) => (key === "default" ? "its default export" : `"${key}"`)).join(", ");
    const [are, them] = servers.length > 1 ? ["s are", "one"] : [" is", "it"];
    throw new CannotRun(
      `${file} exports no server named "${exportName}"; its server${are} ${which}: name ${them}, or no export for ` +
        `the default or first one (${command} takes an export's name ${flag ? `with ${flag}` : "after the file"}, not a tool's).`,
    );
  }
  if (!server) {
    const which = exportName ? ` named "${exportName}"` : "";
    throw new CannotRun(
      `${file} exports no server${which}. Export the pico() server without serving it (\`export default server\`); picomcp serves it.`,
    );
  }
  // A mistake found when the server's layers check its registrations and options is a start-up error.
  await server.ready().catch((thrown: unknown) => {
    throw new CannotRun(`${file} does not start: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
  });
  return { server, path };
}

/**
 * A path that names no file, or a folder, said as the user's mistake: Node's own error names the
 * module that imported it, which is picomcp's loader, and does not say what to give instead.
 */
export async function mustBeFile(path: string, file: string): Promise<void> {
  const found = await stat(path).catch(() => undefined);
  if (!found) {
    throw new CannotRun(
      `there is no file ${file} (looked for ${path}): give the path of the file that exports the server, such as server.ts.`,
    );
  }
  if (found.isDirectory()) {
    throw new CannotRun(
      `${file} is a folder: give the path of the file in it that exports the server, such as ${join(file, "server.ts")}.`,
    );
  }
}

async function importModule(path: string, file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path).href;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (thrown) {
    const code = (thrown as { code?: unknown } | null)?.code;
    if (code !== "ERR_UNKNOWN_FILE_EXTENSION" || !TYPESCRIPT.test(path)) throw cannotImport(file, thrown);
  }
  // A TypeScript file this Node cannot strip: with tsx from the module's project, it loads as any other.
  try {
    // Node remembers the failed load of `url`: the query makes the second import a new one.
    if (await registerTsx(path)) return (await import(`${url}?tsx`)) as Record<string, unknown>;
  } catch (thrown) {
    throw cannotImport(file, thrown);
  }
  throw new CannotRun(
    `cannot import ${file}: Node ${process.versions.node} does not run TypeScript by itself. ` +
      "Use Node 22.18 or later, which strips types itself (from 22.6 picomcp adds --experimental-strip-types), " +
      "install tsx in the project (npm install --save-dev tsx) so picomcp can load it, " +
      "or run picomcp under a loader: node --import tsx node_modules/.bin/picomcp ...",
  );
}

/** A module that did not load (missing, a syntax error, a throw at its top level), said in one line. */
function cannotImport(file: string, thrown: unknown): CannotRun {
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return new CannotRun(`cannot import ${file}: ${message.trim().replace(/\s*\n\s*/g, " ")}`);
}

/** Registers tsx's ESM loader from the module's own project, when it has tsx. */
async function registerTsx(path: string): Promise<boolean> {
  let api: string;
  try {
    api = createRequire(path).resolve("tsx/esm/api");
  } catch {
    return false;
  }
  // resolve() follows the "require" condition; the ESM build of the same API sits next to it.
  const esm = api.replace(/\.cjs$/, ".mjs");
  const { register } = (await import(pathToFileURL(esm).href)) as { register(): unknown };
  register();
  return true;
}
