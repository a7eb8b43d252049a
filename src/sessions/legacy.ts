import type { Dispatcher } from "../core/dispatch.js";
import { isLogLevel, LOG_LEVELS } from "../core/envelope.js";
import { ErrorCode, McpError } from "../core/errors.js";
import { errorResponse, isObject } from "../core/jsonrpc.js";
import type { Method } from "../core/registry.js";
import { shown } from "../core/safe.js";
import { META } from "../core/types.js";
import { initialize } from "./session.js";

/** The methods only 2025-era sessions have (2026-07-28 §8 "Removed": ping, logging/setLevel). */
const LEGACY_METHODS: Record<string, Method> = {
  ping: { modern: false, legacy: true, run: () => ({}) },
  "logging/setLevel": {
    modern: false,
    legacy: true,
    capability: "logging",
    run: (_registry, params, ctx) => {
      const level = params?.level;
      if (!isLogLevel(level)) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: level must be one of ${LOG_LEVELS.join(", ")}`);
      }
      if (ctx.session) ctx.session.logLevel = level;
      return {};
    },
  },
};

/**
 * Installs the legacy sessions layer on a dispatcher: the 2025 era (2025-11-25 and older), where a
 * connection's handshake opens a session that its later requests belong to. Its methods go in the
 * table, and it serves every request the dispatcher reads as legacy (no protocol version in `_meta`).
 */
export function installLegacySessions(dispatcher: Dispatcher): void {
  dispatcher.registry.install(LEGACY_METHODS);
  dispatcher.legacy = {
    answer(message, peer, exchange) {
      const { id, method: name } = message;
      if (name === "initialize") return initialize(message, peer, dispatcher.registry);
      if (name === "server/discover") {
        return errorResponse(
          id,
          ErrorCode.InvalidParams,
          `Invalid params: server/discover needs params._meta with "${META.protocolVersion}" and "${META.clientCapabilities}"`,
        );
      }
      const session = peer.session;
      if (!session && name !== "ping") {
        return errorResponse(
          id,
          ErrorCode.InvalidRequest,
          `Invalid Request: "${shown(name)}" arrived before initialize. Send initialize first, or send 2026-07-28 requests with params._meta["${META.protocolVersion}"].`,
        );
      }
      const method = dispatcher.method(name);
      if (!method?.legacy || !dispatcher.offers(method)) return dispatcher.notFound(message, session?.protocolVersion);
      const meta = message.params?._meta;
      const init = {
        id,
        meta: isObject(meta) ? meta : undefined,
        protocolVersion: session?.protocolVersion ?? "2025-11-25",
        era: "legacy" as const,
        // Without a session the request is a ping, whose client is unknown.
        client: session?.client,
        logLevel: session?.logLevel,
        session,
      };
      return dispatcher.run({ message, method, init }, exchange);
    },

    notified(message, peer) {
      const session = peer.session;
      if (message.method === "notifications/initialized" && session) {
        session.initialized = true;
        session.onInitialized?.();
      }
    },
  };
}
