/**
 * Compiles the bench servers (servers/*.ts) to plain ESM in .build/, so no server pays for a TypeScript
 * loader at start-up. picomcp comes from the repository's src/ and is bundled into its servers the way an
 * application bundles it (its HTTP code stays in lazily loaded chunks); the SDKs and zod stay external
 * and load from bench/node_modules, as an application running from node_modules loads them.
 */
import { readdirSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { BENCH, ROOT } from "./lib.js";

export const BUILD = join(BENCH, ".build", "servers");

/**
 * Where picomcp's source comes from: the repository's src/, or the folder in PICOMCP_SRC (for example
 * a `git archive` of another commit's src/), to compare two versions with the same bench.
 */
export const PICOMCP_SRC = process.env.PICOMCP_SRC ? resolve(process.env.PICOMCP_SRC) : join(ROOT, "src");

/** Points the bench's `../../src/index.js` imports at PICOMCP_SRC. */
export const picomcpSource: Plugin = {
  name: "picomcp-source",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/\.\.\/src\/index\.js$/ }, (args) => {
      if (isAbsolute(args.importer) && !args.importer.startsWith(BENCH)) return undefined;
      return { path: join(PICOMCP_SRC, "index.ts") };
    });
  },
};

export async function buildServers(): Promise<void> {
  const dir = join(BENCH, "servers");
  const entries = readdirSync(dir)
    .filter((file) => /-(stdio|http)\.ts$/.test(file))
    .map((file) => join(dir, file));
  await build({
    entryPoints: entries,
    outdir: BUILD,
    absWorkingDir: BENCH,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    plugins: [picomcpSource],
    logLevel: "warning",
  });
}

/** The compiled file of a server. */
export function server(name: string): string {
  return join(BUILD, `${name}.mjs`);
}
