/**
 * The published type declarations of the Web entry points name no Node module: a Workers or Deno
 * project without `@types/node`, and with `skipLibCheck: false`, must type-check picomcp's types
 * (DESIGN §2, the core uses Web APIs only). `server.node` takes structural types for that reason
 * (src/transports/node-types.ts). Only the CLI (`bin`) may name Node modules.
 *
 * Reads dist/: `npm test` runs `npm run build` before vitest; when running this file on its own,
 * run `npm run build` first.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { describe, expect, it } from "vitest";

const DIST = new URL("../dist/", import.meta.url);
/** `from "x"`, `import("x")` and `/// <reference types="x" />` in a declaration file. */
const SPECIFIER = /(?:from\s+|import\s*\(\s*|<reference\s+types=)["']([^"']+)["']/g;

function nodeModulesNamedBy(text: string): string[] {
  return [...text.matchAll(SPECIFIER)]
    .map((match) => match[1] ?? "")
    .filter((specifier) => specifier.startsWith("node:") || builtinModules.includes(specifier) || specifier === "node");
}

describe("published types", () => {
  it("finds a Node module wherever a declaration names one", () => {
    expect(
      nodeModulesNamedBy(
        [
          'import { IncomingMessage } from "node:http";',
          'export type { Readable } from "stream";',
          'type Server = import("http").Server;',
          '/// <reference types="node" />',
          'import { z } from "zod";',
          "// a comment about node:http is not an import",
        ].join("\n"),
      ),
    ).toEqual(["node:http", "stream", "http", "node"]);
  });

  it("of every entry but the CLI name no Node module", () => {
    expect(existsSync(new URL("index.d.ts", DIST)), "dist/ is missing: run `npm run build` first").toBe(true);
    const declarations = readdirSync(DIST).filter((file) => file.endsWith(".d.ts") && file !== "bin.d.ts");
    const named = declarations.flatMap((file) =>
      nodeModulesNamedBy(readFileSync(new URL(file, DIST), "utf8")).map((specifier) => `${file} -> ${specifier}`),
    );
    expect(named).toEqual([]);
  });

  it("of the public entry export, as classes, the errors a custom verify throws", () => {
    expect(existsSync(new URL("index.d.ts", DIST)), "dist/ is missing: run `npm run build` first").toBe(true);
    const text = readFileSync(new URL("index.d.ts", DIST), "utf8");
    // The names of the entry's `export { ... }` lists, without `type` (a value: a class a verifier can throw).
    const values = [...text.matchAll(/export\s*\{([^}]*)\}/g)]
      .flatMap((match) => match[1]!.split(","))
      .map((name) => name.trim())
      .filter((name) => name !== "" && !name.startsWith("type "));
    expect(values).toEqual(expect.arrayContaining(["AuthorizationServerUnavailable", "InvalidTokenError"]));
  });
});
