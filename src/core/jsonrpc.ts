import { ErrorCode, isMcpError } from "./errors.js";
import { quoted, safeMessage } from "./safe.js";

export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcResponse {
  jsonrpc: "2.0";
  id?: RequestId;
  result?: Record<string, unknown>;
  error?: JsonRpcError;
}

/** The `error` of a response (JSON-RPC 2.0 §5.1). */
export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** What one decoded body is, once its envelope has been checked. */
export type Inbound =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse }
  | { kind: "invalid"; error: JsonRpcResponse };

/**
 * Request ids are strings or integers, never null or fractional (2025-11-25 "Base protocol"), and safe integers:
 * JSON.parse rounds larger ones, and an answer under a rounded id would reach the wrong request, or none.
 */
export function isRequestId(id: unknown): id is RequestId {
  return typeof id === "string" || Number.isSafeInteger(id);
}

/** A table of names a client sends (methods) without a prototype: `__proto__` or `constructor` finds nothing; lookups cost the same. */
export function nullPrototype<V>(entries: Record<string, V>): Record<string, V> {
  return Object.setPrototypeOf(entries, null);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sorts one parsed JSON value into request, notification or response, or says precisely what is wrong. */
export function classify(value: unknown): Inbound {
  if (!isObject(value)) {
    return invalid(undefined, `Invalid Request: expected a JSON-RPC object, got ${describe(value)}`);
  }
  const id = value.id;
  const method = value.method;
  const readable = id === undefined || isRequestId(id);
  if (method === undefined && value.jsonrpc === "2.0" && ("result" in value || "error" in value)) {
    // A response is never answered, whatever its id: an error sent back could be answered in turn, for
    // ever. An error response leaves its id out (2025-11-25 "Base protocol") or sends null (JSON-RPC 2.0
    // §5) when the request's could not be read; one without a request id answers no question of ours.
    const response = readable ? value : { ...value, id: undefined };
    return { kind: "response", message: response as unknown as JsonRpcResponse };
  }
  if (!readable) return invalid(undefined, badId(id));
  if (value.jsonrpc !== "2.0") return invalid(id, 'Invalid Request: "jsonrpc" must be "2.0"');
  if (typeof method !== "string") return invalid(id, 'Invalid Request: "method" must be a string');
  const params = value.params;
  if (params !== undefined && !isObject(params)) {
    return id === undefined
      ? invalid(undefined, 'Invalid Request: "params" must be an object')
      : invalid(id, `Invalid params: "params" must be an object, got ${describe(params)}`, ErrorCode.InvalidParams);
  }
  if (id === undefined) return { kind: "notification", message: value as unknown as JsonRpcNotification };
  return { kind: "request", message: value as unknown as JsonRpcRequest };
}

function invalid(id: RequestId | undefined, message: string, code: number = ErrorCode.InvalidRequest): Inbound {
  return { kind: "invalid", error: errorResponse(id, code, message) };
}

function badId(id: unknown): string {
  // JSON-RPC 2.0 §4: numbers SHOULD NOT contain fractional parts; 2025-11-25 allows integers only.
  if (typeof id !== "number" || (Number.isFinite(id) && !Number.isInteger(id))) {
    return `Invalid Request: "id" must be a string or an integer, got ${describe(id)}`;
  }
  return `Invalid Request: "id" is a number too large to be read exactly (it reads as ${id}); use a string id or an integer between -9007199254740991 and 9007199254740991`;
}

/** A JSON value, said briefly: a string's first characters (safe.ts's quoted), never an array's or object's contents. */
function describe(value: unknown): string {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return `${typeof value} ${quoted(value)}`;
  }
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : "an object";
}

export function resultResponse(id: RequestId, result: Record<string, unknown>): JsonRpcResponse {
  return { jsonrpc: "2.0", id, result };
}

/** An error response; `id` is omitted, not null, when it could not be read (2025-11-25 schema). */
export function errorResponse(id: RequestId | undefined, code: number, message: string): JsonRpcResponse {
  return failure(id, { code, message });
}

/** An error response whose error is given whole, with its `data`, as `errorResponse` makes it. */
export function failure(id: RequestId | undefined, error: JsonRpcError): JsonRpcResponse {
  return id === undefined ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
}

