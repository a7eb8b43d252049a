/**
 * JSON-RPC batches, which exist only under 2025-03-26 (2025-03-26 "Base protocol"; 2025-06-18 took
 * them out, and 2026-07-28 has none). Loaded with the first batch a client sends, by the stdio
 * connection or the HTTP endpoint: a server whose clients never batch never carries this code.
 */
import type { Asker } from "../asking/carried.js";
import type { Answer, Exchange, Inflight } from "../core/dispatch.js";
import { claimsModern } from "../core/envelope.js";
import { ErrorCode } from "../core/errors.js";
import {
  classify,
  errorResponse,
  isObject,
  isRequestId,
  type JsonRpcMessage,
  type JsonRpcResponse,
} from "../core/jsonrpc.js";
import { BATCH_VERSION } from "../core/versions.js";
import type { ResolvedLimits } from "../limits/options.js";
import type { Session } from "../sessions/peer.js";

/**
 * What a batch uses of its connection (connection.ts's Connection, which imports this module on
 * demand): its requests in flight and the way to ask its client are the connection itself.
 */
interface Connection extends Inflight, Asker {
  readonly session: Session | undefined;
  readonly dispatcher: { readonly limits: ResolvedLimits };
  /** Sends `message`, after what is held before it (see connection.ts); the promise: once it has gone, if it was held. */
  send(message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> | undefined;
  /** The answer to one message, as if it had come alone; `exchange`: how a request travels, if not as the connection's. */
  answer(value: unknown, exchange?: Exchange): Answer;
  /** Routes the client's answer to the question of ours that awaits it. */
  settle(response: JsonRpcResponse): void;
}

/**
 * Answers a batch on a connection (stdio): every response in one array, or one -32600 where batches are
 * not allowed or the batch is too long (see `overlong`); nothing to one made only of responses
 * (`responsesOnly`), in any version. Resolves once the answer has gone, also when it
 * waited behind an update's read check: a stdio shutdown waits for what a request's promise counts.
 */
export async function receiveBatch(connection: Connection, values: unknown[]): Promise<void> {
  const taken = responsesOnly(values);
  if (taken) {
    for (const response of taken) connection.settle(response);
    return;
  }
  const { maxConcurrentRequestsPerConnection } = connection.dispatcher.limits;
  const refusal =
    connection.session?.protocolVersion !== BATCH_VERSION || values.length === 0
      ? `Invalid Request: ${values.length === 0 ? "an empty batch" : `batches are only allowed under protocol ${BATCH_VERSION}`}; send one message at a time`
      : overlong(values.length, maxConcurrentRequestsPerConnection);
  if (refusal) return connection.send(errorResponse(undefined, ErrorCode.InvalidRequest, refusal));
  const responses = await batchAnswers(connection, values);
  if (responses.length > 0) await connection.send(responses);
}

/**
 * The messages of a batch made only of responses, each as it would be alone (core/jsonrpc.ts's
 * `classify`); undefined for any other. A response is never answered, so neither is such a batch, in
 * any version: JSON-RPC 2.0 §6 returns nothing at all when no element calls for a response. Refusing
 * it outside 2025-03-26 would answer responses; each is taken as if it had come alone.
 */
export function responsesOnly(values: unknown[]): JsonRpcResponse[] | undefined {
  const responses: JsonRpcResponse[] = [];
  for (const value of values) {
    const inbound = classify(value);
    if (inbound.kind !== "response") return undefined;
    responses.push(inbound.message);
  }
  return responses.length > 0 ? responses : undefined;
}

/**
 * The messages of a batch that are taken, not answered, as they would be alone: its responses (the
 * client's answers to our questions) and its 2025 notifications (a 2026-07-28 one is ignored in a
 * batch, `answerInBatch`). Over HTTP, instances sharing the session are told of them as of a message
 * that came alone (http/shared.ts's forward): the question or the cancelled request may be another's.
 */
export function takenMessages(values: unknown[]): JsonRpcMessage[] {
  const taken: JsonRpcMessage[] = [];
  for (const value of values) {
    const inbound = classify(value);
    if (inbound.kind === "response") taken.push(inbound.message);
    else if (inbound.kind === "notification" && !claimsModern(inbound.message.params?._meta)) {
      taken.push(inbound.message);
    }
  }
  return taken;
}

/**
 * Why a batch of `count` messages POSTed over HTTP is refused for where it was sent, if it is: with
 * `sessions`, it is answered in a 2025-03-26 session (`version`: the one the POST names, none without
 * Mcp-Session-Id), which initialize, never part of a batch (2025-03-26 "Lifecycle"), opens first;
 * without, under 2025-03-26 (`version`: the one the POST's header names, 2025-03-26 without one).
 */
export function httpRefusal(
  count: number,
  where: { sessions: boolean; version: string | undefined },
): string | undefined {
  const { sessions, version } = where;
  if (sessions && version === undefined) {
    return `Invalid Request: a batch is answered only in a ${BATCH_VERSION} session, and this POST names none (no Mcp-Session-Id); send initialize with protocolVersion "${BATCH_VERSION}" on its own, then the batch in that session, or send one message per POST`;
  }
  if (count === 0) return "Invalid Request: an empty batch; send one message per POST";
  if (version === BATCH_VERSION) return undefined;
  return sessions
    ? `Invalid Request: batches are only allowed in a ${BATCH_VERSION} session, and this one is ${version}; send one message per POST`
    : `Invalid Request: batches are only allowed under protocol ${BATCH_VERSION} (MCP-Protocol-Version "${BATCH_VERSION}", or none); send one message per POST`;
}

/**
 * Why a batch of `count` messages is refused, if it is: one message may carry no more messages than
 * `max` (limits.maxConcurrentRequestsPerConnection), as many as may be in progress on a connection.
 * Each element is answered, so a longer one would let one message of maxMessageBytes ask for a
 * response fifty times its size (a 4 MB batch of `1`s: a 224 MB answer, and 650 MiB of heap to make it).
 */
export function overlong(count: number, max: number): string | undefined {
  if (count <= max) return undefined;
  return `Invalid Request: a batch of ${count} messages is more than the ${max} one connection may have in progress (limits.maxConcurrentRequestsPerConnection); send at most ${max} messages per batch`;
}

/**
 * The responses to the elements of a batch, in order: notifications and responses have none. `post`:
 * over HTTP, how its POST's requests travel, as a POST of one request does: each runs as the caller
 * whose token the POST carries (`auth`), and is told to the POST as it starts (`started`), so that
 * its client leaving cancels it (http/batch-post.ts).
 */
export async function batchAnswers(
  connection: Connection,
  values: unknown[],
  post?: Pick<Exchange, "auth" | "started">,
): Promise<JsonRpcResponse[]> {
  const exchange = post && {
    inflight: connection,
    emit: (message: JsonRpcMessage) => connection.send(message),
    ask: connection,
    auth: post.auth,
    started: post.started,
  };
  const answers = await Promise.all(values.map((value) => answerInBatch(connection, value, exchange)));
  return answers.filter((answer) => answer !== undefined);
}

/**
 * One element of a 2025-03-26 batch. Neither initialize nor a 2026-07-28 message may be in one
 * (2026-07-28 has no batches): such a request gets -32600, and its id when it is readable
 * (JSON-RPC 2.0 §5); such a notification is ignored.
 */
function answerInBatch(connection: Connection, value: unknown, exchange: Exchange | undefined): Answer {
  if (!isObject(value)) return connection.answer(value, exchange);
  const modern = isObject(value.params) && claimsModern(value.params._meta);
  if (value.method !== "initialize" && !modern) return connection.answer(value, exchange);
  const id = isRequestId(value.id) ? value.id : undefined;
  if (modern && id === undefined) return undefined;
  return errorResponse(
    id,
    ErrorCode.InvalidRequest,
    modern
      ? "Invalid Request: 2026-07-28 requests cannot be part of a batch; send each one on its own"
      : "Invalid Request: initialize must not be part of a batch",
  );
}
