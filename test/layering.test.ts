/**
 * The core imports nothing above it (issue 14): no file of src/core/ depends on a file outside it,
 * counting static, dynamic and type-only imports, and none imports a package. Layers depend on the
 * core, never the core on them; what the core hands to a layer it reaches through `Layer` (core/
 * layers.ts), which the server wires from above.
 */
import { fileURLToPath } from "node:url";
import { cruise } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Every dependency of a module under `dir` on something outside `dir`, as `from -> to`. */
async function outward(dir: string): Promise<string[]> {
  const { output } = await cruise([dir], {
    baseDir: ROOT,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  });
  if (typeof output === "string") throw new Error("dependency-cruiser answered text, not a cruise result");
  const found: string[] = [];
  for (const module of output.modules) {
    if (!module.source.startsWith(`${dir}/`)) continue;
    for (const { resolved } of module.dependencies) {
      if (!resolved.startsWith(`${dir}/`)) found.push(`${module.source} -> ${resolved}`);
    }
  }
  return found.sort();
}

describe("layering", () => {
  it("counts type-only and dynamic imports that leave the folder, not those within it (test/fixtures/layering)", async () => {
    expect(await outward("test/fixtures/layering/inner")).toEqual([
      "test/fixtures/layering/inner/later.ts -> test/fixtures/layering/outer.ts",
      "test/fixtures/layering/inner/typed.ts -> test/fixtures/layering/outer.ts",
    ]);
  });

  it("src/core imports only src/core", async () => {
    expect(await outward("src/core")).toEqual([]);
  });
});
