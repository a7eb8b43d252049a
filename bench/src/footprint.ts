/**
 * `npm run footprint --prefix bench`: what each library costs to install and to ship.
 *
 * - Runtime dependencies: the package's own `dependencies` (and required peers), and every package its
 *   install brings in, walked through bench/node_modules; install size is the bytes of their files.
 *   picomcp's is its npm tarball as `npm pack --dry-run` reports it (run `npm run build` at the root first).
 * - Bundles: a minimal stdio tool server (one validated `echo` tool) and a full HTTP server (both eras,
 *   legacy sessions) per library, bundled with esbuild (minified ESM, platform node, code splitting),
 *   gzipped at level 9: with zod external (the library's own code) and with zod included. For a split
 *   bundle, the stdio row counts the chunks the program loads at start (static imports) and the HTTP
 *   row every chunk it can load. Each bundle is smoke-tested (initialize, then a tools/call) first.
 * - picomcp's stdio bundle, module by module, and which modules could sit behind dynamic imports.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";
import { PICOMCP_SRC, picomcpSource } from "./build.js";
import { HttpConnection } from "./http-client.js";
import { BENCH, format, ROOT, ratio, save, start, stop, table, within } from "./lib.js";

// ---------------------------------------------------------------- install

interface Install {
  direct: string[];
  packages: number;
  bytes: number;
}

function packageDir(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dir === dirname(dir) || dir === dirname(BENCH)) return undefined;
  }
}

function filesBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" && dir !== BENCH) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += filesBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** The package and everything its install brings: dependencies and required peers, transitively. */
function install(names: string[]): Install {
  const seen = new Map<string, string>();
  const direct = new Set<string>();
  const visit = (name: string, from: string, top: boolean) => {
    const dir = packageDir(name, from);
    if (!dir) throw new Error(`${name} is not installed in bench/node_modules: run npm install --prefix bench`);
    if (seen.has(dir)) return;
    seen.set(dir, name);
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const optional = pkg.peerDependenciesMeta ?? {};
    const deps = [
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.peerDependencies ?? {}).filter((peer) => !optional[peer]?.optional),
    ];
    for (const dep of deps) {
      if (top) direct.add(dep);
      visit(dep, dir, false);
    }
  };
  for (const name of names) visit(name, BENCH, true);
  for (const name of names) direct.delete(name);
  let bytes = 0;
  for (const dir of seen.keys()) bytes += filesBytes(dir);
  return { direct: [...direct].sort(), packages: seen.size, bytes };
}

function picomcpInstall(): Install & { note?: string } {
  if (!existsSync(join(ROOT, "dist", "index.js")))
    return { direct: [], packages: 1, bytes: Number.NaN, note: "no dist/: run npm run build at the root" };
  const [report] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json"], { cwd: ROOT, encoding: "utf8" }));
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  return { direct: Object.keys(pkg.dependencies ?? {}), packages: 1, bytes: report.unpackedSize };
}

// ---------------------------------------------------------------- bundles

const OUT = join(BENCH, ".build", "footprint");
const SCHEMA = ["zod", "zod/*"];

interface Bundle {
  minified: number;
  gzipped: number;
  /** Minified bytes that come from the library itself (src/ or node_modules/<its packages>). */
  library: number;
  files: string[];
  metafile: Metafile;
  loaded: string[];
}

async function bundle(entry: string, loads: "static" | "all", zodExternal: boolean, outdir: string): Promise<Bundle> {
  const result = await build({
    entryPoints: [join(BENCH, "footprint", entry)],
    outdir,
    outExtension: { ".js": ".mjs" },
    absWorkingDir: BENCH,
    bundle: true,
    splitting: true,
    minify: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: zodExternal ? SCHEMA : [],
    // CommonJS dependencies (express, ajv, ...) call require() on Node built-ins; ESM output needs a require.
    banner: { js: 'import{createRequire as __cr}from"node:module";const require=__cr(import.meta.url);' },
    metafile: true,
    plugins: [picomcpSource],
    logLevel: "error",
  });
  const outputs = result.metafile.outputs;
  const main = Object.keys(outputs).find((path) => outputs[path]?.entryPoint !== undefined)!;
  const loaded = new Set<string>([main]);
  for (const path of loaded) {
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.external) continue;
      if (imported.kind === "import-statement" || loads === "all") loaded.add(imported.path);
    }
  }
  const contents = Buffer.concat([...loaded].map((path) => readFileSync(join(BENCH, path))));
  let library = 0;
  for (const path of loaded) {
    for (const [input, info] of Object.entries(outputs[path]?.inputs ?? {}))
      if (!input.startsWith("footprint/") && !/node_modules\/zod\//.test(input)) library += info.bytesInOutput;
  }
  return {
    minified: contents.length,
    gzipped: gzipSync(contents, { level: 9 }).length,
    library,
    files: [...loaded],
    metafile: result.metafile,
    loaded: [...loaded],
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "footprint", version: "1" } },
};
const ECHO = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "smoke ✓" } } };

