import { describe, expect, it } from "vitest";
import type { Context } from "../src/core/context.js";
import type { Inflight } from "../src/core/dispatch.js";
import { LOG_LEVELS } from "../src/core/envelope.js";
import type { JsonRpcMessage } from "../src/core/jsonrpc.js";
import { Registry } from "../src/core/registry.js";
import { compileTool } from "../src/core/tools.js";
import { core, SERVER_INFO } from "./core-helpers.js";

/** A registry with one tool, `name`, whose run is `run`. */
function registryWith(run: (args: unknown, ctx: Context) => unknown, name = "work"): Registry {
  const registry = new Registry(SERVER_INFO);
  registry.addTool(compileTool(name, { run }));
  return registry;
}

/** Logs one message at each level, the logger name given for the first only. */
const logAll = (_args: unknown, ctx: Context) => {
  for (const level of LOG_LEVELS) ctx.log[level]({ said: level }, level === "debug" ? "fixture" : undefined);
  return "logged";
};

const levelsOf = (messages: JsonRpcMessage[]) =>
  messages.map((message) => (message as unknown as { params: { level: string } }).params.level);

describe("ctx.log in a 2025 session", () => {
  it("sends info and above until the client sets a level", async () => {
    const { legacy, notifications } = await core(registryWith(logAll));
    await legacy("tools/call", { name: "work" });
    expect(levelsOf(notifications)).toEqual(LOG_LEVELS.slice(1));
    expect(notifications[0]).toEqual({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "info", data: { said: "info" } },
    });
  });

  it("follows logging/setLevel, for the rest of the session", async () => {
    const { legacy, notifications } = await core(registryWith(logAll));
    expect((await legacy("logging/setLevel", { level: "error" }))?.result).toEqual({});
    await legacy("tools/call", { name: "work" });
    expect(levelsOf(notifications)).toEqual(["error", "critical", "alert", "emergency"]);
    notifications.length = 0;
    await legacy("logging/setLevel", { level: "debug" });
    await legacy("tools/call", { name: "work" });
    expect(levelsOf(notifications)).toEqual([...LOG_LEVELS]);
    expect(notifications[0]).toMatchObject({ params: { level: "debug", logger: "fixture", data: { said: "debug" } } });
  });

  it("keeps each session's level to itself", async () => {
    const registry = registryWith(logAll);
    const quiet = await core(registry);
    const loud = await core(registry);
    await quiet.legacy("logging/setLevel", { level: "emergency" });
    await quiet.legacy("tools/call", { name: "work" });
    await loud.legacy("tools/call", { name: "work" });
    expect(levelsOf(quiet.notifications)).toEqual(["emergency"]);
    expect(levelsOf(loud.notifications)).toEqual(LOG_LEVELS.slice(1));
  });

  it("answers an unknown level with -32602 and keeps the old one", async () => {
    const { legacy, notifications } = await core(registryWith(logAll));
    expect((await legacy("logging/setLevel", { level: "verbose" }))?.error).toEqual({
      code: -32602,
      message: "Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, emergency",
    });
    await legacy("tools/call", { name: "work" });
    expect(levelsOf(notifications)).toEqual(LOG_LEVELS.slice(1));
  });
});

describe("ctx.log in 2026-07-28", () => {
  it("sends nothing without a log level in the request's _meta", async () => {
    const { modern, notifications } = await core(registryWith(logAll));
    expect((await modern("tools/call", { name: "work" }))?.result).toMatchObject({ content: [{ text: "logged" }] });
    expect(notifications).toEqual([]);
  });

  it("sends the request's level and above", async () => {
    const { modern, notifications } = await core(registryWith(logAll));
    await modern("tools/call", { name: "work" }, { meta: { "io.modelcontextprotocol/logLevel": "warning" } });
    expect(levelsOf(notifications)).toEqual(["warning", "error", "critical", "alert", "emergency"]);
  });

  it("answers an unknown level with -32602", async () => {
    const { modern } = await core(registryWith(logAll));
    const response = await modern(
      "tools/call",
      { name: "work" },
      { meta: { "io.modelcontextprotocol/logLevel": "loud" } },
    );
    expect(response?.error).toMatchObject({ code: -32602, message: expect.stringContaining("logLevel") });
  });

  it("has no logging/setLevel", async () => {
    const { modern } = await core(registryWith(logAll));
    expect((await modern("logging/setLevel", { level: "debug" }))?.error).toMatchObject({ code: -32601 });
  });
});

