import type * as NodeHttp from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { ExchangeAuth } from "../core/caller.js";
import type { ResolvedLimits } from "../limits/options.js";
import type { HttpHandler } from "./http/handler.js";
import {
  type BodyBudget,
  BodyHold,
  type Cancellable,
  type HttpReply,
  type HttpRequest,
  JSON_HEADERS,
  KEEP_ALIVE,
  KEEP_ALIVE_MS,
} from "./http/reply.js";
import { utf8Body } from "./http/utf8-body.js";
import { type Address, type Bound, FLUSH_MS } from "./listening.js";

/**
 * The endpoint on `node:http`, straight from Node's request and response objects: `serve({ port })`'s
 * listener (listenNode), and the request and reply that `server.node` (node.ts) uses too.
 */

/**
 * Serves the HTTP endpoint with `node:http`, straight from Node's request and response objects:
 * building a Web Request and Response for every call is a large share of the cost of a small call.
 */
export async function listenNode(handler: HttpHandler, { port, host }: Address): Promise<Bound> {
  const http = await nodeHttp();
  // Responses not yet sent whole: shutdown waits for them before it closes the connections. A
  // count, not a Map of them: a long-lived table that every request writes into keeps each request's
  // objects alive through young collections (measured: ~2 KB promoted per call, half its CPU in GC).
  let unsent = 0;
  let allSent: (() => void) | undefined;
  const limits = handler.limits;
  const server = http.createServer(receiving(limits), (req, res) => {
    const request = new NodeRequest(req, res);
    unsent++;
    // "close" is emitted once; one listener serves both: a response that closes before it was sent
    // cancels its request (NodeRequest.closed).
    res.on("close", () => ended(request));
    if (res.socket) answer(handler, request, res);
    else pipelined(handler, request, res);
  });
  /** A response closed, or its connection closed before it had one: nothing is left to send for it. */
  const ended = (request: NodeRequest) => {
    unsent--;
    request.closed();
    if (unsent === 0) allSent?.();
  };
  /** Requests pipelined behind a response not sent whole yet (see pipelining). */
  const pipelined = pipelining(ended);
  // Past it Node closes each new connection at once: what idle or slow connections can hold (about
  // 10 KB each, and a file descriptor the process may need for other things) is bounded.
  server.maxConnections = limits.maxConnections;
  /** Resolves once every response has been sent (or its connection closed), or after FLUSH_MS. */
  const sent = () =>
    new Promise<void>((resolve) => {
      if (unsent === 0) return resolve();
      const timer = setTimeout(resolve, FLUSH_MS);
      allSent = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      resolve({
        port: typeof address === "object" && address ? address.port : port,
        // While the endpoint shut down, the listener kept accepting, so that a new request, on a new
        // connection or an idle one, was answered 503 with Connection: close rather than refused or reset.
        stop: async () => {
          // Every request has its answer now, but the last ones may still be on their way to the
          // socket: closing the connections at once would lose them (a "socket hang up").
          await sent();
          const closed = new Promise<void>((done) => server.close(() => done()));
          server.closeAllConnections();
          await closed;
        },
      });
    });
  });
}

/**
 * Handles a request pipelined on its connection behind a response not sent whole yet, or refuses it
 * (see `pipelining`); resolves once its answer is handed off, or its connection closed first.
 */
export type Pipelined = (handler: HttpHandler, request: NodeRequest, res: ServerResponse) => Promise<void>;

/**
 * The responses of one connection that wait for its socket behind one not sent yet, refused ones
 * included, each with what resolves its `Pipelined` promise; and how many of their requests wait
 * to be handled.
 */
interface Queue {
  readonly behind: Map<NodeRequest, () => void>;
  waiting: number;
}

