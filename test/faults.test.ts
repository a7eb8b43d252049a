/**
 * Faults: clients that leave, cancellation storms, handlers that never settle or throw odd values,
 * unhandled rejections, stdin closing mid-message, and graceful shutdown on close(), EOF, SIGTERM
 * and SIGINT, in-process (serveLines, server.fetch) and on real child processes and sockets.
 */
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Registry } from "../src/core/registry.js";
import type { Schema } from "../src/core/schema.js";
import { compileTool, type ToolConfig } from "../src/core/tools.js";
import { type Context, pico } from "../src/index.js";
import type { Limits } from "../src/limits/options.js";
import { serveLines } from "../src/transports/stdio.js";
import { serverDispatcher } from "./core-helpers.js";
import { AFTER_SHUTDOWN, Child, call, checkLine, killChildren, MODERN_META, pipe } from "./hardening-helpers.js";
import { modern, signal, within } from "./http-helpers.js";

afterAll(killChildren);

type AnyTool = ToolConfig<Schema | undefined, Schema | undefined>;
const line = (message: unknown) => `${JSON.stringify(message)}\n`;

function dispatcher(limits: Limits = {}, tools: Record<string, AnyTool> = {}) {
  const registry = new Registry({ name: "faults", version: "1" });
  registry.addTool(
    compileTool("echo", { input: z.object({ s: z.string() }), run: ({ s }: { s: string }) => s } as unknown as AnyTool),
  );
  for (const [name, config] of Object.entries(tools)) registry.addTool(compileTool(name, config));
  return serverDispatcher(registry, limits);
}

