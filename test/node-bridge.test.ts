import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { RequestContext } from "../src/core/context.js";
import { type Context, pico } from "../src/index.js";
import type { Limits } from "../src/limits/options.js";
import type { ServeOptions } from "../src/transports/http/options.js";
import type { Listening } from "../src/transports/listen.js";
import {
  BOTH,
  EventReader,
  hostRefused,
  initialize,
  messageOf,
  meta,
  modernCallInit,
  remote,
  signal,
  within,
} from "./http-helpers.js";
import { RawClient } from "./socket-helpers.js";

/**
 * `server.serve({ port })` on Node: the node:http bridge over a real loopback socket, driven by
 * real `fetch` calls (and raw node:http requests where a Host header must be forged).
 */

const open: Listening[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((listening) => listening.close()));
});

const progress = (ctx: Context, n: number) =>
  (ctx as RequestContext).emit?.({
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { progressToken: "t", progress: n },
  });

async function serve(options: Partial<ServeOptions> = {}, limits?: Limits) {
  const gate = signal();
  const started = signal();
  const aborted = signal<unknown>();
  const app = pico({ name: "bridge", version: "1.0.0", limits, signals: false })
    .tool("hello", { run: () => "héllo ✓" })
    .tool("stream", {
      run: async (_args, ctx) => {
        progress(ctx, 1);
        started.resolve();
        await gate.promise;
        progress(ctx, 2);
        return "streamed";
      },
    })
    .tool("wait", {
      run: async (_args, ctx) => {
        started.resolve();
        if (!ctx.signal.aborted) {
          await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        }
        aborted.resolve(ctx.signal.reason);
        return "too late";
      },
    });
  const listening = await app.serve({ port: 0, ...options });
  open.push(listening);
  return { app, listening, gate, started, aborted };
}

/** A raw node:http request, for headers fetch will not let a caller set (Host). */
function raw(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: "POST", headers, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * A tools/call of "hello" written on a socket, for request lines node:http will not send (two Host
 * lines, an absolute-form target). `hostLines`: the Host lines as written, name and value.
 */
async function rawSocketCall(port: number, target: string, hostLines: string[]) {
  const init = modernCallInit("hello");
  const body = init.body as string;
  const head = [
    `POST ${target} HTTP/1.1`,
    ...hostLines,
    ...Object.entries(init.headers as Record<string, string>).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
  ];
  const client = await RawClient.connect(port);
  try {
    await client.write(`${head.join("\r\n")}\r\n\r\n${body}`);
    return await client.fullResponse();
  } finally {
    client.destroy();
  }
}

function rawCall(url: string, headers: Record<string, string>) {
  const init = modernCallInit("hello");
  return raw(url, { ...(init.headers as Record<string, string>), ...headers }, init.body as string);
}

describe("serve({ port: 0 })", () => {
  it("listens on 127.0.0.1 at /mcp and answers other paths with 404", async () => {
    const { listening } = await serve();
    expect(listening.port).toBeGreaterThan(0);
    expect(listening.url).toBe(`http://127.0.0.1:${listening.port}/mcp`);
    const other = await fetch(`http://127.0.0.1:${listening.port}/other`, modernCallInit("hello"));
    expect(other.status).toBe(404);
    expect((await other.json()).error.message).toBe("Not found: the MCP endpoint is /mcp");
  });

  it("answers JSON with a Content-Length in bytes", async () => {
    const { listening } = await serve();
    const response = await fetch(listening.url, modernCallInit("hello"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const text = await response.text();
    expect(Number(response.headers.get("content-length"))).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text).result.content).toEqual([{ type: "text", text: "héllo ✓" }]);
  });

  it("answers a notification with 202 and an empty body", async () => {
    const { listening } = await serve();
    const response = await fetch(listening.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: BOTH },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/x", params: { _meta: meta() } }),
    });
    expect(response.status).toBe(202);
    expect(response.headers.get("content-length")).toBe("0");
    expect(await response.text()).toBe("");
  });

  it("streams SSE events as they are produced", async () => {
    const { listening, gate } = await serve();
    const response = await fetch(listening.url, modernCallInit("stream"));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    const stream = new EventReader(response);
    // The first event arrives while the tool is still waiting on the gate.
    expect(messageOf(await stream.next())).toMatchObject({ params: { progress: 1 } });
    gate.resolve();
    const rest = await stream.rest();
    expect(rest.map(messageOf)).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 2 } },
      expect.objectContaining({ result: expect.objectContaining({ content: [{ type: "text", text: "streamed" }] }) }),
    ]);
  });

  it("serves a legacy session: initialize, then a GET stream", async () => {
    const { app, listening } = await serve();
    const init = await fetch(listening.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: BOTH },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } }),
    });
    const session = init.headers.get("mcp-session-id")!;
    expect(session).toBeTruthy();
    await fetch(listening.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: BOTH, "mcp-session-id": session },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    const stream = new EventReader(
      await fetch(listening.url, { headers: { accept: "text/event-stream", "mcp-session-id": session } }),
    );
    expect(await stream.next()).toEqual({ id: "0-0", retry: 1000, data: "" });
    app.tool("late", { run: () => "" });
    expect(messageOf(await stream.next())).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    await stream.cancel();
  });
});

