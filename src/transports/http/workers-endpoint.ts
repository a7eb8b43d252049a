import type { HttpOptions } from "./options.js";

/**
 * On Workers, legacy sessions are off unless `sessions` asks for them. A session lives in one
 * isolate's memory, and Workers may send its next request to another isolate (404 there); within
 * one isolate, its GET stream and a tool's question are promises that a later request settles,
 * which Workers forbids: the waiting request is cancelled as hung. 2025-11-25 clients are served
 * without a session instead, which the spec allows ("Session Management": a server MAY assign one).
 * Inside a Durable Object, which serves every request in one context, sessions can be turned on.
 */
export function workersDefaults(options: HttpOptions): HttpOptions {
  return options.sessions === undefined ? { ...options, sessions: false } : options;
}

/**
 * The 404's message for a session id no session here has, on Workers: each isolate keeps its own
 * sessions unless one Durable Object serves them all, so the isolate may never have held it.
 */
export const SESSION_NOT_FOUND =
  'Session not found: it ended or expired, or another isolate of this Worker holds it (on Cloudflare Workers each isolate keeps its own sessions unless one Durable Object serves them: picomcp\'s docs/http.md, "Cloudflare Workers"); send initialize to start a new session';
