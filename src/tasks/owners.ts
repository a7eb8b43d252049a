/**
 * Whom a task belongs to (`ownerOf`), who may see it (`reaches`), and whose share of the instance's
 * tasks a call takes (`callerOf`): a verified caller, a 2025 session, a stdio pipe, or anonymous.
 */
import { ownerKey } from "../auth/owner.js";
import type { Context } from "../core/handler-context.js";
import type { Session } from "../sessions/peer.js";
import { askerOf, requestOf } from "./contexts.js";
import { declaresOnlyLegacyTasks } from "./extension.js";
import type { TaskRecord } from "./task.js";

/**
 * A random name for each 2025 session that one process alone holds, which its tasks are bound to
 * (2025-11-25 "Tasks": bind tasks to their requester). A session shared by several instances is
 * named by its id, the same on all of them, so any instance finds its tasks.
 */
const sessionNames = new WeakMap<Session, string>();

/** The session a 2025 request came on (the request context's; `Context` does not show it to handlers); none for a 2026-07-28 one. */
export function sessionOf(ctx: Context): Session | undefined {
  return ctx.era === "legacy" ? requestOf(ctx)?.session : undefined;
}

/** The caller of every anonymous HTTP request without a session (`callerOf`): the owner of their tasks too (`ownerOf`). */
export const ANONYMOUS = "";

/** A random name for each stdio pipe (each connection's way to ask its client), as a caller (`callerOf`). */
const pipeNames = new WeakMap<object, string>();

/**
 * Whose share of the instance's tasks a call takes (tasks.ts's `#shareOf`): a verified identity's,
 * in all its sessions and both eras; without auth, a 2025 session's, or a stdio pipe's (one client,
 * whatever the era of its requests: its 2026-07-28 requests come on it too). Anonymous HTTP
 * requests without a session (2026-07-28 ones, 2025 ones served without sessions) come from nobody
 * the server can tell apart (no identity, no connection that outlives the request): they share one
 * caller, `ANONYMOUS`, with a share of its own.
 */
export function callerOf(ctx: Context): string {
  const auth = ctx.auth;
  if (typeof auth?.subject === "string") return ownerKey(auth);
  const session = sessionOf(ctx);
  // A session made for one request (HTTP without sessions) tells no client from another.
  if (session) return session.oneRequest ? ANONYMOUS : ownerOf(ctx);
  // Only a stdio pipe's 2026-07-28 requests have a way back to their client: a connection.
  const pipe = askerOf(ctx);
  if (!pipe) return ANONYMOUS;
  let name = pipeNames.get(pipe);
  if (!name) {
    name = `\u0000${crypto.randomUUID()}`;
    pipeNames.set(pipe, name);
  }
  return name;
}

/**
 * Whether the request may see `record`: its owner's (`ownerOf`). A 2026-07-28 request that declares
 * only 2025-11-25's `tasks` capability (`declaresOnlyLegacyTasks`) sees instead the tasks its caller
 * made in 2025-11-25 sessions (an owner with a session part), and none made under the extension
 * (SEP-2663 "Backward Compatibility": SHOULD permit tasks/get and tasks/cancel on tasks created under
 * that flow; MUST treat the client as not declaring the extension). Its caller is a verified
 * identity, or for a caller not signed in, anyone not signed in: the taskId is then what grants it,
 * as it is for the tasks such callers make in 2026-07-28 (2025-11-25 "Task Isolation and Access
 * Control" binds tasks to the authorization context, not the session).
 */
export function reaches(record: TaskRecord, ctx: Context): boolean {
  const owner = ownerOf(ctx);
  return declaresOnlyLegacyTasks(ctx) ? record.owner.startsWith(`${owner}\u0000`) : record.owner === owner;
}

/**
 * The caller a task belongs to: the owner key of the verified identity (a digest of issuer and
 * subject, auth/owner.ts's ownerKey; "" for anonymous callers); a 2025-11-25 task also to its
 * session, so that `tasks/list` lists only the session's own (one served without sessions to none).
 */
export function ownerOf(ctx: Context): string {
  const auth = ctx.auth;
  const caller = typeof auth?.subject === "string" ? ownerKey(auth) : ANONYMOUS;
  const session = sessionOf(ctx);
  if (!session) return caller;
  // Without sessions (http.sessions: false) each request has one of its own, gone with it: the task
  // is the caller's, found by its taskId from any later request, apart from its 2026-07-28 tasks.
  if (session.oneRequest) return `${caller}\u0000`;
  if (session.id !== undefined) return `${caller}\u0000${session.id}`;
  let name = sessionNames.get(session);
  if (!name) {
    name = crypto.randomUUID();
    sessionNames.set(session, name);
  }
  return `${caller}\u0000${name}`;
}
