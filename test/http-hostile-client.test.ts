/**
 * A hostile or broken client of the HTTP transport, over real sockets to `serve({ port })`: what it
 * sends must draw a precise, bounded answer, never its own text back at length.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Listening, pico } from "../src/index.js";
import { BOTH, ENDPOINT, hostRefused, MODERN, meta, modernMessage, originRefused } from "./http-helpers.js";
import { sseMessages } from "./peers/http-fixture.js";
import { RawClient, requestHead } from "./socket-helpers.js";

const server = pico({ name: "hostile", version: "1.0.0", signals: false })
  .tool("echo", { run: () => "echo" })
  .tool("say", { input: z.object({ s: z.string() }), run: ({ s }) => s })
  .tool("report", {
    run: (_, ctx) => {
      for (const step of [1, 2, 3]) ctx.progress(step, 3);
      return "reported";
    },
  });
let listening: Listening;

beforeAll(async () => {
  listening = await server.serve({ port: 0 });
});

afterAll(() => listening.close());

/** A request to the listener; `raw`, when given, is the body as it is sent, in place of `body` as JSON. */
function send(
  method: string,
  headers: Record<string, string>,
  body?: unknown,
  raw?: string | Uint8Array<ArrayBuffer>,
): Promise<Response> {
  return fetch(listening.url, {
    method,
    headers: { "content-type": "application/json", accept: BOTH, ...headers },
    ...(raw !== undefined ? { body: raw } : body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function session(): Promise<string> {
  const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
  const opened = await send("POST", {}, { jsonrpc: "2.0", id: 0, method: "initialize", params });
  await opened.json();
  return opened.headers.get("mcp-session-id")!;
}

describe("text of the client's quoted in an error", () => {
  /** 8,000 characters of one letter: a header of that size passes Node's 16 KiB bound on the head. */
  const long = (letter: string, length = 8000) => letter.repeat(length);

  /** `text` quotes the client's text cut to its first 200 characters. */
  function cutIn(text: string, letter: string): void {
    // A boolean, not the text: a failure would print thousands of characters.
    const shown = `${text.slice(0, 300)} … ${text.slice(-300)} (${text.length} characters)`;
    expect(text.includes(`${letter.repeat(200)}…`) && !text.includes(letter.repeat(201)), shown).toBe(true);
  }

  /** The message of an error reply (its status `status`), which quotes the client's text cut. */
  async function quotesCut(answer: Response, letter: string, status: number): Promise<string> {
    expect(answer.status).toBe(status);
    const { message } = ((await answer.json()) as { error: { message: string } }).error;
    cutIn(message, letter);
    return message;
  }

  /**
   * A header, or a method name in the body, can be as long as the request may be, and the model reads
   * the error's message: it quotes the first 200 characters, as the unknown tool, prompt and resource
   * errors did already. Was: each header or method was quoted whole (8,000 characters here; a 4 MiB
   * method name in a body, a Worker's or Deno's larger heads).
   */
  it("cuts a Last-Event-ID, a protocol version header and the method headers to 200 characters", async () => {
    const id = await session();
    const inSession = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
    const resumed = await send("GET", { ...inSession, accept: "text/event-stream", "last-event-id": long("e") });
    expect(await quotesCut(resumed, "e", 404)).toMatch(/^Not found: no stream to resume for Last-Event-ID "e+…"$/);

    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const version = await send("POST", { ...inSession, "mcp-protocol-version": long("v") }, ping);
    expect(await quotesCut(version, "v", 400)).toMatch(/"; this server supports 2026-07-28, /);

    const method = long("m", 100_000);
    const request = { jsonrpc: "2.0", id: 2, method, params: { _meta: meta() } };
    const headers = { "mcp-protocol-version": MODERN, "mcp-method": long("h") };
    const mismatched = await quotesCut(await send("POST", headers, request), "h", 400);
    // The body's method, 100,000 characters, is cut as well.
    cutIn(mismatched.slice(mismatched.indexOf("body")), "m");

    const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", _meta: meta() } };
    const named = await send(
      "POST",
      { "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": long("n") },
      call,
    );
    expect(await quotesCut(named, "n", 400)).toMatch(/" does not match params\.name "echo"$/);
  });

  it("cuts a malformed Host header to 200 characters", async () => {
    const client = await RawClient.connect(listening.port);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const head = requestHead("POST", "/mcp", {
      host: `${long("o")} x`,
      "content-type": "application/json",
      accept: BOTH,
      "content-length": String(body.length),
    });
    await client.write(head + body);
    const answer = await client.fullResponse();
    client.destroy();
    expect(answer.status).toBe(400);
    const { message } = (JSON.parse(answer.body) as { error: { message: string } }).error;
    cutIn(message, "o");
    expect(message).toMatch(/ is not a host name or address with an optional numeric port$/);
  });

  /**
   * An Origin a browser would never send, or a well-formed Host outside `allowedHosts`, is as long as
   * the head may be (a Web request's has no bound). Was: each was quoted whole in the 403, and an
   * Origin unescaped (`"http://x"y"`).
   */
  it("cuts an Origin and a Host it refuses to 200 characters", async () => {
    const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
    const foreign = await send("POST", { origin: `http://${long("r")}.example` }, ping);
    expect(foreign.status).toBe(403);
    // The first 200 characters, "http://" among them.
    const { message } = ((await foreign.json()) as { error: { message: string } }).error;
    expect(message).toBe(originRefused(`http://${"r".repeat(193)}…`));
    const guarded = pico({ name: "guarded", signals: false, http: { allowedHosts: ["localhost"] } });
    const headers = { host: `${long("h", 1_000_000)}.example`, "content-type": "application/json", accept: BOTH };
    const body = JSON.stringify(ping);
    const refused = await guarded.fetch(new Request(ENDPOINT, { method: "POST", headers, body }));
    expect(await quotesCut(refused, "h", 403)).toBe(hostRefused(`${"h".repeat(200)}…`));
    const quote = await send("POST", { origin: 'http://x"y' }, ping);
    expect(((await quote.json()) as { error: { message: string } }).error.message).toBe(originRefused('http://x\\"y'));
  });
});

describe("a body the server cannot read as JSON", () => {
  const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

  /**
   * RFC 9110 §15.5.16: a content coding the server does not decode is answered 415, with
   * Accept-Encoding naming those it would. Was: a gzipped body was parsed as it came, answered 400
   * "Parse error: Unexpected token '\u001f', …", and a body sent uncompressed but labelled gzip was
   * served as if the label were not there.
   */
  it("refuses a Content-Encoding with 415, saying to send the body uncompressed", async () => {
    for (const body of [new Uint8Array(gzipSync(ping)), ping]) {
      const answer = await send("POST", { "content-encoding": "gzip" }, undefined, body);
      expect(answer.status).toBe(415);
      expect(answer.headers.get("accept-encoding")).toBe("identity");
      expect(await answer.json()).toEqual({
        jsonrpc: "2.0",
        error: {
          code: -32600,
          message:
            'Unsupported Media Type: the body is sent with Content-Encoding "gzip", which this server does not decode; send it uncompressed',
        },
      });
    }
    expect((await send("POST", { "content-encoding": "identity" }, undefined, ping)).status).toBe(400);
  });

  /** Was: "Parse error: Unexpected non-whitespace character after JSON at position 41", and nothing more. */
  it("answers -32700 with what went wrong and what the body must be", async () => {
    const answer = await send("POST", {}, undefined, `${ping}\n${ping}`);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32700,
        message:
          "Parse error: Unexpected non-whitespace character after JSON at position 41; send one JSON-RPC message as the body, as JSON in UTF-8",
      },
    });
  });
});

describe("a body that is not UTF-8", () => {
  /** A body as it is sent: bytes, or pieces of them. */
  type Body = Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>;

  /** A 2026-07-28 tools/call of `say` whose argument is `s`, bytes put in the body as they are. */
  function saying(s: Buffer): { headers: Record<string, string>; body: Uint8Array<ArrayBuffer> } {
    const { headers, body } = modernMessage("tools/call", { name: "say", arguments: { s: "%" } });
    const [before, after] = JSON.stringify(body).split('"%"');
    return { headers, body: new Uint8Array(Buffer.concat([Buffer.from(`${before}"`), s, Buffer.from(`"${after}`)])) };
  }

  /** `bytes` as a body sent in two pieces, cut at `at`, the second a moment after the first. */
  function inTwo(bytes: Uint8Array, at: number): ReadableStream<Uint8Array> {
    const pieces = [bytes.subarray(0, at), bytes.subarray(at)];
    return new ReadableStream({
      async pull(controller) {
        const piece = pieces.shift();
        if (!piece) return controller.close();
        if (pieces.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
        controller.enqueue(piece);
      },
    });
  }

  const LATIN1 = Buffer.from("café", "latin1");
  const refused = {
    jsonrpc: "2.0",
    error: {
      code: -32700,
      message:
        "Parse error: the body holds bytes that are not UTF-8; send one JSON-RPC message as the body, as JSON in UTF-8",
    },
  };

  /**
   * What `post` answers, as status and what `say` said or the error: a Latin-1 "café" is refused, and
   * "café" in UTF-8 cut inside its "é" between two pieces, and U+FFFD sent as UTF-8, are said as sent.
   */
  async function answers(post: (body: Body, headers: Record<string, string>) => Promise<Response>) {
    const said = async (answer: Promise<Response>) => {
      const response = await answer;
      const json = (await response.json()) as { result?: { content: { text: string }[] } };
      return [response.status, json.result?.content[0]?.text ?? json];
    };
    const latin1 = saying(LATIN1);
    const split = saying(Buffer.from("café"));
    const replacement = saying(Buffer.from("caf\uFFFD"));
    expect(await said(post(latin1.body, latin1.headers))).toEqual([400, refused]);
    expect(await said(post(inTwo(latin1.body, latin1.body.indexOf(0xe9)), latin1.headers))).toEqual([400, refused]);
    expect(await said(post(inTwo(split.body, split.body.indexOf(0xa9)), split.headers))).toEqual([200, "café"]);
    expect(await said(post(replacement.body, replacement.headers))).toEqual([200, "caf\uFFFD"]);
  }

  /** A body sent as a stream needs `duplex` (Fetch standard), which the DOM's RequestInit does not know yet. */
  const init = (body: Body, headers: Record<string, string>): RequestInit & { duplex: "half" } => ({
    method: "POST",
    headers: { "content-type": "application/json", accept: BOTH, ...headers },
    body,
    duplex: "half",
  });

  /**
   * Messages are UTF-8 (2025-11-25 "Transports"; RFC 8259 §8.1), as stdio now checks. Was: the bytes
   * that are not UTF-8 were read as U+FFFD, so a Latin-1 "café" reached the tool as "caf\uFFFD" and
   * ran, answered 200.
   */
  it("is answered 400 -32700 saying so, by serve({ port })", () =>
    answers((body, headers) => fetch(listening.url, init(body, headers))));

  it("is answered 400 -32700 saying so, by server.fetch, its body in one piece or more", () =>
    answers((body, headers) => server.fetch(new Request(ENDPOINT, init(body, headers)))));

  it("is answered 400 -32700 saying so, by server.node behind express.raw(), which read the body", async () => {
    const app = express();
    app.use(express.raw({ type: "application/json" }));
    app.all("/mcp", server.node);
    const http = createServer(app);
    await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
    try {
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
      await answers((body, headers) => fetch(url, init(body, headers)));
    } finally {
      http.closeAllConnections();
      await new Promise((done) => http.close(done));
    }
  });
});

describe("a progressToken longer than 256 characters", () => {
  /**
   * Each progress notification echoes the token (2025-11-25 "Progress"), so a token of a megabyte made
   * the server write a megabyte per `ctx.progress()`. Progress is the server's to send or not (MAY):
   * such a token is answered as no token is, with the result and no progress. Was: 3 notifications of
   * a megabyte each, then the result.
   */
  it("gets its result and no progress; one of 256 characters gets its progress", async () => {
    /** What a call of `report` asking for progress with `token` gets: its messages in order. */
    const reported = async (token: string) => {
      const { headers, body } = modernMessage("tools/call", { name: "report", _meta: { progressToken: token } });
      const answer = await send("POST", headers, body);
      expect(answer.status).toBe(200);
      if (answer.headers.get("content-type") === "text/event-stream") return sseMessages(await answer.text());
      return [await answer.json()];
    };
    const result = expect.objectContaining({
      result: expect.objectContaining({ content: [{ type: "text", text: "reported" }] }),
    });
    const long = await reported("p".repeat(1024 * 1024));
    // A boolean and a count, not the messages: a failure would print megabytes.
    expect(long.length).toBe(1);
    expect(long[0]).toEqual(result);
    const progress = (step: number) => ({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: "q".repeat(256), progress: step, total: 3 },
    });
    expect(await reported("q".repeat(256))).toEqual([progress(1), progress(2), progress(3), result]);
  });
});

describe("a refusal says what to do instead", () => {
  /**
   * 2026-07-28 Streamable HTTP, "Required request headers" (SEP-2243): MUST 400 with -32020. Was: "The
   * MCP-Protocol-Version header is required" and "The Mcp-Method header is required", and no more.
   */
  it("a 2026-07-28 request without MCP-Protocol-Version or Mcp-Method: send it, and with what", async () => {
    const { headers, body } = modernMessage("tools/call", { name: "echo" });
    const refusal = async (left: string) => {
      const answer = await send(
        "POST",
        Object.fromEntries(Object.entries(headers).filter(([name]) => name !== left)),
        body,
      );
      expect(answer.status).toBe(400);
      return ((await answer.json()) as { error: { code: number; message: string } }).error;
    };
    expect(await refusal("mcp-protocol-version")).toEqual({
      code: -32020,
      message:
        'The MCP-Protocol-Version header is required; send it with every request, equal to params._meta["io.modelcontextprotocol/protocolVersion"]',
    });
    expect(await refusal("mcp-method")).toEqual({
      code: -32020,
      message: "The Mcp-Method header is required; send it with every request, equal to its method",
    });
  });
});
