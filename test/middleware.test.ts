/**
 * Public middleware (`server.use`) and the plug-in interface behind it (src/middleware/middleware.ts,
 * src/middleware/plugin.ts): the onion order, scopes (every request, one method, one tool), short-circuits,
 * rewritten results, translated errors, in both eras and for `server.call`; what is never wrapped
 * (initialize, notifications); cancellation and `handlerTimeoutMs` around a chain; a plug-in's
 * methods, capabilities and context; and a tool call without middleware still answered synchronously.
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { JsonRpcResponse } from "../src/core/jsonrpc.js";
import { ErrorCode, McpError, pico } from "../src/index.js";
import type { Limits } from "../src/limits/options.js";
import type { MiddlewareCall } from "../src/middleware/middleware.js";
import { type Plugin, Plugins } from "../src/middleware/plugin.js";
import { registryOf } from "../src/server.js";
import type { Peer } from "../src/sessions/peer.js";
import { envelope, serverDispatcher } from "./core-helpers.js";
import { initialize, inSession, modern, post } from "./http-helpers.js";

type Server = ReturnType<typeof makeServer>;

function makeServer() {
  return pico({ name: "mw", version: "1.0.0" })
    .tool("echo", {
      input: z.object({ text: z.string() }),
      output: z.object({ text: z.string() }),
      run: ({ text }) => ({ text }),
    })
    .tool("other", { run: () => "other" });
}

/** The JSON-RPC response of a fetch, whether it came as JSON or as an event stream. */
async function rpc(response: Response): Promise<JsonRpcResponse> {
  const text = await response.text();
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return JSON.parse(text);
  const data = text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)))
    .filter((message) => "id" in message);
  return data.at(-1);
}

/** Sends one request in each era: a 2026-07-28 request, and the same inside a 2025-11-25 session. */
async function both(server: Server, method: string, params: Record<string, unknown> = {}) {
  const session = await initialize(server);
  const modernResponse = await rpc(await server.fetch(modern(method, params)));
  const legacyResponse = await rpc(await server.fetch(inSession(session, { jsonrpc: "2.0", id: 7, method, params })));
  return { modern: modernResponse, legacy: legacyResponse };
}

const echo = { name: "echo", arguments: { text: "hi" } };

describe("server.use: the onion", () => {
  it("runs middleware in registration order, the first outermost, around every request in both eras", async () => {
    const seen: string[] = [];
    const server = makeServer()
      .use(async (call, next) => {
        seen.push(`a> ${call.method} ${call.ctx.era} ${call.ctx.protocolVersion}`);
        const result = await next();
        seen.push("<a");
        return result;
      })
      .use(async (call, next) => {
        seen.push(`b> ${call.method}`);
        await next();
        seen.push("<b");
      });
    const { modern: m, legacy: l } = await both(server, "tools/call", echo);
    expect(m.result?.structuredContent).toEqual({ text: "hi" });
    expect(l.result?.structuredContent).toEqual({ text: "hi" });
    // initialize and notifications/initialized went by without middleware.
    expect(seen).toEqual([
      "a> tools/call modern 2026-07-28",
      "b> tools/call",
      "<b",
      "<a",
      "a> tools/call legacy 2025-11-25",
      "b> tools/call",
      "<b",
      "<a",
    ]);
  });

  it("gives middleware the client's info, capabilities and meta from the request's era", async () => {
    const seen: unknown[] = [];
    const server = makeServer().use((call, next) => {
      seen.push({ client: call.ctx.client.info?.name, meta: call.ctx.meta?.trace });
      return next();
    });
    const session = await initialize(server);
    await server.fetch(inSession(session, { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }));
    const clientInfo = { name: "modern-client", version: "2" };
    await server.fetch(
      modern("tools/list", { _meta: { "io.modelcontextprotocol/clientInfo": clientInfo, trace: "t-1" } }),
    );
    expect(seen).toEqual([
      { client: "test", meta: undefined },
      { client: "modern-client", meta: "t-1" },
    ]);
  });

  it("wraps ping and server/discover, which are in the method table, but never initialize", async () => {
    const methods: string[] = [];
    const server = makeServer().use((call, next) => {
      methods.push(call.method);
      return next();
    });
    const session = await initialize(server);
    await server.fetch(inSession(session, { jsonrpc: "2.0", id: 1, method: "ping" }));
    await server.fetch(modern("server/discover"));
    expect(methods).toEqual(["ping", "server/discover"]);
  });
});

