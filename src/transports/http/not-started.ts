import { ErrorCode } from "../../core/errors.js";
import { errorResponse } from "../../core/jsonrpc.js";
import { type HttpReply, jsonReply } from "./reply.js";

/**
 * The answer of a server whose endpoint could not be made (a start-up error: an HTTP option out of
 * range, a plug-in's mistake): `server.fetch` and `server.node` never reject for it, because a
 * runtime then answers 500 with a page of its own, and Bun in development shows the server's source
 * and file paths in it. The client is told only that the server did not start; the operator reads
 * why in the log.
 */
const ANSWER = errorResponse(
  undefined,
  ErrorCode.InternalError,
  "Internal Server Error: this MCP server could not start; its operator finds why in the server's log.",
);

/** NOT_STARTED for `server.node`. */
export const NOT_STARTED: HttpReply = jsonReply(500, ANSWER);

/** The endpoints whose failure the log was told of. */
const told = new WeakSet<object>();

/**
 * Says on stderr why the endpoint `failed` could not be made, once for that endpoint however many
 * requests meet it: a log is read for its first error, not flooded with one per request.
 */
export function tellOnce(failed: object, thrown: unknown): void {
  if (told.has(failed)) return;
  told.add(failed);
  console.error("picomcp: the server could not start, so it answers every HTTP request 500:", thrown);
}

/** NOT_STARTED as a Web `Response`, for `server.fetch` (web.ts); the failure told once. */
export function notStartedResponse(failed: object, thrown: unknown): Response {
  tellOnce(failed, thrown);
  return Response.json(ANSWER, { status: 500 });
}
