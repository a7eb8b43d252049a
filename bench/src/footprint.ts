/**
 * `npm run footprint --prefix bench`: what each library costs to install and to ship.
 *
 * - Runtime dependencies: the package's own `dependencies` (and required peers), and every package its
 *   install brings in, walked through bench/node_modules; install size is the bytes of their files.
 *   picomcp's is its npm tarball as `npm pack --dry-run` reports it (run `npm run build` at the root first).
 * - Bundles: a minimal stdio tool server (one validated `echo` tool) and a full HTTP server (both eras,
 *   legacy sessions) per library, bundled with esbuild (minified ESM, platform node, code splitting),
 *   gzipped at level 9: with zod external (the library's own code) and with zod included. For a split
 *   bundle, the stdio row counts the chunks the program loads (static imports) and the HTTP row those
 *   plus the chunks of the dynamic imports an HTTP tool server makes (picomcp: the HTTP endpoint,
 *   listener and node:http bridge on start, the session layer with its first 2025 session; not the
 *   code of features it does not use, which loads on first use). Each bundle is smoke-tested
 *   (initialize, then a tools/call in a session) first.
 * - picomcp's stdio bundle, module by module, and the chunks that load on first use.
 * - What picomcp's stdio and HTTP bundles' gzipped bytes are made of, concern by concern, with the
 *   share of message text and the floor that no server built from the core modules goes under
 *   (size-profile.ts).
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
import { type Concern, profile, type SizeProfile } from "./size-profile.js";

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

/**
 * Which chunks a program loads: its static imports, those plus the chunks of the source modules it
 * imports on demand (matched by the end of their path), or every chunk (libraries that do not split).
 */
type Loads = "static" | "all" | { dynamic: string[] };

/** What picomcp's stdio tool server imports on demand: serve() loads the stdio transport. */
const PICOMCP_STDIO = { dynamic: ["transports/stdio.ts"] } satisfies Loads;

/** What picomcp's HTTP tool server imports on demand (test/size.test.ts records the same by running it). */
const PICOMCP_HTTP: Loads = {
  dynamic: [
    "transports/listen.ts",
    "transports/node-http.ts",
    "transports/http/endpoint.ts",
    "transports/http/sessions.ts",
  ],
};