describe("DNS rebinding protection on loopback", () => {
  it("answers 403 to a foreign Host and 2xx to the loopback names", async () => {
    const { listening } = await serve();
    const forbidden = await rawCall(listening.url, { host: "evil.example.com" });
    expect(forbidden.status).toBe(403);
    expect(JSON.parse(forbidden.body).error.message).toBe(hostRefused("evil.example.com"));
    for (const host of [`localhost:${listening.port}`, `127.0.0.1:${listening.port}`, "localhost"]) {
      expect((await rawCall(listening.url, { host })).status, host).toBe(200);
    }
  });

  it("answers 403 to a foreign Origin", async () => {
    const { listening } = await serve();
    const response = await rawCall(listening.url, {
      host: `localhost:${listening.port}`,
      origin: "http://evil.example.com",
    });
    expect(response.status).toBe(403);
    const own = await rawCall(listening.url, {
      host: `localhost:${listening.port}`,
      origin: `http://localhost:${listening.port}`,
    });
    expect(own.status).toBe(200);
  });

  it("answers 400 to two Host lines, as a Web runtime does (RFC 9112 §3.2), instead of keeping the first", async () => {
    const { listening } = await serve();
    const hosts = [`localhost:${listening.port}`, "evil.example.com"];
    // Field names are case-insensitive (RFC 9110 §5.1): each spelling is a Host line.
    for (const names of [
      ["Host", "Host"],
      ["host", "HOST"],
      ["hOsT", "Host"],
    ]) {
      const response = await rawSocketCall(
        listening.port,
        "/",
        hosts.map((host, i) => `${names[i]}: ${host}`),
      );
      expect(response.status, names.join()).toBe(400);
      expect(JSON.parse(response.body).error.message).toBe(
        `Bad Request: the Host header "${hosts.join(", ")}" is not a host name or address with an optional numeric port`,
      );
    }
  });

  it("takes an absolute-form target's host over the Host header (RFC 9112 §3.2.2), and its path", async () => {
    const { listening } = await serve({ path: "/mcp" });
    const send = (target: string) => rawSocketCall(listening.port, target, [`Host: localhost:${listening.port}`]);
    const own = await send(`http://127.0.0.1:${listening.port}/mcp?x=1`);
    expect(own.status).toBe(200);
    expect(JSON.parse(own.body).result.content).toEqual([{ type: "text", text: "héllo ✓" }]);
    const foreign = await send("http://evil.example.com/mcp");
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.message).toBe(hostRefused("evil.example.com"));
    expect((await send(`http://localhost:${listening.port}/other`)).status).toBe(404);
  });

  it("uses allowedHosts when given", async () => {
    const { listening } = await serve({ allowedHosts: ["mcp.example.com"] });
    expect((await rawCall(listening.url, { host: "mcp.example.com" })).status).toBe(200);
    expect((await rawCall(listening.url, { host: `localhost:${listening.port}` })).status).toBe(403);
  });
});

