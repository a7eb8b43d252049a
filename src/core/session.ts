import { isImplementation, type LogLevel } from "./envelope.js";
import { ErrorCode, McpError } from "./errors.js";
import type { Context } from "./handler-context.js";
import { isObject } from "./jsonrpc.js";
import type { ClientCapabilities, Implementation } from "./types.js";
import { LATEST_LEGACY_VERSION, LEGACY_VERSIONS } from "./versions.js";

/**
 * What a 2025-era handshake establishes for the rest of a connection (stdio pipe or HTTP
 * session): the negotiated version and what the client declared about itself.
 */
export class Session {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
  /** Set by `notifications/initialized`; requests in between are served (clients pipeline). */
  initialized = false;
  /** The threshold set by `logging/setLevel`; until then the server sends info and above (2025-11-25 "Logging": its choice). */
  logLevel: LogLevel = "info";
  /** URIs this session subscribed to with `resources/subscribe`; made by the first one. */
  #subscriptions: Set<string> | undefined;
  #client: Context["client"] | undefined;

  constructor(protocolVersion: string, clientCapabilities: ClientCapabilities, clientInfo: Implementation | undefined) {
    this.protocolVersion = protocolVersion;
    this.clientCapabilities = clientCapabilities;
    this.clientInfo = clientInfo;
  }

  /** `ctx.client` for every request of the session: made once, by its first request. */
  get client(): Context["client"] {
    this.#client ??= { info: this.clientInfo, capabilities: this.clientCapabilities };
    return this.#client;
  }

  subscribe(uri: string): void {
    this.#subscriptions ??= new Set();
    this.#subscriptions.add(uri);
  }

  unsubscribe(uri: string): void {
    this.#subscriptions?.delete(uri);
  }

  /** Whether an update of `uri` concerns this session: it subscribed to it, or to a parent of it. */
  watches(uri: string): boolean {
    for (const subscribed of this.#subscriptions ?? []) if (covers(subscribed, uri)) return true;
    return false;
  }
}

/**
 * Version negotiation (2025-11-25 "Lifecycle"): echo the client's version when it is served here,
 * otherwise counter-offer the newest; the client decides whether to carry on.
 */
export function openSession(params: Record<string, unknown> | undefined): Session {
  const requested = params?.protocolVersion;
  if (typeof requested !== "string") {
    throw new McpError(
      ErrorCode.InvalidParams,
      'initialize needs params.protocolVersion (a string such as "2025-11-25")',
    );
  }
  const capabilities = params?.capabilities;
  if (capabilities !== undefined && !isObject(capabilities)) {
    throw new McpError(ErrorCode.InvalidParams, "initialize params.capabilities must be an object");
  }
  const clientInfo = params?.clientInfo;
  if (clientInfo !== undefined && !isImplementation(clientInfo)) {
    throw new McpError(ErrorCode.InvalidParams, 'initialize params.clientInfo must have string "name" and "version"');
  }
  const version = LEGACY_VERSIONS.includes(requested) ? requested : LATEST_LEGACY_VERSION;
  return new Session(version, (capabilities ?? {}) as ClientCapabilities, clientInfo);
}

/**
 * Whether an update of `uri` concerns a subscription to `subscribed`: that URI, or a resource under
 * it (2025-11-25 "Subscriptions" and 2026-07-28 §4: an update may be for a sub-resource).
 */
export function covers(subscribed: string, uri: string): boolean {
  return uri === subscribed || uri.startsWith(subscribed.endsWith("/") ? subscribed : `${subscribed}/`);
}
