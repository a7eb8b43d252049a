/**
 * `server.node(req, res)`: the endpoint as a `node:http` request listener, mounted in servers of the
 * caller's own (`http.createServer`, Express 5) over real loopback sockets and driven by the official
 * SDK clients. It shares `server.fetch`'s endpoint: sessions, auth and `close()`.
 */
import {
  createServer,
  type Server as HttpServer,
  IncomingMessage,
  type RequestListener,
  ServerResponse,
} from "node:http";
import { type AddressInfo, connect, Socket } from "node:net";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import express from "express";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { testIssuer } from "../src/testing.js";
import {
  bare,
  EventReader,
  hostRefused,
  initialize,
  inSession,
  modern,
  modernCallInit,
  modernMessage,
  originRefused,
  signal,
  within,
} from "./http-helpers.js";
import { makeServer, PRICE, recordingFetch, sseMessages } from "./peers/http-fixture.js";

const listeners: HttpServer[] = [];
const clients: { close(): Promise<void> }[] = [];

afterAll(async () => {
  // Clients first, so that their sessions end while the servers still answer.
  for (const client of clients) await client.close();
  for (const listener of listeners) {
    listener.closeAllConnections();
    await new Promise((done) => listener.close(done));
  }
});

/** Serves `listener` on 127.0.0.1, on a free port; answers the origin. */
async function listen(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  listeners.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Sends a request built by http-helpers (addressed to http://localhost/mcp) to `url` instead. */
async function sendTo(url: string, request: Request): Promise<Response> {
  const body = request.method === "GET" ? undefined : await request.text();
  return fetch(url, { method: request.method, headers: request.headers, body });
}

async function connectV1(url: string) {
  const wire = recordingFetch();
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: wire.fetch });
  const client = new Client({ name: "v1-node", version: "1.0.0" });
  clients.push(client);
  await client.connect(transport);
  return { client, transport, exchanges: wire.exchanges };
}