describe("body limits", () => {
  it("answers 413 to a body over maxBodyBytes and keeps serving", async () => {
    const { listening } = await serve({ maxBodyBytes: 1024 });
    const init = modernCallInit("hello");
    const large = await fetch(listening.url, { ...init, body: " ".repeat(64 * 1024) + (init.body as string) });
    expect(large.status).toBe(413);
    expect((await large.json()).error.message).toBe("Payload Too Large: request bodies are limited to 1024 bytes");
    expect((await fetch(listening.url, modernCallInit("hello"))).status).toBe(200);
  });

  it("answers 413 to a chunked body without Content-Length once it passes the limit", async () => {
    const { listening } = await serve({ maxBodyBytes: 1024 });
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ >= 64) controller.close();
        else controller.enqueue(new TextEncoder().encode(" ".repeat(1024)));
      },
    });
    const response = await fetch(listening.url, { ...modernCallInit("hello"), body, duplex: "half" } as RequestInit);
    expect(response.status).toBe(413);
    expect((await fetch(listening.url, modernCallInit("hello"))).status).toBe(200);
  });
});

describe("disconnects", () => {
  it("aborts ctx.signal when the client goes away mid-call, and keeps serving", async () => {
    const { listening, started, aborted } = await serve();
    const client = new AbortController();
    const pending = fetch(listening.url, modernCallInit("wait", { signal: client.signal }));
    await within(started.promise, 5000, "the tool starting");
    client.abort();
    await expect(pending).rejects.toThrow();
    const reason = await within(aborted.promise, 5000, "ctx.signal aborting");
    expect(reason).toMatchObject({ name: "AbortError" });
    expect((await fetch(listening.url, modernCallInit("hello"))).status).toBe(200);
  });

  it("aborts ctx.signal when the client drops a modern SSE stream", async () => {
    const { app, listening } = await serve();
    const aborted = signal<unknown>();
    app.tool("chatty_wait", {
      run: async (_args, ctx) => {
        progress(ctx, 1);
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        aborted.resolve(ctx.signal.reason);
        progress(ctx, 2);
        return "too late";
      },
    });
    const response = await fetch(listening.url, modernCallInit("chatty_wait"));
    const stream = new EventReader(response);
    await stream.next();
    await stream.cancel();
    await within(aborted.promise, 5000, "ctx.signal aborting");
  });

  /** Registers `stuck`: a tool that never settles, whatever its signal does, and records its runs and their aborts. */
  function stuck(app: Awaited<ReturnType<typeof serve>>["app"], emits = false) {
    const runs = { started: 0, aborted: [] as unknown[] };
    app.tool("stuck", {
      run: (_args, ctx) => {
        if (emits) progress(ctx, 1);
        runs.started++;
        ctx.signal.addEventListener("abort", () => runs.aborted.push(ctx.signal.reason), { once: true });
        return new Promise<string>(() => {});
      },
    });
    return runs;
  }

  /** The `fetch` init of a 2025 POST of `body` (a message or a batch) under `version`, in `session` if one is named. */
  function legacyInit(body: unknown, version: string, session?: string, init: RequestInit = {}): RequestInit {
    const headers: Record<string, string> = { "content-type": "application/json", accept: BOTH };
    headers["mcp-protocol-version"] = version;
    if (session) headers["mcp-session-id"] = session;
    return { method: "POST", headers, body: JSON.stringify(body), ...init };
  }

  const legacyCall = (id: number, name: string) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: {} },
  });

  // A tool that never settles holds no slot past its client: the next request is served at once,
  // with one request allowed on the server and on the connection (the session).
  it.each([
    ["a 2026-07-28 request answered as JSON", "modern"],
    ["a 2026-07-28 request answered as an event stream", "streamed"],
    ["a 2025-11-25 request without sessions", "sessionless"],
    ["a request in a 2025-11-25 session whose answer has not begun", "session"],
  ] as const)("%s: when its client goes away, its slot frees and ctx.signal aborts", async (_what, mode) => {
    const { app, listening } = await serve(mode === "sessionless" ? { sessions: false } : {}, {
      maxConcurrentRequests: 1,
      maxConcurrentRequestsPerConnection: 1,
    });
    const runs = stuck(app, mode === "streamed");
    const session = mode === "session" ? await initialize(remote(listening.url)) : undefined;
    const init = (name: string, extra: RequestInit = {}) =>
      mode === "modern" || mode === "streamed"
        ? modernCallInit(name, extra)
        : legacyInit(legacyCall(1, name), "2025-11-25", session, extra);
    const client = new AbortController();
    const pending = fetch(listening.url, init("stuck", { signal: client.signal }));
    // The client leaves before its answer began, or once its stream's first event came: nobody reads on.
    pending.catch(() => {});
    if (mode === "streamed") await new EventReader(await pending).next();
    await expect.poll(() => runs.started, { timeout: 5000 }).toBe(1);
    client.abort();
    await expect.poll(() => runs.aborted, { timeout: 5000 }).toMatchObject([{ name: "AbortError" }]);
    const next = await fetch(listening.url, init("hello"));
    expect(next.status).toBe(200);
    expect(await next.json()).toMatchObject({ result: { content: [{ text: "héllo ✓" }] } });
  });

  it.each([
    ["without sessions", false],
    ["in a 2025-03-26 session", true],
  ])(
    "cancels every request of a 2025-03-26 batch whose client goes away, %s, and frees their slots",
    async (_what, sessions) => {
      const { app, listening } = await serve({ sessions }, { maxConcurrentRequests: 2 });
      const runs = stuck(app);
      const session = sessions ? await initialize(remote(listening.url), "2025-03-26") : undefined;
      const client = new AbortController();
      const batch = [legacyCall(1, "stuck"), legacyCall(2, "stuck")];
      const pending = fetch(listening.url, legacyInit(batch, "2025-03-26", session, { signal: client.signal }));
      await expect.poll(() => runs.started, { timeout: 5000 }).toBe(2);
      client.abort();
      await expect(pending).rejects.toThrow();
      // Was: neither was cancelled (a JSON array nobody reads, not even in a session, where it cannot be
      // resumed), and both held their slots until limits.handlerTimeoutMs (5 min): the next request got 503.
      await expect
        .poll(() => runs.aborted, { timeout: 5000 })
        .toMatchObject([{ name: "AbortError" }, { name: "AbortError" }]);
      const next = await fetch(listening.url, legacyInit(legacyCall(3, "hello"), "2025-03-26", session));
      expect(next.status).toBe(200);
    },
  );
});

