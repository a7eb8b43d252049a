/**
 * `picomcp check <module>`: the plan linter from the command line, run as a child process; and what
 * `picomcp` itself answers (--help, --version, an unknown verb).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { picomcp, ROOT } from "./helpers.js";

const check = (...args: string[]) => picomcp(["check", ...args]);

describe("picomcp check", () => {
  it("prints the checklist and the findings of a module's default export, and exits 0 without errors", () => {
    const { code, stdout } = check("test/fixtures/plan-server.ts");
    expect(code).toBe(0);
    expect(stdout).toContain("## list_notes\n\n- **Name**: list_notes\n- **Title**: List notes");
    expect(stdout).toContain("## Findings\n\nNone.\n\n1 tool, 0 errors, 0 warnings\n");
  });

  it("exits 1 when a named export has errors, and prints them as JSON on request", () => {
    const { code, stdout } = check("test/fixtures/plan-server.ts", "broken", "--json");
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual([
      {
        rule: "readonly-but-writes",
        severity: "error",
        tool: "delete_note",
        message: 'marked read-only but its name starts with the write verb "delete"',
      },
    ]);
  });

  it("exits 1 on x-mcp-header annotations for which clients drop a tool, naming the tool, the field and the rule", () => {
    const { code, stdout } = check("test/fixtures/header-plan-server.ts");
    expect(code).toBe(1);
    expect(stdout).toContain(
      'error   name_twice: input field "to" has x-mcp-header "REGION", and input field "from" has "Region": header names ignore case',
    );
    expect(stdout).toMatch(/\nerror {3}type_number: input field "ratio" .+ \[x-mcp-header-type\]\n/);
  });

  it("exits 2 with a reason when there is nothing to check", () => {
    expect(check("test/fixtures/plan-server.ts", "missing")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('exports no server named "missing"'),
    });
    expect(check("test/fixtures/none.ts")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("there is no file test/fixtures/none.ts"),
    });
    expect(check()).toMatchObject({ code: 2, stderr: expect.stringContaining("Usage: picomcp check") });
  });

  it.each(["check", "list", "run"])("%s: a server that does not start is exit 2 and one line, not a stack", (verb) => {
    expect(picomcp([verb, "test/fixtures/cli-bad-auth.ts"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `picomcp ${verb}: test/fixtures/cli-bad-auth.ts does not start: auth.resource must be an absolute URL ` +
        'such as "https://mcp.example.com/mcp"; got "not a url".\n',
    });
  });
});

describe("picomcp", () => {
  it("lists the verbs and the exit codes with --help, and exits 2 naming the verbs on an unknown one", () => {
    const help = picomcp(["--help"]);
    expect(help.code).toBe(0);
    for (const verb of ["dev", "list", "call", "install", "run", "check"])
      expect(help.stdout).toContain(`\n  ${verb} `);
    expect(help.stdout).toContain("Exit codes:\n  0  done\n  1  it ran and failed");
    // Its headline names no verb picomcp lacks: `picomcp inspect` is an unknown verb.
    expect(help.stdout.split("\n")[0]).toBe(
      "picomcp: serve, list, call, check and install an MCP server written with picomcp",
    );
    const unknown = picomcp(["lint"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown verb "lint". The verbs are dev, list, call, install, run, check.');
  });

  it("exits 2 saying a verb comes first when given a server file alone", () => {
    // Was: 'unknown verb "test/fixtures/cli-server.ts"'.
    expect(picomcp(["test/fixtures/cli-server.ts"])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /^picomcp: test\/fixtures\/cli-server\.ts is a file: give a verb before it, such as picomcp dev test\/fixtures\/cli-server\.ts\. The verbs are dev, list, call, install, run, check\.\n/,
      ),
    });
  });

  it("prints its version with --version or -v, as package.json has it, and says so in --help", () => {
    const { version }: { version: string } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    for (const flag of ["--version", "-v"]) expect(picomcp([flag])).toMatchObject({ code: 0, stdout: `${version}\n` });
    expect(picomcp(["--help"]).stdout).toContain("picomcp --version prints picomcp's version");
  });

  it.each(["dev", "list", "call", "install", "run", "check"])("%s --help prints its usage and exit codes", (verb) => {
    const { code, stdout } = picomcp([verb, "--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^Usage: picomcp ${verb} `));
    expect(stdout).toContain("Exit codes: 0 ");
  });

  it("exits 2 on an unknown option, naming it, with the verb's usage", () => {
    const { code, stderr } = picomcp(["list", "test/fixtures/cli-server.ts", "--jsno"]);
    expect(code).toBe(2);
    expect(stderr).toContain("picomcp list: unknown option --jsno\n\nUsage: picomcp list");
  });
});
