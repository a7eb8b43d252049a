/**
 * `npm run profile --prefix bench`: runs picomcp's bench servers under `node --cpu-prof` with the same
 * load as the stdio and HTTP commands, then prints where the server's CPU time goes: by function
 * (self and inclusive) and by source module. Profiles land in bench/results/profiles/ (open them in
 * Chrome DevTools or speedscope).
 *
 * Options: --seconds S of load per profile (default 5), --target <label> (stdio-legacy, stdio-modern,
 * http-modern, http-stateless, http-sessions), --server picomcp|bare+zod (default picomcp: the bare
 * server with zod profiled the same way shows what any server pays, to tell picomcp's share from it).
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILD, buildServers, PICOMCP_SRC, server } from "./build.js";
import { HttpServer, type HttpTarget, load, type Mode, openClients } from "./http-load.js";
import { BENCH, format, option, RESULTS, save, stop, table } from "./lib.js";
import { burst, open, type StdioTarget } from "./stdio-load.js";
import type { Era } from "./workload.js";

const seconds = option("seconds", 5);
const only = option("target", undefined);
const DIR = join(RESULTS, "profiles");
const SERVERS: Record<string, { stdio: StdioTarget; http: Omit<HttpTarget, "modes"> }> = {
  picomcp: {
    stdio: { label: "picomcp", file: server("picomcp-stdio") },
    http: { label: "picomcp", file: server("picomcp-http") },
  },
  "bare+zod": {
    stdio: { label: "bare+zod", file: server("bare-stdio"), args: ["--zod"] },
    http: { label: "bare+zod", file: server("bare-http"), args: ["--zod"] },
  },
};
const profiled = option("server", undefined) ?? "picomcp";
if (!(profiled in SERVERS))
  throw new Error(`--server must be one of ${Object.keys(SERVERS).join(", ")}; got ${profiled}`);
const chosen = SERVERS[profiled]!;

type Target = { label: string; kind: "stdio"; era: Era } | { label: string; kind: "http"; mode: Mode };
const TARGETS: Target[] = [
  { label: "stdio-legacy", kind: "stdio", era: "legacy" },
  { label: "stdio-modern", kind: "stdio", era: "modern" },
  { label: "http-modern", kind: "http", mode: "modern" },
  { label: "http-stateless", kind: "http", mode: "stateless" },
  { label: "http-sessions", kind: "http", mode: "sessions" },
];

function profileFlags(label: string): string[] {
  return ["--cpu-prof", "--cpu-prof-dir", DIR, "--cpu-prof-name", `${fileName(label)}`, "--cpu-prof-interval", "100"];
}

function fileName(label: string): string {
  return profiled === "picomcp" ? `${label}.cpuprofile` : `${profiled}-${label}.cpuprofile`;
}

async function waitForFile(path: string): Promise<void> {
  for (let i = 0; i < 100 && !existsSync(path); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!existsSync(path)) throw new Error(`no profile written at ${path}`);
}

/** Records one profile; gives its path and the calls served while it ran (warm-up included). */
async function record(target: Target): Promise<{ path: string; calls: number }> {
  const path = join(DIR, fileName(target.label));
  rmSync(path, { force: true });
  let calls: number;
  if (target.kind === "stdio") {
    const { peer } = await open(chosen.stdio, target.era, profileFlags(target.label));
    const warm = await burst(peer, target.era, 64, 500, 1_000_000);
    const measured = await burst(peer, target.era, 64, seconds * 1000, 5_000_000);
    calls = warm.calls + measured.calls;
    process.stderr.write(`${profiled} ${target.label}: ${format(measured.calls)} calls checked\n`);
    // Closing stdin ends the server normally, and --cpu-prof writes the profile on the way out.
    await stop(peer.child, 10_000);
  } else {
    const http = await HttpServer.start(
      { ...chosen.http, modes: [target.mode] },
      target.mode,
      profileFlags(target.label),
    );
    const clients = await openClients(http, target.mode, 32);
    const warm = await load(http, clients, 500, 1_000_000);
    const measured = await load(http, clients, seconds * 1000, 5_000_000);
    calls = warm.calls + measured.calls;
    process.stderr.write(`${profiled} ${target.label}: ${format(measured.calls)} calls checked\n`);
    for (const client of clients) client.close();
    await stop(http.child, 10_000);
  }
  await waitForFile(path);
  return { path, calls };
}