describe("server.use: scopes", () => {
  it("one method's middleware sees only that method, with its params", async () => {
    const calls: MiddlewareCall<"tools/call">["params"][] = [];
    const server = makeServer().use("tools/call", (call, next) => {
      calls.push(call.params);
      return next();
    });
    await both(server, "tools/list");
    await both(server, "tools/call", echo);
    expect(calls.map((params) => params.name)).toEqual(["echo", "echo"]);
    expect(calls[0]?.arguments).toEqual({ text: "hi" });
  });

  it("one tool's middleware sees only that tool's calls, in order with the others", async () => {
    const seen: string[] = [];
    const server = makeServer()
      .use((call, next) => {
        seen.push(`all ${call.method}`);
        return next();
      })
      .use({ tool: "echo" }, async (call, next) => {
        seen.push(`echo ${call.params.name}`);
        const result = await next();
        return { ...result, structuredContent: { text: `${result.structuredContent?.text}!` } };
      });
    const a = await server.call("echo", { text: "x" });
    const b = await server.call("other");
    expect(a.structuredContent).toEqual({ text: "x!" });
    expect(b.content).toEqual([{ type: "text", text: "other" }]);
    expect(seen).toEqual(["all tools/call", "echo echo", "all tools/call"]);
  });

  it("refuses a tool that is not registered, a method that does not exist, and initialize, at the call", () => {
    const server = makeServer();
    expect(() => server.use({ tool: "nope" as "echo" }, (_, next) => next())).toThrow(/no such tool is registered/);
    expect(() => server.use("tools/cal", (_, next) => next())).toThrow(/no such request method/);
    expect(() => server.use("initialize", (_, next) => next())).toThrow(/initialize and notifications/);
  });

  it("refuses a method that does not exist once the layers installing methods have: ready(), serve() and calls reject", async () => {
    // The resources layer and a plug-in install their methods as they load: a name is checked once
    // they have (a misspelt one was accepted, and its middleware never ran: an audit that saw nothing).
    const misspelt = (server: Server) => server.use("resources/raed", (_, next) => next());
    const afterResource = misspelt(makeServer().resource("file:///notes", { read: () => "notes" }));
    const noSuchMethod = /server.use\("resources\/raed"\): there is no such request method to wrap/;
    await expect(afterResource.ready()).rejects.toThrow(noSuchMethod);
    await expect(afterResource.call("echo", { text: "x" })).rejects.toThrow(noSuchMethod);
    await expect(afterResource.serve({ port: 0 })).rejects.toThrow(noSuchMethod);
    const afterPlugin = makeServer()
      .use({ methods: { "x/echo": { run: () => ({}) } } })
      .use("x/ecoh", (_, next) => next());
    await expect(afterPlugin.ready()).rejects.toThrow(/server.use\("x\/ecoh"\): there is no such request method/);
    // Spelt right, both are wrapped.
    const wrapped: string[] = [];
    const right = makeServer()
      .resource("file:///notes", { read: () => "notes" })
      .use({ methods: { "x/echo": { run: () => ({}) } } })
      .use("resources/read", (call, next) => {
        wrapped.push(call.method);
        return next();
      })
      .use("x/echo", (call, next) => {
        wrapped.push(call.method);
        return next();
      });
    await right.ready();
    await both(right, "resources/read", { uri: "file:///notes" });
    await both(right, "x/echo");
    expect(wrapped).toEqual(["resources/read", "resources/read", "x/echo", "x/echo"]);
  });

  it("refuses what is not middleware when the plug-in machinery has loaded: ready(), serve() and calls reject", async () => {
    const server = makeServer().use(42 as never);
    const notMiddleware =
      /server.use needs a middleware function, a method or \{ tool \} and a function, or a plug-in of name, methods, capabilities, context, use; got number/;
    await expect(server.ready()).rejects.toThrow(notMiddleware);
    await expect(server.call("echo", { text: "x" })).rejects.toThrow(notMiddleware);
    await expect(server.serve({ port: 0 })).rejects.toThrow(notMiddleware);
  });
});

