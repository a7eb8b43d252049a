/**
 * What a resource update is matched against: a 2025 session's `resources/subscribe`s, and the URIs a
 * 2026-07-28 `subscriptions/listen` stream names. Loaded with the resources and listen layers, never by
 * a session that subscribes to nothing: the set is made by a session's first subscription.
 */
import type { Subscriptions } from "../sessions/peer.js";

/**
 * A session's subscriptions (`Session.subscriptions`), the URIs in normal form (uri-normal.ts), made
 * by the first `resources/subscribe` (run.ts) or by a shared session's record (transports/http/shared-session.ts).
 */
export class SubscriptionSet extends Set<string> implements Subscriptions {
  watches(uri: string): boolean {
    return coveredBy(this, uri);
  }
}

/**
 * Whether an update of `uri` concerns a subscription to `subscribed`: that URI, or a resource under
 * it (2025-11-25 "Subscriptions" and 2026-07-28 §4: an update may be for a sub-resource).
 */
function covers(subscribed: string, uri: string): boolean {
  return uri === subscribed || uri.startsWith(subscribed.endsWith("/") ? subscribed : `${subscribed}/`);
}

/**
 * Whether an update of `uri` concerns one of `subscribed` (`covers`). Looked up, not walked: a
 * subscription covering `uri` is `uri` itself or one of its prefixes ending before or at a "/", so each
 * update costs a lookup per "/" of its URI, however many URIs each of many listeners watches (was: a
 * comparison per URI watched, 1,000 streams of 1,000 URIs blocked the event loop 15 ms an update). A
 * URI with more "/" than there are subscriptions is checked against each instead.
 */
export function coveredBy(subscribed: ReadonlySet<string>, uri: string): boolean {
  if (subscribed.has(uri)) return true;
  let looked = 0;
  for (let slash = uri.indexOf("/"); slash !== -1; slash = uri.indexOf("/", slash + 1)) {
    if (++looked > subscribed.size) {
      for (const each of subscribed) if (covers(each, uri)) return true;
      return false;
    }
    if (subscribed.has(uri.slice(0, slash)) || subscribed.has(uri.slice(0, slash + 1))) return true;
  }
  return false;
}
