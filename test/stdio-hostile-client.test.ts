/**
 * A hostile or broken client on the stdio transport, against the hardening fixture as a child
 * process: what it writes must never draw an answer the protocol does not ask for, nor stop the
 * server answering what it does.
 */
import { afterAll, describe, expect, it } from "vitest";
import { META } from "../src/core/types.js";
import { Child, call, killChildren, MODERN_META } from "./hardening-helpers.js";

const VERSION = META.protocolVersion;

afterAll(killChildren);

describe("responses from the client", () => {
  /**
   * 2025-11-25 "Base protocol" types an error response's id as optional, left out when the request's
   * could not be read, and JSON-RPC 2.0 §5 sends null then: such a client reporting a line of ours it
   * could not read sends a valid response. Was: `{"jsonrpc":"2.0","error":…}` was answered with
   * -32600 ("method" must be a string) and `"id": null` with -32600 ("id" must be a string or an
   * integer): two peers that each answer what they cannot take would answer each other for ever.
   */
  it("answers none, also an error response whose id is left out or null, or not a request id", async () => {
    const child = new Child();
    await child.initialize();
    const error = { code: -32700, message: "Parse error: the client could not read a line" };
    const responses = [
      { jsonrpc: "2.0", error },
      { jsonrpc: "2.0", id: null, error },
      { jsonrpc: "2.0", id: 1.5, result: {} },
      { jsonrpc: "2.0", result: {} },
      { jsonrpc: "2.0", id: "never-asked", result: {} },
    ];
    for (const response of responses) child.send(response);
    child.send({ jsonrpc: "2.0", id: "after", method: "ping" });
    // The lines are answered in order: whatever the responses drew would come before the ping's answer.
    await child.response("after");
    expect(child.messages()).toEqual([
      expect.objectContaining({ id: "init", result: expect.any(Object) }),
      { jsonrpc: "2.0", id: "after", result: {} },
    ]);
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});

describe("an array made only of responses", () => {
  /**
   * JSON-RPC 2.0 §6: a batch is answered with the responses its requests call for, and with nothing
   * at all when none does; a response calls for none (the test above), so an array made only of
   * responses is answered by nothing, whatever the session's version: batches exist only in
   * 2025-03-26, but refusing this one would answer responses. Was: outside a 2025-03-26 session it
   * was answered -32600 "batches are only allowed under protocol 2025-03-26".
   */
  it.for(["2025-11-25", "2025-06-18", "2025-03-26"])("answers none in a %s session", async (version) => {
    const child = new Child();
    child.send({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    await child.response("init");
    child.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    child.send([
      { jsonrpc: "2.0", id: "never-asked", result: {} },
      { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the client could not read a line" } },
    ]);
    // Arrays are taken in order, after the code for them has loaded: whatever the first drew would come
    // before the answer to this one, a ping in an array (answered in 2025-03-26, refused elsewhere).
    child.send([{ jsonrpc: "2.0", id: "after", method: "ping" }]);
    await child.until(() => child.messages().length >= 2, 10_000, "the answer to the second array");
    const second =
      version === "2025-03-26"
        ? [{ jsonrpc: "2.0", id: "after", result: {} }]
        : {
            jsonrpc: "2.0",
            error: {
              code: -32600,
              message:
                "Invalid Request: batches are only allowed under protocol 2025-03-26; send one message at a time",
            },
          };
    expect(child.messages()).toEqual([
      expect.objectContaining({ id: "init", result: expect.objectContaining({ protocolVersion: version }) }),
      second,
    ]);
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });

  /** Each response in it is taken as if it had come alone: the answer to a question reaches the question. */
  it("delivers an answer sent in one to the question it answers, in a 2025-11-25 session", async () => {
    // A question left unanswered fails its call after 5 s rather than the default minute.
    const child = new Child({ PICO_ASK_TIMEOUT_MS: "5000" }, "test/fixtures/ask-server.ts");
    const asked = await greetingAsks(child);
    child.send([{ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Ada" } } }]);
    expect(await child.response(1)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { content: [{ type: "text", text: "Hello, Ada!" }] },
    });
    expect(child.messages().filter((message) => "error" in message)).toEqual([]);
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});

describe("an answer to the server's question", () => {
  /**
   * JSON-RPC 2.0 §5.1: an error is an object with an integer code and a string message. Was: any
   * other error the client sent became "The client refused: undefined (undefined)" in the tool's
   * result, which tells the model nothing.
   */
  it("says an error that is not an error object is one, not 'undefined (undefined)'", async () => {
    const child = new Child({}, "test/fixtures/ask-server.ts");
    const asked = await greetingAsks(child);
    child.send({ jsonrpc: "2.0", id: asked.id, error: "no" });
    expect(await child.response(1)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        content: [
          {
            type: "text",
            text: "The client refused, with an error that is not a JSON-RPC error object (an integer code, a string message), so it did not say why",
          },
        ],
        isError: true,
      },
    });
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});

/** Opens a 2025-11-25 session that answers elicitations and calls ask-server.ts's `greet` (id 1): the question it asks. */
async function greetingAsks(child: Child): Promise<Record<string, unknown>> {
  child.send({
    jsonrpc: "2.0",
    id: "init",
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: { elicitation: {} },
      clientInfo: { name: "t", version: "1" },
    },
  });
  await child.response("init");
  child.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  child.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "greet", arguments: {} } });
  const asked = () => child.messages().find((message) => message.method === "elicitation/create");
  await child.until(() => asked() !== undefined, 10_000, "the elicitation");
  return asked()!;
}

describe("text of the client's quoted in an error", () => {
  /** 50,000 characters of one letter, under the fixture's 64 KiB message limit. */
  const long = (letter: string) => letter.repeat(50_000);
  /** An error's text: what goes into the model's context, to say what was wrong and what to do. */
  const said = (answer: Record<string, unknown>) => {
    const result = answer.result as { content?: { text: string }[] } | undefined;
    return result?.content?.[0]?.text ?? (answer.error as { message: string }).message;
  };
  /** It quotes the client's text cut to its first 200 characters, and still ends with what to do. */
  const quotesCut = (text: string, letter: string, ending: string) => {
    // Booleans, not the text: a failure would print 50,000 characters.
    const shown = `${text.slice(0, 300)} … ${text.slice(-300)} (${text.length} characters)`;
    expect(text.includes(`${letter.repeat(200)}…`) && !text.includes(letter.repeat(201)), shown).toBe(true);
    expect(text.endsWith(ending), shown).toBe(true);
  };

  /**
   * An error names what the client sent so that the model sees what was wrong, but a name, a version
   * or an id can be as long as a message may be (limits.maxMessageBytes, 4 MiB by default), and the
   * model reads all of it: the message quotes its first 200 characters, as the unknown tool, prompt
   * and resource errors did already. Was: each quoted the client's text whole (50,000 characters
   * here, a whole message's worth under the default limit).
   */
  it("cuts a method name, a protocol version, an id and a value to 200 characters", async () => {
    const child = new Child();
    const requests: Record<string, unknown>[] = [
      { jsonrpc: "2.0", id: "early", method: long("e") },
      { jsonrpc: "2.0", id: "version", method: "ping", params: { _meta: { ...MODERN_META, [VERSION]: long("v") } } },
    ];
    for (const request of requests) child.send(request);
    quotesCut(
      said(await child.response("early")),
      "e",
      'send 2026-07-28 requests with params._meta["io.modelcontextprotocol/protocolVersion"].',
    );
    quotesCut(said(await child.response("version")), "v", "(or initialize for 2025-11-25 and older)");
    child.send({ jsonrpc: "2.0", id: "modern", method: long("m"), params: { _meta: MODERN_META } });
    quotesCut(said(await child.response("modern")), "m", "is not available in protocol 2026-07-28");
    child.send(long("s"));
    child.send({ jsonrpc: "2.0", id: "params", method: "ping", params: long("p") });
    child.send(call(long("i"), "sleep", { ms: 60_000 }));
    child.send(call(long("i"), "sleep", { ms: 60_000 }));
    child.send(call("names", "tally", { [long("a")]: "one", b: 2 }));
    await child.response("names");
    quotesCut(said(child.messages().find((message) => message.error && !("id" in message))!), "s", "");
    quotesCut(said(await child.response("params")), "p", "");
    quotesCut(said(await child.response(long("i"))), "i", "give every request a new id");
    child.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: long("i") } });
    quotesCut(said(await child.response("names")), "a", "Invalid input: expected number, received string");
    await child.initialize();
    child.send({ jsonrpc: "2.0", id: "legacy", method: long("l") });
    quotesCut(said(await child.response("legacy")), "l", "is not available in protocol 2025-11-25");
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });

  /** Was: "Failed to retrieve task: no task" quoted the taskId whole. */
  it("cuts an unknown taskId to 200 characters", async () => {
    const child = new Child({}, "test/fixtures/tasks-server.ts");
    const extensions = { "io.modelcontextprotocol/tasks": {} };
    const _meta = { ...MODERN_META, [META.clientCapabilities]: { extensions } };
    child.send({ jsonrpc: "2.0", id: "modern", method: "tasks/get", params: { taskId: long("t"), _meta } });
    const ending = "(it may have expired); call the tool again to start a new one";
    quotesCut(said(await child.response("modern")), "t", ending);
    await child.initialize();
    child.send({ jsonrpc: "2.0", id: "legacy", method: "tasks/get", params: { taskId: long("u") } });
    quotesCut(said(await child.response("legacy")), "u", ending);
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});

describe("a line that is not JSON", () => {
  /**
   * Messages are delimited by newlines (2025-11-25 "Transports", stdio): a client that ends its lines
   * with a lone carriage return (old Mac style) sends two messages as one line. Was: "Parse error:
   * Unexpected non-whitespace character after JSON at position 41", which says what the parser saw
   * but not what to send instead.
   */
  it("is answered -32700 with what went wrong and how a message is sent", async () => {
    const child = new Child();
    child.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })}\r`);
    child.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" })}\n`);
    child.send({ jsonrpc: "2.0", id: "after", method: "ping" });
    await child.response("after");
    expect(child.messages()[0]).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32700,
        message:
          "Parse error: Unexpected non-whitespace character after JSON at position 41; send each JSON-RPC message as one line of JSON, ending with a newline (\\n)",
      },
    });
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});

