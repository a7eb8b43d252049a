/**
 * An audit log: one entry per request, after it is answered, whatever the answer. It records who
 * asked (the verified caller, else the client's name), what (the method, and the tool for a call),
 * in which era, and how it ended: "ok", "tool error" (an `isError` result the model reads) or the
 * JSON-RPC error code. Arguments are left out on purpose: they may hold personal data.
 */
import { type Context, McpError, type Middleware } from "picomcp";

export interface AuditEntry {
  at: string;
  caller: string;
  era: Context["era"];
  method: string;
  tool?: string;
  outcome: "ok" | "tool error" | `error ${number}`;
  ms: number;
}

/** Calls `write` with one entry per request; register it first, so it sees what every later middleware answers. */
export function auditLog(write: (entry: AuditEntry) => void): Middleware {
  return async ({ method, params, ctx }, next) => {
    const started = performance.now();
    const entry: AuditEntry = {
      at: new Date().toISOString(),
      caller: ctx.auth?.subject ?? ctx.client.info?.name ?? "anonymous",
      era: ctx.era,
      method,
      outcome: "ok",
      ms: 0,
    };
    if (method === "tools/call" && typeof params?.name === "string") entry.tool = params.name;
    try {
      const result = await next();
      if (result.isError === true) entry.outcome = "tool error";
      return result;
    } catch (thrown) {
      entry.outcome = `error ${thrown instanceof McpError ? thrown.code : -32603}`;
      throw thrown;
    } finally {
      entry.ms = Math.round(performance.now() - started);
      write(entry);
    }
  };
}