async function connectV2(url: string) {
  const client = new ClientV2({ name: "v2-node", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
  clients.push(client);
  await client.connect(new TransportV2(new URL(url)));
  return client;
}

/** The text of a result's first content block (v1 results are typed as a union with the legacy `toolResult`). */
const textOf = (result: Record<string, unknown>) => (result.content as { text: string }[])[0]!.text;

describe("http.createServer(server.node)", () => {
  const { server } = makeServer();
  let origin: string;

  beforeAll(async () => {
    origin = await listen(server.node);
  });

  it("serves a v1 client's 2025-11-25 session: initialize, tools/call, the GET stream, DELETE", async () => {
    const url = `${origin}/mcp`;
    const { client, transport, exchanges } = await connectV1(url);
    const listChanged: unknown[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, (notification) => {
      listChanged.push(notification);
    });
    const session = transport.sessionId!;
    expect(session).toMatch(/^[\x21-\x7e]+$/);
    expect(textOf(await client.callTool({ name: "search_issues", arguments: { repo: "a/b", query: "bug" } }))).toBe(
      "a/b bug 10",
    );
    // The standalone GET stream carries what the server says on its own.
    await expect.poll(() => exchanges.find((each) => each.method === "GET")?.status, { timeout: 5000 }).toBe(200);
    await client.callTool({ name: "add_tool", arguments: { name: "late_tool" } });
    await expect.poll(() => listChanged, { timeout: 5000 }).toEqual([{ method: "notifications/tools/list_changed" }]);
    const stream = exchanges.find((each) => each.method === "GET")!;
    expect(sseMessages(stream.text)).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);

    await transport.terminateSession();
    expect(exchanges.at(-1)).toMatchObject({ method: "DELETE", status: 200 });
    const stale = await sendTo(url, inSession(session, { jsonrpc: "2.0", id: 9, method: "tools/list" }));
    expect(stale.status).toBe(404);
  });

  it("serves a v2 client in 2026-07-28: stateless calls, structured output, progress on an SSE reply", async () => {
    const client = await connectV2(`${origin}/mcp`);
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect((await client.callTool({ name: "get_price", arguments: { sku: "A-1" } })).structuredContent).toEqual(PRICE);
    const seen: number[] = [];
    const counted = await client.callTool(
      { name: "count", arguments: { steps: 3 } },
      { onprogress: (update) => seen.push(update.progress) },
    );
    expect(textOf(counted)).toBe("counted to 3");
    expect(seen).toEqual([1, 2, 3]);
  });

  it("leaves the path to the router and checks Origin, as fetch does", async () => {
    const call = (headers = {}) =>
      modern("tools/call", { name: "search_issues", arguments: { repo: "a/b", query: "q" } }, headers);
    expect((await sendTo(`${origin}/any/path?x=1`, call())).status).toBe(200);
    // The server's own origin, as a page it served would send it, is accepted.
    expect((await sendTo(`${origin}/mcp`, call({ origin }))).status).toBe(200);
    const refused = await sendTo(`${origin}/mcp`, call({ origin: "http://evil.example.com" }));
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toBe(originRefused("http://evil.example.com"));
  });

  it("checks Host only against allowedHosts", async () => {
    const strict = pico({ name: "strict", version: "1.0.0", http: { allowedHosts: ["mcp.example.com"] } });
    const base = await listen(strict.tool("hello", { run: () => "hi" }).node);
    const refused = await sendTo(base, modern("tools/call", { name: "hello" }));
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toBe(hostRefused(base.slice(7)));
  });

  it("writes nothing to a response whose headers were sent before it, and resolves", async () => {
    const handed = signal<unknown>();
    const base = await listen(async (req, res) => {
      res.writeHead(200, { "content-type": "text/plain" }).write("answered ");
      handed.resolve(await server.node(req, res).catch((thrown: unknown) => thrown));
      res.end("elsewhere");
    });
    const response = await sendTo(base, modern("tools/call", { name: "get_price", arguments: { sku: "A-1" } }));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("answered elsewhere");
    expect(await within(handed.promise)).toBeUndefined();
  });
});

describe("a client that goes away", () => {
  it("aborts ctx.signal when it leaves mid-call, and the next request is served", async () => {
    const started = signal();
    const aborted = signal<unknown>();
    const app = pico({ name: "leaving", version: "1.0.0" })
      .tool("hello", { run: () => "hi" })
      .tool("wait", {
        run: async (_args, ctx) => {
          started.resolve();
          await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
          aborted.resolve(ctx.signal.reason);
          return "too late";
        },
      });
    const base = await listen(app.node);
    const client = new AbortController();
    const pending = fetch(base, modernCallInit("wait", { signal: client.signal }));
    await within(started.promise, 5000, "the tool starting");
    client.abort();
    await expect(pending).rejects.toThrow();
    expect(await within(aborted.promise, 5000, "ctx.signal aborting")).toMatchObject({ name: "AbortError" });
    expect((await fetch(base, modernCallInit("hello"))).status).toBe(200);
  });

  it("leaves mid-body: the read fails and server.node resolves, rather than waiting for the rest", async () => {
    const app = pico({ name: "leaving", version: "1.0.0" }).tool("hello", { run: () => "hi" });
    let handed = signal<unknown>();
    const base = await listen((req, res) => {
      app.node(req, res).then(handed.resolve, handed.resolve);
    });
    // The endpoint loads with the first request: then the next one's body is being read when the client leaves.
    expect((await fetch(base, modernCallInit("hello"))).status).toBe(200);
    handed = signal<unknown>();
    const socket = connect(Number(new URL(base).port), "127.0.0.1");
    await new Promise((done) => socket.once("connect", done));
    socket.write(
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
        'Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":',
    );
    await new Promise((done) => setTimeout(done, 100));
    socket.destroy();
    expect(await within(handed.promise, 5000, "server.node resolving")).toBeUndefined();
    expect((await fetch(base, modernCallInit("hello"))).status).toBe(200);
  });
  it("leaves mid-body of a request pipelined behind one in progress: the read fails and server.node resolves", async () => {
    const release = signal();
    const app = pico({ name: "leaving", version: "1.0.0" })
      .tool("hello", { run: () => "hi" })
      .tool("hold", { run: () => release.promise.then(() => "released") });
    const handed: Promise<void>[] = [];
    let arrived = signal();
    const base = await listen((req, res) => {
      handed.push(app.node(req, res));
      if (handed.length === 3) arrived.resolve();
    });
    expect((await fetch(base, modernCallInit("hello"))).status).toBe(200);
    const { headers, body } = modernCallInit("hold");
    const head = (length: number) =>
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers as Record<string, string>)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("")}Content-Length: ${length}\r\n\r\n`;
    const socket = connect(Number(new URL(base).port), "127.0.0.1");
    await new Promise((done) => socket.once("connect", done));
    // Node answers pipelined requests in order: the second one's response waits for the first's
    // socket, so it never closes when the client leaves; only its request does.
    socket.write(`${head(Buffer.byteLength(body as string))}${body}${head(1000)}{"jsonrpc":`);
    await within(arrived.promise, 5000, "the pipelined request reaching server.node");
    await new Promise((done) => setTimeout(done, 100));
    socket.destroy();
    expect(await within(handed[2]!, 5000, "server.node resolving")).toBeUndefined();
    release.resolve();
    arrived = signal();
    expect((await fetch(base, modernCallInit("hello"))).status).toBe(200);
  });
});

describe("Express 5", () => {
  it("takes the body express.json() parsed before it: a v1 session over app.all('/mcp', server.node)", async () => {
    const { server } = makeServer();
    const parsed: string[] = [];
    const app = express();
    app.use(express.json());
    app.use((req, _res, next) => {
      if (req.method === "POST") parsed.push(`${typeof req.body}, stream ended: ${req.readableEnded}`);
      next();
    });
    app.all("/mcp", server.node);
    const { client, transport } = await connectV1(`${await listen(app)}/mcp`);
    expect(transport.sessionId).toBeDefined();
    expect(textOf(await client.callTool({ name: "search_issues", arguments: { repo: "a/b", query: "x" } }))).toBe(
      "a/b x 10",
    );
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("get_price");
    // Every POST reached picomcp with its stream already read and its body parsed by Express.
    expect(parsed.length).toBeGreaterThanOrEqual(4);
    expect(new Set(parsed)).toEqual(new Set(["object, stream ended: true"]));
  });

  it.each([
    ["express.text()", express.text({ type: "application/json" })],
    ["express.raw()", express.raw({ type: "application/json" })],
  ])("takes a body that %s read as it is", async (_, parser) => {
    const { server } = makeServer();
    const app = express();
    app.use(parser);
    app.all("/mcp", server.node);
    const response = await sendTo(
      `${await listen(app)}/mcp`,
      modern("tools/call", { name: "search_issues", arguments: { repo: "a/b", query: "é ✓" } }),
    );
    expect(response.status).toBe(200);
    expect((await response.json()).result.content).toEqual([{ type: "text", text: "a/b é ✓ 10" }]);
  });

  it("holds a body express.json() parsed to maxBodyBytes", async () => {
    const { server } = makeServer({ maxBodyBytes: 256 });
    const app = express();
    app.use(express.json());
    app.all("/mcp", server.node);
    const long = modern("tools/call", { name: "search_issues", arguments: { repo: "a/b", query: "q".repeat(300) } });
    const refused = await sendTo(`${await listen(app)}/mcp`, long);
    expect(refused.status).toBe(413);
    expect((await refused.json()).error.message).toBe("Payload Too Large: request bodies are limited to 256 bytes");
  });

  it("serves app.use('/mcp', server.node), whose req.url Express cut to '/', with the v2 client", async () => {
    // With `path` set, a request would answer 404 if picomcp read the cut req.url.
    const { server } = makeServer({ path: "/mcp" });
    const app = express();
    app.use("/mcp", server.node);
    const client = await connectV2(`${await listen(app)}/mcp`);
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(textOf(await client.callTool({ name: "search_issues", arguments: { repo: "a/b", query: "y" } }))).toBe(
      "a/b y 10",
    );
  });

  it("answers 500 with what to do, rather than waiting, when a middleware read the body and left no req.body", async () => {
    const { server } = makeServer();
    const app = express();
    app.use((req, _res, next) => {
      req.resume();
      req.once("end", () => next());
    });
    app.all("/mcp", server.node);
    const base = await listen(app);
    const response = await within(
      sendTo(`${base}/mcp`, modern("tools/call", { name: "get_price", arguments: { sku: "A-1" } })),
      5000,
      "the answer",
    );
    expect(response.status).toBe(500);
    expect((await response.json()).error).toEqual({
      code: -32603,
      message:
        "Internal Server Error: a middleware read the request body and set no req.body; mount server.node before body parsers, or pass the parsed body as req.body",
    });
    // Requests without a body are served as usual.
    expect((await sendTo(`${base}/mcp`, bare("DELETE"))).status).toBe(400);
  });

  it("checks bearer tokens: 401 names the metadata, which it serves too; a token for this resource is let in", async () => {
    const resource = "https://notes.example.com/mcp";
    const issuer = await testIssuer({ audience: resource });
    const server = pico({
      name: "notes",
      version: "1.0.0",
      // server.node has no listen address of its own: the resource is configured.
      auth: { verify: issuer.verify, resource, authorizationServers: [issuer.issuer] },
    }).tool("whoami", { run: (_args, ctx) => `you are ${ctx.auth!.subject}` });
    const app = express();
    app.use("/mcp", server.node);
    app.get("/.well-known/oauth-protected-resource{/*rest}", server.node);
    const base = await listen(app);

    const anonymous = await sendTo(`${base}/mcp`, modern("tools/call", { name: "whoami" }));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe(
      'Bearer resource_metadata="https://notes.example.com/.well-known/oauth-protected-resource/mcp"',
    );
    const metadata = await fetch(`${base}/.well-known/oauth-protected-resource/mcp`);
    expect(await metadata.json()).toMatchObject({ resource, authorization_servers: [issuer.issuer] });

    const token = await issuer.mint({ subject: "ada" });
    const signedIn = await sendTo(
      `${base}/mcp`,
      modern("tools/call", { name: "whoami" }, { authorization: `Bearer ${token}` }),
    );
    expect(signedIn.status).toBe(200);
    expect((await signedIn.json()).result.content).toEqual([{ type: "text", text: "you are ada" }]);
  });
});

describe("Fastify 5", () => {
  /** The documented mount (docs/http.md): Fastify parsed the JSON body, picomcp writes the reply itself. */
  async function mount(server: ReturnType<typeof makeServer>["server"]): Promise<string> {
    const fastify = Fastify();
    fastify.all("/mcp", (request, reply) => {
      reply.hijack();
      return server.node(Object.assign(request.raw, { body: request.body }), reply.raw);
    });
    await fastify.listen({ port: 0, host: "127.0.0.1" });
    clients.push({ close: () => fastify.close() });
    return `http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}/mcp`;
  }

  it("serves a v1 client's 2025-11-25 session through a hijacked reply: calls, the GET stream, DELETE", async () => {
    const { server } = makeServer();
    const url = await mount(server);
    const { client, transport } = await connectV1(url);
    const session = transport.sessionId;
    expect(session).toBeDefined();
    expect(textOf(await client.callTool({ name: "search_issues", arguments: { repo: "a/b", query: "x" } }))).toBe(
      "a/b x 10",
    );
    const changed = signal();
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed.resolve());
    server.tool("added_later", { run: () => "" });
    await within(changed.promise);
    await transport.terminateSession();
    const after = await sendTo(url, inSession(session!, { jsonrpc: "2.0", id: 9, method: "ping" }));
    expect(after.status).toBe(404);
  });

  it("serves a v2 client in 2026-07-28", async () => {
    const { server } = makeServer();
    const client = await connectV2(await mount(server));
    const result = await client.callTool({ name: "get_price", arguments: { sku: "A-1" } });
    expect(result.structuredContent).toEqual(PRICE);
  });
});

describe("test doubles", () => {
  it("answers a response made without a connection (Node's own classes, as unit tests make them) instead of holding it for one", async () => {
    const { server } = makeServer();
    const { headers, body } = modernMessage("tools/call", { name: "get_price", arguments: { sku: "A-1" } });
    const req = new IncomingMessage(new Socket());
    Object.assign(req, {
      method: "POST",
      url: "/mcp",
      headers: {
        host: "localhost",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
    });
    req.push(JSON.stringify(body));
    req.push(null);
    const res = new ServerResponse(req);
    const written: string[] = [];
    res.end = ((chunk?: string | Buffer) => {
      if (chunk !== undefined) written.push(String(chunk));
      res.emit("close");
      return res;
    }) as typeof res.end;
    await within(server.node(req, res), 5000, "server.node resolving");
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(written.join("")).result.structuredContent).toEqual(PRICE);
  });

  it("answers through Fastify's inject (light-my-request)", async () => {
    const { server } = makeServer();
    const fastify = Fastify();
    fastify.all("/mcp", (request, reply) => {
      reply.hijack();
      return server.node(Object.assign(request.raw, { body: request.body }), reply.raw);
    });
    const { headers, body } = modernMessage("tools/call", { name: "get_price", arguments: { sku: "A-1" } });
    const response = await fastify.inject({
      method: "POST",
      url: "/mcp",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      payload: body,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().result.structuredContent).toEqual(PRICE);
    await fastify.close();
  });
});

describe("server.close()", () => {
  it("ends the sessions and streams served through server.node, and answers new requests 503", async () => {
    const server = pico({ name: "closing", version: "1.0.0", signals: false }).tool("hello", { run: () => "hi" });
    const base = await listen(server.node);
    // fetch and node are one endpoint: a session started through one goes on through the other.
    const session = await initialize(server);
    const stream = new EventReader(
      await sendTo(base, bare("GET", { accept: "text/event-stream", "mcp-session-id": session })),
    );
    expect(await stream.next()).toMatchObject({ data: "" });

    await within(server.close(), 5000, "close() resolving");
    expect(await stream.rest()).toEqual([]);
    const refused = await sendTo(base, modern("tools/call", { name: "hello" }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
  });
});
