import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "../core/errors.js";
import { errorResponse } from "../core/jsonrpc.js";
import type { HttpHandler } from "./http/handler.js";
import { NOT_STARTED, tellOnce } from "./http/not-started.js";
import { type BodyBudget, BodyTooLarge, jsonReply } from "./http/reply.js";
import { utf8Body } from "./http/utf8-body.js";
import { answer, NodeRequest, pipelining, send } from "./node-http.js";
import type { NodeIncomingMessage, NodeServerResponse } from "./node-types.js";

/**
 * `server.node`: the endpoint inside a `node:http` server of the caller's own, and what a framework
 * may have done to a request before it reaches it. `serve({ port })`'s own listener (node-http.ts)
 * never meets such a request, so it loads none of this.
 */

/**
 * What a web framework may have added to Node's request: Express's `originalUrl` (the URL before
 * `app.use(path, ...)` cut the mount path off), and the `body` a body parser read off the stream.
 */
type FrameworkRequest = IncomingMessage & { originalUrl?: string; body?: unknown };

/** Requests pipelined on the connections of the servers `server.node` serves in (node-http.ts's `pipelining`). */
const pipelined = pipelining((request) => request.closed());

/**
 * `server.node`: one request from a `node:http` server or a framework of the caller's own (Express,
 * Fastify's `reply.raw`), on the server's one endpoint. Resolves once the response is handed off,
 * and never rejects: a failure answers 500.
 */
export async function serveNode(
  endpoint: Promise<HttpHandler>,
  request: NodeIncomingMessage,
  response: NodeServerResponse,
): Promise<void> {
  const req = request as FrameworkRequest;
  const res = response as ServerResponse;
  let handler: HttpHandler;
  try {
    handler = await endpoint;
  } catch (thrown) {
    // A start-up error: the client is told the server did not start, the log why, once.
    tellOnce(endpoint, thrown);
    return send(NOT_STARTED, res);
  }
  // A body read by someone else is not coming again: waiting for it would hang the request.
  if (req.method === "POST" && bodyTaken(req) && req.body === undefined) return send(BODY_TAKEN, res);
  const nodeRequest = new FrameworkNodeRequest(req, res);
  // The response closing before it was sent whole: the client is gone (NodeRequest.closed).
  res.on("close", () => nodeRequest.closed());
  // Pipelined behind a response not sent yet: handled once that is sent, as serve({ port }) does. A
  // response without a socket on a request without a connected one is no pipelined response but a
  // test double's (new ServerResponse(new IncomingMessage(new Socket()))): no socket will ever come.
  const waits = !res.socket && req.socket?.remoteAddress !== undefined;
  return waits ? pipelined(handler, nodeRequest, res) : answer(handler, nodeRequest, res);
}

/** A request a framework may have read or rewritten. */
class FrameworkNodeRequest extends NodeRequest {
  readonly #req: FrameworkRequest;

  constructor(req: FrameworkRequest, res: ServerResponse) {
    // The request target as the client sent it: Express's `app.use("/mcp", ...)` cuts the mount path
    // off `url`, but the path the client used is the one auth derives the resource URL from.
    super(req, res, req.originalUrl ?? req.url ?? "/");
    this.#req = req;
  }

  override text(limit: number, budget: BodyBudget): Promise<string> {
    const req = this.#req;
    // A body parser before this handler (express.json()) read the stream: what it made of it is the body.
    if (req.body !== undefined && bodyTaken(req)) return bodyText(req.body, limit);
    return super.text(limit, budget);
  }
}

/** The server's own mistake, not the client's: said to whoever reads the server's responses. */
const BODY_TAKEN = jsonReply(
  500,
  errorResponse(
    undefined,
    ErrorCode.InternalError,
    "Internal Server Error: a middleware read the request body and set no req.body; mount server.node before body parsers, or pass the parsed body as req.body",
  ),
);

/** Whether something before this handler read the request's body stream. */
function bodyTaken(req: IncomingMessage): boolean {
  return req.readableEnded || req.readableDidRead;
}

/**
 * The body a framework's parser made: JSON text again for a parsed value; text as it is; bytes
 * (express.raw()) as UTF-8, refused when they are not (utf8-body.ts).
 */
async function bodyText(body: unknown, limit: number): Promise<string> {
  const text = typeof body === "string" ? body : body instanceof Uint8Array ? utf8Body([body]) : JSON.stringify(body);
  if (Buffer.byteLength(text) > limit) throw new BodyTooLarge();
  return text;
}
