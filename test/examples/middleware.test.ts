/**
 * The middleware examples (examples/middleware/): each one in-process through `server.call`, then
 * the example server over stdio (a child process) and over Streamable HTTP on 127.0.0.1, driven by
 * the official clients in both eras: v1 (2025-11-25, a session) and v2 (2026-07-28, `_meta`).
 */
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from "@modelcontextprotocol/client";
import { StdioClientTransport as V2Stdio } from "@modelcontextprotocol/client/stdio";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1Stdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "../../examples/middleware/audit.js";
import { MAX_NAME, RATE_LIMITED } from "../../examples/middleware/rate-limit.js";
import { createMiddlewareServer } from "../../examples/middleware/server.js";
import { capResultSize } from "../../examples/middleware/size-cap.js";
import { DURATION_KEY } from "../../examples/middleware/timing.js";
import { pico } from "../../src/index.js";
import type { Listening } from "../../src/transports/listen.js";
import { tsxProgram } from "../peers/fixture.js";
import { servedToClients } from "../peers/served.js";

const textOf = (result: { content?: unknown }) => (result.content as { text: string }[])[0]?.text ?? "";

describe("the middleware examples, in-process", () => {
  it("audit log: one entry per call, with the caller, the tool and the outcome", async () => {
    const entries: AuditEntry[] = [];
    const server = createMiddlewareServer({ audit: (entry) => entries.push(entry) });
    await server.call("repeat", { word: "a", times: 2 }, { auth: { subject: "user-1" } });
    await server.call("repeat", { word: "a", times: 0 });
    expect(entries.map(({ caller, era, method, tool, outcome }) => ({ caller, era, method, tool, outcome }))).toEqual([
      { caller: "user-1", era: "local", method: "tools/call", tool: "repeat", outcome: "ok" },
      { caller: "anonymous", era: "local", method: "tools/call", tool: "repeat", outcome: "tool error" },
    ]);
    expect(entries[0]?.ms).toBeGreaterThanOrEqual(0);
  });

  it("rate limit: per caller, a tool error that says when to retry, and the next window lets calls through", async () => {
    let now = 1_000_000;
    const entries: AuditEntry[] = [];
    const server = createMiddlewareServer({
      audit: (entry) => entries.push(entry),
      rateLimit: { limit: 2, windowMs: 10_000, now: () => now },
    });
    const ada = { auth: { subject: "ada" } };
    const call = (options = ada) => server.call("repeat", { word: "x", times: 1 }, options);
    expect((await call()).isError).toBeUndefined();
    now += 4_000;
    expect((await call()).isError).toBeUndefined();
    const refused = await call();
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      'Tool "repeat" was not run. Rate limit reached: at most 2 requests every 10 s per caller. Wait 6 s, then retry.',
    );
    // Another caller has a window of its own.
    expect((await call({ auth: { subject: "grace" } })).isError).toBeUndefined();
    now += 6_000;
    expect((await call()).isError).toBeUndefined();
    expect(entries.map((entry) => entry.outcome)).toEqual(["ok", "ok", "tool error", "ok", "ok"]);
  });

  it("rate limit: the table of callers is bounded (maxCallers); the oldest window is forgotten, live ones still count", async () => {
    const server = createMiddlewareServer({
      audit: () => {},
      rateLimit: { limit: 1, windowMs: 60_000, maxCallers: 2, now: () => 0 },
    });
    const call = (subject: string) => server.call("repeat", { word: "x", times: 1 }, { auth: { subject } });
    const outcomes: (boolean | undefined)[] = [];
    for (const subject of ["ada", "grace", "linus", "ada", "linus"]) outcomes.push((await call(subject)).isError);
    // linus pushes ada out (two callers at most), so ada starts over, which pushes grace out; linus's
    // window is still remembered, so its second call is over the limit.
    expect(outcomes).toEqual([undefined, undefined, undefined, undefined, true]);
  });

  it("rate limit: a client name longer than MAX_NAME shares the anonymous window, so the table keeps no such name", async () => {
    const server = createMiddlewareServer({
      audit: () => {},
      rateLimit: { limit: 1, windowMs: 60_000, now: () => 0 },
    });
    const as = (name: string) => ({ client: { info: { name, version: "1" } } });
    const call = (name: string) => server.call("repeat", { word: "x", times: 1 }, as(name));
    // A client may declare a name of megabytes on every request: each would be a window of its own.
    const first = "a".repeat(MAX_NAME + 1);
    const second = "b".repeat(4 * 1024 * 1024);
    expect((await call(first)).isError).toBeUndefined();
    expect((await call(second)).isError).toBe(true);
    // A name of MAX_NAME characters is a caller of its own.
    expect((await call("c".repeat(MAX_NAME))).isError).toBeUndefined();
  });

  it("size cap: a result over the cap becomes a tool error that says how to ask for less", async () => {
    const server = createMiddlewareServer({ audit: () => {}, maxResultBytes: 200 });
    expect(textOf(await server.call("repeat", { word: "ok", times: 3 }))).toBe("ok ok ok");
    const capped = await server.call("repeat", { word: "word", times: 100 });
    expect(capped.isError).toBe(true);
    expect(textOf(capped)).toMatch(
      /^Tool "repeat" produced \d+ bytes, more than this server sends \(200 bytes\)\. Call it again asking for less/,
    );
  });

  it("timing: the duration in the result's _meta", async () => {
    const server = createMiddlewareServer({ audit: () => {} });
    const result = await server.call("repeat", { word: "a", times: 1 });
    expect(result._meta?.[DURATION_KEY]).toEqual(expect.any(Number));
  });
});

