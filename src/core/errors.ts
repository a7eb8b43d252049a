/**
 * JSON-RPC and MCP error codes (JSON-RPC 2.0 §5.1; MCP 2025-11-25 "Error handling";
 * MCP 2026-07-28 reserves -32020…-32099 and defines -32020, -32021, -32022).
 */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** 2025-11-25 only: `resources/read` of an unknown URI. */
  ResourceNotFound: -32002,
  /** 2026-07-28: an HTTP header disagrees with the body, or a required header is missing. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability its `_meta` did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the protocol version in `_meta` is not served here. */
  UnsupportedProtocolVersion: -32022,
} as const;

/**
 * An error that becomes a JSON-RPC error response with this code, instead of a tool error.
 * Use it when the request itself is at fault (for example, the caller lacks access);
 * ordinary failures should be thrown as `Error` so the model can read and react to them.
 */
export class McpError extends Error {
  override name = "McpError";
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    // JSON-RPC 2.0 §5.1: "code: a Number that indicates the error type ... MUST be an integer". A code
    // that is not one (1.5, NaN, a string from JavaScript) would make every response it is in invalid.
    if (!Number.isInteger(code)) {
      throw new TypeError(`McpError needs an integer code; got ${typeof code} ${String(code)}.`);
    }
    super(message);
    this.code = code;
    this.data = data;
  }
}

/**
 * What a handler (or a layer under it) throws when the server cannot serve the request for now, as
 * when a shared store it needs is unreachable: the request is answered as a `Refusal` with this
 * message (503 with Retry-After over HTTP), so that the client tries again, not as an internal error.
 */
export class Unavailable extends Error {}

/** The message of anything thrown, without its stack: that is all a client ever sees. */
export function messageOf(thrown: unknown): string {
  // Whatever user code threw, describing it must not throw in turn (a Proxy, a getter, a bad toJSON).
  try {
    if (thrown instanceof Error) return String(thrown.message || thrown.name);
    if (typeof thrown === "string") return thrown;
    // What JSON cannot hold is named by its type: a function's text is its source, which may hold
    // what no client should read (a key, a query).
    return JSON.stringify(thrown) ?? typeof thrown;
  } catch {
    try {
      return String(thrown);
    } catch {
      return "a value that cannot be described";
    }
  }
}

/** `thrown instanceof McpError`, without throwing for a value that traps the check (a Proxy). */
export function isMcpError(thrown: unknown): thrown is McpError {
  return isThrown(thrown, McpError);
}

/** `thrown instanceof kind`, without throwing for a value that traps the check (a Proxy's getPrototypeOf). */
export function isThrown<T>(thrown: unknown, kind: abstract new (...args: never[]) => T): thrown is T {
  try {
    return thrown instanceof kind;
  } catch {
    return false;
  }
}