describe("server.use: a server's first use once it is serving", () => {
  it("is refused at the call, and the server goes on serving (official v1 client over HTTP)", async () => {
    // Was: the first use after serving loaded the plug-in machinery then, so a mistake in it could not
    // throw here: every request from then on failed with it (-32603), and later uses never ran.
    const server = pico({ name: "mw", version: "1.0.0", signals: false }).tool("echo", {
      input: z.object({ text: z.string() }),
      run: ({ text }) => text,
    });
    const listening = await server.serve({ port: 0, host: "127.0.0.1" });
    const v1 = new V1Client({ name: "v1", version: "1" });
    try {
      await v1.connect(new V1Http(new URL(listening.url)));
      const late = "server.use: the server is serving; make its first use before serve() and the first request.";
      expect(() => server.use({ bogus: 1 } as never)).toThrow(new TypeError(late));
      expect(() => server.use((_, next) => next())).toThrow(new TypeError(late));
      expect(await v1.callTool({ name: "echo", arguments: { text: "still" } })).toEqual({
        content: [{ type: "text", text: "still" }],
      });
    } finally {
      await v1.close();
      await listening.close();
    }
  });

  it("installs at once once an earlier use loaded the machinery: a mistake throws at the call", async () => {
    const seen: string[] = [];
    const server = makeServer().use((_, next) => next());
    const listening = await server.serve({ port: 0, host: "127.0.0.1" });
    try {
      expect(() => server.use({ bogus: 1 } as never)).toThrow(/server.use needs a middleware function.*; got bogus\./);
      server.use((call, next) => {
        seen.push(call.method);
        return next();
      });
      expect((await server.call("echo", { text: "x" })).structuredContent).toEqual({ text: "x" });
      expect(seen).toEqual(["tools/call"]);
    } finally {
      await listening.close();
    }
  });
});

describe("server.use: short-circuits, rewrites and errors", () => {
  it("answers without the handler when a middleware returns a result", async () => {
    let ran = 0;
    const server = pico({ name: "mw", version: "1" })
      .tool("count", { run: () => String(++ran) })
      .use("tools/call", () => ({ content: [{ type: "text", text: "cached" }] }));
    const { modern: m, legacy: l } = await both(server, "tools/call", { name: "count" });
    expect(m.result?.content).toEqual([{ type: "text", text: "cached" }]);
    expect(l.result?.content).toEqual([{ type: "text", text: "cached" }]);
    // The 2026-07-28 encoding is added after middleware, to its result as to a handler's.
    expect(m.result?.resultType).toBe("complete");
    expect(ran).toBe(0);
  });

  it("turns a thrown McpError into a JSON-RPC error, in both eras and for server.call", async () => {
    const server = makeServer().use(() => {
      throw new McpError(-32000, "Rate limited: retry in 5 s", { retryAfterMs: 5000 });
    });
    const { modern: m, legacy: l } = await both(server, "tools/list");
    for (const response of [m, l]) {
      expect(response.error).toEqual({
        code: -32000,
        message: "Rate limited: retry in 5 s",
        data: { retryAfterMs: 5000 },
      });
    }
    await expect(server.call("echo", { text: "x" })).rejects.toThrow("Rate limited: retry in 5 s");
  });

  it("lets middleware observe and translate the handler's errors", async () => {
    const observed: unknown[] = [];
    const server = makeServer().use("tools/call", async (call, next) => {
      try {
        return await next();
      } catch (thrown) {
        observed.push((thrown as McpError).code);
        return { content: [{ type: "text", text: `No tool "${call.params.name}" here.` }], isError: true };
      }
    });
    const { modern: m } = await both(server, "tools/call", { name: "missing" });
    expect(m.result).toMatchObject({ isError: true, content: [{ text: 'No tool "missing" here.' }] });
    expect(observed).toEqual([ErrorCode.InvalidParams, ErrorCode.InvalidParams]);
  });

  it("answers an internal error for a middleware that returns nothing without next(), calls it twice, or returns a non-object (an array too)", async () => {
    const cases = [
      [() => undefined, /returned nothing without calling next\(\)/],
      [
        async (_: unknown, next: () => Promise<unknown>) => {
          await next();
          return next();
        },
        /called next\(\) twice/,
      ],
      [() => "text", /returned string; a result is an object/],
      [() => [{ type: "text", text: "a list" }], /returned an array; a result is an object/],
    ] as const;
    for (const [middleware, message] of cases) {
      const server = makeServer().use(middleware as never);
      const { modern: m, legacy: l } = await both(server, "tools/list");
      expect(m.error?.code).toBe(ErrorCode.InternalError);
      expect(m.error?.message).toMatch(message);
      expect(l.error?.message).toMatch(message);
    }
  });
});

