/**
 * The short soak of `npm test` (the full one is test/soak/soak.ts): a few thousand calls over stdio
 * and HTTP with sessions opening and closing; every request answered exactly once, and no handle,
 * timer or listener left behind. The heap is measured in a child process with a GC: 100,000 stdio calls
 * under a stop signal, as serve() reads; the full soak measures both transports.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { type Figures, soakHttp, soakStdio } from "./soak/soak.js";

const run = promisify(execFile);

/** Handle types that are more numerous after than before (the test runner's own timers may come and go). */
function grown(figures: Figures): Record<string, number> {
  const more: Record<string, number> = {};
  for (const [type, count] of Object.entries(figures.handlesAfter)) {
    if (count > (figures.handlesBefore[type] ?? 0)) more[type] = count - (figures.handlesBefore[type] ?? 0);
  }
  return more;
}

describe("short soak", () => {
  it("stdio: 5,000 calls, 64 in flight, cancellations and failures among them, each answered once", async () => {
    const figures = await soakStdio(5_000);
    expect(figures).toMatchObject({ calls: 5_000, wrong: 0, cancelled: 5 });
    expect(figures.errors).toBeGreaterThan(0);
    expect(grown(figures)).toEqual({});
    expect(figures.listenersAfter).toBe(figures.listenersBefore);
  });

  it("stdio under a stop signal (as serve() reads): the heap while still serving is back at its baseline after GC", async () => {
    // A child process, for a GC to measure with: 100,000 calls, then the heap before the input ends.
    const script = `const { soakStdio } = await import("./test/soak/soak.ts");
      process.stdout.write(JSON.stringify(await soakStdio(100000)));`;
    const { stdout } = await run(
      process.execPath,
      ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", script],
      {
        cwd: fileURLToPath(new URL("..", import.meta.url)),
        timeout: 120_000,
      },
    );
    const figures = JSON.parse(stdout) as Figures;
    expect(figures).toMatchObject({ calls: 100_000, wrong: 0 });
    expect(figures.heapServingMiB! - figures.heapBeforeMiB!, JSON.stringify(figures)).toBeLessThan(5);
  }, 130_000);

  it("HTTP: 1,000 calls on 8 connections with legacy sessions opening and closing, each answered once", async () => {
    const figures = await soakHttp(1_000, 8);
    expect(figures).toMatchObject({ calls: 1_000, answered: 1_000, wrong: 0 });
    expect(figures.sessionsOpened).toBeGreaterThan(0);
    expect(grown(figures)).toEqual({});
    expect(figures.listenersAfter).toBe(figures.listenersBefore);
  });
});
