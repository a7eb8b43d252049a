import type * as NodeHttp from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ExchangeAuth } from "../auth/settings.js";
import type { Cancellable } from "../context.js";
import type { HttpHandler } from "./http/handler.js";
import { BodyTooLarge, type HttpReply, type HttpRequest } from "./http/reply.js";
import type { Listening } from "./listen.js";

/**
 * Serves the HTTP endpoint with `node:http`, straight from Node's request and response objects:
 * building a Web Request and Response for every call is a large share of the cost of a small call.
 */
export async function listenNode(handler: HttpHandler, port: number, host: string, path: string): Promise<Listening> {
  const http = await nodeHttp();
  const server = http.createServer((req, res) => {
    void answer(handler, req, res);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : port;
      const shown = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${bound}${path}`,
        port: bound,
        // Graceful: no new connections, new requests on open ones get 503, requests in progress have
        // limits.shutdownGraceMs to finish; then every session, stream and connection ends.
        close: async () => {
          const closed = new Promise<void>((done) => server.close(() => done()));
          server.closeIdleConnections();
          await handler.shutdown();
          server.closeAllConnections();
          await closed;
        },
      });
    });
  });
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

/**
 * One request as the endpoint reads it, straight off Node's objects. Nothing is made per request
 * beyond this object: no AbortController, and a `close` listener only once something watches.
 */
class NodeRequest implements HttpRequest {
  readonly method: string;
  readonly path: string;
  auth: ExchangeAuth | undefined;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  #target: Cancellable | undefined;
  #watching = false;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.#req = req;
    this.#res = res;
    this.method = req.method ?? "GET";
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    this.path = query === -1 ? url : url.slice(0, query);
  }

  get url(): string {
    return `http://${this.#req.headers.host ?? "localhost"}${this.#req.url ?? "/"}`;
  }

  header(name: string): string | null {
    const value = this.#req.headers[name];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }

  text(limit: number): Promise<string> {
    return readBody(this.#req, limit);
  }

  watch(target: Cancellable | undefined): void {
    this.#target = target;
    if (!target) return;
    // Node marks the response destroyed when its connection closes before the response finished.
    if (this.#res.destroyed) target.cancel(gone());
    else if (!this.#watching) {
      this.#watching = true;
      this.#res.on("close", () => {
        if (!this.#res.writableFinished) this.#target?.cancel(gone());
      });
    }
  }
}

function gone(): DOMException {
  return new DOMException("The client closed the connection", "AbortError");
}

async function answer(handler: HttpHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let reply: HttpReply;
  try {
    reply = await handler.handle(new NodeRequest(req, res));
  } catch {
    reply = { status: 500, headers: { "content-type": "text/plain" }, body: "Internal Server Error" };
  }
  // The client left while the request ran: nothing is written to a dead socket.
  if (res.destroyed) {
    if ("stream" in reply) reply.stream.cancel();
    return;
  }
  if (!("stream" in reply)) {
    const body = reply.body ?? "";
    res.writeHead(reply.status, { ...reply.headers, "content-length": Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  res.writeHead(reply.status, reply.headers);
  res.flushHeaders();
  const channel = reply.stream;
  res.once("close", () => channel.cancel());
  channel.attach({
    write: (chunk) => res.write(chunk),
    close: () => res.end(),
    // What the socket has not taken yet: a reader too far behind is dropped (limits.maxSseBufferBytes).
    backlog: () => res.writableLength,
    abort: () => res.destroy(),
  });
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const length = Number(req.headers["content-length"] ?? 0);
  if (length > limit) {
    req.resume();
    return Promise.reject(new BodyTooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        reject(new BodyTooLarge());
      } else chunks.push(chunk);
    });
    req.once("end", () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")),
    );
    req.once("error", reject);
    // A client that goes away mid-body never sends its end.
    req.once("close", () => req.complete || reject(new Error("The client closed the connection mid-body")));
  });
}
