/**
 * The written public export list (DESIGN §3; style.md: h3's export-list snapshot, hono's
 * build/validate-exports.ts). Every name here is a promise to users: adding or removing one is a
 * deliberate change to this list, in the same commit as the change to the entry.
 *
 * The package.json checks read dist/. `npm test` runs `npm run build` before vitest; when running
 * this file on its own, run `npm run build` first.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** Each public subpath of package.json: the source entry it is built from, and its runtime exports, sorted. */
const PUBLIC: Record<string, { source: string; exports: string[] }> = {
  ".": {
    source: "../src/index.ts",
    exports: [
      "AuthorizationServerUnavailable",
      "ErrorCode",
      "InvalidTokenError",
      "McpError",
      "Secret",
      "Server",
      "assistant",
      "audio",
      "embed",
      "image",
      "link",
      "pico",
      "secret",
      "text",
      "user",
    ],
  },
  "./jwt": { source: "../src/jwt.ts", exports: ["jwtVerifier"] },
  "./introspection": { source: "../src/introspection.ts", exports: ["introspectionVerifier"] },
  "./redis": { source: "../src/redis.ts", exports: ["redisState"] },
  "./testing": {
    source: "../src/testing.ts",
    exports: ["ContractError", "contract", "harness", "lint", "testIssuer"],
  },
};

/**
 * Subpaths package.json already maps but the build does not produce yet, each with its reason.
 * This list only shrinks: once a subpath's files are built, the test below fails until the entry
 * moves from here to PUBLIC with its export list.
 */
const NOT_BUILT_YET: Record<string, string> = {};

const root = new URL("../", import.meta.url);
const pkg = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as { exports: Record<string, unknown> };

/** Every [subpath, conditions, target] leaf of the exports map. */
function targets(): [subpath: string, conditions: string, target: string][] {
  const leaves: [string, string, string][] = [];
  const walk = (subpath: string, conditions: string[], value: unknown) => {
    if (typeof value === "string") leaves.push([subpath, conditions.join("."), value]);
    else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) walk(subpath, [...conditions, key], inner);
    } else
      throw new TypeError(`package.json exports["${subpath}"] has a ${value === null ? "null" : typeof value} target`);
  };
  for (const [subpath, value] of Object.entries(pkg.exports)) walk(subpath, [], value);
  return leaves;
}

const sorted = (module: object) => Object.keys(module).sort();

describe("public exports", () => {
  it.each(Object.entries(PUBLIC))("%s: the source entry exports exactly the written list", async (_, entry) => {
    expect(sorted(await import(new URL(entry.source, import.meta.url).href))).toEqual(entry.exports);
  });

  it("package.json exports: no wildcards, types first, only written or pending subpaths", () => {
    for (const [subpath, conditions, target] of targets()) {
      expect(`${subpath} ${target}`, `wildcard in exports["${subpath}"].${conditions}`).not.toContain("*");
    }
    for (const [subpath, value] of Object.entries(pkg.exports)) {
      // TypeScript takes the first matching condition, so "types" must precede "import".
      if (value && typeof value === "object" && "types" in value) expect(Object.keys(value)[0], subpath).toBe("types");
    }
    const subpaths = Object.keys(pkg.exports).filter((subpath) => subpath !== "./package.json");
    expect(subpaths.sort()).toEqual([...Object.keys(PUBLIC), ...Object.keys(NOT_BUILT_YET)].sort());
  });

  it("every target exists after npm run build", () => {
    expect(existsSync(new URL("dist/index.js", root)), "dist/ is missing: run `npm run build` first").toBe(true);
    const missing = targets()
      .filter(([, , target]) => !existsSync(new URL(target, root)))
      .map(([subpath, , target]) => `${subpath} -> ${target}`);
    const pending = targets()
      .filter(([subpath]) => subpath in NOT_BUILT_YET)
      .map(([subpath, , target]) => `${subpath} -> ${target}`);
    // Fails both ways: a missing file outside NOT_BUILT_YET, or a pending subpath that is now built.
    expect(missing, "missing files, or NOT_BUILT_YET entries that are now built and belong in PUBLIC").toEqual(pending);
  });

  it.each(Object.entries(PUBLIC))("%s: the built file exports the same list as the source", async (subpath, entry) => {
    const built = targets().find(([path, conditions]) => path === subpath && conditions.endsWith("import"));
    expect(built, `exports["${subpath}"] has no "import" target`).toBeDefined();
    expect(sorted(await import(new URL(built![2], root).href))).toEqual(entry.exports);
  });
});
