/**
 * `picomcp install`: each client's configuration under a temporary HOME, changed with a backup,
 * shown unchanged with --dry-run, refused with a reason when the client's folder is missing; and
 * the command written there serves the server over stdio.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN, FIXTURE, picomcp, picomcpUnder, ROOT } from "./helpers.js";

let home: string;
const install = (...args: string[]) =>
  picomcp(["install", ...args], { env: { HOME: home, XDG_CONFIG_HOME: "", CODEX_HOME: "", APPDATA: "" } });
const read = (path: string) => readFileSync(join(home, path), "utf8");
const backups = (folder: string) => readdirSync(join(home, folder)).filter((name) => name.endsWith(".bak"));

/** `install claude-code` run by a copy of picomcp at `where` under HOME (a package runner's cache, a project); its bin's real path. */
function installFromCopy(where: string[]) {
  const copy = join(home, ...where);
  cpSync(join(ROOT, "src"), join(copy, "src"), { recursive: true });
  writeFileSync(join(copy, "package.json"), '{ "name": "picomcp", "type": "module" }');
  const bin = join(copy, "src", "bin.ts");
  const ran = spawnSync(process.execPath, ["--import", "tsx", bin, "install", "claude-code", FIXTURE], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, HOME: home, XDG_CONFIG_HOME: "", CODEX_HOME: "", APPDATA: "" },
    timeout: 30_000,
  });
  return { status: ran.status, stderr: ran.stderr, bin: realpathSync(bin) };
}

/**
 * The tsx that `--import tsx` (how the tests run picomcp) finds from the repository, as the file it
 * is (node_modules may be a link, as in a git worktree).
 */
