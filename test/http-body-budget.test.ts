import { afterEach, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { BOTH, modern, modernCallInit, within } from "./http-helpers.js";
import { chunkOf, RawClient, requestHead } from "./socket-helpers.js";

/**
 * limits.maxBodyBytesInFlight: the bytes of request bodies being read at once across the endpoint.
 * Each body is capped (maxBodyBytes), but before, how many were read at once was not: slow senders
 * on many connections made the server hold connections × maxBodyBytes until Node's requestTimeout
 * (300 s). Driven with real slow connections to serve({ port }) on 127.0.0.1, counting refusals.
 */

const BODY = 64 * 1024;
/** The default: 16 × the body limit. */
const IN_FLIGHT = 16 * BODY;

const closers: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function app(limits: { maxBodyBytesInFlight?: number } = {}) {
  return pico({ name: "bodies", version: "1.0.0", signals: false, limits, http: { maxBodyBytes: BODY } }).tool(
    "hello",
    { run: () => "hello" },
  );
}

async function listen(limits: { maxBodyBytesInFlight?: number } = {}): Promise<number> {
  const listening = await app(limits).serve({ port: 0 });
  closers.push(() => listening.close());
  return listening.port;
}

/** A client that sent the head of a POST and `sent` bytes of its body, then stays quiet. */
async function slowSender(port: number, framing: Record<string, string>, sent: Buffer): Promise<RawClient> {
  const client = await RawClient.connect(port);
  closers.unshift(() => client.destroy());
  const head = requestHead("POST", "/mcp", {
    host: `127.0.0.1:${port}`,
    "content-type": "application/json",
    accept: BOTH,
    ...framing,
  });
  await client.write(Buffer.concat([Buffer.from(head), sent]));
  return client;
}

function expectBusy(response: { status: number; headers: Record<string, string>; body: string }, max: number) {
  expect(response.status).toBe(503);
  expect(response.headers["retry-after"]).toBe("1");
  expect(response.headers.connection).toBe("close");
  expect(JSON.parse(response.body)).toEqual({
    jsonrpc: "2.0",
    error: {
      code: -32603,
      message: `Server busy: too many request bytes are being received (limits.maxBodyBytesInFlight = ${max}); retry after a request in progress has been answered`,
      data: { limit: "maxBodyBytesInFlight", max },
    },
  });
}

async function call(port: number): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/mcp`, modernCallInit("hello"));
}

describe("limits.maxBodyBytesInFlight over serve({ port })", () => {
  it("refuses, with 503 and Retry-After, the slow senders past the bytes being read at once", async () => {
    const port = await listen();
    // 16 connections each sending all but the last byte of a 64 KiB body: they hold all but 16 bytes
    // of the default 1 MiB. Before, the server would have held 40 × 64 KiB from 40 such senders.
    const held: RawClient[] = [];
    for (let i = 0; i < 16; i++) {
      held.push(await slowSender(port, { "content-length": String(BODY) }, Buffer.alloc(BODY - 1, 32)));
    }
    // The server reads their bytes as they arrive: a few attempts at most see them all.
    let busy: Response | undefined;
    for (let attempt = 0; attempt < 50 && busy?.status !== 503; attempt++) busy = await call(port);
    // A small call does not fit while the 16 hold nearly everything.
    expectBusy(await toRaw(busy!), IN_FLIGHT);
    // 24 more promising a whole body are answered at once, from their Content-Length.
    const refused: RawClient[] = [];
    for (let i = 0; i < 24; i++) {
      const client = await slowSender(port, { "content-length": String(BODY) }, Buffer.alloc(1024, 32));
      expectBusy(await client.fullResponse(5000), IN_FLIGHT);
      refused.push(client);
    }
    // Their bodies are not read: each connection ends (a second after the answer).
    await Promise.all(refused.map((client) => client.gone()));
    // The 16 send their last byte, and are answered; then the bytes are free again.
    for (const client of held) {
      await client.write(Buffer.alloc(1, 32));
      expect((await client.fullResponse()).status).toBe(400);
    }
    expect((await call(port)).status).toBe(200);
  });

  it("holds what a body has sent, not what it promised: senders that stall lock no one out", async () => {
    const port = await listen();
    // 40 connections each promising a whole body (64 KiB) and sending 1 KiB of it, then nothing: 40 KiB
    // of the default 1 MiB arrived. Before, their promises held the whole budget (16 of them were
    // enough), and every other POST got 503 until Node's requestTimeout (300 s) ended them: a lock-out
    // that cost a client 40 idle connections, renewed every five minutes.
    const stalled: RawClient[] = [];
    for (let i = 0; i < 40; i++) {
      stalled.push(await slowSender(port, { "content-length": String(BODY) }, Buffer.alloc(1024, 32)));
    }
    expect((await call(port)).status).toBe(200);
    // Each is read whole once it sends the rest (64 KiB of spaces is no JSON: 400), none refused.
    for (const client of stalled) {
      await client.write(Buffer.alloc(BODY - 1024, 32));
      expect((await client.fullResponse()).status).toBe(400);
    }
  });

  it("counts a chunked body by what has arrived, and frees what a sender that leaves held", async () => {
    // The budget is one body: a chunked sender holding 48 KiB leaves no room for a 32 KiB body.
    const port = await listen({ maxBodyBytesInFlight: BODY });
    const slow = await slowSender(port, { "transfer-encoding": "chunked" }, chunkOf(Buffer.alloc(48 * 1024, 32)));
    const body = Buffer.alloc(32 * 1024, 32);
    let response: Response | undefined;
    // The server reads the slow sender's chunk as it arrives: a few attempts at most see it.
    for (let attempt = 0; attempt < 50 && response?.status !== 503; attempt++) {
      response = await fetch(`http://127.0.0.1:${port}/mcp`, { ...modernCallInit("hello"), body });
    }
    expectBusy(await toRaw(response!), BODY);
    // The slow sender leaves: what it held is free.
    slow.destroy();
    let after: Response | undefined;
    for (let attempt = 0; attempt < 50 && after?.status !== 200; attempt++) after = await call(port);
    expect(after!.status).toBe(200);
  });

  it("reads one body of the largest size whatever the limit, which would otherwise refuse it for ever", async () => {
    const port = await listen({ maxBodyBytesInFlight: 1 });
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
      ...modernCallInit("hello"),
      body: " ".repeat(BODY),
    });
    expect(response.status).toBe(400);
    expect((await call(port)).status).toBe(200);
  });
});

