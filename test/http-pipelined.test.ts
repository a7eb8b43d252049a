/**
 * HTTP/1.1 requests pipelined on one connection to serve({ port }), and to server.node in a
 * `node:http` server of the caller's own: their answers go out in order, so one behind an answer not
 * sent yet is handled once that answer is sent, and a connection that pipelines past
 * limits.maxConcurrentRequestsPerConnection is refused the rest. Before, every request of a chunk
 * read was handled at once, and the answers that could not go out yet were held: a client that
 * pipelined calls of a large answer and read nothing made the server hold all of them (6 calls of
 * 8 MiB: 48 MiB; 500 calls of 1 MiB in one write: 316 MiB of heap); through server.node, until it
 * bounded them the same way, so it still was. Driven with a raw socket (fetch does not pipeline) to
 * a real listener on 127.0.0.1.
 */
import { createServer, type RequestListener } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type Limits, pico } from "../src/index.js";
import { BOTH, modernCallInit, modernMessage, signal, within } from "./http-helpers.js";
import { RawClient, type RawResponse, requestHead } from "./socket-helpers.js";

const MiB = 1024 * 1024;
const closers: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** More than the kernel's buffers of a loopback connection take from a client that does not read (a few MiB). */
const BIG = 8 * MiB;

/** How the server is served: its own listener, or server.node in a `node:http` server of the test's. */
type Via = "serve({ port })" | "server.node";

/**
 * A listener whose `big` answers BIG and counts its runs, and whose `hold` answers once released;
 * `close` closes the listener (serve's own) and `port` is the port it listens on.
 */
async function listen(limits: Limits = {}, via: Via = "serve({ port })") {
  const runs = { big: 0 };
  const released = signal();
  const started = signal();
  const server = pico({ name: "pipelined", version: "1.0.0", signals: false, limits })
    .tool("hello", { run: () => "hello" })
    .tool("big", {
      run: () => {
        runs.big++;
        return "x".repeat(BIG);
      },
    })
    .tool("hold", {
      run: async () => {
        started.resolve();
        await released.promise;
        return "released";
      },
    });
  const { port, url, close } = via === "server.node" ? await ownListener(server.node) : await server.serve({ port: 0 });
  // A server of one's own is closed by its owner, and its endpoint by server.close().
  closers.push(close, () => server.close());
  const client = await RawClient.connect(port);
  closers.unshift(() => client.destroy());
  /** Calls `name` on a connection of its own: once answered, the pipelined requests were all read. */
  const other = () => fetch(url, modernCallInit("hello"));
  return { runs, released, started, client, other, port, close };
}

/** A `node:http` server of the caller's own on 127.0.0.1, every request to `node`. */
async function ownListener(node: RequestListener) {
  const listener = createServer(node);
  await new Promise<void>((done) => listener.listen(0, "127.0.0.1", done));
  const address = listener.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const close = () => {
    listener.closeAllConnections();
    return new Promise<void>((done) => listener.close(() => done()));
  };
  return { port, url: `http://127.0.0.1:${port}/mcp`, close };
}

/** `names`' calls, ids 1, 2, …, each with `args`, as one piece of text: pipelined when written at once. */
function pipeline(port: number, names: string[], args: Record<string, unknown> = {}): string {
  return names
    .map((name, index) => {
      const { headers, body } = modernMessage("tools/call", { name, arguments: args }, index + 1);
      const text = JSON.stringify(body);
      const head = requestHead("POST", "/mcp", {
        host: `127.0.0.1:${port}`,
        "content-type": "application/json",
        accept: BOTH,
        ...headers,
        "content-length": String(Buffer.byteLength(text)),
      });
      return head + text;
    })
    .join("");
}

/** The next `count` responses of `client`, read whole. */
async function responses(client: RawClient, count: number): Promise<RawResponse[]> {
  const read: RawResponse[] = [];
  for (let index = 0; index < count; index++) read.push(await client.fullResponse());
  return read;
}

const idOf = (response: RawResponse) => (JSON.parse(response.body) as { id?: number }).id;