// ---------------------------------------------------------------- summary

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const SPECIAL = new Set(["(root)", "(program)", "(idle)", "(garbage collector)"]);

/** Maps a line of a bench bundle to the source module it came from, by esbuild's `// path` comments. */
const bundleModules = new Map<string, { line: number; module: string }[]>();
function moduleOf(url: string, line: number): string {
  if (!url) return "(native)";
  if (url.startsWith("node:")) return "node internals";
  const path = url.startsWith("file://") ? fileURLToPath(url) : url;
  const zod = /node_modules\/(zod)\//.exec(path);
  if (zod) return "zod";
  if (!path.startsWith(BUILD)) return relative(process.cwd(), path);
  let marks = bundleModules.get(path);
  if (!marks) {
    marks = [];
    const lines = readFileSync(path, "utf8").split("\n");
    lines.forEach((text, index) => {
      const mark = /^\/\/ (\S+\.[cm]?[jt]s)$/.exec(text);
      if (mark) marks!.push({ line: index, module: mark[1]! });
    });
    bundleModules.set(path, marks);
  }
  let found = "(bundle)";
  for (const mark of marks) if (mark.line <= line) found = mark.module;
  // esbuild names modules relative to the build's working directory, bench/.
  const source = join(BENCH, found);
  if (source.startsWith(PICOMCP_SRC)) return `src/${relative(PICOMCP_SRC, source)}`;
  return relative(BENCH, source);
}

function summarize(path: string): {
  self: [string, number][];
  total: [string, number][];
  modules: [string, number][];
  busy: number;
} {
  const profile = JSON.parse(readFileSync(path, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const key = (node: Node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    if (SPECIAL.has(functionName)) return functionName;
    return `${functionName || "(anonymous)"} (${moduleOf(url, lineNumber)})`;
  };
  const keys = new Map(profile.nodes.map((node) => [node.id, key(node)]));
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const modules = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const name = keys.get(id)!;
    if (name === "(idle)") return;
    busy += delta;
    self.set(name, (self.get(name) ?? 0) + delta);
    const node = byId.get(id)!;
    const module = SPECIAL.has(name) ? name : moduleOf(node.callFrame.url, node.callFrame.lineNumber);
    modules.set(module, (modules.get(module) ?? 0) + delta);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = keys.get(at)!;
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + delta);
    }
  });
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return { self: sorted(self), total: sorted(total), modules: sorted(modules), busy };
}

function share(value: number, busy: number): string {
  return `${((100 * value) / busy).toFixed(1)}%`;
}

/** Microseconds per call (profile time deltas are in microseconds); start-up is included, so a little high. */
function perCall(value: number, calls: number): string {
  return format(value / calls, 2);
}

// ---------------------------------------------------------------- main

mkdirSync(DIR, { recursive: true });
await buildServers();
const summaries: Record<string, unknown> = {};
for (const target of TARGETS.filter((t) => !only || t.label === only)) {
  const { path, calls } = await record(target);
  const { self, total, modules, busy } = summarize(path);
  summaries[target.label] = { self: self.slice(0, 40), total: total.slice(0, 60), modules, busyMicros: busy, calls };
  console.log(
    `\n### ${profiled} ${target.label}: ${format(busy / 1000)} ms of busy samples, ${format(busy / calls, 1)} µs per call (${relative(process.cwd(), path)})\n`,
  );
  console.log(
    table(
      ["by module (self time)", "share", "µs/call"],
      modules.slice(0, 12).map(([name, t]) => [name, share(t, busy), perCall(t, calls)]),
    ),
  );
  console.log();
  console.log(
    table(
      ["function (self time)", "share", "µs/call"],
      self.slice(0, 20).map(([name, t]) => [name, share(t, busy), perCall(t, calls)]),
    ),
  );
  console.log();
  const inclusive = total.filter(([name]) => !SPECIAL.has(name)).slice(0, 25);
  console.log(
    table(
      ["function (inclusive time)", "share", "µs/call"],
      inclusive.map(([name, t]) => [name, share(t, busy), perCall(t, calls)]),
    ),
  );
}
const file = save("profile", { seconds, summaries });
console.log(`\nwrote ${file}`);
