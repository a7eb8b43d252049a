/**
 * `picomcp install <client> <file>`: adds the server to a client's configuration as a stdio server
 * (`node <picomcp> run <file>`), after checking that the file loads and exports a server; backs the
 * configuration file up first, and says so.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { flagValue, parseArgs, UsageError } from "./args.js";
import { serverName } from "./client.js";
import { BadConfig, CLIENTS, refusedName, type StdioEntry } from "./clients.js";
import { readConfig, replaceConfig } from "./config-file.js";
import { shellWord } from "./configs.js";
import { CODE_FILE, loadServer } from "./load.js";
import { CannotRun, EXIT, print, printJson, type Verb, warn } from "./verb.js";

const IDS = CLIENTS.map((client) => client.id).join(", ");

export const install: Verb = {
  name: "install",
  summary: `add the server to a client's configuration (${IDS})`,
  help: `Usage: picomcp install <client> <server file> [--name <name>] [--env KEY=value ...] [--dry-run] [options]

Adds the server the file exports to a client's MCP configuration, as a stdio server the client
starts itself: this Node with the modules it preloads (--import tsx, -r …, as the files they are
from here), picomcp, "run" and the file's absolute path. The file is loaded first, so a server that
does not load is not installed. The configuration file is backed up next to itself
(<file>.<time>.bak) before it is changed, and replaced whole: a write that fails leaves it as it
was. An entry of the same name is replaced only with --force; one that is already as it would be
written is left as it is (exit 0).

Clients and the file each one reads:
  claude-desktop  claude_desktop_config.json in Claude's folder (~/Library/Application Support/Claude,
                  %APPDATA%\\Claude, ~/.config/Claude)
  claude-code     ~/.claude.json (user scope: every project), which Claude Code creates on first run
  codex           ~/.codex/config.toml ($CODEX_HOME/config.toml)
  cursor          ~/.cursor/mcp.json

Options:
  --name     the entry's name (default: the server's name from its initialize answer, or the file's
             name for a server that asks for sign-in); Claude Code takes letters, digits, - and _,
             Codex also :, @, / and . (as their own mcp add checks)
  --env      KEY=value set in the server's environment, repeatable
  --export   the export that holds the server, if not the default one
  --config   the configuration file to change instead of the client's usual one
  --force    replace an entry of the same name (without it, install refuses and changes nothing)
  --dry-run  print what would be written, change nothing
  --json     print { client, path, name, entry, replaced, unchanged, backup, dryRun, shadowedIn }

Exit codes: 0 installed (or shown, with --dry-run), 2 a usage mistake, a server that does not load,
a name the client refuses, an entry of that name already there (without --force), or a
configuration that is not where expected, does not parse, is read-only or cannot be written.
`,
  async run(argv) {
    const args = parseArgs(argv, { switches: ["dry-run", "force"], values: ["name", "env", "export", "config"] });
    const [id, file, extra] = args.positionals;
    if (!id) throw new UsageError(`which client? One of ${IDS}.`);
    const client = CLIENTS.find((candidate) => candidate.id === id);
    // The file given alone, or before the client: the words a user gets wrong first. One word that
    // is neither a server file's name nor a file is a client mistyped (claude for claude-code).
    if (!client && file === undefined && (CODE_FILE.test(id) || statSync(id, { throwIfNoEntry: false })?.isFile())) {
      throw new UsageError(
        `which client? Name it before the file, such as picomcp install claude-code ${id}; the clients are ${IDS}.`,
      );
    }
    if (!client && CLIENTS.some((candidate) => candidate.id === file)) {
      throw new UsageError(`the client comes first, then the file: picomcp install ${file} ${id}`);
    }
    if (!client) throw new UsageError(`unknown client "${id}": picomcp installs into ${IDS}`);
    if (!file) throw new UsageError("which server file?");
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
    const env: Record<string, string> = {};
    for (const pair of args.values.get("env") ?? []) {
      const equals = pair.indexOf("=");
      if (equals < 1) throw new UsageError(`--env ${pair}: write it as KEY=value`);
      env[pair.slice(0, equals)] = pair.slice(equals + 1);
    }
    const given = flagValue(args, "name");
    // An entry named "" or " " is one no client lists in a way anyone can pick, nor removes.
    if (given !== undefined && !given.trim()) {
      throw new UsageError("--name needs a name: letters, digits, - and _ work in every client");
    }
    const exportName = flagValue(args, "export");
    const { server, path: serverPath } = await loadServer(file, {
      name: exportName,
      command: "picomcp install",
      flag: "--export",
    });
    const known = await serverName(server);
    const name = given ?? known ?? basename(serverPath, extname(serverPath));
    if (known === undefined) {
      const named =
        given === undefined ? `, so the entry is named "${name}" after its file (--name chooses another)` : "";
      warn(
        `picomcp install: the server asks for sign-in${named}; over stdio no token reaches it: the caller is ` +
          "who its auth.stdio finds in the environment (--env KEY=value), else anonymous and refused what needs sign-in.",
      );
    }
    const refused = refusedName(client, name);
    if (refused) throw new CannotRun(refused);

    const bin = realpathSync(process.argv[1]!);
    // A package runner runs a package the project does not have from a cache of its own, which it
    // clears as it sees fit (npx: ~/.npm/_npx/<hash>; pnpm dlx: <cache>/dlx/<hash>; yarn dlx:
    // <tmp>/xfs-<id>/dlx-<pid>; bunx: <tmp>/bunx-<uid>-<package>): an entry pointing there would one
    // day start nothing, with no word why.
    if (/[\\/](?:_npx|pnpm(?:-cache)?[\\/]dlx|dlx-\d+|bunx-\d+-[^\\/]+)[\\/]/.test(bin)) {
      throw new CannotRun(
        `picomcp runs from a package runner's cache (${bin}: npx, pnpm dlx, yarn dlx or bunx), which the runner may clear, and the entry would then start nothing. Install picomcp in the server's project (npm install picomcp) and run npx picomcp install there.`,
      );
    }
    const entry: StdioEntry = {
      command: process.execPath,
      args: [...portable(process.execArgv), bin, "run", serverPath, ...(exportName ? ["--export", exportName] : [])],
      env,
    };
    const asked = flagValue(args, "config");
    const path = asked ?? client.path();
    const folder = client.folder(path);
    // A path the user gave is theirs to correct: the client's usual place is beside the point.
    if (!existsSync(folder)) {
      throw new CannotRun(
        asked === undefined
          ? `${client.title}'s configuration folder ${folder} does not exist. ${client.missing}`
          : `--config ${asked}: its folder ${folder} does not exist: create it, or give the path of a file in a folder that does.`,
      );
    }
    if (client.fileRequired && !existsSync(path)) {
      throw new CannotRun(
        asked === undefined
          ? `${client.title}'s configuration ${path} does not exist. ${client.missing}`
          : `--config ${asked}: there is no such file, and ${client.title}'s configuration is one it writes itself: give the path of one it wrote.`,
      );
    }
    const config = readConfig(path);
    let update: ReturnType<typeof client.update>;
    let shadowedIn: string[];
    try {
      update = client.update(config.text, name, entry);
      shadowedIn = client.shadowedIn?.(config.text, name) ?? [];
    } catch (error) {
      if (error instanceof BadConfig) throw new CannotRun(`cannot change ${path}: ${error.message}.`);
      throw error;
    }
    const dryRun = args.switches.has("dry-run");
    // Installed already, as this run would write it (install run twice): that is done, not a clash.
    const unchanged = update.text === config.text;
    // Another server may have the name (one the user added by hand, another tool's): it is theirs
    // until they say otherwise.
    if (update.replaced && !unchanged && !args.switches.has("force")) {
      const runs = describeEntry(update.previous);
      throw new CannotRun(
        `${path} already has a server named "${name}"${runs ? ` (${runs})` : ""}: pass --force to replace it ` +
          "(the file is backed up first), or --name <name> to add this one beside it.",
      );
    }
    const backup = dryRun || unchanged ? undefined : replaceConfig(config, update.text);
    if (args.switches.has("json")) {
      printJson({
        client: client.id,
        path,
        name,
        entry,
        replaced: update.replaced,
        unchanged,
        backup,
        dryRun,
        shadowedIn,
      });
      return EXIT.ok;
    }
    const what = update.replaced ? "replaced" : "added";
    if (unchanged) {
      print(`picomcp install: "${name}" is in ${path} already, as this would write it: nothing changed.`);
    } else if (dryRun) {
      print(
        `picomcp install: would have ${what} "${name}" in ${path} (dry run, nothing changed). The file would read:\n\n${update.text}`,
      );
    } else {
      print(
        [
          `picomcp install: ${what} "${name}" in ${client.title}'s configuration ${path}.`,
          backup ? `The previous file is saved as ${backup}.` : "The file did not exist: it was created.",
          `It runs: ${[entry.command, ...entry.args].map(shellWord).join(" ")}`,
          `Restart ${client.title} (or open a new session) to load it.`,
        ].join("\n"),
      );
    }
    for (const folder of shadowedIn) {
      warn(
        `picomcp install: in ${folder}, ${client.title} uses its own "${name}" (local scope) instead: ` +
          `remove it there with \`claude mcp remove ${name} -s local\` to use this one.`,
      );
    }
    return EXIT.ok;
  },
};

/** Node's flags that load a module before the entry point: ESM ones take a URL, CommonJS ones a path. */
const PRELOADS = new Map([
  ["--import", "url"],
  ["--loader", "url"],
  ["--experimental-loader", "url"],
  ["--require", "path"],
  ["-r", "path"],
]);

