/**
 * A JSON-RPC batch POSTed to the HTTP endpoint (2025-03-26 only; transports/batch.ts answers it).
 * Batches are rare: this, their code and the words that refuse one load with the first a client
 * POSTs (handler.ts's #batch), so an endpoint whose clients never batch carries none of it.
 */
import type { RequestContext } from "../../core/context.js";
import type { Dispatcher } from "../../core/dispatch.js";
import type { JsonRpcResponse } from "../../core/jsonrpc.js";
import type { Peer } from "../../sessions/peer.js";
import { batchAnswers, httpRefusal, overlong, responsesOnly, takenMessages } from "../batch.js";
import { Connection } from "../connection.js";
import { emptyReply, errorReply, type HttpReply, type HttpRequest, jsonReply } from "./reply.js";
import type { HttpSession } from "./sessions.js";
import type { SharedSessions } from "./shared.js";

const SESSION_HEADER = "mcp-session-id";

/** What a batch uses of its endpoint (handler.ts's HttpHandler), as the endpoint answers a message that comes alone. */
export interface BatchEndpoint {
  readonly dispatcher: Dispatcher;
  /** Whether the endpoint keeps 2025 sessions. */
  readonly sessions: boolean;
  /** The instances sharing the endpoint's sessions, if any. */
  readonly shared: SharedSessions | undefined;
  /** The session (or the one-request peer without sessions) the POST belongs to, or the reply refusing it. */
  legacyPeer(request: HttpRequest): { peer: Peer; session?: HttpSession } | HttpReply;
  /** Takes the client's responses, as when they come alone. */
  responses(request: HttpRequest, responses: JsonRpcResponse[]): Promise<HttpReply> | HttpReply;
}

/** The reply to a POSTed batch: its answers in one array, 202 when none, or 400 where a batch is refused. */
export async function postedBatch(
  endpoint: BatchEndpoint,
  request: HttpRequest,
  values: unknown[],
): Promise<HttpReply> {
  const taken = responsesOnly(values);
  if (taken) return endpoint.responses(request, taken);
  const { sessions, dispatcher } = endpoint;
  // With sessions, a batch without Mcp-Session-Id is in none: httpRefusal says what it needs.
  const legacy: { peer: Peer; session?: HttpSession } | HttpReply =
    sessions && request.header(SESSION_HEADER) === null
      ? { peer: { session: undefined } }
      : endpoint.legacyPeer(request);
  if ("status" in legacy) return legacy;
  const { session } = legacy;
  const refusal =
    httpRefusal(values.length, { sessions, version: legacy.peer.session?.protocolVersion }) ??
    overlong(values.length, dispatcher.limits.maxConcurrentRequestsPerConnection);
  if (refusal) return errorReply(400, refusal);
  // Without sessions the batch is a connection of its own, under the version the POST names.
  let connection = session?.connection;
  if (!connection) {
    connection = new Connection(dispatcher, { deliver() {} }, true);
    connection.session = legacy.peer.session;
  }
  // Its answers and cancellations may be for another instance sharing the session: relayed as when
  // each comes alone (handler.ts's #message, #responses), and the batch answered once they are.
  const { shared } = endpoint;
  const relayed = session && shared ? takenMessages(values).map((message) => shared.forward(session, message)) : [];
  // Its answers go back in one JSON array, which no client can come back for (not even in a session:
  // it has no event ids): a client that leaves cancels the batch's requests, as it cancels a request
  // POSTed alone whose answer has not become a resumable stream (respond.ts's Reply). A batch never
  // becomes a stream, so on Deno, where only a stream shows a client leaving (web.ts), it goes unseen.
  const running: RequestContext[] = [];
  request.watch({
    cancel: (reason) => {
      for (const ctx of running) if (!ctx.finished) ctx.cancel(reason);
    },
    stream() {},
  });
  const responses = await batchAnswers(connection, values, {
    auth: request.auth,
    started: (ctx) => running.push(ctx),
  });
  request.watch(undefined);
  await Promise.all(relayed);
  if (responses.length === 0) return emptyReply(202);
  return jsonReply(200, responses, session?.headers);
}
