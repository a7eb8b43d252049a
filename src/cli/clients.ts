/**
 * Where each client keeps its MCP servers, and how an entry for a stdio server is written there:
 * Claude Desktop and Cursor (`mcpServers` in a JSON file), Claude Code (`mcpServers` in
 * ~/.claude.json, its user scope) and Codex (`[mcp_servers.<name>]` tables in config.toml).
 */
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { NAME_CHARS, nameWith, tomlKey, tomlString } from "./configs.js";

export interface StdioEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface Update {
  /** The file's new text. */
  text: string;
  /** Whether the file had an entry of the name. */
  replaced: boolean;
  /** That entry, as a JSON file has it (TOML's is not read). */
  previous?: unknown;
}

export interface ClientConfig {
  /** The name `install` takes. */
  readonly id: string;
  readonly title: string;
  readonly format: "json" | "toml";
  /** The configuration file, from the environment (HOME, APPDATA, XDG_CONFIG_HOME, CODEX_HOME). */
  path(): string;
  /** The folder that must exist: its absence means the client is not installed (or not here). */
  folder(path: string): string;
  /** What to do when the folder or file is missing. */
  readonly missing: string;
  /** When the file itself must already exist (the client writes it on first run), not just its folder. */
  readonly fileRequired: boolean;
  /**
   * The names the client's own `mcp add` accepts, when it checks them, and those characters in words;
   * an entry written with another name loads, but the client's `mcp remove` refuses it.
   */
  readonly names?: { readonly char: RegExp; readonly allowed: string };
  /** The folders whose own entry of that name the client uses instead of the one `install` writes. */
  shadowedIn?(text: string, name: string): string[];
  /** Adds or replaces the server `name` in the file's text ("" when it does not exist yet). */
  update(text: string, name: string, entry: StdioEntry): Update;
}

const home = () => process.env.HOME || process.env.USERPROFILE || homedir();

function claudeDesktopPath(): string {
  if (process.platform === "darwin") return join(home(), "Library", "Application Support", "Claude");
  if (process.platform === "win32") return join(process.env.APPDATA || join(home(), "AppData", "Roaming"), "Claude");
  return join(process.env.XDG_CONFIG_HOME || join(home(), ".config"), "Claude");
}

export const CLIENTS: readonly ClientConfig[] = [
  {
    id: "claude-desktop",
    title: "Claude Desktop",
    format: "json",
    path: () => join(claudeDesktopPath(), "claude_desktop_config.json"),
    folder: dirname,
    missing:
      "Is Claude Desktop installed for this user? Start it once (Settings > Developer > Edit Config creates the file), or pass --config <file>.",
    fileRequired: false,
    update: (text, name, entry) => updateJson(text, name, { command: entry.command, args: entry.args, env: entry.env }),
  },
  {
    id: "claude-code",
    title: "Claude Code",
    format: "json",
    path: () => join(home(), ".claude.json"),
    folder: dirname,
    missing:
      "Claude Code writes ~/.claude.json when it first runs: run `claude` once, or add the server with `claude mcp add`.",
    fileRequired: true,
    names: { char: NAME_CHARS.claudeCode, allowed: "letters, digits, - and _" },
    update: (text, name, entry) => updateJson(text, name, { type: "stdio", ...entry }),
    // `claude mcp add` without --scope writes projects.<folder>.mcpServers (its "local" scope), which
    // wins over the user scope in that folder.
    shadowedIn(text, name) {
      const projects = (parseJsonObject(text).projects ?? {}) as Record<string, { mcpServers?: object } | null>;
      return Object.entries(projects)
        .filter(([, project]) => project?.mcpServers && Object.hasOwn(project.mcpServers, name))
        .map(([folder]) => folder);
    },
  },
  {
    id: "codex",
    title: "Codex",
    format: "toml",
    path: () => join(process.env.CODEX_HOME || join(home(), ".codex"), "config.toml"),
    folder: dirname,
    missing:
      "Is Codex installed for this user? It keeps its configuration in ~/.codex (or $CODEX_HOME), which `codex login` creates: log in once, or pass --config <file>.",
    fileRequired: false,
    names: { char: NAME_CHARS.codex, allowed: "letters, digits, -, _, :, @, / and ." },
    update: updateToml,
  },
  {
    id: "cursor",
    title: "Cursor",
    format: "json",
    path: () => join(home(), ".cursor", "mcp.json"),
    folder: dirname,
    missing:
      "Is Cursor installed for this user? It keeps its global MCP servers in ~/.cursor/mcp.json: start Cursor once, or pass --config <file>.",
    fileRequired: false,
    update: (text, name, entry) => updateJson(text, name, { command: entry.command, args: entry.args, env: entry.env }),
  },
];

