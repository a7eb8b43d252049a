/**
 * The CLI's client (src/cli/client.ts) reading an SSE answer whose CRLF line endings are split
 * across two chunks of the stream, as a server's writes may split them. A line ends with CRLF, LF
 * or CR (WHATWG "Server-sent events" §9.2.5), so a CR that ends a chunk is half of a CRLF when the
 * next chunk starts with LF: one line end, not two. Was: each chunk's CRLF were turned into LF on
 * their own, so the CR and the LF counted as two line ends, a blank line that ended the event in the
 * middle of its data; the first half was parsed as JSON and the call failed.
 */
import { createServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Client } from "../../src/cli/client.js";

/** An answer's SSE event, its JSON on two data lines (joined by "\n", it is the same JSON), each line ended by `eol`. */
function event(message: Record<string, unknown>, eol: string): string {
  const json = JSON.stringify(message);
  const comma = json.indexOf(",");
  return `event: message${eol}data: ${json.slice(0, comma + 1)}${eol}data: ${json.slice(comma + 1)}${eol}${eol}`;
}

/**
 * The server's wait for its first chunk to reach the client. It starts waiting as it writes that
 * chunk, in the same turn, so it cannot miss its arrival; chunks that come with nobody waiting (the
 * second) are nothing to wait on.
 */
class Arrivals {
  #waiting: (() => void) | undefined;

  next(): Promise<void> {
    return new Promise((done) => {
      this.#waiting = done;
    });
  }

  arrived(): void {
    this.#waiting?.();
    this.#waiting = undefined;
  }
}

/**
 * A Streamable HTTP server that answers every request with an SSE stream of lines ended by `eol`,
 * written in two chunks split just after the CR that ends the first data line; the second chunk is
 * written once the first reached the client, so nothing between them can join them again.
 */
function splittingServer(chunks: Arrivals, eol: string): Promise<{ http: HttpServer; url: string }> {
  const http = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    if (req.method !== "POST") return res.writeHead(200).end();
    const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
    if (message.id === undefined) return res.writeHead(202).end();
    const result =
      message.method === "initialize"
        ? {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: "split", version: "1.0.0" },
          }
        : { content: [{ type: "text", text: `called ${message.params?.name}` }] };
    const text = event({ jsonrpc: "2.0", id: message.id, result }, eol);
    const cr = text.indexOf(`${eol}data: `, text.indexOf("data: ")) + 1;
    res.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "split-session" });
    res.write(text.slice(0, cr));
    await chunks.next();
    res.end(text.slice(cr));
  });
  return new Promise((resolve) =>
    http.listen(0, "127.0.0.1", () => {
      const { port } = http.address() as AddressInfo;
      resolve({ http, url: `http://127.0.0.1:${port}/mcp` });
    }),
  );
}

let running: HttpServer | undefined;
afterEach(() => {
  running?.closeAllConnections();
  running?.close();
  running = undefined;
});

/** Opens a session with a splitting server, through a Web handler that forwards to it over the network, and calls a tool. */
async function callThrough(eol: string): Promise<void> {
  const chunks = new Arrivals();
  const { http, url } = await splittingServer(chunks, eol);
  running = http;
  // The handler also tells the server when each chunk of the answer came.
  const remote = {
    async fetch(request: Request): Promise<Response> {
      const body = request.method === "POST" ? await request.text() : undefined;
      const response = await fetch(url, { method: request.method, headers: request.headers, body });
      if (!response.body) return response;
      const counted = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          controller.enqueue(chunk);
          chunks.arrived();
        },
      });
      return new Response(response.body.pipeThrough(counted), response);
    },
  };
  const client = await Client.open(remote, { timeoutMs: 10_000 });
  expect(client.serverName).toBe("split");
  expect(await client.request("tools/call", { name: "echo", arguments: {} })).toEqual({
    content: [{ type: "text", text: "called echo" }],
  });
  await client.close();
}

describe("the CLI's client reading an SSE answer", () => {
  it("takes a CRLF split across two chunks as one line end: the event's two data lines are one JSON", () =>
    callThrough("\r\n"));

  it("takes a CR that ends a chunk, not followed by LF, as a line end, and one that ends the stream", () =>
    callThrough("\r"));
});
