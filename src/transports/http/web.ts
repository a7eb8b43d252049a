import type { HttpHandler } from "./handler.js";
import { notStartedResponse } from "./not-started.js";
import {
  type BodyBudget,
  BodyHold,
  BodyRefused,
  errorReply,
  type HttpReply,
  type HttpRequest,
  KEEP_ALIVE,
  KEEP_ALIVE_MS,
  type Watcher,
} from "./reply.js";
import { Guard, isLoopbackHost } from "./security.js";
import { utf8Body } from "./utf8-body.js";

/** The HTTP endpoint of a server as a Web `fetch` entry point (Workers, Bun, Deno, `server.fetch`). */
export interface WebEndpoint {
  /**
   * `listener`: what the runtime passes after the request (Bun: its server; Workers: `env`). Never
   * rejects: an endpoint that could not be made is answered for (not-started.ts).
   */
  fetch(request: Request, listener?: unknown): Promise<Response>;
  /** The runtime serves this endpoint at `address` (`deno serve` says so through the default export's `onListen`), and it says so on stderr. */
  listening(address: { hostname: string; port: number }): void;
}

/**
 * The Web face of an endpoint (endpoint.ts makes its handler): `Request` in, `Response` out. Made
 * only for a program that serves Web requests; `serve({ port })` on Node and `server.node` use the
 * handler straight from Node's objects (node.ts). `made` is the handler as it is being made: one that
 * could not be made (a start-up error) is answered for with a JSON 500 rather than a rejection,
 * which a runtime answers with a page of its own (Bun's, in development, shows the server's source).
 */
export function createWebEndpoint(
  made: Promise<HttpHandler>,
  allowedHosts: readonly string[] | undefined,
): WebEndpoint {
  // A runtime serving the endpoint on a loopback address (Bun, `deno serve`) accepts only loopback Host
  // headers, as serve() does, unless `allowedHosts` says which.
  const loopback = allowedHosts
    ? undefined
    : new Guard({ allowedHosts: ["localhost", "127.0.0.1"], allowedOrigins: ["*"] });
  let onLoopback = false;
  let handler: HttpHandler | undefined;
  let failure: unknown;
  const settled = made.then(
    (done) => {
      handler = done;
    },
    (thrown: unknown) => {
      failure = thrown;
    },
  );
  return {
    fetch: async (request, listener) => {
      if (!handler) await settled;
      if (!handler) return notStartedResponse(made, failure);
      const incoming = fromWebRequest(request);
      const denied = loopback && (onLoopback || onBunLoopback(listener)) ? loopback.checkHost(incoming) : undefined;
      const reply = denied ?? (await handler.handle(incoming));
      // A reply that is not a stream ends the request: nothing of it is left for the client to cancel.
      if (!("stream" in reply)) incoming.watch(undefined);
      else quietAllowed(listener, request);
      return toWebResponse(reply);
    },
    listening: ({ hostname, port }) => {
      onLoopback = isLoopbackHost(hostname);
      // The line `deno serve` prints itself unless the export has `onListen`, once the endpoint is ready.
      void made.then(
        () =>
          console.error(
            `deno serve: Listening on http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}/`,
          ),
        () => {},
      );
    },
  };
}

/**
 * Bun.serve closes a connection quiet for its `idleTimeout` (10 s by default) even while the response
 * streams, and an event stream may be quiet far longer (a long call after its first progress, a GET
 * or listen stream with nothing to say): `server.timeout(request, 0)` lifts that for the stream's
 * request. `listener` is the Bun server when Bun called `fetch(request, server)`.
 */
function quietAllowed(listener: unknown, request: Request): void {
  if (!("Bun" in globalThis) || typeof listener !== "object" || listener === null) return;
  if ("timeout" in listener && typeof listener.timeout === "function") listener.timeout(request, 0);
}

/**
 * Whether `listener` is a Bun server bound to a loopback address: Bun calls `fetch(request, server)`
 * for `export default server` (bound to the server's `hostname`, 127.0.0.1) and for a `Bun.serve`
 * of one's own. Its `address` is the address it bound; its `hostname` is the name it was given, and
 * "localhost" both for one bound by that name (to 127.0.0.1) and for one bound to every interface,
 * so where Bun has no `address`, only a loopback IP counts.
 */
