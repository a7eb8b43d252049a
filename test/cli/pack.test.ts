/**
 * The package as npm publishes it: `npm pack` (of the dist/ that `npm test` builds first), installed
 * offline into an empty project, each entry point imported with Node (ESM, and `require` where Node
 * can require ES modules: 20.19+, 22.12+), the `picomcp` bin run, and a file importing every entry
 * type-checked by tsc under moduleResolution bundler and node16. Also: every relative link in the
 * packed README and docs points to a file the package has.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  cpSync,
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
import { collect, exitOf, lines, ROOT } from "./helpers.js";

const ENTRIES = ["picomcp", "picomcp/jwt", "picomcp/introspection", "picomcp/redis", "picomcp/testing"];
const [MAJOR = 0, MINOR = 0] = process.versions.node.split(".").map(Number);
const REQUIRE_ESM = MAJOR > 22 || (MAJOR === 22 && MINOR >= 12) || (MAJOR === 20 && MINOR >= 19);

let project: string;
let examples: string;
const run = (command: string, args: string[]) =>
  execFileSync(command, args, { cwd: project, encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] });

beforeAll(() => {
  expect(existsSync(join(ROOT, "dist/index.js")), "dist/ is missing: run `npm run build` first").toBe(true);
  // A space in the path, as in many a home folder: what runs here runs there.
  project = mkdtempSync(join(tmpdir(), "picomcp pack-"));
  const packed = JSON.parse(
    // --ignore-scripts: the dist/ built before is packed as it is, not built again by `prepack` while
    // the suite's other files read it (test/cli/pack-build.test.ts checks that `prepack` builds).
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", project], {
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
  for (const name of ["typescript", "zod", "@types"])
    symlinkSync(join(ROOT, "node_modules", name), join(project, "node_modules", name));
  // The shipped examples run under tsx, as their headers say, from a folder of the project.
  examples = join(project, "examples-run");
  mkdirSync(join(examples, "node_modules"), { recursive: true });
  symlinkSync(join(ROOT, "node_modules", "tsx"), join(examples, "node_modules", "tsx"));
}, 120_000);

afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("the packed package", () => {
  it("imports each entry point as an ES module", () => {
    const script = `for (const entry of ${JSON.stringify(ENTRIES)}) console.log(entry, Object.keys(await import(entry)).sort().join(","));`;
    expect(run(process.execPath, ["--input-type=module", "-e", script]).trim().split("\n")).toEqual([
      "picomcp AuthorizationServerUnavailable,ErrorCode,InvalidTokenError,McpError,Secret,Server,assistant,audio,embed,image,link,pico,secret,text,user",
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
    const { version }: { version: string } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(run(join(project, "node_modules/.bin/picomcp"), ["--version"])).toBe(`${version}\n`);
  });

  // Was: the version of the picomcp installed beside it (0.1.0 here), or a stack, exit 1, where none
  // is, for it looked its package.json up by picomcp's name.
  it("says its version is unknown when its dist/ is vendored into another package", () => {
    const alone = mkdtempSync(join(tmpdir(), "picomcp-vendored-"));
    try {
      for (const vendored of [join(project, "vendored"), alone]) {
        cpSync(join(project, "node_modules/picomcp/dist"), join(vendored, "dist"), { recursive: true });
        writeFileSync(join(vendored, "package.json"), '{ "name": "app", "version": "9.9.9", "type": "module" }');
        const bin = join(vendored, "dist/bin.js");
        expect(spawnSync(process.execPath, [bin, "--version"], { encoding: "utf8" })).toMatchObject({
          status: 0,
          stdout: "unknown\n",
          stderr: "",
        });
      }
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
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

  it("says in one line, exit 2, why a TypeScript file loaded through the project's tsx did not load", () => {
    const folder = join(project, "with-tsx");
    mkdirSync(join(folder, "node_modules"), { recursive: true });
    // Node 20 loads TypeScript with the tsx of the file's own project; Node 22.18+ strips types itself.
    symlinkSync(join(ROOT, "node_modules", "tsx"), join(folder, "node_modules", "tsx"));
    writeFileSync(join(folder, "throws.ts"), 'const why: string = "boom at start";\nthrow new Error(why);\n');
    writeFileSync(join(folder, "broken.ts"), "export default {;\n");
    writeFileSync(
      join(folder, "server.ts"),
      'import { pico } from "picomcp";\nexport default pico({ name: "typed" }).tool("hi", { run: (): string => "hi" });\n',
    );
    const bin = join(project, "node_modules/picomcp/dist/bin.js");
    const cli = (file: string) =>
      spawnSync(process.execPath, [bin, "call", file, "hi"], { cwd: folder, encoding: "utf8", timeout: 60_000 });
    expect(cli("server.ts")).toMatchObject({ status: 0, stdout: "hi\n" });
    expect(cli("throws.ts")).toMatchObject({
      status: 2,
      stderr: "picomcp call: cannot import throws.ts: boom at start\n",
    });
    const broken = cli("broken.ts");
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/^picomcp call: cannot import broken\.ts: .*broken\.ts:1:\d+.*\n$/);
    expect(broken.stderr.trim()).not.toContain("\n");
  });

  // Was, for the last three: nothing served and exit 0 under a path with a space, their check of
  // being run compared import.meta.url, which has it as %20, with the path itself.
  it.each([
    ["weather.ts", "weather"],
    ["middleware/server.ts", "middleware-example"],
    ["tasks/server.ts", "tasks-example"],
    ["plugin/echo-extension.ts", "echo-example"],
  ])("ships examples that serve stdio as their headers say, importing the package by its name: %s", (file, name) => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "pack", version: "1" } },
    };
    const example = spawnSync(process.execPath, ["--import", "tsx", `../node_modules/picomcp/examples/${file}`], {
      cwd: examples,
      encoding: "utf8",
      input: `${JSON.stringify(initialize)}\n`,
      timeout: 60_000,
    });
    expect(example.stderr).toBe("");
    expect(JSON.parse(example.stdout.split("\n")[0] || "null")).toMatchObject({
      id: 1,
      result: { serverInfo: { name } },
    });
  });

  it("ships the OAuth example, which serves in development mode and prints tokens to try", async () => {
    // No OAUTH_ISSUER: the example signs its own tokens with picomcp/testing's issuer (was: it
    // imported ../../src/testing.js, which the package does not have, and stopped with a stack).
    const child = spawn(process.execPath, ["--import", "tsx", "../node_modules/picomcp/examples/projects/auth.ts"], {
      cwd: examples,
      env: { ...process.env, PORT: "0", OAUTH_ISSUER: "", PROJECTS_FILE: join(examples, "projects.json") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stderr = collect(child.stderr);
    try {
      const seen = await lines(child.stdout)(/^ {2}read \+ write: ey/, 30_000).catch((error: Error) => {
        throw new Error(`${error.message}\nstderr:\n${stderr.text}`);
      });
      expect(seen[0]).toMatch(/^The protected project tracker is listening on http:\/\/127\.0\.0\.1:\d+\/mcp /);
      expect(stderr.text).toBe("");
    } finally {
      child.kill();
      await exitOf(child);
    }
  }, 60_000);

  it.each([
    { resolution: "bundler", lib: ["es2023", "dom"], types: [] },
    { resolution: "node16", lib: ["es2023", "dom"], types: [] },
    // A Node-only project: no DOM lib, Node's globals from @types/node.
    { resolution: "node16", lib: ["es2023"], types: ["node"] },
  ])(
    "type-checks a file importing every entry, the README's and Getting started's server.ts, and Middleware's typed plug-in context, under moduleResolution $resolution, lib $lib, types $types",
    ({ resolution, lib, types }) => {
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
      const folder = join(project, `${resolution}-${lib.join("-")}`);
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, "check.ts"), source);
      // The first server a user copies, as the packed pages show it (was: the README's failed where
      // the DOM lib is absent, for fetch's res.json() is then Promise<unknown>).
      const packed = join(project, "node_modules/picomcp");
      for (const [page, file] of [
        ["README.md", "readme-server.ts"],
        ["docs/getting-started.md", "getting-started-server.ts"],
      ] as const) {
        const [, snippet] = /```ts\n(.*?)```/s.exec(readFileSync(join(packed, page), "utf8"))!;
        writeFileSync(join(folder, file), snippet!);
      }
      // A plug-in's context property, typed by augmenting Context as the packed Middleware page does
      // (was: picomcp's own declarations then failed the check, "Class 'RequestContext' incorrectly
      // implements interface 'Context'. Property 'tenant' is missing").
      const [, augmentation] = /```ts\n( *declare module "picomcp".*?)```/s.exec(
        readFileSync(join(packed, "docs/middleware.md"), "utf8"),
      )!;
      writeFileSync(
        join(folder, "context-server.ts"),
        [
          'import { pico } from "picomcp";',
          augmentation!.replace(/^ {2}/gm, ""),
          'export const tenants = pico({ name: "tenants" })',
          '  .use({ name: "tenant", context: { tenant: () => "acme" } })',
          '  .tool("whose", { run: (_args, ctx): string => ctx.tenant });',
          "",
        ].join("\n"),
      );
      const module = resolution === "bundler" ? "esnext" : "node16";
      const config = {
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: "es2022",
          module,
          moduleResolution: resolution,
          lib,
          types,
        },
        files: ["check.ts", "readme-server.ts", "getting-started-server.ts", "context-server.ts"],
      };
      writeFileSync(join(folder, "tsconfig.json"), JSON.stringify(config));
      const tsc = join(project, "node_modules/typescript/bin/tsc");
      expect(spawnSync(process.execPath, [tsc, "-p", folder], { encoding: "utf8" })).toMatchObject({
        status: 0,
        stdout: "",
      });
    },
    // A failure guard, not a measurement: tsc on zod and every entry takes 10 s on a quiet machine.
    60_000,
  );

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
