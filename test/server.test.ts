import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Context, ErrorCode, McpError, pico, Server } from "../src/index.js";
import { AFTER_SHUTDOWN } from "./hardening-helpers.js";
import { signal, within } from "./http-helpers.js";

describe("pico", () => {
  it("refuses an option it does not have, naming it and the ones it has, rather than sending it in serverInfo", () => {
    // A misspelt `limits` would leave the defaults on and publish the object to every client.
    expect(() => pico({ name: "weather", limts: { maxMessageBytes: 1024 } } as never)).toThrow(
      new TypeError(
        'pico() has no option "limts". Its options are name, version, title, description, websiteUrl, icons, instructions, pageSize, requestStateKey, askTimeoutMs, http, limits, signals, auth, state.',
      ),
    );
    expect(() => pico({ name: "weather", toString: "x" } as never)).toThrow('pico() has no option "toString".');
  });

  it("makes a Server, and needs a name; the version defaults to 0.0.0", async () => {
    expect(pico({ name: "github", version: "1.0.0" })).toBeInstanceOf(Server);
    const message = 'pico() needs a name, the server\'s name as clients show it: e.g. pico({ name: "github" }).';
    for (const options of [{}, { version: "1" }, { name: "" }, { name: 42 }]) {
      expect(() => pico(options as never), JSON.stringify(options)).toThrow(new TypeError(message));
    }
    expect(() => pico({ name: "github", version: 1 } as never)).toThrow(
      new TypeError('pico()\'s version must be a string, such as "1.0.0"; got 1. Leave it out for "0.0.0".'),
    );
    const serverInfo = async (server: Server) => {
      const response = await server.fetch(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
          }),
        }),
      );
      return (await response.json()).result.serverInfo;
    };
    expect(await serverInfo(pico({ name: "weather" }))).toEqual({ name: "weather", version: "0.0.0" });
    expect(await serverInfo(pico({ name: "weather", version: "2.1.0", title: "Weather" }))).toEqual({
      name: "weather",
      version: "2.1.0",
      title: "Weather",
    });
  });

  it("rejects a page size that is not a positive integer", () => {
    for (const pageSize of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => pico({ name: "t", version: "1", pageSize }), String(pageSize)).toThrow(
        `pageSize must be a positive integer; got ${pageSize}.`,
      );
    }
    expect(() => pico({ name: "t", version: "1", pageSize: 1 })).not.toThrow();
  });

  it("chains: .tool() returns the same server", () => {
    const server = pico({ name: "t", version: "1" });
    expect(server.tool("a", { run: () => "" })).toBe(server);
  });

  it("asks pico() for an object of options when it gets nothing, or the name alone", () => {
    // Was: "Cannot destructure property 'http' of 'options' as it is undefined", and 'pico() has no option "0"'.
    expect(() => (pico as (options?: unknown) => unknown)()).toThrow(
      new TypeError('pico() takes an object of options: e.g. pico({ name: "github" }); got undefined.'),
    );
    expect(() => (pico as (options?: unknown) => unknown)("github")).toThrow(
      new TypeError('pico() takes an object of options: e.g. pico({ name: "github" }); got "github".'),
    );
  });
});

