import { describe, expect, it } from "vitest";
import { RequestContext } from "../src/core/context.js";

function context() {
  return new RequestContext({
    id: 7,
    meta: { progressToken: 1 },
    protocolVersion: "2025-11-25",
    era: "legacy",
    clientInfo: { name: "c", version: "1" },
    clientCapabilities: { roots: {} },
  });
}

describe("RequestContext", () => {
  it("exposes what the request carried", () => {
    expect(context()).toMatchObject({
      requestId: 7,
      meta: { progressToken: 1 },
      protocolVersion: "2025-11-25",
      era: "legacy",
      client: { info: { name: "c", version: "1" }, capabilities: { roots: {} } },
      cancelled: false,
    });
  });

  it("gives one signal per request, not aborted until cancelled", () => {
    const ctx = context();
    expect(ctx.signal).toBe(ctx.signal);
    expect(ctx.signal.aborted).toBe(false);
  });

  it("aborts a signal read before the cancel, with the reason", () => {
    const ctx = context();
    const signal = ctx.signal;
    const reasons: unknown[] = [];
    signal.addEventListener("abort", () => reasons.push(signal.reason));
    const reason = new DOMException("user pressed stop", "AbortError");
    ctx.cancel(reason);
    expect(ctx.cancelled).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(reasons).toEqual([reason]);
  });

  it("hands out an already aborted signal when read after the cancel", () => {
    const ctx = context();
    ctx.cancel("late reader");
    expect(ctx.signal.aborted).toBe(true);
    expect(ctx.signal.reason).toBe("late reader");
  });

  it("keeps the first reason when cancelled twice", () => {
    const ctx = context();
    ctx.cancel("first");
    ctx.cancel("second");
    expect(ctx.signal.reason).toBe("first");
  });

  it("follows an outside signal that aborts later", () => {
    const ctx = context();
    const controller = new AbortController();
    ctx.follow(controller.signal);
    expect(ctx.cancelled).toBe(false);
    controller.abort("dropped");
    expect(ctx.cancelled).toBe(true);
    expect(ctx.signal.reason).toBe("dropped");
  });

  it("follows an outside signal that is already aborted", () => {
    const ctx = context();
    ctx.follow(AbortSignal.abort("already"));
    expect(ctx.cancelled).toBe(true);
    expect(ctx.signal.aborted).toBe(true);
    expect(ctx.signal.reason).toBe("already");
  });

  it("ignores a missing outside signal", () => {
    const ctx = context();
    ctx.follow(undefined);
    expect(ctx.cancelled).toBe(false);
    expect(ctx.signal.aborted).toBe(false);
  });
});
