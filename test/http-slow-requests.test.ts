import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { type Limits, pico } from "../src/index.js";
import { BOTH, modernCallInit } from "./http-helpers.js";
import { RawClient, requestHead } from "./socket-helpers.js";

/**
 * How long serve({ port }) on Node lets a client take to send a request (limits.headersTimeoutMs,
 * limits.receiveTimeoutMs), and how many connections it keeps open (limits.maxConnections). Before,
 * only Node's defaults bounded a slow sender: idle headers were answered 408 after about 84 s, a
 * trickled body after about 324 s, and meanwhile what such a body had sent held the body budget, so
 * a client that sent 64 MiB and stalled locked every other POST out (503) for five minutes. Driven
 * with real slow connections to a real listener on 127.0.0.1, with short limits.
 */

const BODY = 64 * 1024;

const closers: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function listen(limits: Limits) {
  const server = pico({ name: "slow", version: "1.0.0", signals: false, limits, http: { maxBodyBytes: BODY } })
    .tool("hello", { run: () => "hello" })
    .tool("slow", {
      description: "Answers after a second, having reported progress first.",
      run: async (_args, ctx) => {
        ctx.progress(0, 1);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        return "done";
      },
    });
  const listening = await server.serve({ port: 0 });
  closers.push(() => listening.close());
  return { port: listening.port, server };
}

async function connect(port: number): Promise<RawClient> {
  const client = await RawClient.connect(port);
  closers.unshift(() => client.destroy());
  return client;
}

function call(port: number): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/mcp`, modernCallInit("hello"));
}

/** The 408 Node answers a request it gave up receiving, if it came before the close. */
function expectTimedOut(client: RawClient, response: { status: number } | undefined) {
  expect(client.ended || client.error !== undefined).toBe(true);
  if (response) expect(response.status).toBe(408);
}

describe("serve({ port }) bounds how long a request may take to arrive", () => {
  it("ends a connection that trickles its body, and frees the body budget it held", async () => {
    // The budget is one body: what the trickler sent holds nearly all of it.
    const { port } = await listen({ receiveTimeoutMs: 500, maxBodyBytesInFlight: BODY });
    const trickler = await connect(port);
    const head = requestHead("POST", "/mcp", {
      host: `127.0.0.1:${port}`,
      "content-type": "application/json",
      accept: BOTH,
      "content-length": String(BODY),
    });
    await trickler.write(Buffer.concat([Buffer.from(head), Buffer.alloc(BODY - 64, 32)]));
    // The server reads the bytes as they arrive: a few attempts at most see them held.
    let held: Response | undefined;
    for (let attempt = 0; attempt < 50 && held?.status !== 503; attempt++) held = await call(port);
    expect(held!.status).toBe(503);
    // A byte every 200 ms: never idle, and done in 13 s. Before, Node ended it only after 300 s.
    const trickling = (async () => {
      while (await trickler.write(" ")) await new Promise((resolve) => setTimeout(resolve, 200));
    })();
    await trickler.gone(10_000);
    await trickling;
    expectTimedOut(trickler, await trickler.response(1000).catch(() => undefined));
    // What the body held is free: another POST is served.
    let after: Response | undefined;
    for (let attempt = 0; attempt < 50 && after?.status !== 200; attempt++) after = await call(port);
    expect(after!.status).toBe(200);
  });

  it("ends a connection whose headers do not all arrive, and one that sends nothing", async () => {
    const { port } = await listen({ headersTimeoutMs: 200 });
    const partial = await connect(port);
    await partial.write(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n`);
    const silent = await connect(port);
    // Before, Node's headersTimeout (60 s, checked every 30 s) ended them after up to 90 s.
    await Promise.all([partial.gone(10_000), silent.gone(10_000)]);
    expectTimedOut(partial, await partial.response(1000).catch(() => undefined));
    expectTimedOut(silent, await silent.response(1000).catch(() => undefined));
    expect((await call(port)).status).toBe(200);
  });

  it("closes a connection past limits.maxConnections at once, and serves again once one has gone", async () => {
    const { port } = await listen({ maxConnections: 2 });
    const first = await connect(port);
    await connect(port);
    // Before, there was no bound: every connection was kept until Node's timeouts ended it.
    const third = await connect(port);
    await third.gone(5000);
    expect(third.writtenAtResponse).toBeUndefined();
    first.destroy();
    let after: Response | undefined;
    for (let attempt = 0; attempt < 50 && after?.status !== 200; attempt++) {
      after = await call(port).catch(() => undefined);
    }
    expect(after!.status).toBe(200);
  });

  it("never cuts an answer: a tool call and an SSE stream outlast the timeouts many times over", async () => {
    const { port, server } = await listen({ headersTimeoutMs: 100, receiveTimeoutMs: 200 });
    let gets = 0;
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
      fetch: (input, init) => {
        if (init?.method === "GET") gets++;
        return fetch(input, init);
      },
    });
    const client = new Client({ name: "patient", version: "1.0.0" });
    closers.unshift(() => client.close());
    const listChanged: unknown[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, (notification) => {
      listChanged.push(notification);
    });
    await client.connect(transport);
    // The session's GET stream is open once the client has sent it.
    await expect.poll(() => gets, { timeout: 5000 }).toBe(1);
    // A call answered a second after it was sent, its progress streamed first: five times the timeout.
    const progress: unknown[] = [];
    const result = await client.callTool({ name: "slow" }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(result).toEqual({ content: [{ type: "text", text: "done" }] });
    expect(progress).toEqual([{ progress: 0, total: 1 }]);
    // The GET stream, quiet for that second, still carries what the server sends: a list change.
    expect(listChanged).toEqual([]);
    server.tool("late", { run: () => "late" });
    await expect.poll(() => listChanged, { timeout: 5000 }).toEqual([{ method: "notifications/tools/list_changed" }]);
    // On the stream opened first: it was never cut and opened again.
    expect(gets).toBe(1);
  });
});