/**
 * Why the client would refuse `name` from its own `mcp add`, with a name it takes (the refused
 * characters as `-`), or undefined when it accepts it.
 */
export function refusedName(client: ClientConfig, name: string): string | undefined {
  const rule = client.names;
  const chars = [...name];
  if (!rule || (chars.length > 0 && chars.every((char) => rule.char.test(char)))) return undefined;
  return (
    `"${name}" is not a name ${client.title} accepts (${rule.allowed} only, as its own \`mcp add\` checks): ` +
    `pass --name ${nameWith(rule.char, name)}`
  );
}

/** The error a file picomcp does not change gets: where, and what to do. */
export class BadConfig extends Error {}

/**
 * A file that does not parse as `what` (its format, and where it fails): left as it is, since a
 * rewrite of what picomcp does not understand could lose the rest of what the client keeps there.
 */
function unparsable(what: string, hint = ""): BadConfig {
  return new BadConfig(
    `it is not valid ${what}: picomcp changes only a file that parses, so that nothing in it is lost: ` +
      `correct it${hint}, then install again`,
  );
}

/**
 * A file's byte order mark (some Windows editors write one), kept aside: it is no part of the first
 * line's text, and JSON.parse refuses it as an unexpected token no editor shows.
 */
function splitBom(file: string): { bom: string; text: string } {
  const bom = file.startsWith("\uFEFF") ? "\uFEFF" : "";
  return { bom, text: file.slice(bom.length) };
}

/** The line end a file's new lines get: CRLF when its first line ends so (a Windows editor's), LF otherwise. */
function lineEnd(text: string): string {
  return /^[^\n]*\r\n/.test(text) ? "\r\n" : "\n";
}

function parseJsonObject(file: string): Record<string, unknown> {
  const { text } = splitBom(file);
  if (!text.trim()) return {};
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    // Moved away, the file would take with it everything else the client keeps there.
    const comments = /^\s*(\/\/|\/\*)/m.test(text) ? " (JSON has no comments)" : "";
    throw unparsable(`JSON (${(error as Error).message})`, comments);
  }
  if (!config || typeof config !== "object" || Array.isArray(config)) {
    throw new BadConfig(
      `it is ${kindOf(config)} where a JSON object ({ "mcpServers": { … } }) belongs: correct it, then install again`,
    );
  }
  return config as Record<string, unknown>;
}

/** What a JSON value that is not an object is, in words: "an array", "a string", "null"… */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : `a ${typeof value}`;
}

