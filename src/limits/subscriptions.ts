import { ErrorCode, McpError } from "../core/errors.js";
import type { Reached } from "../core/refusal.js";
import type { Limits } from "./options.js";

/**
 * The error for a request that would take a client past `limits.maxSubscriptionsPerSession` or
 * `limits.maxSubscriptionBytesPerSession`: -32602, since it is the request that asks too much (a
 * retry of it fails the same way), not a busy server (a 503 to retry). `what` says what the client
 * holds or asks for; the error says how to do with less.
 */
function tooManySubscriptions(what: string, { limit, max }: Reached): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `Too many subscriptions: ${what}, and the most is ${max} (limits.${limit} = ${max}). Subscribe to a parent URI instead, which covers the resources under it, or unsubscribe from those you no longer need first.`,
    { limit, max },
  );
}

/** The characters of `uris` together: what subscribing to them holds (each is kept as it was sent). */
function lengthOf(uris: Iterable<string>): number {
  let length = 0;
  for (const uri of uris) length += uri.length;
  return length;
}

/**
 * Throws when a session subscribed to `held` has no room for one more, `uri`: a session keeps each
 * URI for its life and checks every update against them all, so both their number and their
 * characters are bounded (a URI alone may be 8,192; a thousand of those would be 8 MiB a session).
 */
export function checkRoom(uri: string, held: ReadonlySet<string>, limits: Limits): void {
  const { maxSubscriptionsPerSession: max = Infinity, maxSubscriptionBytesPerSession: maxBytes = Infinity } = limits;
  if (held.size >= max) {
    throw tooManySubscriptions(`this session is subscribed to ${held.size} resources already`, {
      limit: "maxSubscriptionsPerSession",
      max,
    });
  }
  const length = lengthOf(held) + uri.length;
  if (length > maxBytes) {
    throw tooManySubscriptions(
      `this session's subscribed URIs would come to ${length} characters with this one of ${uri.length}`,
      { limit: "maxSubscriptionBytesPerSession", max: maxBytes },
    );
  }
}

/**
 * Throws when a `subscriptions/listen` names more than a session may hold (`uris`, each once): its
 * stream keeps them for its life, under the same bounds as a session's subscriptions.
 */
export function checkListened(uris: readonly string[], limits: Limits): void {
  const { maxSubscriptionsPerSession: max = Infinity, maxSubscriptionBytesPerSession: maxBytes = Infinity } = limits;
  if (uris.length > max) {
    throw tooManySubscriptions(`notifications.resourceSubscriptions names ${uris.length} resources`, {
      limit: "maxSubscriptionsPerSession",
      max,
    });
  }
  const length = lengthOf(uris);
  if (length > maxBytes) {
    throw tooManySubscriptions(`the URIs of notifications.resourceSubscriptions come to ${length} characters`, {
      limit: "maxSubscriptionBytesPerSession",
      max: maxBytes,
    });
  }
}

/**
 * The subscriptions of a shared session's record (`uris`, in the record's order) that a copy of the
 * session on this instance takes: each once, in order, until one would take the copy past this
 * instance's bounds; that one and those after it are left out. A record may hold more than this instance allows: written by an instance with
 * other limits, or before the limits existed, or changed in the store by hand; adopted whole, it
 * would hold this instance to another's bounds, or to none.
 */
export function adoptable(uris: readonly string[], limits: Limits): Set<string> {
  const { maxSubscriptionsPerSession: max = Infinity, maxSubscriptionBytesPerSession: maxBytes = Infinity } = limits;
  const kept = new Set<string>();
  let length = 0;
  for (const uri of uris) {
    // Not a URI (a record changed in the store by hand): it would never match an update.
    if (typeof uri !== "string" || kept.has(uri)) continue;
    if (kept.size >= max || length + uri.length > maxBytes) break;
    kept.add(uri);
    length += uri.length;
  }
  return kept;
}