describe("a line that is not UTF-8", () => {
  /**
   * Messages are UTF-8 (2025-11-25 "Transports", stdio). Was: each byte sequence that is not UTF-8 was
   * read as U+FFFD, so a Latin-1 "café" reached the tool as "caf\uFFFD", run as if the client had sent
   * that, and a request whose id held such a byte was answered under another id, which the client
   * never matched. U+FFFD sent as UTF-8 (EF BF BD), and a character split across two writes, are text
   * like any other.
   */
  it("is answered -32700 saying so, and the lines around it are served", async () => {
    const child = new Child();
    const line = (id: string, s: Buffer) =>
      Buffer.concat([
        Buffer.from(`{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"echo","arguments":{"s":"`),
        s,
        Buffer.from(`"},"_meta":${JSON.stringify(MODERN_META)}}}\n`),
      ]);
    // One write, read in one chunk: the line between the two others is UTF-8, its U+FFFD too.
    child.write(
      Buffer.concat([
        line("latin1", Buffer.from("café", "latin1")),
        line("replacement", Buffer.from("caf\uFFFD")),
        Buffer.from(`{"jsonrpc":"2.0","id":"\xff","method":"ping"}\n`, "latin1"),
      ]),
    );
    // "é" (C3 A9) split between two writes, the second a moment later: one character, not two errors.
    const split = line("split", Buffer.from("café"));
    const cut = split.indexOf(0xa9);
    child.write(split.subarray(0, cut));
    await new Promise((resolve) => setTimeout(resolve, 100));
    child.write(split.subarray(cut));
    await child.response("split");
    const said = async (id: string) => (await child.response(id)).result;
    expect(await said("replacement")).toMatchObject({ content: [{ type: "text", text: "caf\uFFFD" }] });
    expect(await said("split")).toMatchObject({ content: [{ type: "text", text: "café" }] });
    const refused = {
      jsonrpc: "2.0",
      error: {
        code: -32700,
        message:
          "Parse error: the line holds bytes that are not UTF-8; send each JSON-RPC message as one line of JSON, encoded in UTF-8",
      },
    };
    expect(child.messages().filter((message) => "error" in message)).toEqual([refused, refused]);
    expect(child.messages()).toHaveLength(4);
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});

describe("a progressToken longer than 256 characters", () => {
  /**
   * Each progress notification echoes the token (2025-11-25 "Progress"), so a long token made the
   * server write it again with every `ctx.progress()`, a message's worth each time (up to
   * limits.maxMessageBytes, 4 MiB by default). Such a token is answered as no token is: the result
   * and no progress. Was: the progress echoing the 50,000 characters, then the result.
   */
  it("gets its result and no progress; one of 256 characters gets its progress", async () => {
    const child = new Child();
    const slow = (id: string, progressToken: string) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "slow", arguments: { ms: 0 }, _meta: { ...MODERN_META, progressToken } },
    });
    child.send(slow("long", "t".repeat(50_000)));
    child.send(slow("bound", "u".repeat(256)));
    await child.response("long");
    await child.response("bound");
    const progress = child.messages().filter((message) => message.method === "notifications/progress");
    // Tokens' lengths, not the tokens: a failure would print 50,000 characters.
    expect(progress.map(({ params }) => (params as { progressToken: string }).progressToken.length)).toEqual([256]);
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});