const TSX = pathToFileURL(realpathSync(join(ROOT, "node_modules", "tsx", "dist", "loader.mjs"))).href;
const ENTRY = {
  command: process.execPath,
  args: ["--import", TSX, BIN, "run", join(ROOT, FIXTURE)],
  env: { TOKEN: "a=b" },
};

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "picomcp-home-"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("picomcp install", () => {
  it("claude-code: adds the server to ~/.claude.json's user scope, keeping the rest, with a backup", () => {
    writeFileSync(join(home, ".claude.json"), '{"numStartups":3,"mcpServers":{"other":{"command":"x"}}}');
    const { code, stdout } = install("claude-code", FIXTURE, "--env", "TOKEN=a=b");
    expect(code).toBe(0);
    expect(stdout).toContain(
      `picomcp install: added "cli-fixture" in Claude Code's configuration ${join(home, ".claude.json")}.`,
    );
    expect(JSON.parse(read(".claude.json"))).toEqual({
      numStartups: 3,
      mcpServers: { other: { command: "x" }, "cli-fixture": { type: "stdio", ...ENTRY } },
    });
    const [backup] = backups(".");
    expect(read(backup!)).toBe('{"numStartups":3,"mcpServers":{"other":{"command":"x"}}}');
    expect(stdout).toContain(`The previous file is saved as ${join(home, backup!)}.`);
  });

  it("claude-code: says which projects keep a local entry of the name, which Claude Code uses there instead", () => {
    const local = { type: "http", url: "http://127.0.0.1:3000/mcp" };
    const projects = { "/work/weather": { mcpServers: { "cli-fixture": local } }, "/work/other": { mcpServers: {} } };
    writeFileSync(join(home, ".claude.json"), JSON.stringify({ projects }));
    const { code, stderr } = install("claude-code", FIXTURE);
    expect(code).toBe(0);
    expect(stderr).toBe(
      'picomcp install: in /work/weather, Claude Code uses its own "cli-fixture" (local scope) instead: ' +
        "remove it there with `claude mcp remove cli-fixture -s local` to use this one.\n",
    );
    expect(JSON.parse(read(".claude.json")).projects).toEqual(projects);
    expect(install("claude-code", FIXTURE, "--name", "other").stderr).toBe("");
  });

  it("a name such as constructor is an entry only when the file has one (not one of every object's)", () => {
    writeFileSync(join(home, ".claude.json"), JSON.stringify({ projects: { "/work/weather": { mcpServers: {} } } }));
    const { code, stdout, stderr } = install("claude-code", FIXTURE, "--name", "constructor", "--dry-run");
    expect(code).toBe(0);
    expect(stdout).toContain('would have added "constructor"');
    expect(stderr).toBe("");
    mkdirSync(join(home, ".cursor"));
    expect(install("cursor", FIXTURE, "--name", "toString", "--json").stdout).toContain('"replaced": false');
  });

  it("claude-desktop and cursor: create their JSON file in the client's folder", () => {
    mkdirSync(join(home, ".config", "Claude"), { recursive: true });
    mkdirSync(join(home, ".cursor"));
    expect(install("claude-desktop", FIXTURE, "--name", "fixture", "--env", "TOKEN=a=b").code).toBe(0);
    expect(install("cursor", FIXTURE, "--env", "TOKEN=a=b").code).toBe(0);
    expect(JSON.parse(read(".config/Claude/claude_desktop_config.json"))).toEqual({ mcpServers: { fixture: ENTRY } });
    expect(JSON.parse(read(".cursor/mcp.json"))).toEqual({ mcpServers: { "cli-fixture": ENTRY } });
  });

  it("codex: replaces the server's TOML tables and keeps every other line", () => {
    mkdirSync(join(home, ".codex"));
    const before =
      '# mine\nmodel = "o3"\n\n[mcp_servers.cli-fixture]\ncommand = "old"\n\n[mcp_servers.other]\ncommand = "x"\n';
    writeFileSync(join(home, ".codex", "config.toml"), before);
    const { code, stdout } = install("codex", FIXTURE, "--force", "--env", "TOKEN=a=b");
    expect(code).toBe(0);
    expect(stdout).toContain('replaced "cli-fixture"');
    const args = ENTRY.args.map((arg) => JSON.stringify(arg)).join(", ");
    expect(read(".codex/config.toml")).toBe(
      '# mine\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "x"\n\n' +
        `[mcp_servers.cli-fixture]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${args}]\n\n` +
        '[mcp_servers.cli-fixture.env]\nTOKEN = "a=b"\n',
    );
    expect(backups(".codex")).toHaveLength(1);
  });

  it("codex: replaces the entry's tables however their keys are written, and keeps every other line byte for byte", () => {
    mkdirSync(join(home, ".codex"));
    const head = '# Codex settings\nmodel = "o3" # the default\n\n';
    const ours = '[mcp_servers."cli-fixture"] # added by hand\ncommand = "old"\nargs = ["a"]\n\n';
    const otherServer = '[mcp_servers."cli.fixture"]\ncommand = "another server"\n\n';
    const oursEnv = "[ mcp_servers . 'cli-fixture' . env ]\nOLD = \"1\"\n\n";
    const hooks =
      "# hooks run in order\n" +
      '[[hooks]]\nname = "keep-me"\ninstructions = """\n[mcp_servers.cli-fixture]\ncommand = "not a table"\n"""\n\n' +
      '[[hooks]]\nname = "me too"\nmatrix = [\n  ["a"],\n  ["b"]\n]\n\n';
    const oursTools = '[mcp_servers."cli\\u002Dfixture".tools]\ngreet = false\n\n';
    const last = '[mcp_servers.cli-fixture-2]\ncommand = "y"\n';
    const before = head + ours + otherServer + oursEnv + hooks + oursTools + last;
    writeFileSync(join(home, ".codex", "config.toml"), before);
    const { code, stdout } = install("codex", FIXTURE, "--force", "--env", "TOKEN=a=b");
    expect(code).toBe(0);
    expect(stdout).toContain('replaced "cli-fixture"');
    const args = ENTRY.args.map((arg) => JSON.stringify(arg)).join(", ");
    expect(read(".codex/config.toml")).toBe(
      head +
        otherServer +
        hooks +
        last +
        `\n[mcp_servers.cli-fixture]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${args}]\n\n` +
        '[mcp_servers.cli-fixture.env]\nTOKEN = "a=b"\n',
    );
  });

  it("codex: replaces an entry written as dotted keys or an inline table, at the top or under [mcp_servers]", () => {
    mkdirSync(join(home, ".codex"));
    const args = ENTRY.args.map((arg) => JSON.stringify(arg)).join(", ");
    const table = `[mcp_servers.cli-fixture]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${args}]\n`;
    const config = join(home, ".codex", "config.toml");
    const top = 'model = "o3"\nmcp_servers.other.command = "x"\n';
    const ours = 'mcp_servers.cli-fixture.command = "old"\nmcp_servers."cli-fixture".args = [\n  "a", # one\n]\n';
    const rest = '\n[profiles.fast]\nmodel = "o4-mini"\n';
    writeFileSync(config, top + ours + rest);
    expect(install("codex", FIXTURE, "--force")).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('replaced "cli-fixture"'),
    });
    expect(read(".codex/config.toml")).toBe(`${top}${rest}\n${table}`);

    const head = '[mcp_servers]\nother = { command = "x" }\n';
    const dotted = 'cli-fixture.command = \'old\'\n"cli-fixture".env = { OLD = "1", LIST = [\n  "a",\n] } # mine\n';
    const tail = '\n[mcp_servers.more]\ncommand = "y"\n';
    writeFileSync(config, head + dotted + tail);
    expect(install("codex", FIXTURE, "--force")).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('replaced "cli-fixture"'),
    });
    expect(read(".codex/config.toml")).toBe(`${head}${tail}\n${table}`);

    // TOML 1.1 lets an inline table span lines.
    for (const inline of ['{ command = "old", args = ["a"] }', '{\n  command = "old",\n  args = ["a"],\n}']) {
      writeFileSync(config, `${head}cli-fixture = ${inline}\n${tail}`);
      expect(install("codex", FIXTURE, "--force")).toMatchObject({
        code: 0,
        stdout: expect.stringContaining('replaced "cli-fixture"'),
      });
      expect(read(".codex/config.toml")).toBe(`${head}${tail}\n${table}`);
    }
  });

  it("codex: finds the entry in a file that starts with a byte order mark, and keeps the mark", () => {
    mkdirSync(join(home, ".codex"));
    const rest = '\n[mcp_servers.other]\ncommand = "x"\n';
    writeFileSync(join(home, ".codex", "config.toml"), `\uFEFF[mcp_servers.cli-fixture]\ncommand = "old"\n${rest}`);
    expect(install("codex", FIXTURE)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('already has a server named "cli-fixture"'),
    });
    expect(install("codex", FIXTURE, "--force").code).toBe(0);
    const args = ENTRY.args.map((arg) => JSON.stringify(arg)).join(", ");
    expect(read(".codex/config.toml")).toBe(
      `\uFEFF${rest.slice(1)}\n[mcp_servers.cli-fixture]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${args}]\n`,
    );
  });

  it("codex: keeps every other line of a file with CRLF line ends byte for byte, and ends its own lines so", () => {
    // Was: the comment before the next table was dropped with the entry (`#.*$` stopped at the CR),
    // and the entry's lines ended in LF among CRLF ones.
    mkdirSync(join(home, ".codex"));
    const head = 'model = "o3"\r\n\r\n';
    const rest = '# the next one\r\n[mcp_servers.other]\r\ncommand = "x"\r\n';
    writeFileSync(
      join(home, ".codex", "config.toml"),
      `${head}[mcp_servers.cli-fixture]\r\ncommand = "old"\r\n\r\n${rest}`,
    );
    expect(install("codex", FIXTURE, "--force").code).toBe(0);
    const args = ENTRY.args.map((arg) => JSON.stringify(arg)).join(", ");
    expect(read(".codex/config.toml")).toBe(
      `${head}${rest}\r\n[mcp_servers.cli-fixture]\r\ncommand = ${JSON.stringify(process.execPath)}\r\nargs = [${args}]\r\n`,
    );
  });

  it("codex: says the entry is there already when a table was added after it since, and changes nothing", () => {
    // Was: exit 2, "already has a server named "cli-fixture": pass --force", since the file it would
    // write has the entry moved to the end.
    mkdirSync(join(home, ".codex"));
    expect(install("codex", FIXTURE, "--env", "TOKEN=a=b").code).toBe(0);
    const after = `${read(".codex/config.toml")}\n[mcp_servers.other] # added by codex mcp add\ncommand = "x"\n`;
    writeFileSync(join(home, ".codex", "config.toml"), after);
    expect(install("codex", FIXTURE, "--env", "TOKEN=a=b")).toEqual({
      code: 0,
      stdout: `picomcp install: "cli-fixture" is in ${join(home, ".codex", "config.toml")} already, as this would write it: nothing changed.\n`,
      stderr: "",
    });
    expect(read(".codex/config.toml")).toBe(after);
    expect(backups(".codex")).toEqual([]);
    expect(install("codex", FIXTURE, "--env", "TOKEN=other")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('already has a server named "cli-fixture"'),
    });
  });

  it("codex: refuses, exit 2 and the file unchanged, an mcp_servers written as one inline table", () => {
    mkdirSync(join(home, ".codex"));
    const before = 'model = "o3"\nmcp_servers = { other = { command = "x" } }\n';
    writeFileSync(join(home, ".codex", "config.toml"), before);
    expect(install("codex", FIXTURE)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `picomcp install: cannot change ${join(home, ".codex", "config.toml")}: line 2 defines mcp_servers as an ` +
        "inline table, which TOML lets no [mcp_servers.<name>] table extend: write its servers as " +
        "[mcp_servers.<name>] tables, then install again.\n",
    });
    expect(read(".codex/config.toml")).toBe(before);
    expect(backups(".codex")).toEqual([]);
  });

  it("codex: refuses, exit 2 and the file unchanged (--dry-run too), a file that is not TOML, naming the line", () => {
    // Was: the entry was appended to whatever the file held, and a line read wrongly could be dropped.
    mkdirSync(join(home, ".codex"));
    const config = join(home, ".codex", "config.toml");
    for (const [before, line, what] of [
      ['model = "o3\n[mcp_servers.other]\ncommand = "x"\n', 1, "a string that does not end on its line"],
      ['model = "o3"\nthis is not toml\n', 2, "neither a [table] header, a key = value pair nor a comment"],
      ['[mcp_servers.other\ncommand = "x"\n', 1, "neither a [table] header, a key = value pair nor a comment"],
      ['a = 1\nnotes = """\n[mcp_servers.x]\n', 2, "a multi-line string, array or inline table that never closes"],
      [
        'args = ["a",\n  "b"\n\n[mcp_servers.x]\ncommand = "y"\n',
        1,
        "a multi-line string, array or inline table that never closes",
      ],
      ["a = 1 ]\n", 1, "a ] or } that closes nothing"],
    ] as const) {
      writeFileSync(config, before);
      for (const dryRun of [[], ["--dry-run"]]) {
        expect(install("codex", FIXTURE, ...dryRun)).toEqual({
          code: 2,
          stdout: "",
          stderr:
            `picomcp install: cannot change ${config}: it is not valid TOML (line ${line}: ${what}): picomcp changes ` +
            "only a file that parses, so that nothing in it is lost: correct it, then install again.\n",
        });
      }
      expect(read(".codex/config.toml")).toBe(before);
      expect(backups(".codex")).toEqual([]);
    }
  });

  it("writes paths and values with spaces, quotes, non-ASCII and control characters as strings each client reads back", async () => {
    mkdirSync(join(home, ".codex"));
    mkdirSync(join(home, ".cursor"));
    // Every one of these is a character a Linux path or an environment value may hold.
    const folder = join(home, `my "odd" dir é ' \x7f`);
    mkdirSync(folder);
    const file = join(folder, "sérvér.ts");
    writeFileSync(
      file,
      `import { pico } from ${JSON.stringify(join(ROOT, "src", "index.ts"))};\n` +
        'export default pico({ name: "odd", version: "1.0.0" })\n' +
        '  .tool("echo", { description: "Says x, for trying install.", run: () => "x" });\n',
    );
    const value = 'a "b" \\ \x7f\x01 é';
    expect(install("codex", file, "--env", `KEY=${value}`).code).toBe(0);
    const toml = read(".codex/config.toml");
    // TOML 1.0 "String": no control character but tab may appear unescaped, U+007F (delete) included.
    const raw = [...toml].filter((char) => (char < " " && char !== "\n" && char !== "\t") || char === "\x7f");
    expect(raw).toEqual([]);
    expect(toml).toContain(`"${file.replace(/"/g, '\\"').replace("\x7f", "\\u007F")}"]\n`);
    expect(toml).toContain('KEY = "a \\"b\\" \\\\ \\u007F\\u0001 é"\n');

    expect(install("cursor", file, "--env", `KEY=${value}`).code).toBe(0);
    const entry = JSON.parse(read(".cursor/mcp.json")).mcpServers.odd;
    expect(entry.args.slice(-2)).toEqual(["run", file]);
    expect(entry.env).toEqual({ KEY: value });
    expect(await serverInfo(entry, home)).toEqual({ name: "odd", version: "1.0.0" });
  });

  it("--dry-run prints the new file and changes nothing", () => {
    mkdirSync(join(home, ".cursor"));
    const { code, stdout } = install("cursor", FIXTURE, "--dry-run");
    expect(code).toBe(0);
    expect(stdout).toContain("(dry run, nothing changed). The file would read:\n\n{\n");
    expect(existsSync(join(home, ".cursor", "mcp.json"))).toBe(false);
  });

  it("exits 2 with what to do when the client's configuration is not where expected", () => {
    expect(install("cursor", FIXTURE)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`Cursor's configuration folder ${join(home, ".cursor")} does not exist.`),
    });
    expect(install("claude-code", FIXTURE)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("run `claude` once"),
    });
    expect(install("codex", FIXTURE)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`${join(home, ".codex")} does not exist. Is Codex installed for this user?`),
    });
    mkdirSync(join(home, ".cursor"));
    writeFileSync(join(home, ".cursor", "mcp.json"), "{ not json");
    expect(install("cursor", FIXTURE)).toMatchObject({ code: 2, stderr: expect.stringContaining("is not valid JSON") });
    expect(install("vim", FIXTURE)).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown client "vim"') });
  });

  it("exits 2 naming the --config path given, not the client's usual file, when it is not there", () => {
    // Was: the client's usual place and "… or pass --config <file>", to someone who had passed one.
    const missing = join(home, "nowhere", "mcp.json");
    expect(install("cursor", FIXTURE, "--config", missing)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `picomcp install: --config ${missing}: its folder ${join(home, "nowhere")} does not exist: ` +
        "create it, or give the path of a file in a folder that does.\n",
    });
    const absent = join(home, "claude.json");
    expect(install("claude-code", FIXTURE, "--config", absent)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `picomcp install: --config ${absent}: there is no such file, and Claude Code's configuration is one it ` +
        "writes itself: give the path of one it wrote.\n",
    });
  });

  it.each([
    ["claude-code", ".", ".claude.json"],
    ["codex", ".codex", ".codex/config.toml"],
    ["cursor", ".cursor", ".cursor/mcp.json"],
  ])("%s: run again as it was, says the entry is there already and changes nothing, exit 0", (id, folder, file) => {
    if (id === "claude-code") writeFileSync(join(home, file), "{}");
    else mkdirSync(join(home, folder));
    expect(install(id, FIXTURE).code).toBe(0);
    const written = read(file);
    const kept = backups(folder);
    // Was: exit 2, "already has a server named "cli-fixture" (it runs: <the same command>): pass --force".
    expect(install(id, FIXTURE)).toMatchObject({
      code: 0,
      stdout: `picomcp install: "cli-fixture" is in ${join(home, file)} already, as this would write it: nothing changed.\n`,
    });
    expect(read(file)).toBe(written);
    expect(backups(folder)).toEqual(kept);
    // Another command under the name is still the user's to replace.
    expect(install(id, FIXTURE, "--env", "TOKEN=other")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('already has a server named "cli-fixture"'),
    });
  });

  it("exits 2 saying the client comes first when given the file alone or after the client", () => {
    const clients = "claude-desktop, claude-code, codex, cursor";
    expect(install(FIXTURE)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        `^picomcp install: which client\\? Name it before the file, such as picomcp install claude-code ${FIXTURE}; the clients are ${clients}\\.\n`,
      ),
    });
    expect(install(FIXTURE, "codex")).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        `^picomcp install: the client comes first, then the file: picomcp install codex ${FIXTURE}\n`,
      ),
    });
  });

  // Was: "which client? Name it before the file, such as picomcp install claude-code claude".
  it("exits 2 naming the clients when given one word that is neither a client nor a file", () => {
    const clients = "claude-desktop, claude-code, codex, cursor";
    expect(install("claude")).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(`^picomcp install: unknown client "claude": picomcp installs into ${clients}\n`),
    });
    // A file without a server file's extension is still a file, given without its client.
    expect(install("LICENSE").stderr).toMatch(
      /^picomcp install: which client\? Name it before the file, such as picomcp install claude-code LICENSE;/,
    );
  });

  it.each([
    ["npx", [".npm", "_npx", "0a1b2c3d", "node_modules", "picomcp"]],
    ["pnpm dlx", [".cache", "pnpm", "dlx", "0a1b2c3d", "node_modules", "picomcp"]],
    ["yarn dlx", ["xfs-0a1b2c3d", "dlx-4242", "node_modules", "picomcp"]],
    ["bunx", ["bunx-1000-picomcp@latest", "node_modules", "picomcp"]],
  ])(
    "refuses, exit 2 and nothing written, from %s's cache, which it clears: the entry would one day start nothing",
    (_, where) => {
      writeFileSync(join(home, ".claude.json"), "{}");
      // picomcp as the runner runs it outside a project that has it: a copy in the runner's cache.
      const { status, stderr, bin } = installFromCopy(where);
      expect(status).toBe(2);
      expect(stderr).toContain(
        `picomcp runs from a package runner's cache (${bin}: npx, pnpm dlx, yarn dlx or bunx), which the runner may clear, and the entry would then start nothing. Install picomcp in the server's project (npm install picomcp) and run npx picomcp install there.`,
      );
      expect(read(".claude.json")).toBe("{}");
    },
  );

  it("installs from a project whose folder's name only looks like a runner's cache (dlx-tools)", () => {
    writeFileSync(join(home, ".claude.json"), "{}");
    const { status, bin } = installFromCopy(["dlx-tools", "node_modules", "picomcp"]);
    expect(status).toBe(0);
    expect(JSON.parse(read(".claude.json")).mcpServers["cli-fixture"].args).toContain(bin);
  });

  it("refuses, exit 2, a name the client's own `mcp add` refuses, and names one it takes", () => {
    writeFileSync(join(home, ".claude.json"), "{}");
    mkdirSync(join(home, ".codex"));
    mkdirSync(join(home, ".cursor"));
    expect(install("claude-code", FIXTURE, "--name", "my weather.v2")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'picomcp install: "my weather.v2" is not a name Claude Code accepts (letters, digits, - and _ only, as its own `mcp add` checks): pass --name my-weather-v2',
      ),
    });
    expect(read(".claude.json")).toBe("{}");
    expect(install("codex", FIXTURE, "--name", "my weather")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("pass --name my-weather"),
    });
    expect(existsSync(join(home, ".codex", "config.toml"))).toBe(false);
    expect(install("codex", FIXTURE, "--name", "@acme/weather.v2").code).toBe(0);
    expect(read(".codex/config.toml")).toContain('[mcp_servers."@acme/weather.v2"]');
    for (const blank of ["", " "]) {
      expect(install("cursor", FIXTURE, "--name", blank)).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(
          /^picomcp install: --name needs a name: letters, digits, - and _ work in every client\n\nUsage: /,
        ),
      });
    }
    expect(existsSync(join(home, ".cursor", "mcp.json"))).toBe(false);
    expect(install("cursor", FIXTURE, "--name", "my weather").code).toBe(0);
    expect(Object.keys(JSON.parse(read(".cursor/mcp.json")).mcpServers)).toEqual(["my weather"]);
  });

  it("writes a command that serves the server over stdio from any folder, its loader included", async () => {
    mkdirSync(join(home, ".cursor"));
    expect(install("cursor", FIXTURE).code).toBe(0);
    const entry = JSON.parse(read(".cursor/mcp.json")).mcpServers["cli-fixture"];
    expect(await serverInfo(entry, home)).toEqual({ name: "cli-fixture", version: "1.2.3" });
    expect(entry.args).toEqual(ENTRY.args);
  });

  it("writes the modules Node preloads, in either form, as the files they are from where install ran", async () => {
    mkdirSync(join(home, ".cursor"));
    writeFileSync(join(home, "preload.cjs"), "");
    const cwd = join(ROOT, "test");
    const preload = relative(cwd, join(home, "preload.cjs"));
    const ran = picomcpUnder(["--import=tsx", "-r", preload], ["install", "cursor", join(ROOT, FIXTURE)], {
      cwd,
      env: { HOME: home },
    });
    expect(ran).toMatchObject({ code: 0, stderr: "" });
    const entry = JSON.parse(read(".cursor/mcp.json")).mcpServers["cli-fixture"];
    expect(entry.args).toEqual([
      `--import=${TSX}`,
      "-r",
      join(realpathSync(home), "preload.cjs"),
      BIN,
      "run",
      join(ROOT, FIXTURE),
    ]);
    expect(await serverInfo(entry, tmpdir())).toEqual({ name: "cli-fixture", version: "1.2.3" });
  });

  it("exits 2 when a preloaded module cannot be found for the client, as one only import finds", () => {
    mkdirSync(join(home, ".cursor"));
    const pkg = join(home, "node_modules", "esm-only");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "esm-only", exports: { import: "./hook.mjs" } }));
    writeFileSync(join(pkg, "hook.mjs"), "");
    const ran = picomcpUnder(["--import", TSX, "--import", "esm-only"], ["install", "cursor", join(ROOT, FIXTURE)], {
      cwd: home,
      env: { HOME: home },
    });
    expect(ran).toMatchObject({ code: 2, stdout: "" });
    expect(ran.stderr).toMatch(
      new RegExp(
        `^picomcp install: cannot find --import esm-only from ${home} \\(.+\\): give it as an absolute path, which the client can load from any folder\n$`,
      ),
    );
    expect(existsSync(join(home, ".cursor", "mcp.json"))).toBe(false);
  });

  it("names a server that asks for sign-in after its file, says why and who its caller is over stdio", async () => {
    mkdirSync(join(home, ".cursor"));
    const file = join(home, "weather-auth.ts");
    writeFileSync(
      file,
      `import { pico } from ${JSON.stringify(join(ROOT, "src", "index.ts"))};\n` +
        'export default pico({ name: "weather", version: "1.0.0", auth: { resource: "https://weather.example.com/mcp", ' +
        'authorizationServers: ["https://auth.example.com"], verify: () => undefined } })\n' +
        '  .tool("forecast", { description: "The forecast for tomorrow, for trying install.", run: () => "sun" });\n',
    );
    const stdio =
      "over stdio no token reaches it: the caller is who its auth.stdio finds in the environment (--env KEY=value), " +
      "else anonymous and refused what needs sign-in.\n";
    expect(install("cursor", file)).toMatchObject({
      code: 0,
      stderr:
        'picomcp install: the server asks for sign-in, so the entry is named "weather-auth" after its file ' +
        `(--name chooses another); ${stdio}`,
    });
    const entry = JSON.parse(read(".cursor/mcp.json")).mcpServers["weather-auth"];
    expect(await serverInfo(entry, home)).toEqual({ name: "weather", version: "1.0.0" });
    expect(install("cursor", file, "--name", "weather")).toMatchObject({
      code: 0,
      stderr: `picomcp install: the server asks for sign-in; ${stdio}`,
    });
    expect(Object.keys(JSON.parse(read(".cursor/mcp.json")).mcpServers)).toEqual(["weather-auth", "weather"]);
  });
});

/** Starts an installed entry from `cwd`, as a client does, and returns its initialize answer's serverInfo. */
async function serverInfo(entry: { command: string; args: string[] }, cwd: string): Promise<unknown> {
  const child = spawn(entry.command, entry.args, { cwd, stdio: ["pipe", "pipe", "inherit"] });
  const initialize = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: initialize })}\n`);
  const line = await new Promise<string>((done, fail) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      if (text.includes("\n")) done(text.slice(0, text.indexOf("\n")));
    });
    child.once("exit", (code) => fail(new Error(`exited with ${code} before answering`)));
  });
  child.stdin.end();
  await new Promise((done) => child.once("exit", done));
  return JSON.parse(line).result.serverInfo;
}
