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
   * `resources/subscribe`: the resources layer's auth check); unset, any. See `boundedReadCheck`.
   */
  mayRead?: ((uri: string) => boolean | Promise<boolean>) | undefined;
}

/**
 * How long a resource update's read check may keep what is sent after it waiting (a 2025 session's
 * connection, a 2026 listen stream: each keeps the order of what it sends).
 */
const READ_CHECK_MS = 10_000;

/**
 * A read check that answers no once READ_CHECK_MS have passed without an answer (an `allow` stuck on
 * a store that does not answer), so that what waits behind it cannot pile up without bound. One that
 * fails is a no too, and only once those before it have answered: it may not overtake them.
 */
export function boundedReadCheck(check: Promise<boolean>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(resolve, READ_CHECK_MS, false);
  });
  return Promise.race([check.catch(() => false), late]).finally(() => clearTimeout(timer));
}

/** The side of a connection the dispatcher needs: the legacy session, if a handshake made one. */
export interface Peer {
  session: Session | undefined;
}
