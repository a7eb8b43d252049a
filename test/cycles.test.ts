/**
 * No import cycle in src/ (issue 14), counting static, dynamic and type-only imports: a module that
 * needs a type from another depends on it as much as one that calls it, and a dynamic import is still
 * an edge of the module graph (a one-file bundle inlines it).
 *
 * dependency-cruiser reads the imports (with `tsPreCompilationDeps`, so that type-only imports
 * count) and says which module reaches which. Until the layer redesign of issue 14 removes them all,
 * the dependencies that still close a cycle are listed in cycles-baseline.txt, one `from -> to` a
 * line, each naming issue 14: the test fails on a dependency in a cycle that the list does not name (printing the
 * cycle as a chain of files) and on a listed one that no longer closes a cycle (stale), so the list
 * only shrinks. A dependency, not a whole cycle, is the unit because removing one import never puts
 * another one into a cycle, while the cycle printed for a dependency may change.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { cruise } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BASELINE = fileURLToPath(new URL("cycles-baseline.txt", import.meta.url));

/**
 * Every dependency under `dir` that closes a cycle, as `from -> to`, with the cycle it closes as a
 * chain of files. dependency-cruiser's `reachable` rule gives, for each module, every module it
 * reaches and by which path; `from -> to` closes a cycle when `to` reaches `from` back. (Its
 * `no-circular` rule would be the obvious choice, but it looks for one cycle per dependency and, in a
 * tangle like today's, passes over dependencies that are in one.)
 */
async function cycles(dir: string): Promise<Map<string, string>> {
  const within = `^${dir}/`;
  const { output } = await cruise([dir], {
    baseDir: ROOT,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    validate: true,
    ruleSet: {
      forbidden: [{ name: "reaches", severity: "info", from: { path: within }, to: { path: within, reachable: true } }],
    },
  });
  if (typeof output === "string") throw new Error("dependency-cruiser answered text, not a cruise result");
  const back = new Map<string, string[]>();
  for (const violation of output.summary.violations) {
    back.set(
      `${violation.from} -> ${violation.to}`,
      (violation.via ?? []).map((step) => step.name),
    );
  }
  const found = new Map<string, string>();
  for (const module of output.modules) {
    for (const { resolved } of module.dependencies) {
      const returns = resolved === module.source ? [] : back.get(`${resolved} -> ${module.source}`);
      if (returns) found.set(`${module.source} -> ${resolved}`, [module.source, resolved, ...returns].join(" -> "));
    }
  }
  return found;
}

/** The baseline's `from -> to` lines, and the lines that do not name issue 14. */
async function readBaseline(): Promise<{ entries: Set<string>; unexplained: string[] }> {
  const entries = new Set<string>();
  const unexplained: string[] = [];
  for (const line of (await readFile(BASELINE, "utf8")).split("\n")) {
    const [dependency = "", note] = line.split("#", 2);
    if (dependency.trim() === "") continue;
    entries.add(dependency.trim());
    if (!note?.includes("issue 14")) unexplained.push(line);
  }
  return { entries, unexplained };
}

describe("import cycles", () => {
  it("counts type-only and dynamic imports (test/fixtures/cycle)", async () => {
    const found = await cycles("test/fixtures/cycle");
    expect([...found.keys()].sort()).toEqual([
      "test/fixtures/cycle/a.ts -> test/fixtures/cycle/b.ts",
      "test/fixtures/cycle/b.ts -> test/fixtures/cycle/c.ts",
      "test/fixtures/cycle/c.ts -> test/fixtures/cycle/a.ts",
    ]);
    expect(found.get("test/fixtures/cycle/a.ts -> test/fixtures/cycle/b.ts")).toBe(
      "test/fixtures/cycle/a.ts -> test/fixtures/cycle/b.ts -> test/fixtures/cycle/c.ts -> test/fixtures/cycle/a.ts",
    );
  });

  it("src/ has no cycle but those listed in cycles-baseline.txt, and the list has no stale line", async () => {
    const found = await cycles("src");
    const { entries, unexplained } = await readBaseline();
    const problems = [
      ...unexplained.map((line) => `unexplained: "${line}" must name issue 14`),
      ...[...found].filter(([edge]) => !entries.has(edge)).map(([edge, chain]) => `new: ${edge} (${chain})`),
      ...[...entries]
        .filter((edge) => !found.has(edge))
        .map((edge) => `stale: ${edge} closes no cycle now; remove its line`),
    ];
    console.log(`import cycles: ${found.size} dependencies of src/ close a cycle (${entries.size} listed)`);
    expect(problems, "import cycles in src/ against test/cycles-baseline.txt").toEqual([]);
  });
});
