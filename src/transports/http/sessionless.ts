import { isObject, type JsonRpcResponse } from "../../core/jsonrpc.js";

/**
 * The `initialize` result a 2025 client gets over Streamable HTTP without sessions (`http.sessions:
 * false`): each of its requests is served on its own and GET answers 405, so the server has no stream
 * to push anything on. Only what it can do is advertised (2025-11-25 "Lifecycle", capability
 * negotiation): no `listChanged` on any capability, no `resources.subscribe` (which is refused there).
 * 2026-07-28's `server/discover` keeps both: `subscriptions/listen` streams on its own request.
 */
export function withoutPushes(response: JsonRpcResponse): JsonRpcResponse {
  const result = response.result;
  if (!isObject(result?.capabilities)) return response;
  const offered: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result.capabilities)) {
    // `subscribe` is only ever in `resources` (2025-11-25 "Capabilities").
    if (!isObject(value)) offered[key] = value;
    else {
      const { listChanged: _, subscribe: __, ...rest } = value;
      offered[key] = rest;
    }
  }
  return { ...response, result: { ...result, capabilities: offered } };
}