function updateJson(file: string, name: string, entry: Record<string, unknown>): Update {
  const config = parseJsonObject(file);
  const { bom, text } = splitBom(file);
  const servers = (config.mcpServers ?? {}) as Record<string, unknown>;
  if (typeof servers !== "object" || Array.isArray(servers)) {
    throw new BadConfig(
      `its mcpServers is ${kindOf(servers)} where an object of servers by name ({ "name": { "command": … } }) ` +
        "belongs: correct it, then install again",
    );
  }
  // Own keys only: `in` finds every object's constructor, toString…
  const replaced = Object.hasOwn(servers, name);
  const previous = replaced ? servers[name] : undefined;
  // Already as this would write it, however the file is formatted (one line, another tool's key
  // order): there is nothing to change, and the file stays as it is.
  if (replaced && canonical(previous) === canonical(entry)) return { text: file, replaced, previous };
  const changed = numberChanged(text);
  if (changed !== undefined) {
    throw new BadConfig(
      `it holds the number ${changed}, which picomcp, reading it as JavaScript does, would write back as another: ` +
        `add ${JSON.stringify(name)}: ${JSON.stringify(entry)} to its mcpServers yourself`,
    );
  }
  const twice = keyTwice(text);
  if (twice) {
    throw new BadConfig(
      `line ${twice.line} defines ${JSON.stringify(twice.key)} again in the same object, where a client reads the ` +
        "last one alone and a rewrite would drop the first: merge the two, then install again",
    );
  }
  config.mcpServers = { ...servers, [name]: entry };
  // The file's own indentation (its first indented key's) and line ends, so that a diff shows the entry alone.
  const indent = /^([ \t]+)"/m.exec(text)?.[1] ?? 2;
  const eol = lineEnd(text);
  return {
    // JSON.stringify writes a line break only between tokens: within a string it is the escape \n.
    text: `${bom}${JSON.stringify(config, null, indent).replaceAll("\n", eol)}${eol}`,
    replaced,
    previous,
  };
}

/** `value` as JSON with each object's keys in order: values that differ in their key order alone are one. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/**
 * The first key that an object of the JSON text (one that parses) defines again, and its line:
 * JSON.parse keeps the last, so a rewrite would drop the first, such as an `"mcpServers"` pasted
 * whole into a file that has one (RFC 8259 §4: the names "SHOULD be unique").
 */
function keyTwice(text: string): { key: string; line: number } | undefined {
  /** The keys of each object the text is in, innermost last; undefined for an array. */
  const open: (Set<string> | undefined)[] = [];
  for (const found of text.matchAll(/("(?:[^"\\]|\\.)*")(\s*:)?|[{}[\]]/g)) {
    const [token, string, colon] = found;
    if (token === "{") open.push(new Set());
    else if (token === "[") open.push(undefined);
    else if (token === "}" || token === "]") open.pop();
    else if (colon !== undefined && string !== undefined) {
      const key: string = JSON.parse(string);
      const keys = open.at(-1);
      if (keys?.has(key)) return { key, line: text.slice(0, found.index).split("\n").length };
      keys?.add(key);
    }
  }
  return undefined;
}

/**
 * The first number in the JSON text that a rewrite would change: an integer beyond 2^53, which
 * JavaScript rounds (an id, a timestamp in nanoseconds), or one beyond its range, which it writes as null.
 */
function numberChanged(text: string): string | undefined {
  const outsideStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  for (const [token] of outsideStrings.matchAll(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g)) {
    const value = Number(token);
    if (!Number.isFinite(value) || (/^-?\d+$/.test(token) && BigInt(token) !== BigInt(value))) return token;
  }
  return undefined;
}

/**
 * Codex's config.toml: the entry `mcp_servers.<name>` removed, in whichever form it is written, and
 * one `[mcp_servers.<name>]` table appended at the end, every other line kept as it was, comments
 * included. TOML 1.0 "Table" and "Keys" allow three forms, and a second definition of the same key
 * makes the file invalid: `[mcp_servers.<name>]` tables and their sub-tables (`.env`, wherever they
 * are), dotted keys (`mcp_servers.<name>.command = …` in the root table, `<name>.command = …` under
 * `[mcp_servers]`) and inline tables (`<name> = { … }` there).
 * A table ends at the next `[table]` or `[[array of tables]]` header outside a multi-line string,
 * array or inline table; the comments that end it stay, for they likely describe what follows.
 * A file that is not TOML in a way these lines would misread (a string or array that does not
 * close, a line that is none of header, pair, comment or blank) is refused, as it is.
 */