describe("server.call goes through middleware", () => {
  it("as a tools/call of era local, so audits and limits hold in-process", async () => {
    const seen: string[] = [];
    const server = makeServer().use("tools/call", (call, next) => {
      seen.push(`${call.ctx.era} ${call.params.name} ${JSON.stringify(call.params.arguments)}`);
      return next();
    });
    expect((await server.call("echo", { text: "a" })).structuredContent).toEqual({ text: "a" });
    await expect(server.call("missing" as "echo", { text: "a" })).rejects.toThrow(/Unknown tool "missing"/);
    expect(seen).toEqual(['local echo {"text":"a"}', 'local missing {"text":"a"}']);
  });

  it("runs the tool with the arguments a middleware rewrote, validated by its schema, as a client's call does (was: server.call ran the arguments it was given)", async () => {
    const server = makeServer().use("tools/call", (call, next) => {
      const text = call.params.arguments?.text;
      call.params.arguments = { text: text === "bad" ? 7 : `${text}!` };
      return next();
    });
    const sent = await both(server, "tools/call", echo);
    expect(sent.modern).toMatchObject({ result: { structuredContent: { text: "hi!" } } });
    expect(sent.legacy).toMatchObject({ result: { structuredContent: { text: "hi!" } } });
    expect((await server.call("echo", { text: "hi" })).structuredContent).toEqual({ text: "hi!" });
    const invalid = 'Invalid arguments for tool "echo":\ntext: Invalid input: expected string, received number';
    expect((await both(server, "tools/call", { name: "echo", arguments: { text: "bad" } })).legacy).toMatchObject({
      result: { content: [{ type: "text", text: invalid }], isError: true },
    });
    expect(await server.call("echo", { text: "bad" })).toEqual({
      content: [{ type: "text", text: invalid }],
      isError: true,
    });
  });

  it("runs middleware once for a tool that asks, however many rounds it takes", async () => {
    let wrapped = 0;
    let runs = 0;
    const server = pico({ name: "mw", version: "1" })
      .tool("greet", {
        run: async (_, ctx) => {
          runs++;
          const answer = await ctx.elicit("Name?", z.object({ name: z.string() }));
          return answer.action === "accept" ? `hello ${answer.content.name}` : "declined";
        },
      })
      .use(async (_, next) => {
        wrapped++;
        return next();
      });
    const result = await server.call("greet", undefined, {
      onInput: () => ({ action: "accept", content: { name: "Ada" } }),
    });
    expect(result.content).toEqual([{ type: "text", text: "hello Ada" }]);
    expect(runs).toBe(2);
    expect(wrapped).toBe(1);
  });

  it("rejects a cancelled call even when a middleware returns a result", async () => {
    const stop = new AbortController();
    const server = makeServer().use(async (_, next) => {
      stop.abort(new DOMException("stop", "AbortError"));
      await next();
      return { content: [{ type: "text", text: "answered anyway" }] };
    });
    await expect(server.call("echo", { text: "a" }, { signal: stop.signal })).rejects.toThrow("stop");
  });
});