async function bundle(entry: string, loads: Loads, zodExternal: boolean, outdir: string): Promise<Bundle> {
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
    // CommonJS dependencies (express, ajv, ...) call require() on Node built-ins; ESM output needs a
    // require. picomcp has none, so its chunks go without the shim (it would be repeated in each).
    ...(entry.startsWith("picomcp-")
      ? {}
      : { banner: { js: 'import{createRequire as __cr}from"node:module";const require=__cr(import.meta.url);' } }),
    metafile: true,
    plugins: [picomcpSource],
    logLevel: "error",
  });
  const outputs = result.metafile.outputs;
  // The chunks of dynamic imports are entry points too: the program's is the one built from `entry`.
  const main = Object.keys(outputs).find((path) => outputs[path]?.entryPoint === `footprint/${entry}`)!;
  const follow = (path: string) => {
    if (loads === "all") return true;
    const source = outputs[path]?.entryPoint;
    return typeof loads === "object" && source !== undefined && loads.dynamic.some((end) => source.endsWith(end));
  };
  const loaded = new Set<string>([main]);
  for (const path of loaded) {
    for (const imported of outputs[path]?.imports ?? []) {
      if (imported.external) continue;
      if (imported.kind === "import-statement" || follow(imported.path)) loaded.add(imported.path);
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
    const picomcp = library.key === "picomcp";
    const loads: Loads = kind === "stdio" ? (picomcp ? PICOMCP_STDIO : "static") : picomcp ? PICOMCP_HTTP : "all";
    const external = await bundle(entry, loads, true, outdir);
    const main = join(BENCH, external.loaded[0]!);
    // The zod-external bundle resolves zod from bench/node_modules, so it runs as it is.
    if (kind === "stdio") await smokeStdio(main);
    else await smokeHttp(main);
    const included = await bundle(entry, loads, false, join(OUT, `${library.key}-${kind}-zod`));
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

// picomcp's stdio server, module by module: what a tools-only server loads at start.
const pico = await bundle("picomcp-stdio.ts", PICOMCP_STDIO, true, join(OUT, "picomcp-stdio"));
const sourceOf = (input: string) => `src/${relative(PICOMCP_SRC, join(BENCH, input))}`;
const modules: { path: string; bytes: number }[] = [];
for (const path of pico.loaded) {
  for (const [input, info] of Object.entries(pico.metafile.outputs[path]?.inputs ?? {}))
    if (!input.startsWith("footprint/") && !input.includes("node_modules/"))
      modules.push({ path: sourceOf(input), bytes: info.bytesInOutput });
}
modules.sort((a, b) => b.bytes - a.bytes);
const minified = modules.reduce((sum, module) => sum + module.bytes, 0);
console.log(
  `\n### picomcp minimal stdio server by module (${format(pico.gzipped)} B gzip, ${format(minified)} B minified from src/, ${format(pico.minified - minified)} B of esbuild's glue between chunks)\n`,
);
console.log(
  table(
    ["module", "minified bytes", "share"],
    modules.map((module) => [module.path, format(module.bytes), `${((100 * module.bytes) / minified).toFixed(1)}%`]),
  ),
);

// What loads on first use: every chunk the program can import but does not at start, by the module it imports.
const lazy: { module: string; bytes: number }[] = [];
for (const [path, output] of Object.entries(pico.metafile.outputs)) {
  if (pico.loaded.includes(path) || path.endsWith(".map") || !output.entryPoint) continue;
  lazy.push({ module: sourceOf(output.entryPoint), bytes: output.bytes });
}
lazy.sort((a, b) => b.bytes - a.bytes);
console.log("\n### picomcp: chunks loaded on first use (dynamic imports), not at start\n");
console.log(
  table(
    ["imported module", "its own chunk, minified bytes (code it shares with others sits in shared chunks)"],
    lazy.map(({ module, bytes }) => [module, format(bytes)]),
  ),
);

// What the gzipped bytes are made of, by concern (see size-profile.ts), and the floor under them.
const CONCERNS: Concern[] = [
  {
    name: "JSON-RPC messages, stdio transport, connection",
    modules: [
      "core/jsonrpc.ts",
      "transports/stdio.ts",
      "transports/line-output.ts",
      "transports/stdout.ts",
      "transports/connection.ts",
    ],
  },
  {
    name: "dispatch: eras, envelope, method table",
    modules: [
      "core/dispatch.ts",
      "core/methods.ts",
      "core/envelope.ts",
      "core/types.ts",
      "core/versions.ts",
      "core/errors.ts",
    ],
  },
  {
    name: "tool pipeline: validation, results, safe errors",
    modules: ["core/tools.ts", "core/schema.ts", "core/content.ts", "core/safe.ts"],
  },
  { name: "request context: signal, progress, log", modules: ["core/context.ts", "core/layers.ts"] },
  { name: "server and registry (the API)", modules: ["server.ts", "on-first-use.ts", "core/registry.ts", "index.ts"] },
  { name: "middleware and plug-ins", modules: ["middleware/plugin.ts", "middleware/chain.ts", "core/wrapping.ts"] },
  {
    name: "2025 era: handshake, session (the sessions layer)",
    modules: ["sessions/peer.ts", "sessions/session.ts", "sessions/legacy.ts"],
  },
  {
    name: "limits, shutdown, signals",
    modules: [
      "core/refusal.ts",
      "limits/options.ts",
      "limits/limits.ts",
      "transports/workers.ts",
      "transports/process.ts",
    ],
  },
  { name: "auth settings and rules", modules: ["auth/settings.ts", "auth/access.ts", "auth/identity.ts"] },
  {
    name: "resource and prompt registration",
    modules: ["resources/resources.ts", "prompts/prompts.ts", "resources/uri-template-syntax.ts"],
  },
  {
    name: "Streamable HTTP endpoint",
    modules: [
      "transports/http/endpoint.ts",
      "transports/http/web.ts",
      "transports/http/handler.ts",
      "transports/http/accept.ts",
      "transports/http/respond.ts",
      "transports/http/reply.ts",
      "transports/http/headers.ts",
      "transports/http/security.ts",
      "transports/http/addresses.ts",
      "transports/http/cors.ts",
      "transports/http/sse.ts",
    ],
  },
  {
    name: "legacy HTTP sessions, resumable SSE",
    modules: ["transports/http/sessions.ts", "transports/http/history.ts", "transports/http/log-reader.ts"],
  },
  {
    name: "listener, node:http bridge",
    modules: ["transports/listen.ts", "transports/listen-web.ts", "transports/node-http.ts", "transports/node.ts"],
  },
];
/** What any MCP server needs, whatever it leaves out: a stdio server's floor, and an HTTP server's. */
const FLOOR = CONCERNS.slice(0, 3).map((concern) => concern.name);
const HTTP_FLOOR = [...FLOOR, "Streamable HTTP endpoint"];

const profiles = {
  stdio: await profile("picomcp-stdio.ts", PICOMCP_STDIO.dynamic, CONCERNS, FLOOR),
  http: await profile("picomcp-http.ts", PICOMCP_HTTP.dynamic, CONCERNS, HTTP_FLOOR),
};
const targets = { stdio: 4_000, http: 12_000 };
console.log("\n### picomcp: what the gzipped bytes are made of (gzip -9 of the loaded chunks minus gzip without it)\n");
console.log(
  table(
    ["concern", "stdio: minified", "stdio: gzip", "HTTP: minified", "HTTP: gzip"],
    [
      ...CONCERNS.map((concern, i) => {
        const [stdio, http] = [profiles.stdio.concerns[i]!, profiles.http.concerns[i]!];
        return [
          concern.name,
          format(stdio.minified),
          format(stdio.gzipped),
          format(http.minified),
          format(http.gzipped),
        ];
      }),
      [
        "esbuild's glue between chunks",
        ...[profiles.stdio.glue, profiles.http.glue].flatMap((g) => [format(g.minified), format(g.gzipped)]),
      ],
      [
        `message text (${profiles.stdio.messages.count} / ${profiles.http.messages.count} literals over 24 characters, across the rows above)`,
        ...[profiles.stdio.messages, profiles.http.messages].flatMap((m) => [format(m.minified), format(m.gzipped)]),
      ],
      ["whole bundle", "", format(profiles.stdio.gzipped), "", format(profiles.http.gzipped)],
    ],
  ),
);
for (const [row, result] of Object.entries(profiles) as [keyof typeof profiles, SizeProfile][]) {
  if (result.unclaimed.length > 0) console.log(`\n${row}: modules no concern claims: ${result.unclaimed.join(", ")}`);
  console.log(
    `\n${row} floor: ${result.floor.concerns.join(" + ")} alone, with no message text at all, gzip to ${format(result.floor.gzipped)} B (target ${format(targets[row])} B).`,
  );
}

const file = save("footprint", { installs, bundles, picomcpModules: modules, picomcpLazy: lazy, profiles });
console.log(`\nwrote ${file}`);
