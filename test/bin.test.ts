/** `picomcp check <module>`: the plan linter from the command line, run as a child process. */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url));
const root = fileURLToPath(new URL("..", import.meta.url));

function check(...args: string[]) {
  const child = spawnSync(process.execPath, ["--import", "tsx", bin, ...args], { cwd: root, encoding: "utf8" });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe("picomcp check", () => {
  it("prints the checklist and the findings of a module's default export, and exits 0 without errors", () => {
    const { code, stdout } = check("check", "test/fixtures/plan-server.ts");
    expect(code).toBe(0);
    expect(stdout).toContain("## list_notes\n\n- **Name**: list_notes\n- **Title**: List notes");
    expect(stdout).toContain("## Findings\n\nNone.\n\n1 tool, 0 errors, 0 warnings\n");
  });

  it("exits 1 when a named export has errors, and prints them as JSON on request", () => {
    const { code, stdout } = check("check", "test/fixtures/plan-server.ts", "broken", "--json");
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

  it("exits 2 with a reason when there is nothing to check", () => {
    expect(check("check", "test/fixtures/plan-server.ts", "missing")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('exports no server named "missing"'),
    });
    expect(check("check", "test/fixtures/none.ts")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("cannot import"),
    });
    expect(check("lint")).toMatchObject({ code: 2, stderr: expect.stringContaining("usage: picomcp check") });
  });
});
