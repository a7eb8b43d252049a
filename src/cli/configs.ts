/**
 * The ready-to-paste client configurations `picomcp dev` prints for a server on a local URL, each in
 * the shape its client documents for a Streamable HTTP server.
 */

export interface Snippet {
  client: string;
  /** Where it goes, or how to run it. */
  where: string;
  text: string;
}

/** A tool of the server and one argument of it, for the Inspector CLI's call line. */
export interface ExampleCall {
  tool: string;
  arg?: string;
}

export function httpSnippets(name: string, url: string): Snippet[] {
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return [
    {
      client: "Claude Code",
      where: "run in your project",
      text: `claude mcp add --transport http ${nameWith(NAME_CHARS.claudeCode, name)} ${url}`,
    },
    {
      client: "Codex",
      where: "~/.codex/config.toml",
      text: `[mcp_servers.${tomlKey(nameWith(NAME_CHARS.codex, name))}]\nurl = ${tomlString(url)}`,
    },
    {
      client: "Claude Desktop",
      where:
        "claude_desktop_config.json (Settings > Developer > Edit Config); it starts local servers as commands, so mcp-remote bridges to HTTP",
      text: json({ mcpServers: { [name]: { command: "npx", args: ["-y", "mcp-remote", url] } } }),
    },
    {
      client: "Cursor",
      where: "~/.cursor/mcp.json, or .cursor/mcp.json in the project",
      text: json({ mcpServers: { [name]: { url } } }),
    },
    {
      client: "VS Code",
      where: ".vscode/mcp.json in the project",
      text: json({ servers: { [name]: { type: "http", url } } }),
    },
    // Inspector 2's package asks for Node 22.19, so on Node 20 a bare `npx` resolves to 0.15.0, whose
    // web mode takes neither flag; `@2` gets Inspector 2, which runs on Node 20 too.
    {
      client: "MCP Inspector",
      where: "run it, then Connect",
      text: `npx @modelcontextprotocol/inspector@2 --transport http --server-url ${url}`,
    },
  ];
}

/**
 * The Inspector CLI's lines, whose call names a tool of the server: apart from the others, for the
 * tool is asked of the server, which may take a while to answer.
 */
export function inspectorCliSnippet(url: string, call?: ExampleCall): Snippet {
  return {
    client: "MCP Inspector CLI",
    where: "in a terminal: the tools as a client lists them, then one call",
    text:
      `npx @modelcontextprotocol/inspector@2 --cli ${url} --method tools/list\n` +
      `npx @modelcontextprotocol/inspector@2 --cli ${url} --method tools/call ${callArgs(call)}`,
  };
}

/**
 * The Inspector CLI's tool and argument, as a shell runs them pasted: a value to fill in is quoted,
 * for a bare `<value>` is a redirection to the shell. Tool names are letters, digits, `_`, `.` and
 * `-` (the server checks them), so only an argument's name and the placeholders need quotes.
 */
function callArgs(call: ExampleCall | undefined): string {
  if (!call) return "--tool-name '<tool>' --tool-arg '<name>=<value>'";
  return `--tool-name ${call.tool}${call.arg === undefined ? "" : ` --tool-arg ${shellWord(`${call.arg}=<value>`)}`}`;
}

/**
 * `word` as a POSIX shell reads it back: bare when it has no character the shell treats specially,
 * else in single quotes, each of its own single quotes closed, escaped and reopened.
 */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** A TOML key: bare when it is letters, digits, `-` and `_` only (TOML 1.0 "Keys"), quoted otherwise. */
export function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

/**
 * A TOML basic string. JSON's escapes are TOML's, and JSON escapes every control character TOML
 * forbids unescaped (TOML 1.0 "String") but U+007F, delete, which a path or a value may hold: left
 * as it is, it would make the whole file invalid to its client.
 */
export function tomlString(text: string): string {
  return JSON.stringify(text).replaceAll("\x7f", "\\u007F");
}

/**
 * The characters each client's own `mcp add` takes in a server's name: Claude Code 2.1 ("letters,
 * numbers, hyphens, and underscores") and Codex 0.171 (letters, numbers, '-', '_', ':', '@', '/', '.').
 */
export const NAME_CHARS = { claudeCode: /[A-Za-z0-9_-]/, codex: /[A-Za-z0-9_:@/.-]/ } as const;

/** `name` with each character that `char` does not match as `-` (runs merged, none at the ends). */
export function nameWith(char: RegExp, name: string): string {
  const taken = [...name]
    .map((each) => (char.test(each) ? each : "-"))
    .join("")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
  return taken || "server";
}