describe("server.call", () => {
  /** A server whose one tool reports the context it ran with. */
  function recorder() {
    const seen: Context[] = [];
    const server = pico({ name: "t", version: "1" }).tool("probe", {
      run: (_args, ctx) => {
        seen.push(ctx);
        return "ok";
      },
    });
    return { server, seen };
  }

  it("rejects an unknown tool with -32602, naming the registered ones", async () => {
    const server = pico({ name: "t", version: "1" })
      .tool("a", { run: () => "" })
      .tool("b", { run: () => "" });
    const error = await (server as unknown as Server<{ nope: { args: undefined; structured: unknown } }>)
      .call("nope")
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Unknown tool "nope". Registered tools: a, b.',
    });
    const empty = pico({ name: "t", version: "1" }) as Server<{ x: { args: undefined; structured: unknown } }>;
    await expect(empty.call("x")).rejects.toThrow('Unknown tool "x". Registered tools: none.');
    // A long name is cut as the protocol's messages cut it (core/safe.ts's shown). Was: quoted whole.
    const long = "n".repeat(10_000) as "x";
    await expect(empty.call(long)).rejects.toThrow(`Unknown tool "${"n".repeat(200)}…". Registered tools: none.`);
  });

  it("runs in the local era, under the latest protocol, with no request id", async () => {
    const { server, seen } = recorder();
    expect(await server.call("probe")).toEqual({ content: [{ type: "text", text: "ok" }] });
    expect(seen[0]).toMatchObject({
      era: "local",
      protocolVersion: "2026-07-28",
      requestId: undefined,
      meta: undefined,
      client: { info: undefined, capabilities: {} },
    });
    expect(seen[0]!.signal.aborted).toBe(false);
  });

  it("passes meta and the client it pretends to come from", async () => {
    const { server, seen } = recorder();
    const meta = { progressToken: "p1", traceparent: "00-abc-def-01" };
    const client = { info: { name: "inspector", version: "0.1" }, capabilities: { sampling: {} } };
    await server.call("probe", undefined, { meta, client });
    expect(seen[0]!.meta).toBe(meta);
    expect(seen[0]!.client).toEqual(client);
  });

  it("follows the caller's signal into ctx.signal, with its reason, and rejects with it", async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let signal: AbortSignal | undefined;
    const server = pico({ name: "t", version: "1" }).tool("slow", {
      run: (_args, ctx) =>
        new Promise<string>((resolve) => {
          signal = ctx.signal;
          started();
          ctx.signal.addEventListener("abort", () => resolve(`stopped: ${String(ctx.signal.reason)}`));
        }),
    });
    const controller = new AbortController();
    const call = server.call("slow", undefined, { signal: controller.signal });
    await running;
    expect(signal!.aborted).toBe(false);
    controller.abort("user pressed stop");
    expect(signal!.aborted).toBe(true);
    expect(signal!.reason).toBe("user pressed stop");
    // A cancelled call has no result, as a cancelled request gets no response.
    await expect(call).rejects.toBe("user pressed stop");
  });

  it("rejects as soon as the signal aborts, without waiting for a tool that ignores it (as fetch does)", async () => {
    const server = pico({ name: "t", version: "1" }).tool("stuck", { run: () => new Promise<string>(() => {}) });
    const controller = new AbortController();
    const call = server.call("stuck", undefined, { signal: controller.signal });
    setTimeout(() => controller.abort("user pressed stop"), 10);
    const outcome = await Promise.race([
      call.then(
        () => "resolved",
        (reason: unknown) => `rejected: ${String(reason)}`,
      ),
      new Promise((resolve) => setTimeout(() => resolve("still pending after 1 s"), 1000)),
    ]);
    expect(outcome).toBe("rejected: user pressed stop");
  });

  it("starts a call with an already aborted signal already cancelled", async () => {
    const { server, seen } = recorder();
    const reason = new DOMException("gone", "AbortError");
    await expect(server.call("probe", undefined, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(seen[0]!.signal.aborted).toBe(true);
    expect(seen[0]!.signal.reason).toBe(reason);
  });

  it("is not bounded by limits, which bound clients: no cap refuses a call, no handler timeout ends one", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const server = pico({
      name: "t",
      version: "1",
      limits: { maxConcurrentRequests: 1, maxConcurrentRequestsPerConnection: 1, handlerTimeoutMs: 1 },
    }).tool("wait", {
      input: z.object({ n: z.number() }),
      run: async ({ n }) => {
        await gate;
        // Well past handlerTimeoutMs, which would have answered a client's call with a tool error.
        await new Promise((resolve) => setTimeout(resolve, 30));
        return `done ${n}`;
      },
    });
    const calls = [1, 2, 3].map((n) => server.call("wait", { n }));
    open();
    expect(await Promise.all(calls)).toEqual(
      [1, 2, 3].map((n) => ({ content: [{ type: "text", text: `done ${n}` }] })),
    );
  });

  it("validates and returns structured content like tools/call", async () => {
    const server = pico({ name: "t", version: "1" }).tool("get_price", {
      input: z.object({ sku: z.string() }),
      output: z.object({ sku: z.string(), cents: z.number().int(), currency: z.literal("EUR") }),
      run: async ({ sku }) => ({ sku, cents: 100, currency: "EUR" as const }),
    });
    const result = await server.call("get_price", { sku: "A1" });
    expect(result.structuredContent).toEqual({ sku: "A1", cents: 100, currency: "EUR" });
  });
});

