/**
 * The notes a shared session's relayed messages are announced with (Bus.announce), besides being
 * published: an instance whose bus subscription was reconnecting reads them once it is back
 * (shared.ts's #rejoined), as one becoming initialized reads the cancellations (#cancelsNoted).
 */
import type { RequestId } from "../../core/jsonrpc.js";

/** The note a client's answer to question `id` of `session` is announced with (Bus.announce). */
export function answerNote(session: string, id: RequestId | undefined): string {
  return `answer:${session}:${String(id)}`;
}

/** The note a URL-mode completion is announced with (server.ts's completeElicitation). */
export function urlNote(id: string): string {
  return `url:${id}`;
}

/**
 * The note a client's cancellation of its request `id` in `session` is announced with. It names
 * one request: a client never reuses an id within a session (2025-11-25 "Messages": MUST NOT), and
 * JSON keeps the id 1 apart from "1".
 */
export function cancelNote(session: string, id: RequestId): string {
  return `cancel:${session}:${JSON.stringify(id)}`;
}
