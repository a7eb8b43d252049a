import type { AuthSettings } from "../../auth/settings.js";
import type { Dispatcher } from "../../core/dispatch.js";
import { onWorkers } from "../workers.js";
import { checkHttpOptions } from "./check-options.js";
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
  // Before any part is made of them: CORS reads its origins as it is made.
  checkHttpOptions(options);
  // Shared state (pico({ state })): its checks and wiring load only for a server that has one.
  if (options.state) (await import("./shared.js")).shareRequestStates(dispatcher, options.state);
  // The token gate loads only for a server that checks tokens (`auth.verify`), CORS only for one that
  // answers pages of other origins (`http.cors`, opt-in).
  const gate = auth?.verify ? new (await import("../../auth/gate.js")).AuthGate(auth) : undefined;
  const cors = options.cors ? new (await import("./cors.js")).Cors(options.cors, options.allowedOrigins) : undefined;
  // What an endpoint does differently on Workers loads only there.
  const workers = onWorkers ? await import("./workers-endpoint.js") : undefined;
  const handler = new HttpHandler(dispatcher, workers ? workers.workersDefaults(options) : options, {
    gate,
    cors,
    sessionNotFound: workers?.SESSION_NOT_FOUND,
  });
  // Before any request: an instance relays its changes to the others from when it serves
  // (`serve({ port })` makes the endpoint before it listens; `fetch` and `node` with their first request).
  await handler.share(await replaced);
  return handler;
}
