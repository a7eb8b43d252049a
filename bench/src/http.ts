/**
 * `npm run http --prefix bench`: every library serves the same workload over Streamable HTTP on
 * 127.0.0.1, in each mode it supports, interleaved in rounds; then the JS heap per idle legacy session.
 * Tables give medians over rounds and picomcp's ratios to the others.
 *
 * Options: --rounds N (default 3), --seconds S measured per round and mode (default 3),
 * --connections N keep-alive connections (default 32), --sessions N idle sessions (default 1000),
 * --only <label>, --mode <modern|stateless|sessions>.
 */
import { buildServers, server } from "./build.js";
import { type HttpTarget, type Load, MODES, type Mode, runHttp, sessionHeap } from "./http-load.js";
import { format, median, option, ratio, rotate, save, table } from "./lib.js";

const ALL: Mode[] = ["modern", "stateless", "sessions"];
const LIBRARIES: HttpTarget[] = [
  { label: "bare", file: server("bare-http"), modes: ALL },
  { label: "bare+zod", file: server("bare-http"), args: ["--zod"], modes: ALL },
  { label: "picomcp", file: server("picomcp-http"), modes: ALL },
  { label: "SDK v1", file: server("sdk1-http"), modes: ["stateless", "sessions"] },
  { label: "SDK v2", file: server("sdk2-http"), modes: ALL },
];

const rounds = option("rounds", 3);
const plan = { connections: option("connections", 32), warmupMs: 1000, measureMs: option("seconds", 3) * 1000 };
const sessionCount = option("sessions", 1000);
const only = option("only", undefined);
const onlyMode = option("mode", undefined);

await buildServers();
const libraries = LIBRARIES.filter((library) => !only || library.label === only);
const combos = libraries.flatMap((library) =>
  library.modes.filter((mode) => !onlyMode || mode === onlyMode).map((mode) => ({ library, mode })),
);
const runs = new Map<string, Load[]>();
const heaps = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  for (const { library, mode } of rotate(combos, round)) {
    const run = await runHttp(library, mode, plan);
    const key = `${mode}:${library.label}`;
    runs.set(key, [...(runs.get(key) ?? []), run]);
    process.stderr.write(
      `round ${round + 1}/${rounds} ${mode.padEnd(9)} ${library.label.padEnd(8)} ${format(run.callsPerSecond)} calls/s, p50 ${format(run.p50Ms, 2)} ms, ${format(run.cpuMicrosPerCall)} µs CPU/call\n`,
    );
  }
  if (onlyMode && onlyMode !== "sessions") continue;
  for (const library of rotate(libraries, round)) {
    const bytes = await sessionHeap(library, sessionCount, plan.connections);
    heaps.set(library.label, [...(heaps.get(library.label) ?? []), bytes]);
    process.stderr.write(
      `round ${round + 1}/${rounds} heap      ${library.label.padEnd(8)} ${format(bytes / 1024, 2)} KiB/session\n`,
    );
  }
}

const METRICS: { key: keyof Load; label: string; digits: number }[] = [
  { key: "callsPerSecond", label: `calls/s, ${plan.connections} connections`, digits: 0 },
  { key: "p50Ms", label: "call latency p50 (ms)", digits: 2 },
  { key: "p99Ms", label: "call latency p99 (ms)", digits: 2 },
  { key: "cpuMicrosPerCall", label: "server CPU per call (µs)", digits: 0 },
];
const AGAINST = ["bare", "bare+zod", "SDK v1", "SDK v2"];
const summary: Record<string, Record<string, Record<string, number>>> = {};
for (const { mode, title } of MODES) {
  const labels = libraries.map((library) => library.label).filter((label) => runs.has(`${mode}:${label}`));
  if (labels.length === 0) continue;
  const medians: Record<string, Record<string, number>> = {};
  for (const label of labels) {
    const list = runs.get(`${mode}:${label}`)!;
    medians[label] = Object.fromEntries(METRICS.map(({ key }) => [key, median(list.map((run) => run[key]))]));
  }
  summary[mode] = medians;
  const against = AGAINST.filter((label) => medians[label] && medians.picomcp);
  console.log(`\n### HTTP, ${title}: medians of ${rounds} rounds\n`);
  console.log(
    table(
      ["", ...labels, ...against.map((label) => `picomcp / ${label}`)],
      METRICS.map(({ key, label, digits }) => [
        label,
        ...labels.map((name) => format(medians[name]![key], digits)),
        ...against.map((name) => ratio(medians.picomcp?.[key], medians[name]![key])),
      ]),
    ),
  );
}
const heapMedians = Object.fromEntries([...heaps].map(([label, list]) => [label, median(list) / 1024]));
if (heaps.size > 0) {
  const labels = [...heaps.keys()];
  const against = AGAINST.filter((label) => heapMedians[label] !== undefined && heapMedians.picomcp !== undefined);
  console.log(
    `\n### HTTP, JS heap per idle legacy session (${sessionCount} sessions, after full GC): medians of ${rounds} rounds\n`,
  );
  console.log(
    table(
      ["", ...labels, ...against.map((label) => `picomcp / ${label}`)],
      [
        [
          "KiB per idle session",
          ...labels.map((label) => format(heapMedians[label], 2)),
          ...against.map((label) => ratio(heapMedians.picomcp, heapMedians[label])),
        ],
      ],
    ),
  );
}
const file = save("http", {
  plan,
  rounds,
  sessionCount,
  summary,
  heapKiBPerSession: heapMedians,
  runs: Object.fromEntries(runs),
  heaps: Object.fromEntries(heaps),
});
console.log(`\nwrote ${file}`);