/**
 * This process's Node flags with each module they preload (`--import tsx`, `-r ./setup.cjs`) as the
 * absolute file it is from here: Node resolves them from the working directory, and the client
 * starts the server from another one.
 */
function portable(execArgv: readonly string[]): string[] {
  const here = createRequire(join(process.cwd(), "[picomcp]"));
  const args: string[] = [];
  for (let at = 0; at < execArgv.length; at++) {
    const arg = execArgv[at]!;
    const equals = arg.indexOf("=");
    const flag = equals === -1 ? arg : arg.slice(0, equals);
    const kind = PRELOADS.get(flag);
    const specifier = equals === -1 ? execArgv[at + 1] : arg.slice(equals + 1);
    // A URL (node:, file:, data:) is the same from anywhere; one letter before the colon is a Windows drive.
    if (!kind || specifier === undefined || /^[a-z][a-z\d+.-]+:/i.test(specifier)) {
      args.push(arg);
      continue;
    }
    let file: string;
    try {
      // Node 20's import.meta.resolve ignores its parent without a flag: require's resolution finds
      // the same file for the loaders' own exports (tsx, ts-node/esm).
      file = here.resolve(specifier);
    } catch (error) {
      const why = (error instanceof Error ? error.message : String(error)).split("\n")[0];
      throw new CannotRun(
        `cannot find ${flag} ${specifier} from ${process.cwd()} (${why}): give it as an absolute path, which the client can load from any folder`,
      );
    }
    const value = kind === "url" ? pathToFileURL(file).href : file;
    if (equals === -1) {
      args.push(flag, value);
      at++;
    } else args.push(`${flag}=${value}`);
  }
  return args;
}

/** What an entry already in a JSON configuration runs or connects to, in words; undefined when it says neither. */
function describeEntry(previous: unknown): string | undefined {
  const { command, args, url } = (previous ?? {}) as { command?: unknown; args?: unknown; url?: unknown };
  if (typeof command === "string") {
    const words = Array.isArray(args) ? args.filter((arg) => typeof arg === "string") : [];
    return `it runs: ${[command, ...words].map(shellWord).join(" ")}`;
  }
  return typeof url === "string" ? `it connects to ${url}` : undefined;
}
