/**
 * No import cycle in src/ (issue 14), counting static, dynamic and type-only imports: a module that
 * needs a type from another depends on it as much as one that calls it, and a dynamic import is still
 * an edge of the module graph (a one-file bundle inlines it).
 *
 * dependency-cruiser reads the imports (with `tsPreCompilationDeps`, so that type-only imports
 * count) and says which module reaches which. The test fails on any dependency that closes a cycle,
 * printing the cycle it closes as a chain of files.
 */
import { fileURLToPath } from "node:url";
import { cruise } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

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

  it("src/ has none", async () => {
    const found = await cycles("src");
    expect([...found].map(([edge, chain]) => `${edge} (${chain})`)).toEqual([]);
  });
});