/** A dispatcher for a server's registry, with its plug-ins, and a legacy session negotiated. */
async function dispatcherOf(server: Server, limits?: Limits) {
  const registry = registryOf(server as never);
  const dispatcher = serverDispatcher(registry, limits);
  const plugins = new Plugins(registry);
  dispatcher.plugins = plugins;
  const peer: Peer = { session: undefined };
  await dispatcher.answer(
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { elicitation: { form: {} } } },
    },
    peer,
  );
  return { dispatcher, plugins, peer };
}

describe("the chain and the request's lifetime", () => {
  it("answers a synchronous tool call synchronously when no middleware is installed, a plug-in's methods included", async () => {
    const server = makeServer();
    const { dispatcher, plugins, peer } = await dispatcherOf(server);
    const message = { jsonrpc: "2.0" as const, id: 1, method: "tools/call", params: { name: "other" } };
    plugins.install({ methods: { "x/noop": { run: () => ({}) } } });
    expect(dispatcher.answer(message, peer)).not.toBeInstanceOf(Promise);
    plugins.use({}, (_: never, next: () => Promise<unknown>) => next());
    const answer = dispatcher.answer({ ...message, id: 2 }, peer);
    expect(answer).toBeInstanceOf(Promise);
    expect((await answer)?.result?.content).toEqual([{ type: "text", text: "other" }]);
  });

  it("sends nothing for a cancelled request, even when a middleware returns a result", async () => {
    const server = makeServer();
    const { dispatcher, plugins, peer } = await dispatcherOf(server);
    const stop = new AbortController();
    plugins.use({}, async (_: never, next: () => Promise<unknown>) => {
      stop.abort();
      await next().catch(() => {});
      return { content: [] };
    });
    const answer = await dispatcher.answer(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "other" } },
      peer,
      { signal: stop.signal },
    );
    expect(answer).toBeUndefined();
  });

  it("ends a chain that outlives handlerTimeoutMs with the timeout's tool error", async () => {
    const server = makeServer();
    const { dispatcher, plugins, peer } = await dispatcherOf(server, { handlerTimeoutMs: 20 });
    plugins.use({}, () => new Promise(() => {}));
    const answer = await dispatcher.answer(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "other" } },
      peer,
    );
    expect(answer?.result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/did not finish/) }],
    });
  });

  it("wraps a 2025 request once around its questions, and sees a 2026-07-28 round's input_required result", async () => {
    let runs = 0;
    const server = pico({ name: "mw", version: "1" }).tool("greet", {
      run: async (_, ctx) => {
        runs++;
        const answer = await ctx.elicit("Name?", z.object({ name: z.string() }));
        return answer.action === "accept" ? `hello ${answer.content.name}` : "declined";
      },
    });
    const { dispatcher, plugins, peer } = await dispatcherOf(server);
    const results: unknown[] = [];
    plugins.use({}, async (_: never, next: () => Promise<Record<string, unknown>>) => {
      const result = await next();
      results.push(result.resultType ?? result.content);
    });
    const legacy = await dispatcher.answer(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "greet" } },
      peer,
      { ask: { ask: async () => ({ action: "accept", content: { name: "Ada" } }) } },
    );
    expect(legacy?.result?.content).toEqual([{ type: "text", text: "hello Ada" }]);
    expect(runs).toBe(2);
    const modernAnswer = await dispatcher.answer(
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: {
          name: "greet",
          _meta: envelope({ "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } }),
        },
      },
      { session: undefined },
    );
    expect(modernAnswer?.result?.resultType).toBe("input_required");
    expect(results).toEqual([[{ type: "text", text: "hello Ada" }], "input_required"]);
  });
});

