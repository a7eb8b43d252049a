import type { AuthSettings } from "../../auth/settings.js";
import type { Dispatcher } from "../../core/dispatch.js";
import type { Listening } from "../listening.js";
import type { NodeIncomingMessage, NodeServerResponse } from "../node-types.js";
import { createEndpoint } from "./endpoint.js";
import type { HttpHandler } from "./handler.js";
import type { HttpOptions, ServeOptions } from "./options.js";
import type { WebEndpoint } from "./web.js";

/** What a server's HTTP faces take of it (server.ts). */
export interface FacesOf {
  dispatcher: Dispatcher;
  /** `pico({ http, state })`: what `serve({ port })` adds its own options to. */
  defaults: HttpOptions;
  /** The auth settings, once loaded (undefined for a server without auth). */
  settings: { readonly now: AuthSettings | undefined };
  /** The server: an endpoint is made once it is ready (its registrations checked). */
  server: { ready(): Promise<void> };
  /**
   * Closes on SIGTERM and SIGINT (process.ts's closeOnSignals) and answers how to stop; undefined when
   * `pico({ signals: false })` leaves signals to the application. Handed over, so that the stdio
   * server's module keeps it, not a chunk of its own.
   */
  onSignals: ((close: () => Promise<void>) => () => void) | undefined;
}

/** A server's Streamable HTTP faces, over one endpoint; `server.close()` closes every endpoint made. */
export interface HttpFaces {
  fetch(request: Request, listener?: unknown): Promise<Response>;
  /** `deno serve`'s `onListen`: before any request's `fetch` waits on the endpoint, so it runs first. */
  listening(address: { hostname: string; port: number }): void;
  node(req: NodeIncomingMessage, res: NodeServerResponse): Promise<void>;
  /** `serve({ port })`: `unwatch` stops watching for unhandled rejections once it fails or closes. */
  serve(options: ServeOptions, unwatch: () => void): Promise<Listening>;
  close(): Promise<void>;
}

/**
 * Makes a server's HTTP faces: `fetch` (and `onListen`), `node` and `serve({ port })`, over one
 * endpoint (endpoint.ts). Its own module, which the server loads with the first of them, so that a
 * stdio server carries none of it (issue 14: a part loaded on first use).
 */
export function httpFaces(of: FacesOf): HttpFaces {
  /** The options of the endpoint: the defaults, or those of the latest `serve({ port })`. */
  let options = of.defaults;
  /** The endpoint, made by the first request or `serve({ port })`. */
  let endpoint: Promise<HttpHandler> | undefined;
  /**
   * The latest endpoint made, which `close()` closes with those it took the place of, and the next
   * `serve({ port })` takes the place of: one that could not be made takes nobody's, so it is then
   * the one made before (a chain with a gap would leave an endpoint relaying, and never closed).
   */
  let serving: Promise<HttpHandler | undefined> | undefined;
  /** Its Web face (`fetch`), made for a program that serves Web requests. */
  let web: Promise<WebEndpoint> | undefined;

  /** The endpoint, made if there is none: it takes the place of the latest made before (`serve({ port })` after another). */
  const http = (): Promise<HttpHandler> => {
    if (endpoint) return endpoint;
    // With the options of now: another serve({ port }) may set its own before this one is made.
    const replaced = serving;
    const made = madeWith(options, replaced);
    endpoint = made;
    serving = made.catch(() => replaced);
    return made;
  };
  // Once the auth settings (if any) are checked: the endpoint gates with them.
  const madeWith = async (options: HttpOptions, replaced: typeof serving) => {
    await of.server.ready();
    return createEndpoint(of.dispatcher, options, { auth: of.settings.now, replaced });
  };
  const webEndpoint = () =>
    (web ??= import("./web.js").then((module) => module.createWebEndpoint(http(), options.allowedHosts)));

  return {
    fetch: async (request, listener) => (await webEndpoint()).fetch(request, listener),
    listening: (address) => {
      webEndpoint().then(
        (endpoint) => endpoint.listening(address),
        () => {}, // The Web face failed to load: every request's fetch fails with that error.
      );
    },
    // The node:http bridge loads on the first request, so a Web server never pays for it.
    node: async (req, res) => (await import("../node.js")).serveNode(http(), req, res),
    serve: async (serve, unwatch) => {
      let listening: Listening;
      try {
        // HTTP listeners load on demand, so a Web server never pays for them.
        const [{ listenFor }] = await Promise.all([import("../listen.js"), of.server.ready()]);
        listening = await listenFor(serve, {
          options: of.defaults,
          auth: of.settings.now,
          endpoint: (given) => {
            const before = [options, endpoint, web] as const;
            options = given;
            endpoint = web = undefined;
            const made = http();
            // One that could not be made changes nothing: fetch and node go on with the endpoint they had.
            made.catch(() => {
              if (endpoint === made) [options, endpoint, web] = before;
            });
            return made;
          },
          web: webEndpoint,
        });
      } catch (thrown) {
        unwatch();
        throw thrown;
      }
      const unhook = of.onSignals?.(() => listening.close());
      return {
        ...listening,
        close: async () => {
          unhook?.();
          unwatch();
          await listening.close();
        },
      };
    },
    close: async () => {
      (await serving)?.close();
    },
  };
}
