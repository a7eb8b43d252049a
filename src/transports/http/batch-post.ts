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
import { emptyReply, errorReply, type HttpReply, type HttpRequest, jsonReply, sseReply } from "./reply.js";
import type { ResponseStream } from "./respond.js";
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
  /**
   * A plain event stream (no event ids) for the POST's answers, whose reader going away calls
   * `cancel`; undefined for a client that takes only JSON, or at `limits.maxSseStreams`.
   */
  plainStream(cancel: (reason: unknown) => void): ResponseStream | undefined;
  /** The session (or the one-request peer without sessions) the POST belongs to, or the reply refusing it. */
  legacyPeer(request: HttpRequest): { peer: Peer; session?: HttpSession } | HttpReply;
  /** Takes the client's responses, as when they come alone. */
  responses(request: HttpRequest, responses: JsonRpcResponse[]): Promise<HttpReply> | HttpReply;
}

/**
 * The reply to a POSTed batch: its answers in one array, 202 when none, or 400 where a batch is
 * refused; on Deno, the answers of one still running after a second as an event stream.
 */
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
  // POSTed alone whose answer has not become a resumable stream (respond.ts's Reply).
  const running: RequestContext[] = [];
  const cancel = (reason: unknown) => {
    for (const ctx of running) if (!ctx.finished) ctx.cancel(reason);
  };
  // On Deno, where only a streamed body shows a client leaving (web.ts), one still running after a
  // second is answered as a plain event stream instead, as a request POSTed alone is, each answer an
  // event (2025-03-26 "Sending Messages to the Server": an SSE stream, one response per request), so
  // that its client leaving cancels it there too. Not for a client that takes only JSON, nor at
  // limits.maxSseStreams: its leaving goes unseen there.
  let stream: ResponseStream | undefined;
  let streamed!: (reply: HttpReply) => void;
  const early = new Promise<HttpReply>((resolve) => (streamed = resolve));
  request.watch({
    cancel,
    stream() {
      stream ??= endpoint.plainStream(cancel);
      if (stream) streamed(sseReply(stream.channel, session?.headers));
    },
  });
  const answered = (async (): Promise<HttpReply> => {
    try {
      const responses = await batchAnswers(connection, values, {
        auth: request.auth,
        started: (ctx) => running.push(ctx),
      }).finally(() => request.watch(undefined));
      await Promise.all(relayed);
      if (!stream) return responses.length === 0 ? emptyReply(202) : jsonReply(200, responses, session?.headers);
      for (const response of responses) stream.send(response);
      return early;
    } finally {
      stream?.end();
    }
  })();
  return Promise.race([answered, early]);
}
