/**
 * `npm pack` (and so `npm publish`) from a checkout that has not been built: the package is built
 * first (package.json's `prepack`), so the tarball has dist/, the code every entry point and the
 * `picomcp` bin name. Was: no `prepack`, so a fresh checkout packed docs/, examples/ and
 * package.json alone, and `import "picomcp"` and `npx picomcp` failed in the project that installed
 * it. The checkout is a copy of the package's sources in a temporary folder, with no dist/.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

const SOURCES = [
  "package.json",
  "tsconfig.json",
  "tsdown.config.ts",
  "README.md",
  "LICENSE",
  "src",
  "docs",
  "examples",
];
const folder = mkdtempSync(join(tmpdir(), "picomcp-pack-build-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

it("builds dist/ before packing a checkout that has none", () => {
  const checkout = join(folder, "checkout");
  for (const source of SOURCES) cpSync(join(ROOT, source), join(checkout, source), { recursive: true });
  // The build's tools (tsdown) are the repository's.
  symlinkSync(join(ROOT, "node_modules"), join(checkout, "node_modules"));
  const run = (command: string, args: string[]) =>
    execFileSync(command, args, {
      cwd: checkout,
      encoding: "utf8",
      timeout: 120_000,
      stdio: ["ignore", "pipe", "pipe"],
    });
  run("npm", ["pack", "--pack-destination", folder]);
  const files = run("tar", ["-tzf", join(folder, "picomcp-0.1.0.tgz")]).split("\n");
  expect(files).toEqual(
    expect.arrayContaining([
      "package/dist/index.js",
      "package/dist/index.d.ts",
      "package/dist/bin.js",
      "package/dist/jwt.js",
      "package/dist/introspection.js",
      "package/dist/redis.js",
      "package/dist/testing.js",
    ]),
  );
}, 180_000);
