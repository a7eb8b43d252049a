/**
 * A server with the four middleware examples: timing outermost (it measures the rest), then the
 * audit log (it records what the rate limit answers), the per-caller rate limit, and the size cap
 * on tool calls. `node --import tsx examples/middleware/server.ts` serves it over stdio;
 * `--port 3000` over Streamable HTTP on 127.0.0.1. The audit log goes to stderr, never stdout,
 * which carries the protocol over stdio.
 */

import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { pico } from "picomcp";
import { z } from "zod";
import { type AuditEntry, auditLog } from "./audit.js";
import { type RateLimitOptions, rateLimit } from "./rate-limit.js";
import { capResultSize } from "./size-cap.js";
import { timing } from "./timing.js";

export interface MiddlewareServerOptions {
  audit?: (entry: AuditEntry) => void;
  rateLimit?: RateLimitOptions;
  maxResultBytes?: number;
}

export function createMiddlewareServer(options: MiddlewareServerOptions = {}) {
  return pico({ name: "middleware-example", version: "1.0.0" })
    .tool("repeat", {
      description: "Repeats a word a number of times, separated by spaces.",
      input: z.object({ word: z.string().max(100), times: z.number().int().min(1).max(100_000) }),
      run: ({ word, times }) => Array.from({ length: times }, () => word).join(" "),
    })
    .use(timing())
    .use(auditLog(options.audit ?? ((entry) => console.error(JSON.stringify(entry)))))
    .use(rateLimit(options.rateLimit ?? { limit: 60, windowMs: 60_000 }))
    .use("tools/call", capResultSize(options.maxResultBytes ?? 10_000));
}

// Run, not imported: import.meta.url names the file by its real path (symlinks resolved), argv[1] as typed.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // RATE_LIMIT sets the requests per minute and caller (default 60).
  const server = createMiddlewareServer({
    rateLimit: { limit: Number(process.env.RATE_LIMIT || 60), windowMs: 60_000 },
  });
  const at = process.argv.indexOf("--port");
  if (at === -1) await server.serve();
  else console.error(`Listening on ${(await server.serve({ port: Number(process.argv[at + 1]) })).url}`);
}