describe.each<Via>(["serve({ port })", "server.node"])("requests pipelined to %s", (via) => {
  it("are handled as the answers before them are sent, so a client that reads nothing holds one, not all", async () => {
    const { runs, client, other, port } = await listen({}, via);
    const calls = Array.from({ length: 6 }, () => "big");
    client.reading(false);
    await client.write(pipeline(port, calls));
    expect((await other()).status).toBe(200);
    // The first answer, and a second should the kernel take the first, at most. Was: 6 runs, 48 MiB held.
    expect(runs.big).toBeGreaterThanOrEqual(1);
    expect(runs.big).toBeLessThanOrEqual(2);
    client.reading(true);
    const answers = await responses(client, calls.length);
    expect(answers.map((answer) => answer.status)).toEqual(calls.map(() => 200));
    expect(answers.map(idOf)).toEqual(calls.map((_, index) => index + 1));
    expect(runs.big).toBe(calls.length);
  });

  it("refuses those past maxConcurrentRequestsPerConnection with 503, and answers the others in order", async () => {
    const { released, started, client, other, port } = await listen({ maxConcurrentRequestsPerConnection: 4 }, via);
    const calls = ["hold", ...Array.from({ length: 10 }, () => "hello")];
    await client.write(pipeline(port, calls));
    await started.promise;
    expect((await other()).status).toBe(200);
    released.resolve();
    const answers = await responses(client, calls.length);
    // hold, then the 4 that waited behind it, then the 6 past the limit, refused when they came. Was: all 200.
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 503, 503, 503, 503, 503, 503]);
    expect(answers.slice(0, 5).map(idOf)).toEqual([1, 2, 3, 4, 5]);
    const refused = answers[5]!;
    expect(refused.headers["retry-after"]).toBe("1");
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32603,
        message:
          "Server busy: too many requests are pipelined on this connection behind answers not sent yet (limits.maxConcurrentRequestsPerConnection = 4); retry after a request in progress has been answered",
        data: { limit: "maxConcurrentRequestsPerConnection", max: 4 },
      },
    });
    // The connection serves on once the queue is gone.
    await client.write(pipeline(port, ["hello"]));
    expect((await client.fullResponse()).status).toBe(200);
  });

  it("count the body read of one waiting towards maxBodyBytesInFlight, until its connection closes", async () => {
    // The budget is at least one body's limit (4 MiB): two bodies of 2 MiB do not fit together.
    const { started, client, port } = await listen({ maxBodyBytesInFlight: 3 * MiB }, via);
    const pad = { pad: "x".repeat(2 * MiB) };
    await client.write(pipeline(port, ["hold"]) + pipeline(port, ["hello"], pad));
    await started.promise;
    const { headers, body } = modernMessage("tools/call", { name: "hello", arguments: pad });
    const init = modernCallInit("hello", { headers: { "content-type": "application/json", accept: BOTH, ...headers } });
    /** A call of 2 MiB on a connection of its own, until it is answered `status` (the waiting body arrives in turns). */
    const answered = async (status: number) => {
      let got = 0;
      for (let tried = 0; tried < 100 && got !== status; tried++) {
        got = (await fetch(`http://127.0.0.1:${port}/mcp`, { ...init, body: JSON.stringify(body) })).status;
      }
      return got;
    };
    // The waiting 2 MiB hold their room: another 2 MiB is refused.
    expect(await answered(503)).toBe(503);
    client.destroy();
    expect(await answered(200)).toBe(200);
  });
});

describe("requests pipelined to serve({ port })", () => {
  it("read the body of one waiting behind a call that runs past receiveTimeoutMs, so that call is answered", async () => {
    const { released, started, client, port } = await listen({ receiveTimeoutMs: 1000 });
    // A body larger than Node's parser takes before it waits for the request to be read.
    await client.write(pipeline(port, ["hold", "hello"], { pad: "x".repeat(2 * MiB) }));
    await started.promise;
    // Past receiveTimeoutMs and Node's next check of it (a quarter of it).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    released.resolve();
    const answers = await responses(client, 2);
    // Was: Node found the waiting request's body unread past its requestTimeout, answered 408 and
    // closed the connection, the held call's answer lost.
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers.map(idOf)).toEqual([1, 2]);
  });

  it("leave close() nothing to flush once their connection closed, waiting or refused: it resolves at once", async () => {
    const { released, started, client, other, port, close } = await listen({ maxConcurrentRequestsPerConnection: 1 });
    // One waits behind hold, the next is refused: neither response has the socket yet.
    await client.write(pipeline(port, ["hold", "hello", "hello"]));
    await started.promise;
    expect((await other()).status).toBe(200);
    client.destroy();
    await client.closed;
    released.resolve();
    // Was: their responses never closed, so close() waited its whole flush (1 s) for them.
    await within(close(), 500, "close()");
  });
});
