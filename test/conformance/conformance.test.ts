/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against fixture.ts, served
 * over Streamable HTTP on 127.0.0.1, in three runs:
 *   - 0.1.16 `server --suite all` (the 2025 suite as released),
 *   - 0.2.0-alpha.12 `server --requirements 2025-11-25` (the frozen 2025-11-25 set, stateful wire),
 *   - 0.2.0-alpha.12 `server --requirements 2026-07-28` (the frozen 2026-07-28 set, stateless wire).
 *
 * Run it alone:   npx vitest run test/conformance
 * One scenario by hand: `node --import tsx test/conformance/fixture.ts 3000`, then
 *   npx -y -p node@22.23.3 -- node node_modules/@modelcontextprotocol/conformance/dist/index.js server \
 *     --url http://127.0.0.1:3000/mcp --scenario server-stateless --spec-version 2026-07-28 --verbose
 *
 * The CLIs are exact-pinned devDependencies (0.1.16 under the npm alias `conformance-legacy`), so
 * package-lock.json fixes everything they load and `npm ci` needs no install scripts for them. They
 * need Node 22 or newer: this Node if it is, else $CONFORMANCE_NODE, else node@22.23.3 fetched once
 * from the npm registry with npx (into npx's cache, never into node_modules, so the rest of
 * `npm test` keeps running on the Node it was started with).
 *
 * Each run has a baseline of expected failures (baseline-*.yml); every line names the issue that
 * removes it. The test fails when the CLI exits non-zero (a failure not in the baseline, or a
 * baseline line that now passes). Under --requirements the CLI does not judge not-scored scenarios
 * (pending ones such as the SEP-2243 header scenarios, and extensions such as tasks), so the test applies the same
 * rule itself to every scenario, from the results the CLI writes with -o.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { conformanceFixture } from "./fixture.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
/** The Node the CLIs run on when this one is older than 22; exact, so every machine runs the same one. */
const NODE_22 = "22.23.3";
/** A full run takes 1–3 s; an unanswered request costs the CLI 30–60 s, so this only stops a hang. */
const RUN_TIMEOUT_MS = 100_000;

interface Run {
  title: string;
  /** The package name in package.json (an npm alias for the older CLI) and the version it must be. */
  cli: string;
  version: string;
  args: string[];
  baseline: string;
}

const RUNS: Run[] = [
  {
    title: "0.1.16 --suite all",
    cli: "conformance-legacy",
    version: "0.1.16",
    args: ["--suite", "all"],
    baseline: "baseline-0.1.16.yml",
  },
  {
    title: "0.2.0-alpha.12 --requirements 2025-11-25",
    cli: "@modelcontextprotocol/conformance",
    version: "0.2.0-alpha.12",
    args: ["--requirements", "2025-11-25"],
    baseline: "baseline-2025-11-25.yml",
  },
  {
    title: "0.2.0-alpha.12 --requirements 2026-07-28",
    cli: "@modelcontextprotocol/conformance",
    version: "0.2.0-alpha.12",
    args: ["--requirements", "2026-07-28"],
    baseline: "baseline-2026-07-28.yml",
  },
];

type Status = "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";

interface Check {
  id: string;
  status: Status;
  errorMessage?: string;
}

/** What a baseline line is allowed to say it is waiting for, or why picomcp departs from a check on purpose. */
const ISSUE_COMMENT = /#\s.*(issue 4|deliberate \(issue 13\): )/;

let node = "";

beforeAll(async () => {
  node = await node22();
}, 180_000);

describe("official conformance suite", () => {
  for (const run of RUNS) {
    it(run.title, async () => {
      const cli = await resolveCli(run);
      const baseline = await readBaseline(join(HERE, run.baseline));
      const output = await mkdtemp(join(tmpdir(), "picomcp-conformance-"));
      const listening = await conformanceFixture().serve({ port: 0 });
      const started = performance.now();
      try {
        const args = [cli, "server", "--url", listening.url, ...run.args];
        const exit = await runCli(node, [...args, "--expected-failures", join(HERE, run.baseline), "-o", output]);
        const results = await readResults(output);
        const problems = judge(results, baseline.entries);
        console.log(report(run, results, baseline.entries, exit.code, performance.now() - started));
        expect(baseline.uncommented, `${run.baseline}: every line must name the issue that removes it`).toEqual([]);
        expect(results.size, `no results were written; CLI output:\n${exit.output}`).toBeGreaterThan(0);
        expect(problems, `${run.title} against ${run.baseline}`).toEqual([]);
        expect(exit.code, `the CLI exited ${exit.code}:\n${tail(exit.output)}`).toBe(0);
      } finally {
        await listening.close();
        await rm(output, { recursive: true, force: true });
      }
    }, 150_000);
  }
});

/** A Node ≥ 22 to run the CLIs with (their bundles import `fs.globSync`). */
async function node22(): Promise<string> {
  if (Number(process.versions.node.split(".")[0]) >= 22) return process.execPath;
  const given = process.env.CONFORMANCE_NODE;
  if (given) return given;
  // npx keeps it in its own cache: a node@22 in node_modules would take over `node` for all of npm test.
  // Its preinstall fetches the platform's binary with a nested npm install; pass no --allow-scripts,
  // since the nested install inherits it and then refuses to run (EALLOWSCRIPTS, npm 11).
  const { stdout } = await promisify(execFile)(
    "npx",
    ["-y", "-p", `node@${NODE_22}`, "--", "node", "-p", "process.version + ' ' + process.execPath"],
    { cwd: tmpdir(), timeout: 170_000 },
  );
  const [version, path] = stdout.trim().split("\n").at(-1)!.split(" ");
  if (version !== `v${NODE_22}` || !path) throw new Error(`npx -p node@${NODE_22} gave ${JSON.stringify(stdout)}`);
  return path;
}