describe("close()", () => {
  it("ends open streams, answers what outlived the grace period, and stops accepting connections", async () => {
    const { listening, started } = await serve({}, { shutdownGraceMs: 100 });
    // A session's GET stream and a modern SSE reply still in progress.
    const init = await fetch(listening.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: BOTH },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } }),
    });
    const session = init.headers.get("mcp-session-id")!;
    const get = new EventReader(
      await fetch(listening.url, { headers: { accept: "text/event-stream", "mcp-session-id": session } }),
    );
    await get.next();
    const post = new EventReader(await fetch(listening.url, modernCallInit("stream")));
    await within(started.promise);
    await post.next();

    await within(listening.close(), 5000, "close() resolving");
    open.splice(open.indexOf(listening), 1);
    // The session's stream ends cleanly; the reply still in progress past the grace period is answered with an error.
    expect(await get.rest()).toEqual([]);
    const rest = await post.rest();
    expect(messageOf(rest.at(-1))).toMatchObject({
      error: { code: -32603, message: expect.stringMatching(/^Server shutting down: "tools\/call" did not finish/) },
    });
    await expect(fetch(listening.url, modernCallInit("hello"))).rejects.toThrow();
  });

  it("lets a request in progress finish within the grace period, and refuses new ones meanwhile", async () => {
    const { listening, started, gate } = await serve({}, { shutdownGraceMs: 5000 });
    const post = new EventReader(await fetch(listening.url, modernCallInit("stream")));
    await within(started.promise);
    await post.next();
    const closing = listening.close();
    open.splice(open.indexOf(listening), 1);
    gate.resolve();
    const rest = await post.rest();
    expect(messageOf(rest.at(-1))).toMatchObject({ result: { content: [{ type: "text", text: "streamed" }] } });
    await within(closing, 5000, "close() resolving");
  });
});