/**
 * A request pipelined behind a response not sent whole yet (HTTP/1.1 answers in order, RFC 9112
 * §9.3.2: Node gives a response its socket once those before it are sent) is handled then, as stdio
 * reads no line while its client does not read. Handled at once, every request of a chunk read
 * (some 170 small ones in 64 KiB) had its answer made and held until the client read: one connection
 * made the server hold 170 answers of a tool's 1 MiB. Past limits.maxConcurrentRequestsPerConnection
 * waiting, one is refused at once: Node stops reading a connection once the answers queued on it pass
 * its high-water mark, so the 503s bound the requests that wait, whose answers would otherwise never
 * come to be queued. `serve({ port })`'s listener and `server.node` (node.ts) alike: Node's server
 * hands both the pipelined requests as it parses them. `ended` is called for a request whose response
 * Node never closes, since its connection closed while it waited.
 */
export function pipelining(ended: (request: NodeRequest) => void): Pipelined {
  /** Responses pipelined behind one not sent yet, by connection. */
  const queues = new WeakMap<Socket, Queue>();
  /** A connection's queue, made with its first response that waits for the socket. */
  const queueOn = (socket: Socket): Queue => {
    const queue: Queue = { behind: new Map(), waiting: 0 };
    queues.set(socket, queue);
    // A response that waits for the socket has no "close" of its own when its connection closes
    // first: it ends then, or `serve({ port })`'s close() would wait its whole flush for it.
    socket.once("close", () => {
      for (const [request, done] of queue.behind) {
        ended(request);
        done();
      }
    });
    return queue;
  };
  return (handler, request, res) =>
    new Promise((done) => {
      const socket = res.req.socket;
      const queue = queues.get(socket) ?? queueOn(socket);
      const handled = queue.waiting < handler.limits.maxConcurrentRequestsPerConnection;
      queue.behind.set(request, done);
      res.once("socket", () => {
        queue.behind.delete(request);
        if (!handled) return;
        queue.waiting--;
        done(answer(handler, request, res));
      });
      if (!handled) {
        send(handler.pipelinedTooDeep(), res);
        return done();
      }
      queue.waiting++;
      // Its body is read now, and held against limits.maxBodyBytesInFlight until it is handled: one left
      // unread stalls Node's parser, whose requestTimeout (limits.receiveTimeoutMs) then answers 408 and
      // closes the connection, the answer in progress before it lost.
      const { limit, budget } = handler.bodies;
      request.readAhead(limit, budget);
    });
}

/**
 * How long a client may take to send a request (limits.headersTimeoutMs, receiveTimeoutMs), as
 * node:http's own options: Node's defaults (60 s for the headers, 300 s for the whole request, each
 * checked every 30 s) let a slow sender hold its connection, and what its body sent of the body
 * budget, for five minutes. Both bound receiving the request only: once it is read, its answer (a
 * long call, an SSE stream) takes what it takes. Node checks every connection at once on a timer;
 * here that timer runs at a quarter of the shorter bound, at most every second, so a bound is
 * enforced at most that much late. Node takes 0 for no bound, and refuses a headers bound longer
 * than the whole request's: the headers are part of the request, so the shorter one is theirs.
 */
function receiving({ headersTimeoutMs, receiveTimeoutMs }: ResolvedLimits): NodeHttp.ServerOptions {
  const shortest = Math.min(headersTimeoutMs, receiveTimeoutMs);
  return {
    headersTimeout: shortest === Infinity ? 0 : shortest,
    requestTimeout: receiveTimeoutMs === Infinity ? 0 : receiveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.floor(shortest / 4)) || 1,
  };
}

/**
 * Asks the runtime for `node:http` instead of importing it, so that no bundle of picomcp (Workers,
 * browsers) ever sees a Node built-in; this module only runs on Node.
 */
async function nodeHttp(): Promise<typeof NodeHttp> {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const builtin = proc?.getBuiltinModule?.("node:http") as typeof NodeHttp | undefined;
  if (builtin) return builtin;
  // Node before 20.16 has no getBuiltinModule; a computed specifier keeps bundlers away from it.
  const specifier = ["node", "http"].join(":");
  return (await import(specifier)) as typeof NodeHttp;
}

