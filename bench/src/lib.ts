/** What every bench command shares: paths, child processes, /proc readings, statistics, tables, results. */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const BENCH = join(dirname(fileURLToPath(import.meta.url)), "..");
export const ROOT = join(BENCH, "..");
export const RESULTS = join(BENCH, "results");

// ---------------------------------------------------------------- children

const children = new Set<ChildProcess>();

/** Starts a server as a child process; every child is killed when the driver exits, however it exits. */
export function start(args: string[], options: { node?: string[] } = {}): ChildProcess {
  const child = spawn(process.execPath, [...(options.node ?? []), ...args], { stdio: ["pipe", "pipe", "pipe"] });
  children.add(child);
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    if (stderr.length < 4000) stderr += chunk;
  });
  child.once("exit", () => children.delete(child));
  (child as ChildProcess & { stderrText: () => string }).stderrText = () => stderr;
  return child;
}

export function stderrOf(child: ChildProcess): string {
  return (child as ChildProcess & { stderrText?: () => string }).stderrText?.() ?? "";
}

/** Ends a child: closes its stdin (servers exit on that), then SIGKILL if it is still there after `ms`. */
export async function stop(child: ChildProcess, ms = 2000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stdin?.end();
  const timer = setTimeout(() => child.kill("SIGKILL"), ms);
  await exited;
  clearTimeout(timer);
}

function killAll(): void {
  for (const child of children) child.kill("SIGKILL");
}
process.on("exit", killAll);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    killAll();
    process.exit(130);
  });
}

/** Rejects when `promise` has not settled within `ms`: every load in the bench is bounded. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------- /proc

let ticks: number | undefined;
function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** The CPU time (user + system, all threads) a process has used so far, in µs, from /proc/<pid>/stat. */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may contain spaces; fields after it are space-separated. utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks();
}

/** Peak resident set size in MiB, from VmHWM in /proc/<pid>/status. */
export function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
  return kib / 1024;
}

// ---------------------------------------------------------------- statistics

export function median(values: number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Rounds in which each library comes first in turn, so no library always runs after the same one. */
export function rotate<T>(items: T[], round: number): T[] {
  const shift = round % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

// ---------------------------------------------------------------- options

export function option(name: string, fallback: number): number;
export function option(name: string, fallback: string | undefined): string | undefined;
export function option(name: string, fallback: number | string | undefined): number | string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  const raw = index === -1 ? undefined : process.argv[index + 1];
  if (raw === undefined) return fallback;
  return typeof fallback === "number" ? Number(raw) : raw;
}

// ---------------------------------------------------------------- output

export function format(value: number | undefined, digits = 0): string {
  if (value === undefined || Number.isNaN(value)) return "—";
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function ratio(a: number | undefined, b: number | undefined): string {
  if (a === undefined || b === undefined || Number.isNaN(a) || Number.isNaN(b) || b === 0) return "—";
  return `${(a / b).toFixed(2)}×`;
}

/** A Markdown table, columns padded so it also reads well in a terminal. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(" | ")} |`;
  const rule = `|${widths.map((width, i) => (i === 0 ? `${"-".repeat(width + 1)}-` : `${"-".repeat(width + 1)}:`)).join("|")}|`;
  return [line(headers), rule, ...rows.map(line)].join("\n");
}

/** Writes a command's results to bench/results/<name>.json (git-ignored), with what it ran on. */
export function save(name: string, data: unknown): string {
  mkdirSync(RESULTS, { recursive: true });
  const file = join(RESULTS, `${name}.json`);
  const machine = {
    node: process.version,
    cpus: Number(execFileSync("nproc", { encoding: "utf8" }).trim()),
    loadavg: readFileSync("/proc/loadavg", "utf8").trim(),
    date: new Date().toISOString(),
    commit: git(["rev-parse", "--short", "HEAD"]),
    /** The picomcp source measured: the working tree's src/ (dirty when it has uncommitted changes) or PICOMCP_SRC. */
    picomcpSource: process.env.PICOMCP_SRC ?? "src/",
    dirty: process.env.PICOMCP_SRC ? undefined : git(["status", "--porcelain", "--", "src"]) !== "",
  };
  writeFileSync(file, `${JSON.stringify({ machine, ...(data as object) }, null, 2)}\n`);
  return file;
}

function git(args: string[]): string {
  try {
    return execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
  } catch {
    return "";
  }
}