describe("plug-ins", () => {
  const echoPlugin = {
    name: "echo",
    methods: { "x/echo": { run: (params: Record<string, unknown> | undefined) => ({ echoed: params?.text }) } },
    capabilities: { extensions: { "io.example/echo": { version: 1 } } },
  };

  it("add a method served in both eras, and an extension both eras' discovery advertises", async () => {
    const server = makeServer().use(echoPlugin);
    const { modern: m, legacy: l } = await both(server, "x/echo", { text: "hey" });
    expect(m.result).toMatchObject({ echoed: "hey", resultType: "complete" });
    expect(l.result).toEqual({ echoed: "hey" });
    const discovered = await rpc(await server.fetch(modern("server/discover")));
    expect(discovered.result?.capabilities).toMatchObject({
      tools: { listChanged: true },
      extensions: { "io.example/echo": { version: 1 } },
    });
    const initialized = await dispatcherOf(server);
    const again = await initialized.dispatcher.answer(
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } },
      { session: undefined },
    );
    expect(again?.result?.capabilities).toMatchObject({ extensions: { "io.example/echo": { version: 1 } } });
  });

  it("add a method to one era only, and middleware wraps plug-in methods too", async () => {
    const seen: string[] = [];
    const server = makeServer()
      .use({ methods: { "x/old": { modern: false, run: () => ({ old: true }) } } })
      .use("x/old", (call, next) => {
        seen.push(call.method);
        return next();
      });
    const { modern: m, legacy: l } = await both(server, "x/old");
    expect(m.error?.code).toBe(ErrorCode.MethodNotFound);
    expect(l.result).toEqual({ old: true });
    expect(seen).toEqual(["x/old"]);
  });

  it("add to the request context: made on first read, once per request, seen by middleware and tools", async () => {
    let made = 0;
    const server = pico({ name: "mw", version: "1" })
      .use({
        context: {
          tenant: (ctx) => {
            made++;
            return `tenant-of-${ctx.client.info?.name ?? ctx.era}`;
          },
        },
      })
      .tool("whoami", { run: (_, ctx) => String((ctx as unknown as { tenant: string }).tenant) })
      .use((call, next) => {
        expect((call.ctx as unknown as { tenant: string }).tenant).toMatch(/^tenant-of-/);
        return next();
      });
    expect((await server.call("whoami")).content).toEqual([{ type: "text", text: "tenant-of-local" }]);
    const { modern: m, legacy: l } = await both(server, "tools/call", { name: "whoami" });
    expect(m.result?.content).toEqual([{ type: "text", text: "tenant-of-modern" }]);
    expect(l.result?.content).toEqual([{ type: "text", text: "tenant-of-test" }]);
    expect(made).toBe(3);
  });

  it("refuse what would clash: a built-in or taken method, an extension twice, a context name the context has", async () => {
    const clashes: [Plugin, RegExp][] = [
      [
        { methods: { "tools/list": { run: () => ({}) } } },
        /adds the method "tools\/list", which the server already has/,
      ],
      [{ methods: { initialize: { run: () => ({}) } } }, /adds the method "initialize", which the server already has/],
      [{ methods: { "x/echo": { run: () => ({}) } } }, /adds the method "x\/echo", which the server already has/],
      [
        { capabilities: { extensions: { "io.example/echo": {} } } },
        /advertises the extension "io.example\/echo" a second time/,
      ],
      [{ context: { signal: () => 1 } }, /adds ctx.signal, which the context already has/],
      [{ context: { era: () => 1 } }, /adds ctx.era, which the context already has/],
    ];
    // Before the server is ready, a clash rejects ready() (the plug-ins are installed in order as the machinery loads).
    for (const [plugin, clash] of clashes)
      await expect(makeServer().use(echoPlugin).use(plugin).ready()).rejects.toThrow(clash);
    // Once it is ready, a plug-in is installed at the call, and a clash throws there.
    const ready = makeServer().use(echoPlugin);
    await ready.ready();
    for (const [plugin, clash] of clashes) expect(() => ready.use(plugin)).toThrow(clash);
  });
});

