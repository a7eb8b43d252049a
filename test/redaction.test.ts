/**
 * Nothing unredacted reaches a client: an error raised while a handler's return value is turned into
 * JSON (a throwing getter, a throwing `toJSON`, in a value, a content block, structured output, a
 * resource's contents or a prompt's messages) takes the path of an error the handler threw. Tools
 * answer with a tool error, other methods with -32603, each message cleaned (docs/tools.md "Errors",
 * docs/designing-tools.md "Keeping secrets out of results"). Over stdio (a child process) and over
 * HTTP (a loopback listener), in both eras; the raw message never appears in any byte sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Listening } from "../src/transports/listen.js";
import { REDACTED, SECRET, unsendableServer } from "./fixtures/unsendable-server.js";
import { Child, checkLine, killChildren, MODERN_META } from "./hardening-helpers.js";

/** The `_meta` key of a 2026-07-28 request's log level: without one, its logs are not sent. */
const LOG_LEVEL = "io.modelcontextprotocol/logLevel";

afterAll(killChildren);

/** Text that must never be sent: the path, the token, and the raw message itself. */
const RAW = [SECRET, "/home/ada", "eyJ", "c2lnbmF0dXJl"];

const toolError = (text: string) => ({ content: [{ type: "text", text }], isError: true });
const unsendable = (tool: string) =>
  toolError(`Tool "${tool}" returned a value that cannot be sent as JSON: ${REDACTED}`);
/** Content that picomcp passes on as it is, found unsendable only when the response is written. */
const unsendableLater = toolError(`A tool returned a value that cannot be sent as JSON: ${REDACTED}`);

/** Each request, and the result (or error) it must get. */
const EXPECTED: { method: string; params: Record<string, unknown>; result?: unknown; error?: unknown }[] = [
  { method: "tools/call", params: { name: "throws" }, result: toolError(REDACTED) },
  { method: "tools/call", params: { name: "getter" }, result: unsendable("getter") },
  { method: "tools/call", params: { name: "to_json" }, result: unsendable("to_json") },
  { method: "tools/call", params: { name: "type_getter" }, result: unsendable("type_getter") },
  // A block's text is read to tell it is a block, so its getter throws there, before the response is written.
  { method: "tools/call", params: { name: "block_getter" }, result: unsendable("block_getter") },
  { method: "tools/call", params: { name: "block_to_json" }, result: unsendableLater },
  { method: "tools/call", params: { name: "structured" }, result: unsendableLater },
  {
    method: "resources/read",
    params: { uri: "leaky://contents" },
    error: { code: -32603, message: `Internal error: the response cannot be sent as JSON: ${REDACTED}` },
  },
  {
    method: "resources/read",
    params: { uri: "leaky://throws" },
    error: { code: -32603, message: `Internal error: ${REDACTED}` },
  },
  {
    method: "prompts/get",
    params: { name: "leaky" },
    error: { code: -32603, message: `Internal error: the response cannot be sent as JSON: ${REDACTED}` },
  },
  // A log message JSON cannot carry is not sent; the progress after it and the result are.
  {
    method: "tools/call",
    params: { name: "logs_unsendable" },
    result: { content: [{ type: "text", text: "logged" }] },
  },
];

