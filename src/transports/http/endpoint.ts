import type { AuthSettings } from "../../auth/settings.js";
import type { Dispatcher } from "../../core/dispatch.js";
import { onWorkers } from "../workers.js";
import { HttpHandler } from "./handler.js";
import type { HttpOptions } from "./options.js";

/** What of its server an endpoint is made with, besides its dispatcher and its options. */
export interface EndpointOf {
  /** Undefined for a server without auth (its settings never loaded). */
  readonly auth: AuthSettings | undefined;
  /** The endpoint the server made before (`fetch`, `node` or `serve({ port })`), which this one takes the place of. */
  readonly replaced?: Promise<HttpHandler | undefined> | undefined;
}

/**
 * Makes a server's HTTP endpoint: its handler, with the shared state, the token gate and the CORS
 * the server needs. Each loads only for a server that has it.
 */
export async function createEndpoint(
  dispatcher: Dispatcher,
  options: HttpOptions,
  { auth, replaced }: EndpointOf,
): Promise<HttpHandler> {
  // Shared state (pico({ state })): its checks and wiring load only for a server that has one.
  if (options.state) (await import("./shared.js")).shareRequestStates(dispatcher, options.state);
  // The token gate loads only for a server that checks tokens (`auth.verify`), CORS only for one that
  // answers pages of other origins (`http.cors`, opt-in).
  const gate = auth?.verify ? new (await import("../../auth/gate.js")).AuthGate(auth) : undefined;
  const cors = options.cors ? new (await import("./cors.js")).Cors(options.cors, options.allowedOrigins) : undefined;
  const handler = new HttpHandler(dispatcher, onWorkers ? workersDefaults(options) : options, { gate, cors });
  // Before any request: an instance relays its changes to the others from when it serves
  // (`serve({ port })` makes the endpoint before it listens; `fetch` and `node` with their first request).
  await handler.share(await replaced);
  return handler;
}

/**
 * On Workers, legacy sessions are off unless `sessions` asks for them. A session lives in one
 * isolate's memory, and Workers may send its next request to another isolate (404 there); within
 * one isolate, its GET stream and a tool's question are promises that a later request settles,
 * which Workers forbids: the waiting request is cancelled as hung. 2025-11-25 clients are served
 * without a session instead, which the spec allows ("Session Management": a server MAY assign one).
 * Inside a Durable Object, which serves every request in one context, sessions can be turned on.
 */
function workersDefaults(options: HttpOptions): HttpOptions {
  return options.sessions === undefined ? { ...options, sessions: false } : options;
}