const INTERNAL_ERROR: HttpReply = {
  status: 500,
  headers: { "content-type": "text/plain" },
  body: "Internal Server Error",
};

/**
 * One request as the endpoint reads it, straight off Node's objects. Nothing is made per request
 * beyond this object: no AbortController, and no listener of its own but the body read's: whoever
 * made it calls `closed()` when the response closes (the one "close" listener listenNode and
 * serveNode have on every response).
 */
export class NodeRequest implements HttpRequest {
  readonly method: string;
  readonly path: string;
  auth: ExchangeAuth | undefined;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  /** The request target as the client sent it (see `server.node`, node.ts, for one a framework rewrote). */
  readonly #target: string;
  #watcher: Cancellable | undefined;
  /** The body read ahead (`readAhead`), and what it holds of the bodies' budget until `text` takes it. */
  #ahead: { body: Promise<string>; hold: BodyHold } | undefined;
  /** The body being read for `text`, which the response closing first ends (`closed`). */
  #reading: { hold: BodyHold; reject: (thrown: unknown) => void } | undefined;
  /** The request's host: the Host header, or the authority of an absolute-form target. */
  readonly #host: string | null;
  readonly #absolute: boolean;

  constructor(req: IncomingMessage, res: ServerResponse, target = req.url ?? "/") {
    this.#req = req;
    this.#res = res;
    this.#target = target;
    this.method = req.method ?? "GET";
    // The absolute form (`POST http://host/mcp`, RFC 9112 §3.2.2): the target's host is the request's,
    // and the Host header is ignored (MUST).
    const absolute = target.startsWith("/") ? null : ABSOLUTE_FORM.exec(target);
    this.#host = absolute ? (absolute[1] ?? "") : linesOf(req, "host", 1);
    const path = absolute ? target.slice(absolute[0].length) || "/" : target;
    const query = path.indexOf("?");
    this.path = query === -1 ? path : path.slice(0, query);
    this.#absolute = absolute !== null;
  }