describe("plug-ins and the Tasks extension", () => {
  const tasksPlugin: Plugin = {
    name: "my-tasks",
    capabilities: { extensions: { "io.modelcontextprotocol/tasks": { mine: true } } },
  };
  const refused =
    'Plug-in "my-tasks" advertises the extension "io.modelcontextprotocol/tasks", which picomcp advertises itself once a tool has a task setting (docs/tasks.md): remove it from the plug-in\'s capabilities.extensions, or, if the plug-in serves the Tasks extension itself, give no tool a task setting.';
  const withTaskTool = (server: Server) => server.tool("report", { task: "optional", run: () => "done" });

  it("refuse a plug-in that advertises it on a server with a task tool, whichever comes first (was: server/discover replaced the plug-in's settings, unseen)", async () => {
    // Before the server is ready: ready() (and serve()) rejects.
    await expect(withTaskTool(makeServer().use(tasksPlugin)).ready()).rejects.toThrow(refused);
    await expect(withTaskTool(makeServer()).use(tasksPlugin).ready()).rejects.toThrow(refused);
    // Once it is ready: the plug-in at the call; a first task tool at the next ready().
    const tasked = withTaskTool(makeServer());
    await tasked.ready();
    expect(() => tasked.use(tasksPlugin)).toThrow(refused);
    const plugged = makeServer().use(tasksPlugin);
    await plugged.ready();
    await expect(withTaskTool(plugged).ready()).rejects.toThrow(refused);
  });

  it("leave it to a plug-in on a server without a task tool, which advertises the plug-in's settings", async () => {
    const server = makeServer().use(tasksPlugin);
    const discovered = await rpc(await server.fetch(modern("server/discover")));
    expect(discovered.result?.capabilities).toMatchObject({
      extensions: { "io.modelcontextprotocol/tasks": { mine: true } },
    });
  });
});

describe("plug-ins and the methods of layers not loaded yet", () => {
  it("refuse every method the resources and prompts layers install, on a server that has neither yet", async () => {
    // The methods those layers install, read from a server that has loaded them.
    const full = makeServer()
      .resource("file:///notes", { read: () => "notes" })
      .resource("file:///notes/{id}", { read: () => "a note", complete: { id: () => ["1"] } })
      .prompt("review", { get: () => "Review the notes." })
      .use((_, next) => next());
    await full.ready();
    const bare = makeServer();
    await bare.ready();
    const installed = Object.keys(registryOf(full as never).methods).filter(
      (name) => !(name in registryOf(bare as never).methods),
    );
    expect(installed).toEqual(expect.arrayContaining(["resources/read", "prompts/get", "completion/complete"]));
    for (const name of installed) {
      const taken = { name: "shadow", methods: { [name]: { run: () => ({ shadowed: true }) } } };
      const refused = `Plug-in "shadow" adds the method "${name}", which the server already has`;
      // Before the layer: it would have replaced the plug-in's method, silently, with the first registration.
      await expect(makeServer().use(taken).ready()).rejects.toThrow(refused);
      // After it: refused as any taken name, at the call once the server is ready.
      expect(() => full.use(taken)).toThrow(refused);
    }
  });
});

