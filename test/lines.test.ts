import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Registry } from "../src/core/registry.js";
import type { Schema } from "../src/core/schema.js";
import { compileTool, type ToolConfig } from "../src/core/tools.js";
import type { Context } from "../src/index.js";
import { serveLines } from "../src/transports/stdio.js";
import { serverDispatcher } from "./core-helpers.js";
import { pipe } from "./hardening-helpers.js";

type AnyToolConfig = ToolConfig<Schema | undefined, Schema | undefined>;

const envelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function dispatcher(tools: Record<string, AnyToolConfig> = {}) {
  const registry = new Registry({ name: "t", version: "1" });
  const echo: ToolConfig<z.ZodObject<{ s: z.ZodString }>, undefined> = {
    input: z.object({ s: z.string() }),
    run: ({ s }) => s,
  };
  registry.addTool(compileTool("echo", echo as unknown as AnyToolConfig));
  for (const [name, config] of Object.entries(tools)) registry.addTool(compileTool(name, config));
  return serverDispatcher(registry);
}

/** Resolves once a message with this id has been written. */
function answered(id: unknown) {
  return (messages: Record<string, unknown>[]) => messages.some((message) => message.id === id);
}

/** Serves a fixed list of chunks to completion and returns every message written. */
async function serveChunks(chunks: (Uint8Array | string)[], tools?: Record<string, AnyToolConfig>) {
  const io = pipe();
  io.push(...chunks);
  io.end();
  await serveLines(dispatcher(tools), io);
  return io;
}

