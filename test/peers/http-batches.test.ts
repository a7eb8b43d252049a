/**
 * JSON-RPC batches over Streamable HTTP, sent by the official v1 transport (a v1 Client never
 * batches; its transport sends the arrays it is given). Batches exist only under 2025-03-26
 * (2025-03-26 "Base protocol"; 2025-06-18 took them out, 2026-07-28 has none): with sessions they
 * are answered in a 2025-03-26 session, which `initialize` (never part of a batch) opens first;
 * without sessions, under that version (the header names it, or none is sent). Each refusal says
 * which of these is missing. Was: a batch without a session was told only that the Mcp-Session-Id
 * header is required, and every other refusal, even of an empty batch in a 2025-03-26 session or
 * of one on a server without sessions, that batches are only allowed in a 2025-03-26 session.
 * Servers on 127.0.0.1.
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import type { Listening } from "../../src/transports/listen.js";
import { failure } from "../http-helpers.js";

const closing: { close(): Promise<void> }[] = [];

afterAll(async () => {
  for (const each of closing.reverse()) await each.close();
});

/** A tools server on 127.0.0.1, with sessions or without; its URL. */
async function served(sessions: boolean): Promise<URL> {
  const server = pico({ name: "batches", version: "1.0.0", http: { sessions } }).tool("echo", { run: () => "echo" });
  const listening: Listening = await server.serve({ port: 0 });
  closing.push(listening);
  return new URL(listening.url);
}

/** The official v1 transport to `url`, started; what the server sent it. */
async function transportTo(url: URL) {
  const transport = new StreamableHTTPClientTransport(url);
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => void received.push(message);
  await transport.start();
  closing.push(transport);
  return { transport, received };
}

/** Opens a session of `protocolVersion` on the transport: initialize, then notifications/initialized. */
async function open(transport: StreamableHTTPClientTransport, protocolVersion: string): Promise<void> {
  const params = { protocolVersion, capabilities: {}, clientInfo: { name: "v1-batches", version: "1.0.0" } };
  await transport.send({ jsonrpc: "2.0", id: 0, method: "initialize", params });
  transport.setProtocolVersion(protocolVersion);
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
}

/** The JSON-RPC error of the 400 answer the transport reports as `Error POSTing to endpoint: <body>`. */
async function refusal(sending: Promise<void>): Promise<unknown> {
  const reported = await failure(sending);
  expect(reported).toMatch(/Error POSTing to endpoint: \{/);
  return (JSON.parse(reported.slice(reported.indexOf("{"))) as { error: unknown }).error;
}

const ping = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "ping" });

describe("a batch over HTTP (official v1 transport)", () => {
  it("without a session, on a server with sessions: it needs a 2025-03-26 session, opened first", async () => {
    const { transport } = await transportTo(await served(true));
    expect(await refusal(transport.send([ping(1)]))).toEqual({
      code: -32600,
      message:
        'Invalid Request: a batch is answered only in a 2025-03-26 session, and this POST names none (no Mcp-Session-Id); send initialize with protocolVersion "2025-03-26" on its own, then the batch in that session, or send one message per POST',
    });
  });

  it("in a session of a later version: names the session's version", async () => {
    const { transport } = await transportTo(await served(true));
    await open(transport, "2025-11-25");
    expect(await refusal(transport.send([ping(1)]))).toEqual({
      code: -32600,
      message:
        "Invalid Request: batches are only allowed in a 2025-03-26 session, and this one is 2025-11-25; send one message per POST",
    });
  });

  it("in a 2025-03-26 session: answers it, and refuses an empty one as empty", async () => {
    const { transport, received } = await transportTo(await served(true));
    await open(transport, "2025-03-26");
    expect(await refusal(transport.send([]))).toEqual({
      code: -32600,
      message: "Invalid Request: an empty batch; send one message per POST",
    });
    await transport.send([ping(1), ping(2)]);
    expect(received.slice(-2)).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
  });

  it("on a server without sessions: under 2025-03-26 only, which the header names or a missing one means", async () => {
    const { transport, received } = await transportTo(await served(false));
    transport.setProtocolVersion("2025-11-25");
    expect(await refusal(transport.send([ping(1)]))).toEqual({
      code: -32600,
      message:
        'Invalid Request: batches are only allowed under protocol 2025-03-26 (MCP-Protocol-Version "2025-03-26", or none); send one message per POST',
    });
    transport.setProtocolVersion("2025-03-26");
    await transport.send([ping(2)]);
    expect(received.at(-1)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });
});
