/**
 * `picomcp install` and the configuration file it changes: replaced whole or not at all (a write
 * that fails half-way leaves the file as it was), its mode kept, through a symbolic link to the
 * file it names, and refused, unchanged, when it is read-only, not a file, or already has an entry
 * of the name (unless --force); every refusal says what is wrong and what to do.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN, FIXTURE, picomcp, ROOT } from "./helpers.js";

let home: string;
const ENV = () => ({ HOME: home, XDG_CONFIG_HOME: "", CODEX_HOME: "", APPDATA: "" });
const install = (...args: string[]) => picomcp(["install", ...args], { env: ENV() });
const cursor = () => join(home, ".cursor", "mcp.json");
/** Every file in the folder, so that a stray backup or temporary file shows. */
const files = (folder: string) => readdirSync(join(home, folder)).sort();

/** A configuration of someone's: another server, and a key picomcp knows nothing of. */
const THEIRS = `{\n  "mcpServers": {\n    "other": { "command": "x" }\n  },\n  "note": "${"n".repeat(700)}"\n}\n`;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "picomcp-home-"));
  mkdirSync(join(home, ".cursor"));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("picomcp install and the file it changes", () => {
  it("leaves the file as it was when the write fails half-way (here: the file size limit)", () => {
    writeFileSync(cursor(), THEIRS);
    // bash's ulimit -f counts 1024-byte blocks: the file (800 bytes) and its backup fit, the new file does not.
    const ran = spawnSync(
      "bash",
      [
        "-c",
        'ulimit -f 1 && exec "$@"',
        "bash",
        process.execPath,
        "--import",
        "tsx",
        BIN,
        "install",
        "cursor",
        FIXTURE,
      ],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, ...ENV() }, input: "", timeout: 30_000 },
    );
    expect(ran.status).toBe(2);
    expect(ran.stderr).toMatch(
      new RegExp(`^picomcp install: cannot write ${cursor()} \\(EFBIG: .*\\): it is left as it was\\.\n$`),
    );
    expect(readFileSync(cursor(), "utf8")).toBe(THEIRS);
    expect(files(".cursor")).toEqual(["mcp.json"]);
  });

  it("keeps the file's mode, and writes a new one for its owner only (the entry may hold --env secrets)", () => {
    writeFileSync(cursor(), THEIRS);
    chmodSync(cursor(), 0o640);
    expect(install("cursor", FIXTURE).code).toBe(0);
    expect(statSync(cursor()).mode & 0o777).toBe(0o640);
    expect(Object.keys(JSON.parse(readFileSync(cursor(), "utf8")).mcpServers)).toEqual(["other", "cli-fixture"]);

    mkdirSync(join(home, ".config", "Claude"), { recursive: true });
    expect(install("claude-desktop", FIXTURE, "--env", "TOKEN=secret").code).toBe(0);
    expect(statSync(join(home, ".config", "Claude", "claude_desktop_config.json")).mode & 0o777).toBe(0o600);
  });

  it("changes the file a symbolic link names and keeps the link (a configuration kept in a dotfiles folder)", () => {
    mkdirSync(join(home, "dotfiles"));
    writeFileSync(join(home, "dotfiles", "cursor-mcp.json"), THEIRS);
    symlinkSync(join(home, "dotfiles", "cursor-mcp.json"), cursor());
    expect(install("cursor", FIXTURE).code).toBe(0);
    expect(lstatSync(cursor()).isSymbolicLink()).toBe(true);
    expect(readlinkSync(cursor())).toBe(join(home, "dotfiles", "cursor-mcp.json"));
    const config = JSON.parse(readFileSync(join(home, "dotfiles", "cursor-mcp.json"), "utf8"));
    expect(Object.keys(config.mcpServers)).toEqual(["other", "cli-fixture"]);
    expect(files("dotfiles")).toEqual(["cursor-mcp.json"]);
  });

  it("refuses, exit 2 and the file unchanged, a file made read-only", () => {
    writeFileSync(cursor(), THEIRS);
    chmodSync(cursor(), 0o444);
    expect(install("cursor", FIXTURE)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `picomcp install: ${cursor()} is read-only, so picomcp leaves it as it is: make it writable ` +
        `(chmod u+w ${cursor()}) and install again, or add the entry yourself (--dry-run prints the file it would write).\n`,
    });
    expect(readFileSync(cursor(), "utf8")).toBe(THEIRS);
    expect(files(".cursor")).toEqual(["mcp.json"]);
  });

  it("refuses, exit 2, a configuration that is a folder or a link to nothing", () => {
    mkdirSync(cursor());
    expect(install("cursor", FIXTURE)).toMatchObject({
      code: 2,
      stderr: `picomcp install: ${cursor()} is not a file: pass --config <file> to name the file to change.\n`,
    });
    rmSync(cursor(), { recursive: true });
    symlinkSync(join(home, "gone.json"), cursor());
    expect(install("cursor", FIXTURE)).toMatchObject({
      code: 2,
      stderr:
        `picomcp install: ${cursor()} is a symbolic link to ${join(home, "gone.json")}, which does not exist: ` +
        "create that file (it may be empty), or remove the link.\n",
    });
    expect(readlinkSync(cursor())).toBe(join(home, "gone.json"));
  });

  it("keeps the file's indentation, so that the change is the entry alone in a diff of the user's dotfiles", () => {
    for (const indent of ["    ", "\t"]) {
      const before = `{\n${indent}"mcpServers": {\n${indent}${indent}"other": {\n${indent}${indent}${indent}"command": "x"\n${indent}${indent}}\n${indent}}\n}\n`;
      writeFileSync(cursor(), before);
      expect(install("cursor", FIXTURE, "--force").code).toBe(0);
      const after = readFileSync(cursor(), "utf8");
      expect(after).toBe(`${JSON.stringify(JSON.parse(after), null, indent)}\n`);
      expect(after.startsWith(before.slice(0, before.indexOf("}\n")))).toBe(true);
    }
  });

  it("keeps a byte order mark and CRLF line ends, as a Windows editor writes the file", () => {
    // Was: the mark made the file "not valid JSON (Unexpected token '\uFEFF' …)", a character no
    // editor shows; and CRLF lines were rewritten as LF, every line of the file changed in a diff.
    for (const [bom, eol] of [
      ["\uFEFF", "\n"],
      ["", "\r\n"],
      ["\uFEFF", "\r\n"],
    ] as const) {
      const theirs = THEIRS.replaceAll("\n", eol);
      writeFileSync(cursor(), `${bom}${theirs}`);
      expect(install("cursor", FIXTURE, "--force")).toMatchObject({ code: 0, stderr: "" });
      const after = readFileSync(cursor(), "utf8");
      expect(after.startsWith(`${bom}${theirs.slice(0, theirs.indexOf(`"other"`))}`)).toBe(true);
      const body = after.slice(bom.length);
      expect(body.split(eol).filter((line) => /[\r\n]/.test(line))).toEqual([]);
      expect(Object.keys(JSON.parse(body).mcpServers)).toEqual(["other", "cli-fixture"]);
    }
  });

  it("refuses, exit 2 and the file unchanged, JSON that does not parse (comments, say), and says to correct it", () => {
    const before = '{\n  // mine\n  "mcpServers": {}\n}\n';
    writeFileSync(cursor(), before);
    expect(install("cursor", FIXTURE)).toMatchObject({
      code: 2,
      stdout: "",
      stderr: expect.stringMatching(
        new RegExp(
          `^picomcp install: cannot change ${cursor()}: it is not valid JSON \\(.+\\): picomcp changes only a file ` +
            "that parses, so that nothing in it is lost: correct it \\(JSON has no comments\\), then install again\\.\n$",
        ),
      ),
    });
    expect(readFileSync(cursor(), "utf8")).toBe(before);
    expect(files(".cursor")).toEqual(["mcp.json"]);
  });

  it("refuses, exit 2 and the file unchanged, an object that defines a key twice (a snippet pasted whole)", () => {
    // Was: rewritten with the last one alone, as JSON.parse reads it: the servers of the first were gone.
    const before = `{\n  "mcpServers": { "mine": { "command": "a" } },\n  "other": [{ "x": 1 }, { "x": 2 }],\n  "mcpServers": { "pasted": { "command": "b" } }\n}\n`;
    writeFileSync(cursor(), before);
    for (const dryRun of [[], ["--dry-run"]]) {
      expect(install("cursor", FIXTURE, ...dryRun)).toEqual({
        code: 2,
        stdout: "",
        stderr:
          `picomcp install: cannot change ${cursor()}: line 4 defines "mcpServers" again in the same object, ` +
          "where a client reads the last one alone and a rewrite would drop the first: merge the two, then install again.\n",
      });
    }
    expect(readFileSync(cursor(), "utf8")).toBe(before);
    expect(files(".cursor")).toEqual(["mcp.json"]);
  });

  it("refuses, exit 2 and the file unchanged, JSON of another shape, saying what is where and what belongs there", () => {
    // Was: "it is not a JSON object." and "its mcpServers is not an object.", with nothing to do.
    for (const [before, said] of [
      ["[]\n", 'it is an array where a JSON object ({ "mcpServers": { … } }) belongs'],
      ['"x"\n', 'it is a string where a JSON object ({ "mcpServers": { … } }) belongs'],
      [
        '{ "mcpServers": [] }\n',
        'its mcpServers is an array where an object of servers by name ({ "name": { "command": … } }) belongs',
      ],
      [
        '{ "mcpServers": 1 }\n',
        'its mcpServers is a number where an object of servers by name ({ "name": { "command": … } }) belongs',
      ],
    ] as const) {
      writeFileSync(cursor(), before);
      expect(install("cursor", FIXTURE)).toEqual({
        code: 2,
        stdout: "",
        stderr: `picomcp install: cannot change ${cursor()}: ${said}: correct it, then install again.\n`,
      });
      expect(readFileSync(cursor(), "utf8")).toBe(before);
    }
    expect(files(".cursor")).toEqual(["mcp.json"]);
  });

  it("refuses, exit 2 and the file unchanged, a file that is not UTF-8 (Latin-1, UTF-16 from PowerShell)", () => {
    // Was: read with each such byte as U+FFFD, and written back so: a Latin-1 "é" in a TOML comment
    // became three other bytes; UTF-16 was "not valid JSON (Unexpected token '�' …)".
    mkdirSync(join(home, ".codex"));
    const toml = join(home, ".codex", "config.toml");
    const latin1 = Buffer.from('# caf\xe9\nmodel = "o3"\n', "latin1");
    const utf16 = Buffer.from("\uFEFF{}\n", "utf16le");
    for (const [path, before] of [
      [toml, latin1],
      [cursor(), utf16],
    ] as const) {
      writeFileSync(path, before);
      expect(install(path === toml ? "codex" : "cursor", FIXTURE)).toEqual({
        code: 2,
        stdout: "",
        stderr:
          `picomcp install: ${path} is not UTF-8 text, which a client reads its configuration as: save it as ` +
          "UTF-8 in your editor, then install again.\n",
      });
      expect(readFileSync(path)).toEqual(before);
    }
    expect(files(".codex")).toEqual(["config.toml"]);
  });

  it("says the entry is there already in a file formatted otherwise (one line, keys in another order), and changes nothing", () => {
    // Was: exit 2, "already has a server named "cli-fixture" (it runs: <the same command>): pass
    // --force", which then rewrote the whole file in picomcp's own format.
    expect(install("cursor", FIXTURE).code).toBe(0);
    const { command, args, env } = JSON.parse(readFileSync(cursor(), "utf8")).mcpServers["cli-fixture"];
    const before = JSON.stringify({ mcpServers: { "cli-fixture": { env, args, command }, other: { command: "x" } } });
    writeFileSync(cursor(), before);
    expect(install("cursor", FIXTURE)).toEqual({
      code: 0,
      stdout: `picomcp install: "cli-fixture" is in ${cursor()} already, as this would write it: nothing changed.\n`,
      stderr: "",
    });
    expect(readFileSync(cursor(), "utf8")).toBe(before);
    expect(files(".cursor").filter((name) => name.endsWith(".bak"))).toHaveLength(0);
  });

  it("refuses, exit 2 and the file unchanged, a number JavaScript would write back as another", () => {
    writeFileSync(cursor(), "{}");
    expect(install("cursor", FIXTURE).code).toBe(0);
    const entry = JSON.parse(readFileSync(cursor(), "utf8")).mcpServers["cli-fixture"];
    for (const number of ["9007199254740993", "1e400"]) {
      const before = `{ "mcpServers": {}, "accountId": ${number} }\n`;
      writeFileSync(cursor(), before);
      expect(install("cursor", FIXTURE)).toEqual({
        code: 2,
        stdout: "",
        stderr:
          `picomcp install: cannot change ${cursor()}: it holds the number ${number}, which picomcp, reading it as ` +
          `JavaScript does, would write back as another: add "cli-fixture": ${JSON.stringify(entry)} to its mcpServers yourself.\n`,
      });
      expect(readFileSync(cursor(), "utf8")).toBe(before);
    }
  });

  it("refuses, exit 2 and the file unchanged, to replace an entry of the same name without --force", () => {
    const before = JSON.stringify({ mcpServers: { "cli-fixture": { command: "uvx", args: ["their-server"] } } });
    writeFileSync(cursor(), before);
    const refused = install("cursor", FIXTURE);
    expect(refused).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `picomcp install: ${cursor()} already has a server named "cli-fixture" (it runs: uvx their-server): ` +
        "pass --force to replace it (the file is backed up first), or --name <name> to add this one beside it.\n",
    });
    expect(readFileSync(cursor(), "utf8")).toBe(before);
    expect(files(".cursor")).toEqual(["mcp.json"]);

    mkdirSync(join(home, ".codex"));
    const toml = '[mcp_servers.cli-fixture]\ncommand = "uvx"\n';
    writeFileSync(join(home, ".codex", "config.toml"), toml);
    expect(install("codex", FIXTURE)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        `${join(home, ".codex", "config.toml")} already has a server named "cli-fixture": pass --force`,
      ),
    });
    expect(readFileSync(join(home, ".codex", "config.toml"), "utf8")).toBe(toml);

    const forced = install("cursor", FIXTURE, "--force");
    expect(forced).toMatchObject({ code: 0, stdout: expect.stringContaining('replaced "cli-fixture"') });
    expect(JSON.parse(readFileSync(cursor(), "utf8")).mcpServers["cli-fixture"].args).toContain("run");
    expect(files(".cursor")).toHaveLength(2);
  });
});
