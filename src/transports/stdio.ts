import type { ExchangeAuth } from "../core/caller.js";
import type { Dispatcher } from "../core/dispatch.js";
import { type JsonRpcResponse, parseError } from "../core/jsonrpc.js";
import { Connection } from "./connection.js";
import { lineOutput } from "./line-output.js";
import type { ClaimedStdout, StdioProcess } from "./stdout.js";

export interface StdioStreams {
  /** Bytes (or text) from the client; newline-delimited JSON-RPC. Defaults to `process.stdin`. */
  input: AsyncIterable<Uint8Array | string>;
  /**
   * Receives whole lines for the client, up to 64 KiB of them at a time (a longer line on its own).
   * Returning `false` says the client is not reading fast enough: nothing more is written and no
   * further line is handled until `drained` resolves (backpressure, as Node's streams do).
   */
  write: (chunk: string) => unknown;
  /** Resolves once the output can take more, after `write` returned false. */
  drained?: () => Promise<void>;
  /** Stops reading (shutdown): requests in progress get the grace period, as when the input ends. */
  signal?: AbortSignal;
  /**
   * Called once the input has ended, even while its lines wait for the client to read (see `write`), or
   * reading has stopped (the input failed, `signal` aborted): what follows only writes. It may come more than once.
   */
  stopped?: () => void;
  /** Who the client is, for every request (`auth.stdio`: credentials from the environment). */
  auth?: ExchangeAuth;
}

/** The longest start of an oversized line kept to find its id in: the line itself is never held whole. */
const HEAD = 4096;

/**
 * Serves one connection over newline-delimited JSON-RPC (2025-11-25 and 2026-07-28 "stdio"):
 * one message per line, requests handled concurrently, nothing but protocol written out. A line
 * longer than `limits.maxMessageBytes` is answered with -32600 and skipped as it streams in; nothing
 * read is kept once its line is handled. While the output is blocked (`write` answered false), no
 * more requests are read, log and progress notifications past `limits.maxSseBufferBytes` are
 * dropped (resource updates past that many bytes of updates), and a change notification or task status about the same thing as one still waiting supersedes it. Once the input ends (or `signal` aborts), requests in progress have
 * `limits.shutdownGraceMs` to finish; the rest are answered with an error and their signals abort.
 * Then it resolves, once the output has taken every answer.
 */
