/**
 * The package as npm publishes it: `npm pack` (of the dist/ that `npm test` builds first), installed
 * offline into an empty project, each entry point imported with Node (ESM, and `require` where Node
 * can require ES modules: 20.19+, 22.12+), the `picomcp` bin run, and a file importing every entry
 * type-checked by tsc under moduleResolution bundler and node16. Also: every relative link in the
 * packed README and docs points to a file the package has.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

const ENTRIES = ["picomcp", "picomcp/jwt", "picomcp/introspection", "picomcp/redis", "picomcp/testing"];
const [MAJOR = 0, MINOR = 0] = process.versions.node.split(".").map(Number);
const REQUIRE_ESM = MAJOR > 22 || (MAJOR === 22 && MINOR >= 12) || (MAJOR === 20 && MINOR >= 19);

let project: string;
const run = (command: string, args: string[]) =>
  execFileSync(command, args, { cwd: project, encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] });

beforeAll(() => {
  expect(existsSync(join(ROOT, "dist/index.js")), "dist/ is missing: run `npm run build` first").toBe(true);
  project = mkdtempSync(join(tmpdir(), "picomcp-pack-"));
  const packed = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", project], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    }),
  ) as { filename: string }[];
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  // picomcp has no dependencies, so nothing is fetched: the install works offline.
  run("npm", [
    "install",
    "--offline",
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    join(project, packed[0]!.filename),
  ]);
  // The type check needs a compiler and a schema library; the repository's copies do.
  for (const name of ["typescript", "zod"])
    symlinkSync(join(ROOT, "node_modules", name), join(project, "node_modules", name));
}, 120_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("the packed package", () => {
  it("imports each entry point as an ES module", () => {
    const script = `for (const entry of ${JSON.stringify(ENTRIES)}) console.log(entry, Object.keys(await import(entry)).sort().join(","));`;
    expect(run(process.execPath, ["--input-type=module", "-e", script]).trim().split("\n")).toEqual([
      "picomcp ErrorCode,InvalidTokenError,McpError,Secret,Server,assistant,audio,embed,image,link,pico,secret,text,user",
      "picomcp/jwt jwtVerifier",
      "picomcp/introspection introspectionVerifier",
      "picomcp/redis redisState",
      "picomcp/testing ContractError,contract,harness,lint,testIssuer",
    ]);
  });

  it.runIf(REQUIRE_ESM)("requires each entry point where Node can require ES modules", () => {
    const script = `for (const entry of ${JSON.stringify(ENTRIES)}) console.log(entry, typeof require(entry));`;
    expect(run(process.execPath, ["--input-type=commonjs", "-e", script]).trim().split("\n")).toEqual(
      ENTRIES.map((entry) => `${entry} object`),
    );
  });

  it("runs the picomcp bin", () => {
    expect(run(join(project, "node_modules/.bin/picomcp"), ["--help"])).toContain("Usage: picomcp <verb>");
  });

  it("loads a server file: JavaScript always, TypeScript where Node strips types, else says what to do", () => {
    const server =
      'import { pico } from "picomcp";\nexport default pico({ name: "packed" }).tool("hi", { description: "Says hi.", run: () => "hi" });\n';
    writeFileSync(join(project, "server.mjs"), server);
    writeFileSync(join(project, "server.ts"), server.replace("() =>", "(): string =>"));
    const bin = join(project, "node_modules/picomcp/dist/bin.js");
    expect(run(process.execPath, [bin, "call", "server.mjs", "hi"])).toBe("hi\n");
    const typescript = spawnSync(process.execPath, [bin, "call", "server.ts", "hi"], {
      cwd: project,
      encoding: "utf8",
    });
    if ((process.features as { typescript?: unknown }).typescript) {
      expect(typescript).toMatchObject({ status: 0, stdout: "hi\n" });
    } else {
      // Node 20: no type stripping, and no tsx in this project (picomcp would load it).
      expect(typescript.status).toBe(2);
      expect(typescript.stderr).toContain(
        `cannot import server.ts: Node ${process.versions.node} does not run TypeScript by itself.`,
      );
    }
  });

  it.each(["bundler", "node16"])("type-checks a file importing every entry under moduleResolution %s", (resolution) => {
    const source = [
      'import { pico, text, type CallToolResult } from "picomcp";',
      'import { jwtVerifier } from "picomcp/jwt";',
      'import { introspectionVerifier } from "picomcp/introspection";',
      'import { redisState, type SharedState } from "picomcp/redis";',
      'import { harness, lint } from "picomcp/testing";',
      'import { z } from "zod";',
      'const server = pico({ name: "typed" }).tool("echo", { input: z.object({ word: z.string() }), run: ({ word }) => text(word) });',
      'const result: CallToolResult = await server.call("echo", { word: "hi" });',
      'export const shared = (state: SharedState) => pico({ name: "shared", requestStateKey: "k".repeat(32), state });',
      "export const used = [result, jwtVerifier, introspectionVerifier, redisState, harness(server), await lint(server)];",
      "",
    ].join("\n");
    const folder = join(project, resolution);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "check.ts"), source);
    const module = resolution === "bundler" ? "esnext" : "node16";
    const config = {
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "es2022",
        module,
        moduleResolution: resolution,
        lib: ["es2023", "dom"],
        types: [],
      },
      files: ["check.ts"],
    };
    writeFileSync(join(folder, "tsconfig.json"), JSON.stringify(config));
    const tsc = join(project, "node_modules/typescript/bin/tsc");
    expect(() => run(process.execPath, [tsc, "-p", folder])).not.toThrow();
  });

  it("has every file its README and docs link to", () => {
    const root = join(project, "node_modules/picomcp");
    const pages = ["README.md", ...readdirSync(join(root, "docs")).map((page) => `docs/${page}`)];
    const missing: string[] = [];
    for (const page of pages) {
      for (const [, target] of readFileSync(join(root, page), "utf8").matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        if (!existsSync(join(root, dirname(page), target!))) missing.push(`${page} -> ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
