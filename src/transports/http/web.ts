import type { Cancellable } from "../../context.js";
import type { Dispatcher } from "../../dispatch.js";
import { HttpHandler, type HttpOptions } from "./handler.js";
import { BodyTooLarge, type HttpReply, type HttpRequest } from "./reply.js";

/** The HTTP endpoint of a server and its Web `fetch` entry point. */
export interface WebEndpoint {
  readonly handler: HttpHandler;
  fetch(request: Request): Promise<Response>;
}

export async function createWebEndpoint(dispatcher: Dispatcher, options: HttpOptions): Promise<WebEndpoint> {
  // The token gate loads only for a server that checks tokens (`auth.verify`).
  const auth = dispatcher.registry.auth;
  const gate = auth?.verify ? new (await import("../../auth/gate.js")).AuthGate(auth, options.path) : undefined;
  const handler = new HttpHandler(dispatcher, options, gate);
  return {
    handler,
    fetch: async (request) => toWebResponse(await handler.handle(fromWebRequest(request))),
  };
}

/** Adapts a Web `Request` (Workers, Bun, Deno, Node's fetch) to the runtime-neutral endpoint. */
export function fromWebRequest(request: Request): HttpRequest {
  const url = request.url;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const query = url.indexOf("?", start);
  let target: Cancellable | undefined;
  let watching = false;
  return {
    method: request.method,
    path: start === -1 ? "/" : url.slice(start, query === -1 ? undefined : query),
    url,
    header: (name) => request.headers.get(name),
    text: (limit) => readText(request, limit),
    watch: (watcher) => {
      target = watcher;
      const signal = request.signal;
      if (!watcher) return;
      if (signal.aborted) watcher.cancel(signal.reason);
      else if (!watching) {
        watching = true;
        signal.addEventListener("abort", () => target?.cancel(signal.reason), { once: true });
      }
    },
  };
}

const encoder = new TextEncoder();

/** Turns a reply into a Web `Response`; an SSE reply streams, and a reader going away cancels it. */
export function toWebResponse(reply: HttpReply): Response {
  if (!("stream" in reply)) return new Response(reply.body ?? null, { status: reply.status, headers: reply.headers });
  const channel = reply.stream;
  let wake: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        channel.attach({
          // Kept bytes are copied: the reader owns what it is given, the history keeps its own. A
          // resumable stream sends its next event when the reader pulls for it.
          write: (chunk) => {
            controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk.slice());
            return (controller.desiredSize ?? 0) > 0;
          },
          close: () => controller.close(),
          // The queue's bytes not yet read: a reader too far behind is dropped (limits.maxSseBufferBytes).
          backlog: () => -(controller.desiredSize ?? 0),
          abort: () => controller.error(new Error("The reader fell too far behind; the stream was dropped")),
          onDrain: (callback) => {
            wake = callback;
          },
        });
      },
      pull: () => wake?.(),
      cancel: () => channel.cancel(),
    },
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
  );
  return new Response(body, { status: reply.status, headers: reply.headers });
}

/** Reads at most `limit` bytes of body, without trusting Content-Length alone. */
async function readText(request: Request, limit: number): Promise<string> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > limit) throw new BodyTooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  const decoder = new TextDecoder();
  let text = "";
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