function onBunLoopback(listener: unknown): boolean {
  if (!("Bun" in globalThis) || typeof listener !== "object" || listener === null) return false;
  if (!("requestIP" in listener) || !("hostname" in listener)) return false;
  const bound = "address" in listener ? listener.address : undefined;
  if (typeof bound === "object" && bound !== null && "address" in bound && typeof bound.address === "string") {
    return isLoopbackHost(bound.address);
  }
  const { hostname } = listener;
  return typeof hostname === "string" && hostname !== "localhost" && isLoopbackHost(hostname);
}

/**
 * On Deno, picomcp never reads `request.signal`: Deno.serve, in its default "legacy abort" mode,
 * prints a warning once a handler that read it answers (docs.deno.com/go/unstable-no-legacy-abort),
 * and the handler's `info.completed` settles only after the answer. A streamed body shows a client
 * leaving in either mode: Deno cancels it (`cancel()`) when the connection drops, at once if it
 * already had. So a request still running after this long is answered as an
 * event stream (`Watcher.stream`), which the client takes (2026-07-28 §5.2: JSON or SSE), and its
 * client leaving, which §5.2 makes a cancellation, cancels it: this much later at most. Quick answers
 * stay JSON. A request of a client that takes only JSON gets no stream (its status would be sent
 * before its answer is known), nor one begun at `limits.maxSseStreams`: its client leaving goes unseen.
 */
const DENO_STREAM_AFTER_MS = 1000;
const onDeno = "Deno" in globalThis;
/** The authority of an absolute URL, as written (a Deno request's URL keeps the case and form it was sent in). */
const AUTHORITY = /^[a-z][a-z\d+.-]*:\/\/([^/?#]*)/i;

/** Adapts a Web `Request` (Workers, Bun, Deno, Node's fetch) to the runtime-neutral endpoint. */
export function fromWebRequest(request: Request): HttpRequest {
  const url = request.url;
  // Bun gives a request without Host (HTTP/1.0 allows that) its path alone as the URL, where other
  // runtimes make up an absolute one: such a URL has no host to stand for the header.
  const relative = url.startsWith("/");
  const start = relative ? 0 : url.indexOf("/", url.indexOf("//") + 2);
  const query = url.indexOf("?", start);
  let target: Watcher | undefined;
  let watching = false;
  let delay: ReturnType<typeof setTimeout> | undefined;
  const follow = () => {
    if (!target) return;
    const signal = request.signal;
    if (signal.aborted) target.cancel(signal.reason);
    else if (!watching) {
      watching = true;
      signal.addEventListener("abort", () => target?.cancel(signal.reason), { once: true });
    }
  };
  return {
    method: request.method,
    path: start === -1 ? "/" : url.slice(start, query === -1 ? undefined : query),
    url: relative ? undefined : url,
    header: (name) => {
      if (name !== "host") return request.headers.get(name);
      // Deno makes the URL of an absolute-form target (`POST http://host/mcp`) from that target, and
      // of any other from the Host header as sent: its authority is the request's host, which RFC 9112
      // §3.2.2 says to use over the Host header (MUST), as Node's path does (node-http.ts).
      if (onDeno && !relative) return AUTHORITY.exec(url)?.[1] ?? null;
      // A Request built in-process (a test, a framework passing one on) has no Host header, but always
      // a URL, which a runtime makes from the Host: its host stands for the header, and one not allowed
      // is refused as the header would be. A browser always sends Host, which is what is checked then.
      return request.headers.get("host") ?? (relative ? null : new URL(url).host);
    },
    text: (limit, budget, receiveMs) => readText(request, { limit, budget, receiveMs }),
    watch: (watcher) => {
      target = watcher;
      if (!onDeno) follow();
      else if (watcher) delay ??= setTimeout(() => watcher.stream(), DENO_STREAM_AFTER_MS);
      else clearTimeout(delay);
    },
  };
}

const encoder = new TextEncoder();

/** The keep-alive comment of event streams (reply.ts's KEEP_ALIVE), encoded once. */
const KEEP_ALIVE_BYTES = encoder.encode(KEEP_ALIVE);

/**
 * Why a stream was dropped, which Bun and Deno print when a response's body errors: one line for the
 * operator, not an Error, whose stack they would print as if picomcp had failed.
 */
const DROPPED =
  'picomcp: an event stream was dropped: its client read it too slowly, and more than limits.maxSseBufferBytes waited for it (docs/limits.md, "SSE streams and slow readers")';

/** Turns a reply into a Web `Response`; an SSE reply streams, and a reader going away cancels it. */
function toWebResponse(reply: HttpReply): Response {
  if (!("stream" in reply)) return new Response(reply.body ?? null, { status: reply.status, headers: reply.headers });
  const channel = reply.stream;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let wake: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // Bun and Deno, as Node, notice a connection that died without closing only when a write to it
        // fails: a comment line (which SSE readers skip) while nothing waits to be read, as Node's
        // (node-http.ts's send), ends such a stream in time; it also keeps proxies from cutting a quiet
        // one (2026-07-28 §4 encourages them for quiet periods). Workers cancel a request with nothing
        // of its own pending as hung, a quiet `subscriptions/listen` stream included: this timer of the
        // request keeps it alive.
        keepAlive = setInterval(() => {
          if (controller.desiredSize === 0) controller.enqueue(KEEP_ALIVE_BYTES);
        }, KEEP_ALIVE_MS);
        channel.attach({
          // Kept bytes are copied: the reader owns what it is given, the history keeps its own. A
          // resumable stream sends its next event when the reader pulls for it.
          write: (chunk) => {
            controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk.slice());
            return (controller.desiredSize ?? 0) > 0;
          },
          close: () => {
            clearInterval(keepAlive);
            controller.close();
          },
          // The queue's bytes not yet read: a reader too far behind is dropped (limits.maxSseBufferBytes).
          backlog: () => -(controller.desiredSize ?? 0),
          abort: () => {
            clearInterval(keepAlive);
            controller.error(DROPPED);
          },
          onDrain: (callback) => {
            wake = callback;
          },
        });
      },
      pull: () => wake?.(),
      cancel: () => {
        clearInterval(keepAlive);
        channel.cancel();
      },
    },
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
  );
  return new Response(body, { status: reply.status, headers: reply.headers });
}