/** The CLI's entry point, after checking the installed version is the pinned one. */
async function resolveCli(run: Run): Promise<string> {
  const manifestPath = createRequire(import.meta.url).resolve(`${run.cli}/package.json`);
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as {
    version: string;
    bin: { conformance: string };
  };
  expect(manifest.version, `${run.cli} in node_modules; run npm ci`).toBe(run.version);
  return join(dirname(manifestPath), manifest.bin.conformance);
}

function runCli(node: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: signal ? -1 : code, output: signal ? `${output}\n(killed: ${signal})` : output });
    });
  });
}

/** The `-o` directory: `server-<scenario>-<ISO timestamp with : and . as ->/checks.json` per scenario. */
async function readResults(dir: string): Promise<Map<string, Check[]>> {
  const results = new Map<string, Check[]>();
  for (const entry of (await readdir(dir)).sort()) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry)?.[1];
    if (scenario) results.set(scenario, JSON.parse(await readFile(join(dir, entry, "checks.json"), "utf8")));
  }
  return results;
}

/** The `server:` list of a baseline file, and the lines that do not say which issue they wait for. */
async function readBaseline(path: string): Promise<{ entries: string[]; uncommented: string[] }> {
  const entries: string[] = [];
  const uncommented: string[] = [];
  let inServer = false;
  for (const line of (await readFile(path, "utf8")).split("\n")) {
    if (/^\S/.test(line) && !line.startsWith("#")) inServer = line.startsWith("server:");
    const entry = /^\s+-\s+([^\s#]+)/.exec(line)?.[1];
    if (!inServer || !entry) continue;
    entries.push(entry);
    if (!ISSUE_COMMENT.test(line)) uncommented.push(line.trim());
  }
  return { entries, uncommented };
}

const failed = (check: Check) => check.status === "FAILURE" || check.status === "WARNING";

/**
 * The CLI's baseline rule (a WARNING counts as a failure), applied to every scenario that ran:
 * `scenario` lines must fail, `scenario:check-id` lines excuse that check only and must fail too,
 * anything else must pass, and every line must name a scenario that ran.
 */
function judge(results: Map<string, Check[]>, entries: string[]): string[] {
  const problems = new Set<string>();
  const whole = new Set(entries.filter((entry) => !entry.includes(":")));
  const perCheck = new Map<string, Set<string>>();
  for (const entry of entries.filter((line) => line.includes(":"))) {
    const [scenario, id] = entry.split(":") as [string, string];
    perCheck.set(scenario, (perCheck.get(scenario) ?? new Set()).add(id));
  }
  for (const [scenario, checks] of results) {
    const failing = checks.filter(failed);
    if (whole.has(scenario)) {
      if (failing.length === 0) problems.add(`stale: ${scenario} passes now; remove its baseline line`);
      continue;
    }
    const excused = perCheck.get(scenario) ?? new Set<string>();
    for (const check of failing) {
      if (!excused.has(check.id)) {
        problems.add(`unexpected ${check.status}: ${scenario} ${check.id}: ${check.errorMessage ?? ""}`.trim());
      }
    }
    for (const id of excused) {
      const seen = checks.filter((check) => check.id === id && check.status !== "INFO");
      if (seen.length > 0 && seen.every((check) => check.status === "SUCCESS")) {
        problems.add(`stale: ${scenario}:${id} passes now; remove its baseline line`);
      }
    }
  }
  for (const scenario of [...whole, ...perCheck.keys()]) {
    if (!results.has(scenario)) problems.add(`baseline names ${scenario}, which did not run`);
  }
  return [...problems];
}

/** Pass/fail counts per scenario, as the test's output. */
function report(run: Run, results: Map<string, Check[]>, entries: string[], code: number | null, ms: number): string {
  const count = (checks: Check[], status: Status) => checks.filter((check) => check.status === status).length;
  const all = [...results.values()].flat();
  const excused = (scenario: string, check: Check) =>
    entries.includes(scenario) || entries.includes(`${scenario}:${check.id}`);
  const rows = [...results].map(([scenario, checks]) => {
    const failing = checks.filter(failed);
    const mark = failing.length === 0 ? "✓" : failing.every((check) => excused(scenario, check)) ? "~" : "✗";
    const counts = `${count(checks, "SUCCESS")} passed, ${count(checks, "FAILURE")} failed, ${count(checks, "WARNING")} warnings`;
    return `  ${mark} ${scenario.padEnd(48)} ${counts}${mark === "~" ? "  (baseline)" : ""}`;
  });
  const clean = [...results.values()].filter((checks) => !checks.some(failed)).length;
  return [
    `conformance ${run.title}: CLI exit ${code}, ${(ms / 1000).toFixed(1)} s`,
    `  scenarios: ${results.size} run, ${clean} pass, ${results.size - clean} fail (${entries.length} baseline lines)`,
    `  checks: ${count(all, "SUCCESS")} passed, ${count(all, "FAILURE")} failed, ${count(all, "WARNING")} warnings, ${count(all, "SKIPPED")} skipped`,
    ...rows,
  ].join("\n");
}

function tail(output: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the CLI's colour codes
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const summary = plain.lastIndexOf("=== SUMMARY ===");
  return summary === -1 ? plain.slice(-6000) : plain.slice(summary);
}