/** A tool whose result JSON cannot carry (a BigInt in a block's _meta), behind the size cap. */
const unsendable = servedToClients(
  pico({ name: "unsendable", version: "1.0.0" })
    .tool("count_atoms", {
      description: "Counts the atoms in a mole.",
      run: () => [{ type: "text" as const, text: "many", _meta: { "com.example/exact": 602214076000000000000000n } }],
    })
    .use("tools/call", capResultSize(10_000)),
);

describe("the size cap and a result JSON cannot carry, over Streamable HTTP on 127.0.0.1", () => {
  it("leaves it to the server, which answers the tool error the model reads, in both eras", async () => {
    const expected = {
      isError: true,
      content: [
        {
          type: "text",
          text: "A tool returned a value that cannot be sent as JSON: Do not know how to serialize a BigInt",
        },
      ],
    };
    expect(await (await unsendable.legacy()).callTool({ name: "count_atoms", arguments: {} })).toEqual(expected);
    expect(await (await unsendable.modern()).callTool({ name: "count_atoms", arguments: {} })).toMatchObject(expected);
  });
});

const stdioParams = tsxProgram("examples/middleware/server.ts", { RATE_LIMIT: "3" });

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** Either client, seen through what the tests use: calls a tool, or sends a request and answers its result or error. */
interface Peer {
  callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  listTools(): Promise<unknown>;
}

async function v1(transport: V1Stdio | V1Http): Promise<Peer> {
  const client = new V1Client({ name: "v1-client", version: "1.0.0" });
  await client.connect(transport);
  closers.push(() => client.close());
  return {
    callTool: (name, args) => client.callTool({ name, arguments: args }) as Promise<Record<string, unknown>>,
    listTools: () => client.listTools(),
  };
}

async function v2(transport: V2Stdio | V2Http): Promise<Peer> {
  const client = new V2Client({ name: "v2-client", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(transport);
  closers.push(() => client.close());
  return {
    callTool: (name, args) => client.callTool({ name, arguments: args }) as Promise<Record<string, unknown>>,
    listTools: () => client.listTools(),
  };
}

/** The same checks on every transport and era: timing in _meta, the size cap, the rate limit (3 a minute). */
async function exercise(peer: Peer): Promise<void> {
  const ok = await peer.callTool("repeat", { word: "hi", times: 2 });
  expect(textOf(ok)).toBe("hi hi");
  expect((ok._meta as Record<string, unknown>)[DURATION_KEY]).toEqual(expect.any(Number));
  const capped = await peer.callTool("repeat", { word: "word", times: 5_000 });
  expect(capped.isError).toBe(true);
  expect(textOf(capped)).toMatch(/more than this server sends \(10000 bytes\)/);
  // At most 3 requests a minute per caller: within a few more calls, one is refused as a tool error
  // (the v2 client's server/discover may or may not count as this caller's: it carries no clientInfo).
  let refused: Record<string, unknown> = {};
  for (let attempt = 0; attempt < 4 && refused.isError !== true; attempt++) {
    refused = await peer.callTool("repeat", { word: "hi", times: 1 });
  }
  expect(refused.isError).toBe(true);
  expect(textOf(refused)).toMatch(/^Tool "repeat" was not run\. Rate limit reached: at most 3 requests every 60 s/);
  const listed = await peer.listTools().catch((error: unknown) => error);
  expect(listed).toMatchObject({ code: RATE_LIMITED, message: expect.stringContaining("Rate limit reached") });
}

describe("the middleware example server over stdio", () => {
  it("v1 client (2025-11-25): timing, size cap and rate limit on the wire, the audit log on stderr", async () => {
    const transport = new V1Stdio(stdioParams);
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const peer = await v1(transport);
    await peer.listTools();
    await exercise(peer);
    await expect.poll(() => stderr.split("\n").filter((line) => line.startsWith("{")).length).toBe(5);
    const entries = stderr
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as AuditEntry);
    expect(entries.map(({ caller, era, method, outcome }) => [caller, era, method, outcome])).toEqual([
      ["v1-client", "legacy", "tools/list", "ok"],
      ["v1-client", "legacy", "tools/call", "ok"],
      ["v1-client", "legacy", "tools/call", "tool error"],
      ["v1-client", "legacy", "tools/call", "tool error"],
      ["v1-client", "legacy", "tools/list", `error ${RATE_LIMITED}`],
    ]);
  });

  it("v2 client (2026-07-28): the same, each request stateless with its _meta", async () => {
    await exercise(await v2(new V2Stdio(stdioParams)));
  });
});

describe("the middleware example server over Streamable HTTP on 127.0.0.1", () => {
  async function listen(): Promise<string> {
    const server = createMiddlewareServer({ audit: () => {}, rateLimit: { limit: 3, windowMs: 60_000 } });
    const listening: Listening = await server.serve({ port: 0 });
    closers.push(() => listening.close());
    return listening.url;
  }

  it("v1 client (2025-11-25 session)", async () => {
    const peer = await v1(new V1Http(new URL(await listen())));
    await peer.listTools();
    await exercise(peer);
  });

  it("v2 client (2026-07-28)", async () => {
    await exercise(await v2(new V2Http(new URL(await listen()))));
  });
});