export async function serveLines(dispatcher: Dispatcher, streams: StdioStreams): Promise<void> {
  const { maxMessageBytes, shutdownGraceMs, maxSseBufferBytes, maxConcurrentRequestsPerConnection } = dispatcher.limits;
  const output = lineOutput(streams.write, streams.drained, maxSseBufferBytes);
  const connection = new Connection(dispatcher, { deliver: output.send, auth: streams.auth });

  // Requests whose answers are still to come (most tool calls are answered at once, as they are read),
  // and who waits for the last of them (the end of the input).
  let unanswered = 0;
  let idle: (() => void) | undefined;
  const answered = () => {
    if (--unanswered === 0) idle?.();
  };
  const failed = (thrown: unknown) => {
    report(thrown);
    answered();
  };
  /**
   * Resolves true once every request read has been answered and what waits behind a read check (an
   * update under an asynchronous `allow`, what was sent after it) has gone, or false after `ms`. It is
   * called once the input is read, so the count only goes down: an `idle` left from an earlier call
   * that fires later settles a promise already settled. A grace past the longest timer waits as long
   * as it takes: Node and Bun would fire that timer after 1 ms.
   */
  const settled = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = ms < 2 ** 31 ? setTimeout(resolve, ms, false) : undefined;
      idle = async () => {
        for (let held = connection.sent(); held; held = connection.sent()) await held;
        clearTimeout(timer);
        resolve(true);
      };
      if (unanswered === 0) idle();
    });
  /**
   * Answers a line over the limit from its start (too-large.ts, loaded with the first one), or one
   * that is not UTF-8 (utf8-lines.ts, loaded with the first chunk that holds one). Reading waits for
   * it, so that the lines after it are answered after it, as they would be at once. If its module
   * could not load (the package replaced on disk while the server runs), this line goes unanswered,
   * said on stderr, and the reading goes on (a throw would end it).
   */
  const refuse = async <T>(module: Promise<T>, answer: (code: T) => JsonRpcResponse) => {
    const code = await module.catch(report);
    if (code) output.send(answer(code));
  };
  const tooLarge = (head: string) => refuse(import("./too-large.js"), (large) => large.tooLarge(head, maxMessageBytes));
  /**
   * Handles one line; a promise while its refusal is being answered (see `refuse`). `notUtf8`: its
   * bytes were not all UTF-8 (utf8-lines.ts).
   */
  const receive = (line: string, notUtf8 = false): Promise<void> | undefined => {
    // By char code: endsWith and trim were a builtin call each on every line. A line that opens with
    // "{" (every request) is not blank.
    if (line.charCodeAt(line.length - 1) === 13) line = line.slice(0, -1);
    if (line.charCodeAt(0) !== 123 && line.trim() === "") return;
    if (line.length > maxMessageBytes || (line.length * 3 > maxMessageBytes && utf8Length(line) > maxMessageBytes)) {
      return tooLarge(line.slice(0, HEAD));
    }
    if (notUtf8) return refuse(import("./utf8-lines.js"), (utf8) => parseError(utf8.NOT_UTF8));
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (thrown) {
      // Lines end with \n alone (2025-11-25 "Transports", stdio): a lone \r joins two messages into one.
      output.send(
        parseError(
          `${(thrown as Error).message}; send each JSON-RPC message as one line of JSON, ending with a newline (\\n)`,
        ),
      );
      return;
    }
    let later: Promise<void> | undefined;
    try {
      later = connection.receive(value);
    } catch (thrown) {
      report(thrown);
      return;
    }
    if (later) {
      unanswered++;
      later.then(answered, failed);
    }
  };

  // The line being read, and whether it outgrew the limit: then the rest of it is skipped as it arrives.
  let buffer = "";
  let skipping = false;
  /** Whether what `buffer` holds came with bytes that are not UTF-8 (utf8-lines.ts). */
  let notUtf8 = false;
  /** The pieces joined onto `buffer` since it was last copied flat (see `hold`); a count left from earlier lines only brings that copy sooner. */
  let pieces = 0;
  /**
   * Keeps `rest`, the start of a line whose end is still to come, unless the line already outgrew the
   * limit: then a promise while its refusal is being answered (see `refuse`).
   */
  const hold = (rest: string): Promise<void> | undefined => {
    if (skipping || rest === "") return;
    // +1: the CR of a CRLF line may have arrived without its LF; `receive` measures the line without it.
    if (buffer.length + rest.length > maxMessageBytes + 1) {
      const head = (buffer + rest.slice(0, HEAD)).slice(0, HEAD);
      buffer = "";
      skipping = true;
      return tooLarge(head);
    }
    if (++pieces > 64 && pieces * 32 > buffer.length) {
      // Each piece `+=` joins on is a rope node of about 32 bytes until the line is parsed: a line that
      // trickles in a byte per read held 32 times its length (128 MiB under the default 4 MiB limit).
      // Copied flat once its nodes outweigh its text, it holds about twice its length at most, and the
      // copies grow geometrically (join makes a flat string; `+` would make one more node).
      buffer = [buffer, rest].join("");
      pieces = 0;
    } else buffer += rest;
  };

  // Waits that end early once the signal aborts, with one listener for all of them: racing each wait
  // against one promise that never settles would keep every value it resolved with (every chunk read).
  const signal = streams.signal;
  let interrupt: (() => void) | undefined;
  const onAbort = () => interrupt?.();
  signal?.addEventListener("abort", onAbort, { once: true });
  /**
   * What `promise` resolves to, or undefined once stopped. `promise` is always followed, even when
   * stopped already: a read that fails once stdin is destroyed must not become an unhandled rejection.
   */
  const unlessStopped = <T>(promise: Promise<T>): Promise<T | undefined> =>
    signal
      ? new Promise((resolve, reject) => {
          promise.then(resolve, reject);
          if (signal.aborted) return resolve(undefined);
          interrupt = () => resolve(undefined);
        })
      : promise;
  /**
   * What reading waits for before it handles a line: the client to read its answers (backpressure), or
   * a connection's worth of messages (limits.maxConcurrentRequestsPerConnection) waiting behind a read
   * check, at most 10 s each, to go: the answers of requests read meanwhile would wait there too, so a
   * client that keeps sending could grow them without bound. Undefined while neither.
   */
  const busy = () =>
    output.blocked() ?? (connection.holding >= maxConcurrentRequestsPerConnection ? connection.sent() : undefined);
  /** Waits while reading is `busy`; false once stopped. */
  const ready = async () => {
    for (let wait = busy(); wait && !signal?.aborted; wait = busy()) await unlessStopped(wait);
    return !signal?.aborted;
  };
  const iterator = streams.input[Symbol.asyncIterator]();
  /**
   * The next chunk, read while the one before is handled (one chunk ahead, no more): a client that ends
   * its input is seen to (`stopped`) even while it does not read its answers and no line is handled.
   */
  const readAhead = () => {
    const read = iterator.next();
    read.then(
      (next) => next.done && streams.stopped?.(),
      () => {},
    );
    return read;
  };
  let ahead = readAhead();
  // Fatal: bytes that are not UTF-8 are refused, not read as U+FFFD (utf8-lines.ts, loaded with the first).
  let decoder = new TextDecoder("utf-8", { fatal: true });
  /**
   * The chunk read before, or its last bytes with it if it was shorter than three: a chunk the decoder
   * refuses is read again from the character they end inside of (a character is four bytes at most).
   */
  let previous: Uint8Array | undefined;
  /** How many bytes were read before the chunk being read: a byte order mark counts at the start of the input only. */
  let offset = 0;
  let ended = false;
  try {
    reading: for (;;) {
      const next = output.blocked() && !(await ready()) ? undefined : await unlessStopped(ahead);
      if (!next) {
        // Stopped: what is left of the input is not read, so a last partial line is dropped.
        Promise.resolve(iterator.return?.()).catch(() => {});
        break;
      }
      if (next.done) {
        ended = true;
        break;
      }
      ahead = readAhead();
      const chunk = next.value;
      let text: string;
      /** Whether each of its lines holds bytes that are not UTF-8, when any does. */
      let broken: boolean[] | undefined;
      if (typeof chunk === "string") text = chunk;
      else {
        try {
          text = decoder.decode(chunk, { stream: true });
        } catch {
          try {
            ({ text, broken, decoder } = (await import("./utf8-lines.js")).reread(previous, chunk, offset));
          } catch (thrown) {
            // Its module could not load (the package replaced on disk while the server runs): said on
            // stderr, the chunk is read as before it existed, U+FFFD and all, and the reading goes on.
            report(thrown);
            text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(chunk);
            decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
          }
        }
        // A chunk of a byte or two may hold only the middle of a character: the bytes before it stay with it.
        previous = chunk.length >= 3 || !previous ? chunk : new Uint8Array([...previous.subarray(-3), ...chunk]);
        offset += chunk.length;
      }
      let line = 0;
      let start = 0;
      for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
        // While the client does not read its answers, or they wait behind read checks, no more of its
        // requests are handled.
        if (busy() && !(await ready())) continue reading;
        if (skipping) skipping = false;
        else {
          const refusing = receive(buffer + text.slice(start, newline), notUtf8 || broken?.[line] === true);
          buffer = "";
          if (refusing) await refusing;
        }
        notUtf8 = false;
        line++;
        start = newline + 1;
      }
      if (broken?.[line]) notUtf8 = true;
      const refusing = hold(text.slice(start));
      if (refusing) await refusing;
    }
  } catch (thrown) {
    // The input failed (a closed pipe, a read error): that is its end.
    report(thrown);
  }
  signal?.removeEventListener("abort", onAbort);
  interrupt = undefined;
  streams.stopped?.();
  // A last message without its newline still counts (what the decoder still holds has no newline).
  if (ended && !skipping) {
    let last: string;
    try {
      last = decoder.decode();
    } catch {
      // The input ended inside a character.
      last = "\uFFFD";
      notUtf8 = true;
    }
    await receive(buffer + last, notUtf8);
  }
  buffer = "";

  // Nothing more will be asked for: listen streams end now, requests in progress get the grace period,
  // and what waits behind a read check waits for it as long (an update is sent if its check answers by
  // then). What still waits after twice the grace goes with the connection's close: its responses and
  // logs now, the updates whose checks have not answered never (connection.ts). Then the client has what
  // is left of serveStdio's bound to read it.
  connection.endStreams(new DOMException("The input ended", "AbortError"));
  if (!(await settled(shutdownGraceMs))) {
    connection.interrupt(new DOMException("The input ended and the grace period is over", "AbortError"));
    await settled(shutdownGraceMs);
  }
  connection.close();
  await output.finish();
}

