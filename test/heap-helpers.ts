/**
 * The tests' side of the idle sessions' heap fixtures (test/fixtures/heap-snapshots.ts): each runs in a
 * process of its own, so that the heap it measures is its server's. And `collect`, for a test that
 * checks, with a WeakRef, that what it made is garbage.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect } from "vitest";
import { type Kept, SESSIONS } from "./fixtures/heap-snapshots.js";

/** Runs `fixture` (a path from the repository's root) with `env`: what it measured, in order. */
export async function measureHeap(fixture: string, env: Record<string, string> = {}): Promise<Kept[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", fixture], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return stdout
    .trim()
    .split("\n")
    .map((line): Kept => JSON.parse(line));
}

/** `kept` measured every session, each at most `budget` bytes; the message says what they keep. */
export function expectWithin(kept: Kept | undefined, budget: number): void {
  expect(kept?.sessions).toBe(SESSIONS);
  expect(kept?.bytesPerSession, `bytes per session by constructor: ${JSON.stringify(kept?.top)}`).toBeLessThan(budget);
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Collects garbage until it is gone: a WeakRef's target stays alive until the job that made it ends. */
export async function collect(): Promise<void> {
  for (let pass = 0; pass < 4; pass++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