function updateToml(file: string, name: string, entry: StdioEntry): Update {
  const { bom, text } = splitBom(file);
  const ours = ["mcp_servers", name];
  const kept: string[] = [];
  /** The lines of the entry as the file has it, its blank lines aside. */
  const entryLines: string[] = [];
  const open: Open = { brackets: 0 };
  /** The key of the table the lines are in: the last header's, none for the root table. */
  let table: string[] = [];
  let inside = false;
  /** Whether the line is part of a key/value pair that defines the entry or part of it. */
  let dropping = false;
  let replaced = false;
  let trailing: string[] = [];
  /** The line the open multi-line string, array or inline table began on. */
  let opened = 0;
  const notToml = (line: number, what: string) => unparsable(`TOML (line ${line}: ${what})`);
  for (const [at, line] of (text ? text.replace(/\n$/, "").split("\n") : []).entries()) {
    const between = !open.quotes && open.brackets === 0;
    const key = between ? headerKey(line) : undefined;
    if (key) {
      const mine = startsWith(key, ours);
      if (inside && !mine) kept.push(...trailing);
      trailing = [];
      inside = mine;
      replaced ||= mine;
      table = key;
      dropping = false;
    } else if (inside && between && BLANK_OR_COMMENT.test(line)) {
      // From the first comment on: the blank lines before it were the table's own.
      if (trailing.length || line.trim()) trailing.push(line);
      continue;
    } else {
      const pair = between ? pairKey(line) : undefined;
      // TOML 1.0: outside a value that spans lines, a line is a header, a key/value pair, a comment or blank.
      if (between && pair === undefined && !BLANK_OR_COMMENT.test(line)) {
        throw notToml(at + 1, "neither a [table] header, a key = value pair nor a comment");
      }
      if (between) dropping = pair !== undefined && definesEntry([...table, ...pair], ours, at + 1);
      replaced ||= dropping;
      trailing = [];
      if (!scan(line, open)) throw notToml(at + 1, "a string that does not end on its line");
      if (open.brackets < 0) throw notToml(at + 1, "a ] or } that closes nothing");
      if (between) opened = at + 1;
    }
    if (!inside && !dropping) kept.push(line);
    else if (line.trim()) entryLines.push(line.replace(/\r$/, ""));
  }
  if (open.quotes || open.brackets > 0) {
    throw notToml(opened, "a multi-line string, array or inline table that never closes");
  }
  kept.push(...trailing);
  const header = `mcp_servers.${tomlKey(name)}`;
  const lines = [`[${header}]`, `command = ${tomlString(entry.command)}`];
  lines.push(`args = [${entry.args.map(tomlString).join(", ")}]`);
  const env = Object.entries(entry.env);
  if (env.length) {
    lines.push("", `[${header}.env]`, ...env.map(([key, value]) => `${tomlKey(key)} = ${tomlString(value)}`));
  }
  // Already as this would write it, wherever it is in the file (another server added after it since):
  // there is nothing to change, and the file stays as it is.
  if (entryLines.join("\n") === lines.filter(Boolean).join("\n")) return { text: file, replaced };
  while (kept.length && kept.at(-1)!.trim() === "") kept.pop();
  // A kept line keeps its own CR, if it had one; the lines written here end as the file's first does.
  const eol = lineEnd(text);
  const last = kept.at(-1);
  const before = last === undefined ? "" : `${kept.join("\n")}${last.endsWith("\r") ? "\n" : eol}${eol}`;
  return { text: `${bom}${before}${lines.join(eol)}${eol}`, replaced };
}

/**
 * Whether the key/value pair of key `full` (its table's key and its own) on `line` defines the entry
 * `ours` or part of it. One that defines `mcp_servers` itself (`mcp_servers = { … }` in the root
 * table) is refused: an inline table is complete where it is written (TOML 1.0 "Inline Table"), so
 * no `[mcp_servers.<name>]` table may be added to it.
 */
function definesEntry(full: string[], ours: string[], line: number): boolean {
  if (full.length < ours.length && startsWith(ours, full)) {
    throw new BadConfig(
      `line ${line} defines ${full.join(".")} as an inline table, which TOML lets no [mcp_servers.<name>] table ` +
        "extend: write its servers as [mcp_servers.<name>] tables, then install again",
    );
  }
  return startsWith(full, ours);
}