describe("plug-ins of the wrong shape", () => {
  it("name the plug-in, the part and how it is written, not a part named after a string's characters", async () => {
    const mistakes: [unknown, string][] = [
      [
        { name: "p", methods: "x/echo" },
        'Plug-in "p": methods must be an object such as { "x/echo": { run: (params, ctx) => ({}) } }; got string.',
      ],
      [
        { name: "p", context: "tenant" },
        'Plug-in "p": context must be an object such as { tenant: (ctx) => tenantOf(ctx.auth) }; got string.',
      ],
      [
        { name: "p", capabilities: ["io.example/echo"] },
        'Plug-in "p": capabilities must be an object such as { extensions: { "io.example/echo": {} } }; got an array.',
      ],
      [
        { name: "p", capabilities: { extensions: ["io.example/echo"] } },
        'Plug-in "p": capabilities.extensions must be an object of extensions by key; got an array.',
      ],
      // 2026-07-28 "Extension Negotiation": identifiers follow the _meta key rules, prefix mandatory.
      [
        { name: "p", capabilities: { extensions: { echo: {} } } },
        'Plug-in "p": capabilities.extensions names "echo", which is not an extension identifier: give it a reverse-DNS prefix, such as "io.example/echo".',
      ],
      [
        { name: "p", capabilities: { extensions: { "io.example./echo": {} } } },
        'Plug-in "p": capabilities.extensions names "io.example./echo", which is not an extension identifier',
      ],
      [{ name: "p", use: 5 }, 'Plug-in "p": use must be a middleware function, (call, next) => next(); got number.'],
      [
        { name: "p", methods: { "x/echo": () => ({}) } },
        'Plug-in "p": method "x/echo" needs a run function: { run: (params, ctx) => ({}) }.',
      ],
    ];
    for (const [plugin, message] of mistakes) {
      await expect(
        makeServer()
          .use(plugin as Plugin)
          .ready(),
      ).rejects.toThrow(message);
    }
  });
});

describe("plug-ins and the capabilities the server computes", () => {
  it("refuse to advertise tools, resources, prompts, completions or logging, which follow what is registered", async () => {
    // A tools-only server that advertised resources would send clients to a resources/list that
    // answers -32601; tools.listChanged: false would deny the list_changed it sends (2026-07-28 §2).
    for (const key of ["tools", "resources", "prompts", "completions", "logging"]) {
      const plugin = { name: "liar", capabilities: { [key]: {} } };
      const refused = `Plug-in "liar" advertises capabilities.${key}, which the server sets from what is registered`;
      await expect(makeServer().use(plugin).ready()).rejects.toThrow(refused);
    }
    // Extensions and capabilities the core does not compute are the plug-in's to advertise.
    const server = makeServer().use({
      capabilities: { experimental: { "io.example/x": {} }, extensions: { "io.example/y": {} } },
    });
    await server.ready();
    const session = await server.fetch(
      post({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
      }),
    );
    expect((await rpc(session)).result?.capabilities).toEqual({
      logging: {},
      tools: { listChanged: true },
      experimental: { "io.example/x": {} },
      extensions: { "io.example/y": {} },
    });
  });
});

describe("a plug-in over Streamable HTTP on 127.0.0.1, with the official clients", () => {
  it("v1 (2025-11-25 session) and v2 (2026-07-28) see the extension and call the plug-in's method through middleware", async () => {
    const seen: string[] = [];
    const server = makeServer()
      .use({
        methods: { "x/echo": { run: (params) => ({ echoed: params?.text }) } },
        capabilities: { extensions: { "io.example/echo": { version: 1 } } },
      })
      .use("x/echo", async (call, next) => {
        seen.push(`${call.ctx.era} ${call.params?.text}`);
        return { ...(await next()), wrapped: true };
      });
    const listening = await server.serve({ port: 0 });
    const v1 = new V1Client({ name: "v1", version: "1" });
    const v2 = new V2Client({ name: "v2", version: "2" }, { versionNegotiation: { mode: "auto" } });
    try {
      await v1.connect(new V1Http(new URL(listening.url)));
      await v2.connect(new V2Http(new URL(listening.url)));
      const schema = z.object({ echoed: z.string(), wrapped: z.boolean() });
      for (const client of [v1, v2]) {
        expect(client.getServerCapabilities()?.extensions).toEqual({ "io.example/echo": { version: 1 } });
      }
      expect(await v1.request({ method: "x/echo", params: { text: "one" } }, schema)).toEqual({
        echoed: "one",
        wrapped: true,
      });
      expect(await v2.request({ method: "x/echo", params: { text: "two" } }, schema)).toEqual({
        echoed: "two",
        wrapped: true,
      });
      expect(seen).toEqual(["legacy one", "modern two"]);
    } finally {
      await v1.close();
      await v2.close();
      await listening.close();
    }
  });
});