/**
 * Anything a handler threw as an error response: an McpError keeps its code and message; the rest is internal, its
 * message cleaned (safe.ts). `modern`: a 2026-07-28 response, whose codes are bounded (`modernCode`).
 */
export function thrownResponse(id: RequestId, thrown: unknown, modern?: boolean): JsonRpcResponse {
  if (isMcpError(thrown)) {
    const { message, data } = thrown;
    const code = modern ? modernCode(thrown.code) : thrown.code;
    return failure(id, data === undefined ? { code, message } : { code, message, data });
  }
  return errorResponse(id, ErrorCode.InternalError, `Internal error: ${safeMessage(thrown)}`);
}

/**
 * The code a 2026-07-28 response gives for an McpError's (basic/index "Error Codes"): that revision MUST NOT emit
 * -32002 (now -32602 for a resource not found), nor a code of -32020…-32099 it does not define (-32042 included),
 * which become -32603. Any other code, the three it defines among them, is kept.
 */
export function modernCode(code: number): number {
  if (code === ErrorCode.ResourceNotFound) return ErrorCode.InvalidParams;
  return code <= -32023 && code >= -32099 ? ErrorCode.InternalError : code;
}

export function parseError(detail: string): JsonRpcResponse {
  return errorResponse(undefined, ErrorCode.ParseError, `Parse error: ${detail}`);
}

/**
 * A message as one line of JSON, serialized once, so user code in a result (a getter, a `toJSON`) runs and throws
 * only here. A response JSON cannot carry is answered as a throw of its handler's, never an exception in the
 * transport: a tool result as a tool error, another as an internal error, the message cleaned (safe.ts). Any other
 * such message is dropped (undefined).
 */
export function serialize(message: JsonRpcMessage | JsonRpcMessage[]): string | undefined {
  try {
    return JSON.stringify(message);
  } catch (thrown) {
    if (Array.isArray(message)) {
      const each = message.map(serialize).filter((line) => line !== undefined);
      if (each.length === 0) return undefined;
      try {
        return `[${each.join(",")}]`;
      } catch {
        // Each answer of a batch fits in a string, but not all of them in one (V8's longest is about
        // 512 MiB): each request is told so, rather than the batch going unanswered.
        return serialize(message.map(tooLongInBatch));
      }
    }
    if ("method" in message || message.id === undefined) return undefined;
    return unsendable(message.id, message.result, thrown);
  }
}

/** A response of a batch whose responses together are too long for one JSON text: an error, if it answers a request. */
function tooLongInBatch(message: JsonRpcMessage): JsonRpcMessage {
  if ("method" in message || message.id === undefined) return message;
  return errorResponse(
    message.id,
    ErrorCode.InternalError,
    "Internal error: the batch's responses together are too long for one JSON text (over 512 MiB); send fewer requests per batch",
  );
}

/** The answer to a request whose response (with this result) JSON could not carry. */
function unsendable(id: RequestId, result: Record<string, unknown> | undefined, thrown: unknown): string {
  const why = safeMessage(thrown);
  try {
    const failed = result && unsendableToolResult(result, thrown);
    if (failed) return JSON.stringify(resultResponse(id, failed));
  } catch {
    // A result that cannot even be read (a Proxy that throws), or whose `_meta` JSON cannot carry:
    // its request still gets an answer, the error below.
  }
  return JSON.stringify(
    errorResponse(id, ErrorCode.InternalError, `Internal error: the response cannot be sent as JSON: ${why}`),
  );
}

/** The tool error standing for a tool result JSON could not carry (what serializing it threw); undefined for another. */
export function unsendableToolResult(
  result: Record<string, unknown>,
  thrown: unknown,
): Record<string, unknown> | undefined {
  // A CallToolResult is the only server result with a `content` array (2025-11-25 and 2026-07-28 schemas).
  if (!Array.isArray(result.content)) return undefined;
  const failed: Record<string, unknown> = {
    content: [{ type: "text", text: `A tool returned a value that cannot be sent as JSON: ${safeMessage(thrown)}` }],
    isError: true,
  };
  // What the dispatcher adds to every 2026-07-28 result (§1.3) is its own, and carries over.
  if (result.resultType !== undefined) {
    failed.resultType = "complete";
    failed._meta = result._meta;
  }
  return failed;
}