  get url(): string {
    const target = this.#target;
    if (this.#absolute) return target;
    // A TLS socket (https.createServer) carries `encrypted`: the Origin check compares the scheme.
    const scheme = "encrypted" in this.#req.socket ? "https" : "http";
    return `${scheme}://${this.#host ?? "localhost"}${target}`;
  }

  header(name: string): string | null {
    if (name === "host") return this.#host;
    // Credentials in two lines are refused (a malformed Bearer header, 400), as on a Web runtime:
    // Node keeps the first, where a proxy in front may have checked the other. One line is read
    // from `headers`, which a framework's middleware may have set.
    const value = (name === "authorization" ? linesOf(this.#req, name, 2) : null) ?? this.#req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }

  watch(watcher: Cancellable | undefined): void {
    this.#watcher = watcher;
    // Node marks the response destroyed when its connection closes before the response finished.
    if (this.#res.destroyed) watcher?.cancel(gone());
  }

  /** The response closed: before it was sent whole, the client is gone and the request is cancelled. */
  closed(): void {
    // A body read ahead and never taken (refused on its headers, or its connection closed first) lets go of its budget.
    this.#ahead?.hold.release();
    const reading = this.#reading;
    if (reading) {
      // A client that went away mid-body never sends its end: its connection closing closed the response.
      reading.hold.release();
      if (!this.#req.complete) reading.reject(gone());
    }
    if (this.#res.writableFinished) return;
    this.#watcher?.cancel(gone());
  }

  /**
   * Starts reading the body before the request is handled (pipelining), holding its bytes
   * against `budget` until `text` takes it, or the request closes first (`closed`).
   */
  readAhead(limit: number, budget: BodyBudget): void {
    const hold = new BodyHold(budget, limit);
    const body = this.#read(hold, false);
    // Refused (too large, or no room in the budget): answered once handled, as a body read then is.
    body.catch(() => {});
    this.#ahead = { body, hold };
  }

  text(limit: number, budget: BodyBudget): Promise<string> {
    const ahead = this.#ahead;
    if (!ahead) return this.#read(new BodyHold(budget, limit), true);
    this.#ahead = undefined;
    ahead.hold.release();
    return ahead.body;
  }

  /** Reads the body within `hold`; `whole`: lets go of it once the body is read whole, else the caller does. */
  #read(hold: BodyHold, whole: boolean): Promise<string> {
    const req = this.#req;
    // Gone before its body was read (a framework's handler may come late): no end or close will follow.
    if (req.destroyed) return Promise.reject(gone());
    // Past a limit the body is left unread: the 413 or 503 carries `Connection: close`, so Node ends
    // the connection once the answer is flushed instead of reading the rest (which may never end).
    const declared = hold.declare(Number(req.headers["content-length"]) || 0);
    if (declared) return Promise.reject(declared);
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on("data", (chunk: Buffer) => {
        size += chunk.length;
        const refused = hold.reach(size);
        if (refused) {
          req.removeAllListeners("data");
          req.pause();
          chunks.length = 0;
          hold.release();
          reject(refused);
        } else chunks.push(chunk);
      });
      // Each of these settles the promise at most once, so plain listeners do (no `once` wrapper per request).
      req.on("end", () => {
        if (whole) hold.release();
        try {
          resolve(utf8Body(chunks));
        } catch (refused) {
          reject(refused);
        }
      });
      // A client that goes away mid-body never sends its end. Its response closes then, which ends
      // the read (`closed`), without a listener more on every request; but one pipelined behind a
      // response in progress has no socket yet, and never closes: its request's close does.
      // (Node emits a request's "error" only to a listener, so none is needed.)
      if (whole) this.#reading = { hold, reject };
      else {
        req.on("close", () => {
          if (req.complete) return;
          hold.release();
          reject(gone());
        });
      }
    });
  }
}

/** An absolute-form request target's scheme and authority, the authority captured. */
const ABSOLUTE_FORM = /^[a-z][a-z\d+.-]*:\/\/([^/?#]*)/i;

/**
 * The lines of a header that may be sent once only (Host, Authorization), read as a Web runtime
 * does: joined, which is refused (two Host lines: RFC 9112 §3.2 MUST answer 400), where Node keeps
 * the first. Null when fewer than `least` lines came. `name` is lower-case letters. No array of
 * them: the Host is read so for every request.
 */
function linesOf(req: IncomingMessage, name: string, least: number): string | null {
  const raw = req.rawHeaders;
  let lines: string | null = null;
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (isNamed(raw[i]!, name)) lines = count++ === 0 ? raw[i + 1]! : `${lines}, ${raw[i + 1]}`;
  }
  return count < least ? null : lines;
}

/**
 * Whether a header's name as sent is `name` (lower-case letters) in any case (RFC 9110 §5.1): a
 * character matches a letter, or its capital, with the case bit set. No lower-case copy of the
 * name, which a `toLowerCase` makes for every request.
 */
function isNamed(line: string, name: string): boolean {
  if (line.length !== name.length) return false;
  for (let i = 0; i < name.length; i++) if ((line.charCodeAt(i) | 0x20) !== name.charCodeAt(i)) return false;
  return true;
}

export function gone(): DOMException {
  return new DOMException("The client closed the connection", "AbortError");
}

/**
 * Hands the request to the endpoint and sends its reply: at once when the endpoint answered at once,
 * else when its promise settles (no async function: a promise and a turn fewer for every request).
 * The promise, if any, never rejects: a failure answers 500.
 */
export function answer(handler: HttpHandler, request: NodeRequest, res: ServerResponse): Promise<void> | undefined {
  let reply: Promise<HttpReply> | HttpReply;
  try {
    reply = handler.handle(request);
  } catch {
    reply = INTERNAL_ERROR;
  }
  if (!(reply instanceof Promise)) return finish(handler, reply, res);
  return reply.then(
    (done) => finish(handler, done, res),
    () => finish(handler, INTERNAL_ERROR, res),
  );
}

function finish(handler: HttpHandler, reply: HttpReply, res: ServerResponse): undefined {
  // An answer finished while shutting down ends its connection: the client does not send the next
  // request on a connection about to close.
  send(handler.closing ? { ...reply, headers: { ...reply.headers, connection: "close" } } : reply, res);
  return undefined;
}

export function send(reply: HttpReply, res: ServerResponse): void {
  // The client left while the request ran, or (in a framework) something else answered it already:
  // nothing more is written.
  if (res.destroyed || res.headersSent) {
    if ("stream" in reply) reply.stream.cancel();
    return;
  }
  if (!("stream" in reply)) {
    const body = reply.body ?? "";
    const length = Buffer.byteLength(body);
    // Nearly every reply has JSON's one header and no other: its list is written out rather than built.
    const headers = reply.headers;
    res.writeHead(
      reply.status,
      headers === JSON_HEADERS
        ? ["content-type", "application/json", "content-length", length]
        : headerList(headers, length),
    );
    if (reply.headers.connection === "close" && !res.req.complete) lingerThenClose(res, body);
    else res.end(body);
    return;
  }
  res.writeHead(reply.status, reply.headers);
  res.flushHeaders();
  const channel = reply.stream;
  // Node notices a connection that died without closing (a network drop, a laptop asleep) only when
  // a write to it fails: without one, a quiet stream held its slot, and its session, for good. Only
  // while nothing waits to be sent: what waits is written, or fails, first.
  const keepAlive = setInterval(() => {
    if (res.writableLength === 0) res.write(KEEP_ALIVE);
  }, KEEP_ALIVE_MS);
  res.once("close", () => {
    clearInterval(keepAlive);
    channel.cancel();
  });
  channel.attach({
    // False once Node buffers more than its high-water mark: a resumable stream waits for "drain".
    write: (chunk) => res.write(chunk),
    close: () => {
      clearInterval(keepAlive);
      res.end();
    },
    // What the socket has not taken yet: a reader too far behind is dropped (limits.maxSseBufferBytes).
    backlog: () => res.writableLength,
    abort: () => res.destroy(),
    onDrain: (wake) => res.on("drain", wake),
  });
}

/**
 * The reply's headers and its Content-Length as Node's flat list of names and values: copying them
 * into a new object with a spread costs ten times as much (measured, Node 20).
 */
function headerList(headers: Record<string, string>, length: number): (string | number)[] {
  const list: (string | number)[] = [];
  for (const name in headers) list.push(name, headers[name]!);
  list.push("content-length", length);
  return list;
}

/** How long a connection whose request body is left unread stays open after its reply. */
const LINGER_MS = 1000;

/**
 * Ends a connection whose request body the server will not read (a 413, or a 503 while shutting
 * down). Closing as soon as the reply is flushed resets a connection that still has unread bytes,
 * and a reset can cost a client that is still writing the very reply it should read (RFC 9112 §9.6
 * asks for a "lingering close"). So the reply is sent whole, the body stays unread (Node stops
 * reading the socket once the request's buffer is full: TCP flow control holds the client back,
 * and what the server takes is bounded by its buffers), and the socket closes LINGER_MS later.
 */
function lingerThenClose(res: ServerResponse, body: string): void {
  res.write(body);
  res.req.pause();
  const linger = (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once("close", () => clearTimeout(timer));
  };
  // A pipelined reply waits behind the replies before it: its socket comes once they are sent.
  if (res.socket) linger(res.socket);
  else res.once("socket", linger);
}
