import { Connection } from "../connection.js";
import type { Dispatcher } from "../dispatch.js";
import { parseError } from "../protocol/jsonrpc.js";

export interface StdioStreams {
  /** Bytes (or text) from the client; newline-delimited JSON-RPC. Defaults to `process.stdin`. */
  input: AsyncIterable<Uint8Array | string>;
  /** Receives whole lines for the client. Defaults to `process.stdout`. */
  write: (chunk: string) => void;
}

/** Coalesces the answers of one turn of the event loop into one write: a write per message is a measurable cost. */
const later: (callback: () => void) => void =
  (globalThis as { setImmediate?: (callback: () => void) => void }).setImmediate ??
  ((callback) => setTimeout(callback, 0));

/**
 * Serves one connection over newline-delimited JSON-RPC (2025-11-25 and 2026-07-28 "stdio"):
 * one message per line, requests handled concurrently, nothing but protocol written out.
 * Resolves once the input has ended and every request in flight has been answered.
 */
export async function serveLines(dispatcher: Dispatcher, streams: StdioStreams): Promise<void> {
  let queued = "";
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const chunk = queued;
    queued = "";
    if (chunk) streams.write(chunk);
  };
  const connection = new Connection(dispatcher, (message) => {
    // JSON.stringify never emits a raw newline, so a message is always exactly one line.
    queued += `${JSON.stringify(message)}\n`;
    if (!scheduled) {
      scheduled = true;
      later(flush);
    }
  });

  const pending = new Set<Promise<void>>();
  const receive = (line: string) => {
    if (line.endsWith("\r")) line = line.slice(0, -1);
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (thrown) {
      queued += `${JSON.stringify(parseError((thrown as Error).message))}\n`;
      if (!scheduled) {
        scheduled = true;
        later(flush);
      }
      return;
    }
    const done = connection.receive(value).finally(() => pending.delete(done));
    pending.add(done);
  };

  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of streams.input) {
    buffer += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let newline = buffer.indexOf("\n");
    if (newline === -1) continue;
    let start = 0;
    do {
      receive(buffer.slice(start, newline));
      start = newline + 1;
      newline = buffer.indexOf("\n", start);
    } while (newline !== -1);
    buffer = buffer.slice(start);
  }
  // A last message without its newline still counts.
  buffer += decoder.decode();
  if (buffer) receive(buffer);
  while (pending.size > 0) await Promise.all(pending);
  connection.close();
  flush();
}

interface NodeLikeProcess {
  stdin: AsyncIterable<Uint8Array>;
  stdout: { write: (chunk: string) => boolean };
  exit: (code?: number) => never;
}

/** Serves the process's own stdin/stdout (Node, Bun and Deno all provide `process`). */
export async function serveStdio(dispatcher: Dispatcher): Promise<void> {
  const proc = (globalThis as unknown as { process?: NodeLikeProcess }).process;
  if (!proc)
    throw new Error("serve() over stdio needs a runtime with process.stdin and process.stdout (Node, Bun or Deno).");
  // stdout carries protocol only (2025-11-25 "stdio"); anything logged goes to stderr instead.
  console.log = console.info = console.debug = console.error;
  await serveLines(dispatcher, { input: proc.stdin, write: (chunk) => proc.stdout.write(chunk) });
}
