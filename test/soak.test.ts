/**
 * The short soak of `npm test` (the full one is test/soak/soak.ts): a few thousand calls over stdio
 * and HTTP with sessions opening and closing; every request answered exactly once, and no handle,
 * timer or listener left behind. Memory is checked by the full soak, under --expose-gc.
 */
import { describe, expect, it } from "vitest";
import { type Figures, soakHttp, soakStdio } from "./soak/soak.js";

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

  it("HTTP: 1,000 calls on 8 connections with legacy sessions opening and closing, each answered once", async () => {
    const figures = await soakHttp(1_000, 8);
    expect(figures).toMatchObject({ calls: 1_000, answered: 1_000, wrong: 0 });
    expect(figures.sessionsOpened).toBeGreaterThan(0);
    expect(grown(figures)).toEqual({});
    expect(figures.listenersAfter).toBe(figures.listenersBefore);
  });
});