/** How much of a body to read, and for how long (`HttpRequest.text`). */
interface Reading {
  readonly limit: number;
  readonly budget: BodyBudget;
  readonly receiveMs: number;
}

/** The longest delay a timer takes: a longer one would fire at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Reads at most `limit` bytes of body, without trusting Content-Length alone, holding them of `budget`
 * meanwhile, for at most `receiveMs`: Bun.serve and Deno.serve put no bound of their own on a body
 * that trickles in, or stops and stays open, while it holds the budget (limits.receiveTimeoutMs).
 */
async function readText(request: Request, { limit, budget, receiveMs }: Reading): Promise<string> {
  const hold = new BodyHold(budget, limit);
  const declared = hold.declare(Number(request.headers.get("content-length")) || 0);
  if (declared) throw declared;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let late = false;
  // Cancelling the reader ends the read in progress as if the body had ended: `late` tells the two apart.
  const deadline =
    receiveMs > LONGEST_TIMER_MS
      ? undefined
      : setTimeout(() => {
          late = true;
          void reader.cancel();
        }, receiveMs);
  try {
    for (;;) {
      // Bun and Deno end the read in progress as done when the reader is cancelled; workerd rejects it.
      const { done, value } = await reader.read().catch((thrown: unknown) => {
        if (late) return { done: true as const, value: undefined };
        throw thrown;
      });
      if (late) throw new BodyRefused(tooSlow(receiveMs));
      if (done) break;
      size += value.byteLength;
      const refused = hold.reach(size);
      if (refused) {
        await reader.cancel();
        throw refused;
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(deadline);
    hold.release();
  }
  return utf8Body(chunks);
}

/** The answer to a body still arriving after `receiveMs`: the rest is not read, so the connection ends with it. */
function tooSlow(receiveMs: number): HttpReply {
  return errorReply(
    408,
    `Request Timeout: the request body was still arriving after ${receiveMs / 1000} s (limits.receiveTimeoutMs); send the whole request at once`,
    { connection: "close" },
  );
}
