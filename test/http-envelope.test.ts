/**
 * Over HTTP a request is read once (issue 14): the endpoint reads a 2026-07-28 request's envelope,
 * checks it against the headers, and hands that reading to the dispatcher, which does not read the
 * envelope again. Counted over a real loopback listener by wrapping `readEnvelope`.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ErrorCode } from "../src/core/errors.js";
import type { JsonRpcResponse } from "../src/core/jsonrpc.js";
import { type Listening, pico } from "../src/index.js";
import { BOTH, MODERN, meta } from "./http-helpers.js";

const reads = vi.hoisted(() => ({ count: 0 }));

vi.mock("../src/core/envelope.js", async (original) => {
  const actual = await original<typeof import("../src/core/envelope.js")>();
  return {
    ...actual,
    readEnvelope: (...args: Parameters<typeof actual.readEnvelope>) => {
      reads.count++;
      return actual.readEnvelope(...args);
    },
  };
});

let listening: Listening;

beforeAll(async () => {
  listening = await pico({ name: "envelope", version: "1.0.0" })
    .tool("add", { input: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => String(a + b) })
    .tool("later", { input: z.object({}), run: async () => "done" })
    .serve({ port: 0 });
});

afterAll(() => listening.close());

async function call(
  body: Record<string, unknown>,
  headers: Record<string, string>,
): Promise<{ status: number; message: JsonRpcResponse }> {
  const response = await fetch(listening.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: BOTH, ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...body }),
  });
  return { status: response.status, message: (await response.json()) as JsonRpcResponse };
}

function toolCall(name: string, args: Record<string, unknown>, version = MODERN) {
  return call(
    {
      method: "tools/call",
      params: { name, arguments: args, _meta: meta({ "io.modelcontextprotocol/protocolVersion": version }) },
    },
    { "mcp-protocol-version": version, "mcp-method": "tools/call", "mcp-name": name },
  );
}

describe("a 2026-07-28 request over HTTP", () => {
  it("has its envelope read once, for a tool answered at once and for one answered later", async () => {
    reads.count = 0;
    const now = await toolCall("add", { a: 2, b: 3 });
    expect(now.status).toBe(200);
    expect(now.message.result?.content).toEqual([{ type: "text", text: "5" }]);
    expect(reads.count).toBe(1);
    reads.count = 0;
    const later = await toolCall("later", {});
    expect(later.message.result?.content).toEqual([{ type: "text", text: "done" }]);
    expect(reads.count).toBe(1);
  });

  it("names an unsupported version in the dispatcher's words, with HTTP's status, from one reading", async () => {
    reads.count = 0;
    const { status, message } = await toolCall("add", { a: 1, b: 1 }, "2099-01-01");
    expect(status).toBe(400);
    expect(message.error?.code).toBe(ErrorCode.UnsupportedProtocolVersion);
    expect(message.error?.data).toEqual({ supported: [MODERN], requested: "2099-01-01" });
    expect(reads.count).toBe(1);
  });

  it("answers a method the server does not offer 404, from one reading", async () => {
    reads.count = 0;
    const { status, message } = await call(
      { method: "prompts/list", params: { _meta: meta() } },
      { "mcp-protocol-version": MODERN, "mcp-method": "prompts/list" },
    );
    expect(status).toBe(404);
    expect(message.error?.code).toBe(ErrorCode.MethodNotFound);
    expect(reads.count).toBe(1);
  });
});
