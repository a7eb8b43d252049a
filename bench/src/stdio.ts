/**
 * `npm run stdio --prefix bench`: every library serves the same workload over stdio, interleaved in
 * rounds; the table gives medians over rounds and picomcp's ratios to the others.
 *
 * Options: --rounds N (default 5), --seconds S of measured throughput per round (default 2),
 * --window N calls in flight (default 64), --cold N extra start-ups per round that only time the
 * first answer (default 2; the round's figure is their median with the measured run's), --only <label>.
 */
import { buildServers, server } from "./build.js";
import { format, median, option, ratio, rotate, save, table } from "./lib.js";
import { runStdio, type StdioRun, type StdioTarget } from "./stdio-load.js";
import type { Era } from "./workload.js";

const LIBRARIES: (StdioTarget & { eras: Era[] })[] = [
  { label: "bare", file: server("bare-stdio"), eras: ["legacy", "modern"] },
  { label: "bare+zod", file: server("bare-stdio"), args: ["--zod"], eras: ["legacy", "modern"] },
  { label: "picomcp", file: server("picomcp-stdio"), eras: ["legacy", "modern"] },
  { label: "SDK v1", file: server("sdk1-stdio"), eras: ["legacy"] },
  { label: "SDK v2", file: server("sdk2-stdio"), eras: ["legacy", "modern"] },
];

const rounds = option("rounds", 5);
const plan = {
  extraColdStarts: option("cold", 2),
  warmupMs: 700,
  sequentialCalls: 2000,
  burstMs: option("seconds", 2) * 1000,
  window: option("window", 64),
};
const only = option("only", undefined);

await buildServers();
const combos = LIBRARIES.flatMap((library) => library.eras.map((era) => ({ library, era }))).filter(
  ({ library }) => !only || library.label === only,
);
const runs = new Map<string, StdioRun[]>();
for (let round = 0; round < rounds; round++) {
  for (const { library, era } of rotate(combos, round)) {
    const run = await runStdio(library, era, plan);
    const key = `${era}:${library.label}`;
    runs.set(key, [...(runs.get(key) ?? []), run]);
    process.stderr.write(
      `round ${round + 1}/${rounds} ${era.padEnd(6)} ${library.label.padEnd(8)} cold ${format(run.coldMs)} ms, ${format(run.callsPerSecond)} calls/s, ${format(run.cpuMicrosPerCall, 1)} µs CPU/call\n`,
    );
  }
}

const METRICS: { key: keyof StdioRun; label: string; digits: number }[] = [
  { key: "coldMs", label: "cold start to first answer (ms)", digits: 0 },
  { key: "p50Micros", label: "sequential call p50 (µs)", digits: 0 },
  { key: "p99Micros", label: "sequential call p99 (µs)", digits: 0 },
  { key: "callsPerSecond", label: `calls/s, ${plan.window} in flight`, digits: 0 },
  { key: "cpuMicrosPerCall", label: "server CPU per call (µs)", digits: 1 },
  { key: "peakRssMiB", label: "peak RSS (MiB)", digits: 1 },
];

const summary: Record<string, Record<string, Record<string, number>>> = {};
for (const era of ["legacy", "modern"] as Era[]) {
  const labels = LIBRARIES.filter((library) => library.eras.includes(era) && runs.has(`${era}:${library.label}`)).map(
    (library) => library.label,
  );
  if (labels.length === 0) continue;
  const medians: Record<string, Record<string, number>> = {};
  for (const label of labels) {
    const list = runs.get(`${era}:${label}`)!;
    medians[label] = Object.fromEntries(METRICS.map(({ key }) => [key, median(list.map((run) => run[key]))]));
  }
  summary[era] = medians;
  const pico = medians.picomcp;
  const against = ["bare", "bare+zod", "SDK v1", "SDK v2"].filter((label) => medians[label] && pico);
  const title =
    era === "legacy"
      ? "stdio, 2025-11-25 (initialize, then calls)"
      : "stdio, 2026-07-28 (server/discover, then calls with the _meta envelope)";
  console.log(`\n### ${title}: medians of ${rounds} rounds\n`);
  console.log(
    table(
      ["", ...labels, ...against.map((label) => `picomcp / ${label}`)],
      METRICS.map(({ key, label, digits }) => [
        label,
        ...labels.map((name) => format(medians[name]![key], digits)),
        ...against.map((name) => ratio(pico?.[key], medians[name]![key])),
      ]),
    ),
  );
}
const file = save("stdio", { plan, rounds, summary, runs: Object.fromEntries(runs) });
console.log(`\nwrote ${file}`);