/** What a 2026-07-28 result carries besides its own fields. */
const MODERN_RESULT = { resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": expect.any(Object) } };

function expectAnswers(answers: Map<unknown, Record<string, unknown>>, ids: string[], modern: boolean): void {
  EXPECTED.forEach((expected, index) => {
    const answer = answers.get(ids[index]);
    const what = `${expected.method} ${JSON.stringify(expected.params)} (${modern ? "2026-07-28" : "2025-11-25"})`;
    if (expected.error) expect(answer?.error, what).toEqual(expected.error);
    else if (modern) expect(answer?.result, what).toEqual({ ...(expected.result as object), ...MODERN_RESULT });
    else expect(answer?.result, what).toEqual(expected.result);
  });
}

function expectNoRawText(sent: string): void {
  for (const raw of RAW) expect(sent, `"${raw}" was sent`).not.toContain(raw);
}

describe("errors raised while a result is turned into JSON, over stdio (a child process)", () => {
  it("are redacted tool errors (tools) and -32603 (other methods), in both eras, and the server keeps serving", async () => {
    const child = new Child({}, "test/fixtures/unsendable-server.ts");
    await child.initialize();
    const ids = { legacy: EXPECTED.map((_, i) => `legacy-${i}`), modern: EXPECTED.map((_, i) => `modern-${i}`) };
    EXPECTED.forEach(({ method, params }, i) => {
      child.send({ jsonrpc: "2.0", id: ids.legacy[i], method, params });
      child.send({ jsonrpc: "2.0", id: ids.modern[i], method, params: { ...params, _meta: MODERN_META } });
    });
    child.send({ jsonrpc: "2.0", id: "after", method: "tools/list", params: { _meta: MODERN_META } });
    for (const id of [...ids.legacy, ...ids.modern, "after"]) await child.response(id);
    const answers = new Map(child.messages().map((message) => [message.id, message]));
    expectAnswers(answers, ids.legacy, false);
    expectAnswers(answers, ids.modern, true);
    expect(child.lines.length).toBeGreaterThan(2 * EXPECTED.length);
    for (const line of child.lines) checkLine(line);
    expectNoRawText(child.lines.join("\n") + child.partial);
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});

describe("errors raised while a result is turned into JSON, over HTTP (a loopback listener)", () => {
  let listening: Listening;
  let nextId = 1;

  beforeAll(async () => {
    listening = await unsendableServer().serve({ port: 0 });
  });
  afterAll(() => listening.close());

  /** POSTs one message; answers the raw body and the JSON-RPC message in it (a JSON body or an SSE event). */
  async function post(body: unknown, headers: Record<string, string>) {
    const response = await fetch(listening.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });
    const raw = await response.text();
    if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
      return { response, raw, message: (raw ? JSON.parse(raw) : undefined) as Record<string, unknown> };
    }
    // Every event is a JSON-RPC message (a priming event's data is empty); the last is the answer.
    // Was: a log message JSON could not carry went out as an event whose data was "{}".
    const events = raw
      .split("\n")
      .filter((line) => line.startsWith("data: ") && line !== "data: ")
      .map((line) => checkLine(line.slice(6)));
    return { response, raw, message: events.at(-1)! };
  }

  it("2026-07-28: redacted tool errors and -32603, as JSON bodies", async () => {
    const answers = new Map<unknown, Record<string, unknown>>();
    const ids: string[] = [];
    let sent = "";
    for (const { method, params } of EXPECTED) {
      const id = `modern-${nextId++}`;
      ids.push(id);
      const named = (params.name ?? params.uri) as string;
      const { raw, message } = await post(
        { jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...MODERN_META, [LOG_LEVEL]: "debug" } } },
        { "mcp-protocol-version": "2026-07-28", "mcp-method": method, "mcp-name": named },
      );
      sent += raw;
      answers.set(message.id, message);
    }
    expectAnswers(answers, ids, true);
    expectNoRawText(sent);
  });

  it("2025-11-25 session whose client accepts only event streams: redacted tool errors and -32603, as SSE events", async () => {
    const init = await post(
      {
        jsonrpc: "2.0",
        id: "init",
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      {},
    );
    const session = init.response.headers.get("mcp-session-id")!;
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25", accept: "text/event-stream" };
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    const answers = new Map<unknown, Record<string, unknown>>();
    const ids: string[] = [];
    let sent = "";
    for (const { method, params } of EXPECTED) {
      const id = `legacy-${nextId++}`;
      ids.push(id);
      const { response, raw, message } = await post({ jsonrpc: "2.0", id, method, params }, headers);
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      sent += raw;
      answers.set(message.id, message);
    }
    expectAnswers(answers, ids, false);
    expectNoRawText(sent);
  });
});