/** UTF-8 bytes of a string (for lines long enough that their character count may understate them). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // 2 bytes below U+0800; 3 above; a surrogate pair is 2 units for 4 bytes.
    if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

function report(thrown: unknown): void {
  console.error("picomcp: stdio:", thrown);
}

/** How `serve()` hands stdio over: the process, its stdout already claimed, and what stops and identifies. */
export interface StdioServing {
  readonly process: StdioProcess;
  /** Taken by `serve()` when it is called, before this module loads (see stdout.ts). */
  readonly claimed: ClaimedStdout;
  /** Stops serving (`server.close()`); serving aborts it too once the client is gone. */
  readonly stop: AbortController;
  /** The caller of every request, from the environment (the `auth.stdio` hook). */
  readonly auth?: Promise<ExchangeAuth> | undefined;
}

/**
 * Serves the process's own stdin/stdout (Node, Bun and Deno all provide `process`) until stdin
 * ends or `stop` aborts, then waits for stdout to take the last answers. From the call on, stdout
 * is the protocol's alone: console output and any other write to it go to stderr (see stdout.ts)
 * until serving ends, also while `auth` (the caller, from the environment) is still to come.
 */
export async function serveStdio(dispatcher: Dispatcher, serving: StdioServing): Promise<void> {
  const { process: proc, claimed, stop, auth } = serving;
  const { stdin, stdout } = proc;
  let gone = false;
  // A write's callback runs once its chunk is out, or with the error once the client is gone, in the
  // order of the writes: stdout has taken everything once the last one ran. One wait for a blocked
  // stdout and for the last answers, on every runtime (an empty write's callback would do on Node and
  // Deno, but Bun runs it at once: stdout never blocked, and a tool flooding ctx.log grew Bun's buffer).
  /** Writes whose callback is still to come, and who waits for the last of them. */
  let pending = 0;
  let wake: (() => void) | undefined;
  const written = (error?: unknown) => {
    if (error) onError(error);
    if (--pending === 0) wake?.();
  };
  /** Resolves once stdout has taken everything written so far, or failed. */
  const flushed = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
      if (gone || pending === 0) resolve();
    });
  // A client that closed its end makes writes fail (EPIPE): it is gone, so stop reading and writing.
  const onError = (error: unknown) => {
    gone = true;
    wake?.();
    stop.abort(error);
  };
  // A client that does not read cannot hold the end of serving (its end of stdin, close(), SIGTERM)
  // forever: once reading stops, requests in progress have the grace period, and their answers as long
  // again and a second more to be taken; then the client counts as gone and what it has not read is
  // dropped (a grace past the longest timer waits as long as it takes).
  const patience = 2 * dispatcher.limits.shutdownGraceMs + 1000;
  let abandon: ReturnType<typeof setTimeout> | undefined;
  const stopped = () => {
    if (patience < 2 ** 31) abandon ??= setTimeout(onError, patience);
  };
  // Stopping stops reading: stdin no longer holds the process open.
  const onAbort = () => stdin.destroy?.();
  stdout.on("error", onError);
  // close() may have come before this module loaded: an aborted signal tells no listener added since.
  if (stop.signal.aborted) onAbort();
  else stop.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const caller = await auth;
    // Deno's process.stdout.write blocks the whole process while the pipe is full; Deno's own write does
    // not (deno-stdout.ts, loaded on Deno only).
    const deno = "Deno" in globalThis ? (await import("./deno-stdout.js")).denoStdoutWrite() : undefined;
    const write = deno ?? claimed.write;
    await serveLines(dispatcher, {
      input: stdin,
      write: (chunk) => {
        if (gone) return true;
        pending++;
        return write(chunk, written);
      },
      drained: flushed,
      signal: stop.signal,
      stopped,
      auth: caller,
    });
    await flushed();
  } finally {
    clearTimeout(abandon);
    stop.signal.removeEventListener("abort", onAbort);
    stdout.off("error", onError);
    claimed.release();
  }
}