function startsWith(key: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((part, at) => key[at] === part);
}

/** What a TOML line leaves open for the next ones: a multi-line string, or arrays and inline tables. */
interface Open {
  quotes?: '"""' | "'''";
  /** How deep in `[` and `{` the line ends. */
  brackets: number;
}

/**
 * The key of a `[table]` or `[[array of tables]]` header line, its parts without their quotes
 * (`[ mcp_servers . "weather" ]` is mcp_servers, weather: TOML 1.0 "Keys"); undefined for any other
 * line.
 */
function headerKey(line: string): string[] | undefined {
  const brackets = /^[ \t]*\[\[?/.exec(line)?.[0];
  if (!brackets) return undefined;
  const key = dottedKey(line.slice(brackets.length));
  const close = brackets.endsWith("[[") ? "]]" : "]";
  if (!key?.rest.startsWith(close)) return undefined;
  return /^[ \t]*(#.*)?\r?$/.test(key.rest.slice(close.length)) ? key.parts : undefined;
}

/** The key of a key/value pair's first line (`"weather".command = …`: weather, command); undefined for any other line. */
function pairKey(line: string): string[] | undefined {
  const key = dottedKey(line);
  return key?.rest.startsWith("=") ? key.parts : undefined;
}

/** The dotted key `text` starts with, as its parts without their quotes, and the text after it. */
function dottedKey(text: string): { parts: string[]; rest: string } | undefined {
  const parts: string[] = [];
  let rest = text;
  for (;;) {
    const part = /^[ \t]*([A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')[ \t]*/.exec(rest);
    if (!part) return undefined;
    const word = part[1]!;
    if (word.startsWith('"')) parts.push(basicString(word.slice(1, -1)));
    else parts.push(word.startsWith("'") ? word.slice(1, -1) : word);
    rest = rest.slice(part[0].length);
    if (!rest.startsWith(".")) return { parts, rest };
    rest = rest.slice(1);
  }
}

const ESCAPES: Record<string, string> = {
  b: "\b",
  t: "\t",
  n: "\n",
  f: "\f",
  r: "\r",
  e: "\x1b",
  '"': '"',
  "\\": "\\",
};

/** A basic string's text with its escapes decoded (TOML 1.0 "String", and 1.1's \e and \xHH). */
function basicString(text: string): string {
  return text.replace(/\\(u[\dA-Fa-f]{4}|U[\dA-Fa-f]{8}|x[\dA-Fa-f]{2}|.)/g, (sequence, what: string) =>
    what.length > 1 ? String.fromCodePoint(Number.parseInt(what.slice(1), 16)) : (ESCAPES[what] ?? sequence),
  );
}

/** A line with nothing but a comment, or nothing at all (its CR aside). */
const BLANK_OR_COMMENT = /^\s*(#.*)?\r?$/;

/**
 * Reads a line that is not a header, so that `open` says what it leaves open for the next; false
 * when a string that must end on its line (TOML 1.0 "String": basic and literal) does not.
 */
function scan(line: string, open: Open): boolean {
  let at = 0;
  while (at < line.length) {
    // A multi-line string's closing quotes are the last three of their run: `""""` ends one with a `"`.
    const token =
      open.quotes === '"""'
        ? /\\[\s\S]|"""(?!")/g
        : open.quotes
          ? /'''(?!')/g
          : /#|"""|'''|"(?:[^"\\]|\\.)*"|'[^']*'|[[\]{}]|["']/g;
    token.lastIndex = at;
    const found = token.exec(line)?.[0];
    if (found === undefined || found === "#") return true;
    // A quote alone: the string it opens does not close on its line.
    if (found === '"' || found === "'") return false;
    at = token.lastIndex;
    if (found === open.quotes) open.quotes = undefined;
    else if (found === '"""' || found === "'''") open.quotes = found;
    // Braces too: TOML 1.1 lets an inline table span lines (in 1.0 each closes on its own line).
    else if (found === "[" || found === "{") open.brackets++;
    else if (found === "]" || found === "}") open.brackets--;
  }
  return true;
}