function echoed(message: { result?: { content?: { text?: string }[] } } | undefined): boolean {
  return message?.result?.content?.[0]?.text === "smoke ✓";
}

/** Runs a stdio bundle: initialize, then an echo call; the answer must come back. */
async function smokeStdio(file: string): Promise<void> {
  const child = start([file]);
  try {
    let output = "";
    child.stdout!.setEncoding("utf8");
    const answered = new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: string) => {
        output += chunk;
        const lines = output
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line));
        const call = lines.find((message) => message.id === 2);
        if (call) echoed(call) ? resolve() : reject(new Error(`${file}: ${JSON.stringify(call)}`));
      });
    });
    child.stdin!.write(`${JSON.stringify(INITIALIZE)}\n`);
    child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    child.stdin!.write(`${JSON.stringify(ECHO)}\n`);
    await within(answered, 10_000, `smoke test of ${file}`);
  } finally {
    await stop(child);
  }
}

/** Runs an HTTP bundle: initialize (a legacy session), then an echo call in that session. */
async function smokeHttp(file: string): Promise<void> {
  const port = await freePort();
  const child = spawn(process.execPath, [file], { env: { ...process.env, PORT: String(port) }, stdio: "pipe" });
  try {
    let connection: HttpConnection | undefined;
    const deadline = Date.now() + 10_000;
    while (!connection) {
      try {
        connection = await HttpConnection.open(port);
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const init = await within(connection.post("/mcp", JSON.stringify(INITIALIZE), {}), 10_000, file);
    const session = init.headers["mcp-session-id"];
    if (!session) throw new Error(`${file}: initialize gave no session (${init.status})`);
    const headers = { "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" };
    await connection.post("/mcp", JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), headers);
    const answer = await within(connection.post("/mcp", JSON.stringify(ECHO), headers), 10_000, file);
    const call = (answer.messages as { id?: number }[]).find((message) => message.id === 2);
    if (!echoed(call as never)) throw new Error(`${file}: ${JSON.stringify(answer.messages)}`);
    connection.close();
  } finally {
    child.kill("SIGKILL");
  }
}

// ---------------------------------------------------------------- main

const LIBRARIES = [
  { label: "picomcp", key: "picomcp", packages: [] as string[] },
  { label: "SDK v1", key: "sdk1", packages: ["@modelcontextprotocol/sdk"] },
  { label: "SDK v2", key: "sdk2", packages: ["@modelcontextprotocol/server"] },
];
/** The HTTP servers of SDK v2 on Node also need its Node adapter. */
const HTTP_EXTRA: Record<string, string[]> = { sdk2: ["@modelcontextprotocol/node"] };

const installs: Record<string, Install & { note?: string }> = {
  picomcp: picomcpInstall(),
  "SDK v1": install(["@modelcontextprotocol/sdk"]),
  "SDK v2": install(["@modelcontextprotocol/server"]),
  "SDK v2 + Node adapter": install(["@modelcontextprotocol/server", "@modelcontextprotocol/node"]),
};

const bundles: Record<
  string,
  Record<string, { gzipped: number; minified: number; library: number; withZod: number }>
> = {};
for (const library of LIBRARIES) {
  bundles[library.label] = {};
  for (const kind of ["stdio", "http"] as const) {
    const entry = `${library.key}-${kind}.ts`;
    const outdir = join(OUT, `${library.key}-${kind}`);
    mkdirSync(outdir, { recursive: true });
    const external = await bundle(entry, kind === "stdio" ? "static" : "all", true, outdir);
    const main = join(BENCH, external.loaded[0]!);
    // The zod-external bundle resolves zod from bench/node_modules, so it runs as it is.
    if (kind === "stdio") await smokeStdio(main);
    else await smokeHttp(main);
    const included = await bundle(
      entry,
      kind === "stdio" ? "static" : "all",
      false,
      join(OUT, `${library.key}-${kind}-zod`),
    );
    bundles[library.label]![kind] = {
      gzipped: external.gzipped,
      minified: external.minified,
      library: external.library,
      withZod: included.gzipped,
    };
    process.stderr.write(`bundled and smoke-tested ${entry}: ${format(external.gzipped)} B gzip\n`);
  }
}
void HTTP_EXTRA;

console.log("\n### Install\n");
console.log(
  table(
    ["", "direct runtime dependencies", "packages installed", "install size (MB)"],
    Object.entries(installs).map(([label, info]) => [
      label,
      info.direct.length === 0
        ? "0"
        : `${info.direct.length} (${info.direct.slice(0, 4).join(", ")}${info.direct.length > 4 ? ", …" : ""})`,
      String(info.packages),
      info.note ?? format(info.bytes / 1e6, 2),
    ]),
  ),
);

const kinds = [
  { kind: "stdio", title: "minimal stdio tool server" },
  { kind: "http", title: "full HTTP server (both eras, legacy sessions)" },
] as const;
console.log("\n### Bundles: minified ESM, gzip -9, bytes\n");
console.log(
  table(
    ["", ...LIBRARIES.map((library) => library.label), "picomcp / SDK v1", "picomcp / SDK v2"],
    kinds.flatMap(({ kind, title }) => [
      [
        `${title}, zod external (gzip)`,
        ...LIBRARIES.map((library) => format(bundles[library.label]![kind]!.gzipped)),
        ratio(bundles.picomcp![kind]!.gzipped, bundles["SDK v1"]![kind]!.gzipped),
        ratio(bundles.picomcp![kind]!.gzipped, bundles["SDK v2"]![kind]!.gzipped),
      ],
      [
        `${title}, zod external (minified)`,
        ...LIBRARIES.map((library) => format(bundles[library.label]![kind]!.minified)),
        ratio(bundles.picomcp![kind]!.minified, bundles["SDK v1"]![kind]!.minified),
        ratio(bundles.picomcp![kind]!.minified, bundles["SDK v2"]![kind]!.minified),
      ],
      [
        `${title}, zod included (gzip)`,
        ...LIBRARIES.map((library) => format(bundles[library.label]![kind]!.withZod)),
        ratio(bundles.picomcp![kind]!.withZod, bundles["SDK v1"]![kind]!.withZod),
        ratio(bundles.picomcp![kind]!.withZod, bundles["SDK v2"]![kind]!.withZod),
      ],
    ]),
  ),
);

// picomcp's stdio server, module by module: what a tools-only server loads and could load later.
const LAZY: Record<string, string> = {
  "src/resources.ts": "resources and templates",
  "src/uri-template.ts": "resources and templates",
  "src/prompts.ts": "prompts",
  "src/completion.ts": "completions",
  "src/ask.ts": "asking the client",
  "src/rounds.ts": "asking the client",
  "src/request-state.ts": "asking the client",
  "src/listen.ts": "subscriptions/listen",
};
const pico = await bundle("picomcp-stdio.ts", "static", true, join(OUT, "picomcp-stdio"));
const modules: { path: string; bytes: number }[] = [];
for (const path of pico.loaded) {
  for (const [input, info] of Object.entries(pico.metafile.outputs[path]?.inputs ?? {}))
    if (!input.startsWith("footprint/") && !input.includes("node_modules/"))
      modules.push({ path: `src/${relative(PICOMCP_SRC, join(BENCH, input))}`, bytes: info.bytesInOutput });
}
modules.sort((a, b) => b.bytes - a.bytes);
const minified = modules.reduce((sum, module) => sum + module.bytes, 0);
const lazyBytes = modules.filter((module) => LAZY[module.path]).reduce((sum, module) => sum + module.bytes, 0);
console.log(
  `\n### picomcp minimal stdio server by module (${format(pico.gzipped)} B gzip, ${format(minified)} B minified from src/)\n`,
);
console.log(
  table(
    ["module", "minified bytes", "share", "could load on first use (dynamic import)"],
    modules.map((module) => [
      module.path,
      format(module.bytes),
      `${((100 * module.bytes) / minified).toFixed(1)}%`,
      LAZY[module.path] ?? "",
    ]),
  ),
);
const estimate = Math.round((pico.gzipped * lazyBytes) / pico.minified);
console.log(
  `\nModules that could sit behind dynamic imports: ${format(lazyBytes)} B minified, about ${format(estimate)} B of the ${format(pico.gzipped)} B gzip (estimated in proportion to minified bytes).`,
);

const file = save("footprint", { installs, bundles, picomcpModules: modules, lazyEstimate: { lazyBytes, estimate } });
console.log(`\nwrote ${file}`);
