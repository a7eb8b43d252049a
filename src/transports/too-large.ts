/**
 * The answer to a stdio line over `limits.maxMessageBytes` (stdio.ts), loaded with the first such
 * line: a server whose clients send messages within the limit never loads it.
 */
import { ErrorCode } from "../core/errors.js";
import { errorResponse, isRequestId, type JsonRpcResponse, type RequestId } from "../core/jsonrpc.js";

/** -32600 for a line over the limit, with the request's id when its start names one. */
export function tooLarge(head: string, max: number): JsonRpcResponse {
  return errorResponse(
    readId(head),
    ErrorCode.InvalidRequest,
    `Invalid Request: the message is larger than ${max} bytes (limits.maxMessageBytes) and was skipped; send smaller messages`,
  );
}

/** What `readId` steps through: a string, a bracket, or the quote of a string the head cuts short. */
const TOKEN = /"(?:[^"\\]|\\.)*"|[{}[\]]|"/g;
const ID_VALUE = /^\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*[,}]/;

/** The top-level `"id"` of a JSON object, read from the start of its text (only strings and brackets are tracked). */
export function readId(head: string): RequestId | undefined {
  if (!/^\s*\{/.test(head)) return undefined;
  let depth = 0;
  for (const { 0: token, index } of head.matchAll(TOKEN)) {
    if (token === '"') return undefined;
    if (token === "{" || token === "[") depth++;
    else if (token === "}" || token === "]") depth--;
    else if (depth === 1 && token === '"id"') {
      const value = ID_VALUE.exec(head.slice(index + token.length));
      if (!value) continue;
      try {
        // An integer JSON.parse would round is no id to answer under (see isRequestId).
        const id: unknown = JSON.parse(value[1]!);
        return isRequestId(id) ? id : undefined;
      } catch {
        // Not JSON (a raw control character or an unknown escape in the string, a leading zero): no id,
        // and the line is skipped like any other over the limit (a throw here would end the reading).
        return undefined;
      }
    }
  }
  return undefined;
}
