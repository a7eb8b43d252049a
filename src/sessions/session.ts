import { isImplementation, type LogLevel } from "../core/envelope.js";
import { ErrorCode } from "../core/errors.js";
import type { Context } from "../core/handler-context.js";
import { errorResponse, isObject, type JsonRpcRequest, type JsonRpcResponse, resultResponse } from "../core/jsonrpc.js";
import type { ClientCapabilities, Implementation, ServerCapabilities } from "../core/types.js";
import { LATEST_LEGACY_VERSION, LEGACY_VERSIONS } from "../core/versions.js";
import type { Peer, Session } from "./peer.js";

/**
 * What a 2025-era handshake establishes for the rest of a connection (stdio pipe or HTTP
 * session): the negotiated version and what the client declared about itself.
 */
export class LegacySession implements Session {
  readonly protocolVersion: string;
  readonly #clientInfo: Implementation | undefined;
  readonly #clientCapabilities: ClientCapabilities;
  initialized = false;
  advertised: ServerCapabilities | undefined;
  /** Until `logging/setLevel`, the server sends info and above (2025-11-25 "Logging": its choice). */
  logLevel: LogLevel = "info";

  constructor(protocolVersion: string, clientCapabilities: ClientCapabilities, clientInfo: Implementation | undefined) {
    this.protocolVersion = protocolVersion;
    this.#clientInfo = clientInfo;
    this.#clientCapabilities = clientCapabilities;
  }

  /**
   * Made for each request of the session (its `ctx.client`) from the two it keeps: an object kept
   * to hold them was 40 B of heap of every idle session.
   */
  get client(): Context["client"] {
    return { info: this.#clientInfo, capabilities: this.#clientCapabilities };
  }
}

/** What `initialize` tells the client about the server (the registry, seen from the handshake). */
export interface Advertised {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  capabilities(): ServerCapabilities;
}

/**
 * The 2025-era handshake (2025-11-25 "Lifecycle", "Initialization"): opens the connection's session
 * and answers with the negotiated version and what the server offers. Version negotiation: echo the
 * client's version when it is served here, otherwise counter-offer the newest; the client decides
 * whether to carry on. A second `initialize` on the same connection is refused: its session stays.
 */
export function initialize(message: JsonRpcRequest, peer: Peer, server: Advertised): JsonRpcResponse {
  const { id, params } = message;
  if (peer.session) {
    return errorResponse(
      id,
      ErrorCode.InvalidRequest,
      `Invalid Request: this connection is already initialized (protocol ${peer.session.protocolVersion})`,
    );
  }
  const invalid = (why: string) => errorResponse(id, ErrorCode.InvalidParams, `initialize ${why}`);
  const requested = params?.protocolVersion;
  if (typeof requested !== "string") return invalid('needs params.protocolVersion (a string such as "2025-11-25")');
  const capabilities = params?.capabilities;
  if (capabilities !== undefined && !isObject(capabilities)) return invalid("params.capabilities must be an object");
  const clientInfo = params?.clientInfo;
  if (clientInfo !== undefined && !isImplementation(clientInfo)) {
    return invalid('params.clientInfo must have string "name" and "version"');
  }
  const version = LEGACY_VERSIONS.includes(requested) ? requested : LATEST_LEGACY_VERSION;
  const session = new LegacySession(version, capabilities ?? {}, clientInfo);
  const advertised = offeredIn(version, server.capabilities());
  session.advertised = negotiatedLists(advertised);
  peer.session = session;
  const result: Record<string, unknown> = {
    protocolVersion: version,
    capabilities: advertised,
    serverInfo: server.info,
  };
  if (server.instructions !== undefined) result.instructions = server.instructions;
  return resultResponse(id, result);
}

/** The lists a session may be told have changed (2025-11-25 "listChanged" of tools, prompts, resources). */
const LISTS = ["tools", "prompts", "resources"] as const;
/** The lists advertised with listChanged, each set made once, by its names ("tools,prompts"): never changed. */
const kept: Record<string, ServerCapabilities> = {};

/**
 * What a session keeps of the capabilities advertised to it (`Session.advertised`): the lists
 * advertised with listChanged, all that its list changes are sent by (transports/connection.ts's
 * notify), as one object shared by every session advertised the same lists. An idle session keeps
 * no copy of the capabilities: a copy of a tools-only server's was 160 B of heap per session.
 */
export function negotiatedLists(advertised: ServerCapabilities): ServerCapabilities {
  const lists = LISTS.filter((list) => advertised[list]?.listChanged);
  const key = lists.join();
  kept[key] ??= Object.fromEntries(lists.map((list) => [list, { listChanged: true }]));
  return kept[key];
}

/**
 * The capabilities of a session of `version`: without the members its revision's ServerCapabilities
 * lacks (the official schema/<version>/schema.ts): `tasks` came with 2025-11-25 ("Tasks", experimental),
 * `completions` with 2025-03-26. `extensions` is offered in every version (SEP-2133 negotiates
 * extensions in `initialize`, its example under 2025-06-18), and so are a plug-in's own keys.
 */
function offeredIn(version: string, capabilities: ServerCapabilities): ServerCapabilities {
  const offered: Record<string, object | undefined> = { ...capabilities };
  // Revisions are dates of one form, so they compare as strings.
  if (version < "2025-11-25") delete offered.tasks;
  if (version < "2025-03-26") delete offered.completions;
  return offered;
}
