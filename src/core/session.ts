import type { LogLevel } from "./envelope.js";
import type { Context } from "./handler-context.js";

/**
 * A 2025-era session as the core carries it to handlers (`ctx.session`): what the handshake of a
 * connection established. The legacy sessions layer (src/sessions/) opens and keeps them.
 */
export interface Session {
  /**
   * The session's name on every instance that serves it: its `Mcp-Session-Id` when the sessions are
   * shared by several instances (`pico({ state })`, transports/http/shared.ts); undefined where one
   * process alone holds the session, which then is its own name.
   */
  readonly id?: string | undefined;
  readonly protocolVersion: string;
  /** `ctx.client` for every request of the session: what the client declared in `initialize`. */
  readonly client: Context["client"];
  /** Set by `notifications/initialized`; requests in between are served (clients pipeline). */
  initialized: boolean;
  /** The threshold set by `logging/setLevel` (2025-11-25 "Logging"). */
  logLevel: LogLevel;
  /**
   * `resources/subscribe` and `resources/unsubscribe` of this session. `subscribe` is false, and
   * subscribes to nothing, when the session already has `max` subscriptions and not this one.
   */
  subscribe(uri: string, max?: number): boolean;
  unsubscribe(uri: string): void;
  /** Whether an update of `uri` concerns this session: it subscribed to it, or to a parent of it. */
  watches(uri: string): boolean;
  /**
   * Whether the session's caller may be told of an update of `uri` it watches (set by
   * `resources/subscribe`: the resources layer's auth check); unset, any. See `boundedReadCheck` (transports/held.ts).
   */
  mayRead?: ((uri: string) => boolean | Promise<boolean>) | undefined;
}

/** The side of a connection the dispatcher needs: the legacy session, if a handshake made one. */
export interface Peer {
  session: Session | undefined;
}