describe("ctx.progress", () => {
  /** Reports the given steps, each [progress, total?, message?]. */
  const reporting =
    (...steps: [number, number?, string?][]) =>
    (_args: unknown, ctx: Context) => {
      for (const [value, total, message] of steps) ctx.progress(value, total, message);
      return "done";
    };

  it("echoes the caller's token with its type, and leaves out total and message when not given", async () => {
    const { legacy, modern, notifications } = await core(registryWith(reporting([1, 10, "one of ten"], [2])));
    await legacy("tools/call", { name: "work" }, { meta: { progressToken: 7 } });
    await modern("tools/call", { name: "work" }, { meta: { progressToken: "seven" } });
    expect(notifications).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: 7, progress: 1, total: 10, message: "one of ten" },
      },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 7, progress: 2 } },
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "seven", progress: 1, total: 10, message: "one of ten" },
      },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "seven", progress: 2 } },
    ]);
  });

  it("drops a value that does not increase", async () => {
    const { legacy, notifications } = await core(registryWith(reporting([0.5], [0.5], [0.25], [0.75], [-1], [1.5])));
    await legacy("tools/call", { name: "work" }, { meta: { progressToken: "p" } });
    expect(
      notifications.map((message) => (message as unknown as { params: { progress: number } }).params.progress),
    ).toEqual([0.5, 0.75, 1.5]);
  });

  it("sends nothing without a token", async () => {
    const { legacy, modern, notifications } = await core(registryWith(reporting([1, 2])));
    await legacy("tools/call", { name: "work" });
    await modern("tools/call", { name: "work" });
    expect(notifications).toEqual([]);
  });

  it("sends nothing for a token that is not a string or an integer, as if none were sent", async () => {
    const { legacy, modern, notifications } = await core(registryWith(reporting([1, 2])));
    // 2025-11-25 "Progress": a token is a string or an integer; 2 ** 60 is one no JSON reader keeps exactly.
    for (const progressToken of [{ id: 1 }, ["p"], null, true, 1.5, 2 ** 60]) {
      const legacyAnswer = await legacy("tools/call", { name: "work" }, { meta: { progressToken } });
      const modernAnswer = await modern("tools/call", { name: "work" }, { meta: { progressToken } });
      expect([legacyAnswer, modernAnswer]).toMatchObject([
        { result: { content: [{ type: "text", text: "done" }] } },
        { result: { content: [{ type: "text", text: "done" }] } },
      ]);
    }
    expect(notifications).toEqual([]);
  });

  it("sends nothing once the response is out", async () => {
    let late: Context | undefined;
    const { legacy, notifications } = await core(
      registryWith((_args, ctx) => {
        late = ctx;
        ctx.progress(1);
        return "done";
      }),
    );
    await legacy("tools/call", { name: "work" }, { meta: { progressToken: "p" } });
    late!.progress(2);
    late!.log.emergency("too late");
    expect(notifications).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1 } },
    ]);
  });

  it("sends nothing, and no log messages either, once the client has cancelled the request", async () => {
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const { dispatcher, peer, notifications } = await core(
      registryWith(async (_args, ctx) => {
        ctx.progress(1);
        started();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        ctx.progress(2);
        ctx.log.error("after the cancel");
        return "done";
      }),
    );
    const inflight: Inflight = new Map();
    const response = dispatcher.answer(
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "work", _meta: { progressToken: "p" } } },
      peer,
      { inflight, emit: (message) => notifications.push(message) },
    );
    await running;
    dispatcher.notification(
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5, reason: "stop" } },
      peer,
      inflight,
    );
    release();
    expect(await response).toBeUndefined();
    expect(notifications).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1 } },
    ]);
  });
});