const call = (id: number | string, s: string) =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { s }, _meta: envelope } })}\n`;
/** The text of a tool result; throws (failing the test) on anything else. */
const text = (message: Record<string, unknown> | undefined) =>
  (message as { result: { content: { text: string }[] } }).result.content[0]!.text;

describe("serveLines framing", () => {
  it("answers one message per line", async () => {
    const io = await serveChunks([call(1, "a"), call(2, "b")]);
    expect(io.messages().map((message) => [message.id, text(message)])).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
  });

  it("reassembles a message split across chunks, and splits chunks holding several", async () => {
    const line = call(1, "split");
    const two = call(2, "x") + call(3, "y");
    const io = await serveChunks([
      line.slice(0, 5),
      line.slice(5, 30),
      line.slice(30),
      two.slice(0, -4),
      two.slice(-4),
    ]);
    expect(io.messages().map((message) => message.id)).toEqual([1, 2, 3]);
    expect(text(io.messages()[0])).toBe("split");
  });

  it("decodes a multi-byte UTF-8 character split across chunks", async () => {
    const s = "héllo 🙂 日本";
    const bytes = new TextEncoder().encode(call(1, s));
    const emoji = bytes.indexOf(0xf0);
    const accent = bytes.indexOf(0xc3);
    const cuts = [0, accent + 1, emoji + 1, emoji + 3, bytes.length];
    const chunks = cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end));
    const io = await serveChunks(chunks);
    expect(io.messages()).toHaveLength(1);
    expect(text(io.messages()[0])).toBe(s);
  });

  it("accepts CRLF line endings", async () => {
    const io = await serveChunks([call(1, "a").replace("\n", "\r\n"), call(2, "b").replace("\n", "\r\n")]);
    expect(io.messages().map((message) => [message.id, text(message)])).toEqual([
      [1, "a"],
      [2, "b"],
    ]);
  });

  it("skips blank and whitespace-only lines without answering them", async () => {
    const io = await serveChunks(["\n", "   \n", "\r\n", call(1, "a"), "\t\n\n"]);
    expect(io.messages()).toHaveLength(1);
    expect(io.messages()[0]).toMatchObject({ id: 1 });
  });

  it("holds a line that trickles in a byte per chunk in about its own size, not 32 bytes per chunk", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    const bytes = 2 * 1024 * 1024;
    const [head, tail] = call(1, "|").split("|") as [string, string];
    let before = 0;
    let holding = 0;
    async function* trickle() {
      before = heap();
      yield head;
      for (let i = 0; i < bytes; i++) yield "x";
      // The whole line but its end is read and waits for it.
      holding = heap() - before;
      yield tail;
    }
    const io = pipe();
    await serveLines(dispatcher(), { input: trickle(), write: io.write });
    expect(text(io.messages()[0])).toHaveLength(bytes);
    console.error(
      `a ${bytes / 1024 / 1024} MiB line read a byte at a time: heap +${(holding / 1024 / 1024).toFixed(1)} MiB`,
    );
    // Before: 61 MiB (a rope node of about 32 bytes per chunk); now about the line's own 2 MiB.
    expect(holding).toBeLessThan(4 * bytes);
  });

  it("handles a last line without a newline", async () => {
    const io = await serveChunks([call(1, "a"), call(2, "last").trimEnd()]);
    expect(io.messages().map((message) => message.id)).toEqual([1, 2]);
  });

  it("answers garbage with -32700 and no id, and carries on", async () => {
    const io = await serveChunks(["{not json\n", '{"jsonrpc":"2.0","id":1,"method":"ping"\n', call(2, "still here")]);
    const [first, second, third] = io.messages();
    expect(first).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: expect.stringMatching(/^Parse error: /) },
    });
    expect(second).toEqual({
      jsonrpc: "2.0",
      error: { code: -32700, message: expect.stringMatching(/^Parse error: /) },
    });
    expect(third).toMatchObject({ id: 2 });
    expect(text(third)).toBe("still here");
  });

  it("accepts a UTF-8 byte order mark at the start of the input, and only there", async () => {
    // Some Windows tools start a stream with one. stdin is read as bytes on every runtime, and the
    // decoder drops a BOM at the start of the stream (TextDecoder's default, ignoreBOM: false).
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const first = new TextEncoder().encode(call(1, "after the BOM"));
    const whole = await serveChunks([new Uint8Array([...bom, ...first]), call(2, "b")]);
    expect(whole.messages().map((message) => [message.id, text(message)])).toEqual([
      [1, "after the BOM"],
      [2, "b"],
    ]);
    // Split across chunks, the BOM itself too.
    const split = await serveChunks([bom.subarray(0, 1), bom.subarray(1), first]);
    expect(split.messages().map(text)).toEqual(["after the BOM"]);
    // Anywhere else it is not JSON's whitespace: that line is -32700, and the next is served.
    const later = await serveChunks([first, bom, new TextEncoder().encode(call(2, "later")), call(3, "c")]);
    expect(later.messages().map((message) => message.id ?? (message.error as { code: number }).code)).toEqual([
      1, -32700, 3,
    ]);
  });

  it("reads a character split over three chunks as one when a line after it is not UTF-8", async () => {
    // A client that writes a few bytes at a time: the emoji's first byte, its second, then the rest
    // of the line with a line that is not UTF-8 after it, whose chunk the fatal decoder refuses.
    // Was: the chunk was read again from the character the chunk before ended inside of, which began
    // two chunks back, so the emoji's line was refused as not UTF-8 too.
    const bytes = new TextEncoder().encode(call(1, "🙂"));
    const emoji = bytes.indexOf(0xf0);
    const io = await serveChunks([
      bytes.subarray(0, emoji + 1),
      bytes.subarray(emoji + 1, emoji + 2),
      new Uint8Array([...bytes.subarray(emoji + 2), 0xff, 0x0a]),
      call(2, "after"),
    ]);
    expect(io.messages().map((message) => message.id ?? (message.error as { code: number }).code)).toEqual([
      1, -32700, 2,
    ]);
    expect(text(io.messages()[0])).toBe("🙂");
  });

  it("skips a byte order mark split between the first two chunks when a line after it is not UTF-8", async () => {
    // Was: the refused chunk was read again as if not at the start of the input, since a chunk came
    // before it, so the BOM became a U+FEFF at the start of the first line, which was then not JSON.
    const io = await serveChunks([
      new Uint8Array([0xef, 0xbb]),
      new Uint8Array([0xbf, ...new TextEncoder().encode(call(1, "after the BOM")), 0xff, 0x0a]),
    ]);
    expect(io.messages().map((message) => message.id ?? (message.error as { code: number }).code)).toEqual([1, -32700]);
  });

  it("accepts string chunks as well as bytes", async () => {
    const io = await serveChunks([new TextEncoder().encode(call(1, "bytes")), call(2, "text")]);
    expect(io.messages().map(text)).toEqual(["bytes", "text"]);
  });

  it("writes every message as exactly one line, even text with newlines", async () => {
    const io = await serveChunks([call(1, "line one\nline two\r\n")]);
    expect(io.writes.join("")).toMatch(/^[^\n]+\n$/);
    expect(text(io.messages()[0])).toBe("line one\nline two\r\n");
  });

  it("sends nothing for notifications", async () => {
    const io = await serveChunks([
      '{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}\n',
    ]);
    expect(io.writes).toEqual([]);
  });

  it("answers a batch under 2025-03-26 as one line", async () => {
    const io = await serveChunks([
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}\n',
      '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]\n',
    ]);
    expect(io.messages()[1]).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
  });
});

describe("serveLines concurrency", () => {
  it("does not let a slow call hold up a fast one", async () => {
    const io = pipe();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const served = serveLines(
      dispatcher({
        slow: {
          run: async () => {
            await released;
            return "slow";
          },
        },
      }),
      io,
    );
    io.push(
      `${JSON.stringify({ jsonrpc: "2.0", id: "slow", method: "tools/call", params: { name: "slow", _meta: envelope } })}\n`,
      call("fast", "fast"),
    );
    // The slow call can only finish after the fast one has been written.
    await io.until(answered("fast"));
    release();
    await io.until(answered("slow"));
    io.end();
    await served;
    expect(io.messages().map((message) => message.id)).toEqual(["fast", "slow"]);
  });

  it("coalesces the answers of one turn into one write", async () => {
    const io = await serveChunks([
      '{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n',
    ]);
    expect(io.writes).toEqual([
      '{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{}}\n{"jsonrpc":"2.0","id":3,"result":{}}\n',
    ]);
  });

  it("writes a response after its request's progress, in a later write, and the other responses at once", async () => {
    const steps = {
      run: (_args: unknown, ctx: Context) => {
        ctx.progress(1, 2);
        ctx.progress(2, 2);
        return "done";
      },
    };
    const stepsCall = (id: number, meta: Record<string, unknown>) =>
      `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "steps", _meta: meta } })}\n`;
    // One read: a call that reports progress, a call whose id is that progress token, and a call that asked for no progress.
    const io = await serveChunks(
      [[stepsCall(1, { ...envelope, progressToken: "p" }), call("p", "the token's"), stepsCall(3, envelope)].join("")],
      { steps },
    );
    const writes = io.writes.map((chunk) =>
      chunk
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { id?: unknown; method?: string }),
    );
    // Was: one write, the response of call 1 read with its progress, which the official clients then lose.
    expect(writes.map((messages) => messages.map((message) => message.method ?? message.id))).toEqual([
      ["notifications/progress", "notifications/progress", "p", 3],
      [1],
    ]);
  });

  it("writes a response after its request's progress once that is written, and the responses read meanwhile first", async () => {
    const io = pipe();
    let answer!: () => void;
    const answering = new Promise<void>((resolve) => (answer = resolve));
    const pause = {
      run: async (_args: unknown, ctx: Context) => {
        ctx.progress(1, 1);
        // The tool answers once its report has been written: a short wait, as a quick fetch.
        await answering;
        return "done";
      },
    };
    const served = serveLines(dispatcher({ pause }), io);
    io.push(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "pause", _meta: { ...envelope, progressToken: "p" } } })}\n`,
    );
    await io.until((messages) => messages.some((message) => message.method === "notifications/progress"));
    answer();
    // Its response is ready (the tool answered in a microtask); the next request's goes at once, before it.
    await Promise.resolve();
    io.push(call(2, "meanwhile"));
    await io.until(answered(1));
    io.end();
    await served;
    const ids = io.writes.map((chunk) =>
      chunk
        .split("\n")
        .filter(Boolean)
        .map((line) => {
          const message = JSON.parse(line) as { id?: unknown; method?: string };
          return message.method ?? message.id;
        }),
    );
    // Was: the response of call 1 written at once, before call 2's, in the write after its progress.
    expect(ids).toEqual([["notifications/progress"], [2], [1]]);
  });

  it("waits for requests in flight when the input ends, then resolves", async () => {
    const io = pipe();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const served = serveLines(
      dispatcher({
        slow: {
          run: async () => {
            started();
            await released;
            return "finished";
          },
        },
      }),
      io,
    );
    io.push(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", _meta: envelope } })}\n`,
    );
    io.end();
    await running;
    let done = false;
    void served.then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    release();
    await served;
    expect(io.messages()).toEqual([expect.objectContaining({ id: 1 })]);
    expect(text(io.messages()[0])).toBe("finished");
  });

  it("sends no response for a request cancelled on the pipe", async () => {
    const io = pipe();
    let aborted: unknown;
    const served = serveLines(
      dispatcher({
        wait: {
          run: (_args, ctx) =>
            new Promise<string>((resolve) => {
              ctx.signal.addEventListener("abort", () => {
                aborted = ctx.signal.reason;
                resolve("too late");
              });
              io.push(
                '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"stop"}}\n',
              );
            }),
        },
      }),
      io,
    );
    io.push(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait", _meta: envelope } })}\n`,
    );
    io.push(call(2, "after"));
    await io.until(answered(2));
    io.end();
    await served;
    expect(aborted).toMatchObject({ name: "AbortError", message: "stop" });
    expect(io.messages().map((message) => message.id)).toEqual([2]);
  });
});