describe("faults in-process", () => {
  it("survives a cancellation storm: cancelled ids get nothing, the rest all answer once", async () => {
    const aborted = new Set<unknown>();
    const waitTool = {
      run: (_args: unknown, ctx: Context) =>
        new Promise((resolve) =>
          ctx.signal.addEventListener("abort", () => {
            aborted.add(ctx.requestId);
            resolve("late");
          }),
        ),
    } as unknown as AnyTool;
    const io = pipe();
    const served = serveLines(dispatcher({}, { wait: waitTool }), io);
    for (let id = 0; id < 200; id++) io.push(line(call(`w${id}`, "wait")));
    const storm: string[] = [];
    for (let id = 0; id < 200; id++) {
      const cancel = (requestId: unknown) =>
        line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "storm" } });
      storm.push(cancel(`w${id}`), cancel(`w${id}`), cancel(`unknown${id}`), cancel({ not: "an id" }));
      storm.push(line(call(`e${id}`, "echo", { s: String(id) })));
    }
    io.push(storm.join(""));
    io.end();
    await within(served, 5000, "serveLines resolving");
    const messages = io.messages();
    expect(aborted.size).toBe(200);
    expect(messages.filter((message) => String(message.id).startsWith("w"))).toEqual([]);
    const echoes = messages.map((message) => message.id).sort();
    expect(echoes).toEqual(Array.from({ length: 200 }, (_, id) => `e${id}`).sort());
  });

  it("stops reading stdin while the client does not read stdout (backpressure), and resumes once it drains", async () => {
    let pulled = 0;
    const total = 20;
    const input: AsyncIterable<string> = {
      async *[Symbol.asyncIterator]() {
        for (let id = 0; id < total; id++) {
          // Each line arrives on its own turn of the event loop, as from a real pipe.
          await new Promise((resolve) => setImmediate(resolve));
          pulled++;
          yield line(call(id, "echo", { s: "x" }));
        }
      },
    };
    const written: string[] = [];
    let full = true;
    const drain = signal();
    const served = serveLines(dispatcher(), {
      input,
      write: (chunk) => {
        written.push(chunk);
        return !full;
      },
      drained: () => drain.promise,
    });
    // The first answer fills the pipe: reading stops there (after the read already under way).
    while (written.length === 0) await new Promise((resolve) => setImmediate(resolve));
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    const stalledAt = pulled;
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(pulled).toBe(stalledAt);
    expect(pulled).toBeLessThan(total);
    full = false;
    drain.resolve();
    await within(served, 5000, "serveLines resolving");
    expect(pulled).toBe(total);
    expect(written.join("").split("\n").filter(Boolean)).toHaveLength(total);
  });

  it("answers a handler that never settles with -32603 once the input ends and the grace period is over", async () => {
    const io = pipe();
    const hang = { run: () => new Promise(() => {}) } as unknown as AnyTool;
    const served = serveLines(dispatcher({ shutdownGraceMs: 50 }, { hang }), io);
    io.push(line(call(1, "hang")), line(call(2, "echo", { s: "ok" })));
    io.end();
    await within(served, 5000, "serveLines resolving despite the handler");
    expect(io.messages()).toEqual([
      expect.objectContaining({ id: 2, result: expect.anything() }),
      {
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32603,
          message:
            'Server shutting down: "tools/call" did not finish within the 0.05 s grace period of the shutdown (limits.shutdownGraceMs) and was cancelled' +
            AFTER_SHUTDOWN,
        },
      },
    ]);
  });

  // Node (and Bun) fire a timer set past 2^31 - 1 ms after 1 ms: a grace that long, or Infinity (no
  // limit, docs/limits.md), cancelled every request in progress as soon as the input ended.
  it.each([Infinity, 2 ** 31])(
    "gives requests in progress all the time they take once the input ends, with shutdownGraceMs %s",
    async (shutdownGraceMs) => {
      const io = pipe();
      const slow = { run: () => new Promise((resolve) => setTimeout(resolve, 200, "done")) } as unknown as AnyTool;
      const served = serveLines(dispatcher({ shutdownGraceMs }, { slow }), io);
      io.push(line(call(1, "slow")));
      io.end();
      await within(served, 5000, "serveLines resolving once the tool answered");
      expect(io.messages()).toEqual([
        expect.objectContaining({
          id: 1,
          result: expect.objectContaining({ content: [{ type: "text", text: "done" }] }),
        }),
      ]);
    },
  );

  it("turns whatever a handler throws into a tool error with a message, never a crash or a stack", async () => {
    const values: Record<string, () => unknown> = {
      string: () => "plain string",
      number: () => 42,
      undefined: () => undefined,
      null: () => null,
      symbol: () => Symbol("s"),
      bigint: () => 10n,
      object: () => ({ code: 7, detail: ["a"] }),
      cyclic: () => {
        const value: Record<string, unknown> = {};
        value.self = value;
        return value;
      },
      badJson: () => ({
        toJSON() {
          throw new Error("no JSON");
        },
        toString() {
          throw new Error("no string");
        },
      }),
      proxy: () =>
        new Proxy(
          {},
          {
            getPrototypeOf() {
              throw new Error("trap");
            },
            get() {
              throw new Error("trap");
            },
          },
        ),
      errorWithBadMessage: () => {
        const error = new Error("x");
        Object.defineProperty(error, "message", {
          get() {
            throw new Error("getter");
          },
        });
        return error;
      },
      errorWithStack: () => new Error("visible message"),
    };
    const tools: Record<string, AnyTool> = {};
    for (const [name, make] of Object.entries(values)) {
      tools[name] = {
        run: () => {
          throw make();
        },
      } as unknown as AnyTool;
      tools[`async_${name}`] = { run: async () => Promise.reject(make()) } as unknown as AnyTool;
    }
    const io = pipe();
    const served = serveLines(dispatcher({}, tools), io);
    for (const name of Object.keys(tools)) io.push(line(call(name, name)));
    io.end();
    await served;
    const lines = io.lines();
    expect(lines).toHaveLength(Object.keys(tools).length);
    for (const text of lines) {
      const message = checkLine(text) as { id: string; result: { isError: boolean; content: { text: string }[] } };
      expect(message.result.isError, text).toBe(true);
      expect(message.result.content[0]!.text, text).toBeTypeOf("string");
    }
    const byId = Object.fromEntries(
      io
        .messages()
        .map((message) => [message.id, (message.result as { content: { text: string }[] }).content[0]!.text]),
    );
    expect(byId.string).toBe("plain string");
    expect(byId.async_number).toBe("42");
    expect(byId.undefined).toBe("undefined");
    expect(byId.errorWithStack).toBe("visible message");
  });

  it("answers a result JSON cannot carry with -32603 for its id, and keeps serving", async () => {
    const app = pico({ name: "x", version: "1", signals: false }).resource("big://n", {
      read: () => ({ uri: "big://n", text: "t", _meta: { n: 10n } }) as never,
    });
    const response = await app.fetch(modern("resources/read", { uri: "big://n" }, {}, { id: "big" }));
    const body = await response.json();
    expect(body).toMatchObject({ id: "big", error: { code: -32603 } });
    expect(body.error.message).toMatch(/^Internal error: the response cannot be sent as JSON: /);
  });

  it("aborts ctx.signal when an HTTP client goes away mid-request, and writes nothing for it", async () => {
    const started = signal();
    const aborted = signal<unknown>();
    const app = pico({ name: "x", version: "1", signals: false }).tool("wait", {
      run: (_args, ctx) =>
        new Promise((resolve) => {
          started.resolve();
          ctx.signal.addEventListener("abort", () => {
            aborted.resolve(ctx.signal.reason);
            resolve("too late");
          });
        }),
    });
    const gone = new AbortController();
    const pending = app.fetch(modern("tools/call", { name: "wait" }, {}, { signal: gone.signal }));
    await started.promise;
    gone.abort();
    await within(aborted.promise);
    const response = await pending;
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("graceful close(): refuses new requests with 503, lets one in progress finish, answers what outlives the grace", async () => {
    const gate = signal();
    const app = pico({ name: "x", version: "1", limits: { shutdownGraceMs: 100 }, signals: false })
      .tool("gated", {
        run: async () => {
          await gate.promise;
          return "finished in time";
        },
      })
      .tool("hang", { run: () => new Promise<string>(() => {}) });
    const finishing = app.fetch(modern("tools/call", { name: "gated" }));
    const hanging = app.fetch(modern("tools/call", { name: "hang" }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const closed = app.close();
    const refused = await app.fetch(modern("tools/call", { name: "gated" }));
    expect(refused.status).toBe(503);
    expect((await refused.json()).error.message).toBe(
      "Server shutting down: it accepts no new requests; send this one again in a moment, to another instance of the server or to this one once restarted",
    );
    gate.resolve();
    expect((await (await finishing).json()).result.content[0].text).toBe("finished in time");
    expect((await (await hanging).json()).error.message).toMatch(/^Server shutting down: "tools\/call" did not finish/);
    await within(closed, 2000, "close() resolving");
  });
});

describe("faults on a real child process (stdio)", () => {
  it("keeps stdout for protocol: a log line written once serve() is called goes to stderr", async () => {
    const child = new Child();
    child.send(call(1, "echo", { s: "hi" }));
    await child.response(1);
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    for (const text of child.lines) checkLine(text);
    expect(child.stderr).toContain("hardening fixture: starting");
    expect(child.stderr).toContain("hardening fixture: serving");
    expect(child.stderr).toContain("stdin ended, serve() resolved");
  });

  it("logs an unhandled rejection in user code to stderr and keeps serving", async () => {
    const child = new Child();
    child.send(call(1, "reject_unhandled"));
    expect((await child.response(1)).result).toMatchObject({ content: [{ text: "still here" }] });
    await child.until(() => child.stderr.includes("an unhandled rejection from user code"));
    child.send(call(2, "echo", { s: "alive" }));
    expect((await child.response(2)).result).toMatchObject({ content: [{ text: "alive" }] });
    expect(child.stderr).toContain("picomcp: an unhandled promise rejection");
    child.process.stdin.end();
    expect((await child.exited).code).toBe(0);
  });

  it("answers a message cut off by the end of stdin, then exits 0", async () => {
    const child = new Child();
    child.send(call(1, "echo", { s: "whole" }));
    child.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ec');
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    const messages = child.messages();
    expect(messages[0]).toMatchObject({ id: 1 });
    expect(messages[1]).toMatchObject({ error: { code: -32700 } });
    expect(child.partial).toBe("");
  });

  it("on stdin EOF gives requests in progress the grace period, then answers the rest and exits 0", async () => {
    const child = new Child({ HARDEN_GRACE: "300" });
    child.send(call(1, "sleep", { ms: 100 }));
    child.send(call(2, "hang"));
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    const byId = Object.fromEntries(child.messages().map((message) => [message.id, message]));
    expect(byId[1]).toMatchObject({ result: { content: [{ text: "slept 100 ms" }] } });
    expect(byId[2]).toMatchObject({ error: { code: -32603 } });
  });

  for (const name of ["SIGTERM", "SIGINT"] as const) {
    it(`on ${name} stops reading, lets a request finish within the grace period, answers the rest, exits 0`, async () => {
      const child = new Child({ HARDEN_GRACE: "1500" });
      child.send(call(0, "echo", { s: "ready" }));
      await child.response(0);
      child.send(call(1, "sleep", { ms: 200 }));
      child.send(call(2, "hang"));
      await new Promise((resolve) => setTimeout(resolve, 50));
      child.process.kill(name);
      expect(await child.exited).toEqual({ code: 0, signal: null });
      const byId = Object.fromEntries(child.messages().map((message) => [message.id, message]));
      expect(byId[1]).toMatchObject({ result: { content: [{ text: "slept 200 ms" }] } });
      expect(byId[2]).toMatchObject({
        error: { code: -32603, message: expect.stringMatching(/^Server shutting down/) },
      });
      expect(child.stderr).toContain(`picomcp: ${name}, shutting down`);
    });
  }

  it("exits once close() is called before stdio serving has started, though the client keeps stdin open", async () => {
    const child = new Child({ HARDEN_CLOSE_AT_ONCE: "1" });
    // stdin is never ended: only the server letting go of it lets the process end.
    expect(await within(child.exited, 10_000, "the process exiting")).toEqual({ code: 0, signal: null });
    expect(child.stderr).toContain("serve() resolved");
  });

  it("survives a client that closes its end of stdout (EPIPE)", async () => {
    const child = new Child();
    child.send(call(0, "echo", { s: "ready" }));
    await child.response(0);
    child.process.stdout.destroy();
    for (let id = 1; id <= 50; id++) child.send(call(id, "echo", { s: "x".repeat(1000) }));
    child.process.stdin.end();
    const exit = await child.exited;
    expect(exit.signal).toBeNull();
    expect(exit.code).toBe(0);
  });
});

describe("faults on a real HTTP server in a child process", () => {
  it("on SIGTERM lets a request in progress finish, refuses new ones, exits 0", async () => {
    const child = new Child({ HARDEN_HTTP: "1", HARDEN_GRACE: "2000" });
    await child.until(() => child.lines.length > 0, 10_000, "the URL");
    const { url } = JSON.parse(child.lines[0]!) as { url: string };
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
    };
    const slow = fetch(url, {
      method: "POST",
      headers: { ...headers, "mcp-name": "sleep" },
      body: JSON.stringify(call(1, "sleep", { ms: 300 })),
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    child.process.kill("SIGTERM");
    const response = await slow;
    expect(((await response.json()) as { result: { content: { text: string }[] } }).result.content[0]!.text).toBe(
      "slept 300 ms",
    );
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});

describe("values that throw when read (a Proxy that traps even instanceof, a getter), on a child process", () => {
  it("thrown by a resource, a prompt or a middleware, and a result that throws when read: -32603 for its id, in both eras", async () => {
    const child = new Child({}, "test/fixtures/trap-server.ts");
    await child.initialize();
    const requests: [method: string, params: Record<string, unknown>][] = [
      ["resources/read", { uri: "trap://read" }],
      ["prompts/get", { name: "trap" }],
      ["tools/call", { name: "guarded", arguments: {} }],
      ["tools/call", { name: "unreadable", arguments: {} }],
    ];
    requests.forEach(([method, params], i) => {
      child.send({ jsonrpc: "2.0", id: `legacy-${i}`, method, params });
      child.send({ jsonrpc: "2.0", id: `modern-${i}`, method, params: { ...params, _meta: MODERN_META } });
    });
    child.send(call("after", "echo"));
    for (const era of ["legacy", "modern"]) {
      for (const i of requests.keys()) {
        expect(await child.response(`${era}-${i}`), `${era} ${requests[i]![0]}`).toEqual({
          jsonrpc: "2.0",
          id: `${era}-${i}`,
          error: { code: -32603, message: expect.stringMatching(/^Internal error: /) },
        });
      }
    }
    expect(await child.response("after")).toMatchObject({ result: { content: [{ text: "still serving" }] } });
    for (const line of child.lines) checkLine(line);
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});
