/**
 * Timing: how long each request took inside the server, reported to `record` (a metrics histogram,
 * a log) and added to the result's `_meta` under `com.example/durationMs`, where a client can read
 * it. Register it first, so it measures everything after it.
 */
import type { Middleware } from "picomcp";

/** The `_meta` key the duration is sent under; a reverse-DNS prefix of your own, as MCP asks for `_meta` keys. */
export const DURATION_KEY = "com.example/durationMs";

export function timing(record: (name: string, ms: number) => void = () => {}): Middleware {
  return async ({ method, params }, next) => {
    const started = performance.now();
    const result = await next();
    const ms = Math.round((performance.now() - started) * 10) / 10;
    record(method === "tools/call" ? `${method} ${params?.name}` : method, ms);
    const meta = (result._meta ?? {}) as Record<string, unknown>;
    return { ...result, _meta: { ...meta, [DURATION_KEY]: ms } };
  };
}
