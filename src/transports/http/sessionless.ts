import { isObject, type JsonRpcResponse } from "../../core/jsonrpc.js";
import { LegacySession } from "../../sessions/session.js";

/**
 * The session of one request served without sessions (`http.sessions: false`), which ends with it
 * (Session.oneRequest). A class of its own, rather than `oneRequest` added to a LegacySession once
 * made (Object.assign), which cost every such request an object more and a copy of its properties.
 */
export class OneRequestSession extends LegacySession {
  readonly oneRequest = true;
}

/**
 * The `initialize` result a 2025 client gets over Streamable HTTP without sessions (`http.sessions:
 * false`): each of its requests is served on its own and GET answers 405, so the server has no stream
 * to push anything on. Only what it can do is advertised (2025-11-25 "Lifecycle", capability
 * negotiation): no `listChanged` on any capability, no `resources.subscribe` (which is refused there),
 * no `tasks.list` (nothing tells whose tasks to list: 2025-11-25 "Tasks", SHOULD NOT declare it).
 * 2026-07-28's `server/discover` keeps the first two: `subscriptions/listen` streams on its own request.
 */
export function withoutPushes(response: JsonRpcResponse): JsonRpcResponse {
  const result = response.result;
  if (!isObject(result?.capabilities)) return response;
  const offered: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result.capabilities)) {
    // `subscribe` is only ever in `resources`, `list` in `tasks` (2025-11-25 "Capabilities").
    if (!isObject(value)) offered[key] = value;
    else {
      const { listChanged: _, subscribe: __, list: ___, ...rest } = value;
      offered[key] = rest;
    }
  }
  return { ...response, result: { ...result, capabilities: offered } };
}