describe("server.call and server.close()", () => {
  /** A server whose `wait` tool runs until `gate` opens, telling `started` its ctx.signal, and whose `count` tool counts its runs. */
  function waiting(limits?: { shutdownGraceMs: number }) {
    const gate = signal();
    const started = signal<AbortSignal>();
    const runs = { count: 0 };
    const server = pico({ name: "t", version: "1", limits })
      .tool("wait", {
        run: async (_args, ctx) => {
          started.resolve(ctx.signal);
          await gate.promise;
          return "done";
        },
      })
      .tool("count", {
        run: () => {
          runs.count++;
          return "ran";
        },
      });
    return { server, gate, started: started.promise, runs };
  }

  /** What `call` rejected with (or "resolved"), taken as soon as it settles. */
  const outcome = (call: Promise<unknown>) =>
    call.then(
      () => "resolved",
      (thrown: unknown) => thrown,
    );

  it("waits for a call in progress, which finishes within the grace period with its result", async () => {
    const { server, gate, started } = waiting();
    const call = server.call("wait");
    await started;
    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Was: close() resolved at once, the call still running unseen.
    expect(closed).toBe(false);
    gate.resolve();
    expect(await call).toEqual({ content: [{ type: "text", text: "done" }] });
    await within(closing, 2000, "close()");
  });

  it("aborts ctx.signal of a call still running after the grace period, and rejects it saying the server shut down", async () => {
    const { server, started } = waiting({ shutdownGraceMs: 20 });
    // The tool ignores its signal: the call rejects all the same, as a cancelled one does.
    const call = outcome(server.call("wait"));
    const ctxSignal = await started;
    await within(server.close(), 2000, "close()");
    // Was: the signal never aborted and the call never settled.
    expect(ctxSignal.aborted).toBe(true);
    expect(ctxSignal.reason).toMatchObject({ name: "AbortError", message: "The server is shutting down" });
    const error = await within(call, 2000, "the call's end");
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({
      code: ErrorCode.InternalError,
      message:
        'Server shutting down: server.call("wait") did not finish within the 0.02 s grace period of server.close() (limits.shutdownGraceMs) and was cancelled' +
        AFTER_SHUTDOWN,
    });
  });

  it("runs a call made just before close(), in the same synchronous code, and close() waits for it", async () => {
    const { server, runs } = waiting();
    const call = server.call("count");
    const withCaller = server.call("count", undefined, { auth: { subject: "ada" } });
    const closing = server.close();
    // Was: both refused, "Server closed: … did not run", as if made after close(): the in-process
    // pipeline (and the caller's identity) were still loading when close() came.
    expect(await call).toEqual({ content: [{ type: "text", text: "ran" }] });
    expect(await withCaller).toEqual({ content: [{ type: "text", text: "ran" }] });
    expect(runs.count).toBe(2);
    await within(closing, 2000, "close()");
  });

  it("gives a call made just before close() the grace period, then rejects it saying so", async () => {
    const { server, gate, started } = waiting({ shutdownGraceMs: 200 });
    const call = outcome(server.call("wait"));
    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    const ctxSignal = await within(started, 2000, "the call's start");
    // Was: close() resolved before the call started, and nothing waited for it.
    expect(closed).toBe(false);
    await within(closing, 2000, "close()");
    expect(ctxSignal.aborted).toBe(true);
    expect(await call).toMatchObject({
      code: ErrorCode.InternalError,
      message:
        'Server shutting down: server.call("wait") did not finish within the 0.2 s grace period of server.close() (limits.shutdownGraceMs) and was cancelled' +
        AFTER_SHUTDOWN,
    });
    gate.resolve();
  });

  it("refuses a call made once close() was called, during the shutdown and after it, without running the tool", async () => {
    const { server, gate, started, runs } = waiting();
    const call = server.call("wait");
    await started;
    const closing = server.close();
    const refusal = (name: string) =>
      `Server closed: server.close() was called, so server.call("${name}") did not run; the server accepts no new calls.`;
    // Was: both ran the tool, the second on a server that had shut down.
    const during = await outcome(server.call("count"));
    expect(during).toBeInstanceOf(McpError);
    expect(during).toMatchObject({ code: ErrorCode.InternalError, message: refusal("count") });
    gate.resolve();
    await call;
    await closing;
    const after = await outcome(server.call("count"));
    expect(after).toBeInstanceOf(McpError);
    expect(after).toMatchObject({ code: ErrorCode.InternalError, message: refusal("count") });
    expect(runs.count).toBe(0);
  });
});
