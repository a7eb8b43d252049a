/**
 * What a client names on the wire is looked up only among what exists: a method named like an
 * `Object.prototype` member (`constructor`, `__proto__`, `toString`) is not found, never a function
 * (JSON-RPC 2.0 §5.1: -32601); and a request id is echoed exactly or refused. JSON numbers beyond
 * ±(2^53 − 1) lose precision when parsed, so such ids, and ids with a fractional part (JSON-RPC 2.0
 * §4: SHOULD NOT), are refused with -32600 instead of being answered under another id. Over stdio (a
 * child process) and HTTP (a loopback listener), in both eras.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../src/index.js";
import type { Listening } from "../src/transports/listen.js";
import { Child, checkLine, killChildren, MODERN_META } from "./hardening-helpers.js";

afterAll(killChildren);

const PROTOTYPE_NAMES = [
  "constructor",
  "__proto__",
  "hasOwnProperty",
  "toString",
  "valueOf",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupGetter__",
];

/** Source text of a function, or an object's default description: what a lookup on a prototype leaks. */
const FUNCTION_TEXT = /function|native code|\[object /;

/** Ids that JSON.parse cannot hold exactly, or that have a fractional part, as the raw JSON text of the id. */
const UNSAFE_IDS = ["12345678901234567890", "-12345678901234567890", "9007199254740993", "1e400", "1.5", "-0.5"];
/** Ids at the edges that are echoed exactly. */
const SAFE_IDS = ["9007199254740991", "-9007199254740991", "0", '"12345678901234567890"'];

const request = (id: string, method: string, params: Record<string, unknown> = {}) =>
  `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${JSON.stringify(params)}}`;

function expectNotFound(message: Record<string, unknown> | undefined, method: string): void {
  expect(message?.error, method).toMatchObject({
    code: -32601,
    message: expect.stringMatching(new RegExp(`^Method not found: "${method}" is not available`)),
  });
  expect(JSON.stringify(message), method).not.toMatch(FUNCTION_TEXT);
}

function expectUnsafeId(message: Record<string, unknown> | undefined, id: string): void {
  expect(message, id).toBeDefined();
  expect(message, `no id is echoed for ${id}`).not.toHaveProperty("id");
  const fractional = /^-?\d+\.\d+$/.test(id);
  expect(message?.error, id).toMatchObject({
    code: -32600,
    message: fractional
      ? `Invalid Request: "id" must be a string or an integer, got number ${Number(id)}`
      : expect.stringMatching(
          /^Invalid Request: "id" is a number too large to be read exactly \(it reads as (-?[\d.e+]+|Infinity)\); use a string id or an integer between -9007199254740991 and 9007199254740991$/,
        ),
  });
}

describe("over stdio (a child process)", () => {
  let child: Child;

  beforeAll(async () => {
    child = new Child();
    await child.initialize();
  });

  afterAll(async () => {
    child.process.stdin.end();
    await child.exited;
  });

  it("methods named like Object.prototype members are not found, in both eras", async () => {
    for (const method of PROTOTYPE_NAMES) {
      child.send({ jsonrpc: "2.0", id: `legacy ${method}`, method });
      child.send({ jsonrpc: "2.0", id: `modern ${method}`, method, params: { _meta: MODERN_META } });
    }
    for (const method of PROTOTYPE_NAMES) {
      expectNotFound(await child.response(`legacy ${method}`), method);
      expectNotFound(await child.response(`modern ${method}`), method);
    }
  });

  it("an id JSON cannot hold exactly is refused with -32600, not answered under a rounded id", async () => {
    for (const [i, id] of UNSAFE_IDS.entries()) {
      const before = child.lines.length;
      child.write(
        `${request(id, "tools/call", { name: "echo", arguments: { s: `unsafe ${i}` }, _meta: MODERN_META })}\n`,
      );
      await child.until(() => child.lines.length > before, 10_000, `the answer for id ${id}`);
      expectUnsafeId(checkLine(child.lines[before]!), id);
    }
  });

  it("the same for a line over maxMessageBytes, whose id is read from its start", async () => {
    const before = child.lines.length;
    const huge = "x".repeat(70 * 1024);
    child.write(`${request("12345678901234567890", "tools/call", { name: "echo", arguments: { s: huge } })}\n`);
    await child.until(() => child.lines.length > before, 10_000, "the answer to the oversized line");
    const message = checkLine(child.lines[before]!);
    expect(message).not.toHaveProperty("id");
    expect(message.error).toMatchObject({ code: -32600, message: expect.stringMatching(/larger than 65536 bytes/) });
  });

  it("safe integer and string ids are echoed byte for byte", async () => {
    for (const id of SAFE_IDS) {
      const before = child.lines.length;
      child.write(`${request(id, "tools/call", { name: "echo", arguments: { s: "hi" }, _meta: MODERN_META })}\n`);
      await child.until(() => child.lines.length > before, 10_000, `the answer for id ${id}`);
      expect(child.lines[before]).toContain(`"id":${id},"result":`);
    }
  });
});

describe("over HTTP (a loopback listener)", () => {
  let listening: Listening;

  beforeAll(async () => {
    listening = await pico({ name: "names", version: "1", signals: false })
      .tool("echo", { input: z.object({ s: z.string() }), run: ({ s }) => s })
      .serve({ port: 0 });
  });
  afterAll(() => listening.close());

  async function post(body: string, headers: Record<string, string> = {}) {
    const response = await fetch(listening.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body,
    });
    const text = await response.text();
    return { status: response.status, text, message: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
  }

  const modernHeaders = (method: string, name?: string): Record<string, string> => ({
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
  });

  it("2026-07-28: methods named like Object.prototype members are not found (404), and no function's source is sent", async () => {
    for (const method of PROTOTYPE_NAMES) {
      const { status, text, message } = await post(request("1", method, { _meta: MODERN_META }), modernHeaders(method));
      expect(status, method).toBe(404);
      expectNotFound(message, method);
      expect(text).not.toMatch(FUNCTION_TEXT);
    }
  });

  it("2025-11-25 session: methods named like Object.prototype members are not found", async () => {
    const init = await fetch(listening.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: request('"init"', "initialize", {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      }),
    });
    await init.text();
    const session = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
    await post('{"jsonrpc":"2.0","method":"notifications/initialized"}', session);
    for (const method of PROTOTYPE_NAMES) {
      const { message } = await post(request("1", method), session);
      expectNotFound(message, method);
    }
  });

  it("an id JSON cannot hold exactly is refused with 400 and -32600, not answered under a rounded id", async () => {
    for (const id of UNSAFE_IDS) {
      const params = { name: "echo", arguments: { s: "hi" }, _meta: MODERN_META };
      const { status, message } = await post(request(id, "tools/call", params), modernHeaders("tools/call", "echo"));
      expect(status, id).toBe(400);
      expectUnsafeId(message, id);
    }
  });

  it("safe integer and string ids are echoed byte for byte", async () => {
    for (const id of SAFE_IDS) {
      const params = { name: "echo", arguments: { s: "hi" }, _meta: MODERN_META };
      const { status, text } = await post(request(id, "tools/call", params), modernHeaders("tools/call", "echo"));
      expect(status, id).toBe(200);
      expect(text).toContain(`"id":${id},"result":`);
    }
  });
});