describe("limits.maxBodyBytesInFlight over server.fetch", () => {
  it("refuses the streamed bodies past the bytes being read at once, and frees them once they end", async () => {
    const server = app();
    closers.push(() => server.close());
    // 30 bodies of which 48 KiB arrived, and no more yet: 21 fit in 1 MiB, the other 9 are refused.
    const ends: (() => void)[] = [];
    const replies = Array.from({ length: 30 }, () => {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(48 * 1024).fill(32));
          // A refused body was cancelled by the server: closing it again throws, and is no matter.
          ends.push(() => {
            try {
              controller.close();
            } catch {}
          });
        },
      });
      return server.fetch(
        modern("tools/call", { name: "hello", arguments: {} }, {}, { body: stream, duplex: "half" } as RequestInit),
      );
    });
    const statuses = new Map<number, number>();
    const settled = replies.map((reply) =>
      reply.then((r) => statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)),
    );
    await within(
      (async () => {
        while ((statuses.get(503) ?? 0) < 9) await new Promise((resolve) => setTimeout(resolve, 10));
      })(),
      5000,
      "9 refusals",
    );
    expect(statuses.get(503)).toBe(9);
    expect(statuses.size).toBe(1);
    // The 21 bodies end (48 KiB of spaces is no JSON: 400), and the budget is whole again.
    for (const end of ends) end();
    await Promise.all(settled);
    expect(statuses.get(400)).toBe(21);
    const again = await server.fetch(modern("tools/call", { name: "hello", arguments: {} }));
    expect(again.status).toBe(200);
  });
});

/** A fetch Response as the raw client reads one, for expectBusy. */
async function toRaw(response: Response) {
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: await response.text(),
  };
}
