import { parseError } from "../../core/jsonrpc.js";
import { BodyRefused, jsonReply } from "./reply.js";

/**
 * A request body's bytes as text, for every runtime's reader (node-http.ts, node.ts, web.ts). Messages
 * are UTF-8 (2025-11-25 "Transports"; RFC 8259 §8.1), and a decoder that is not fatal reads other
 * bytes as U+FFFD: a Latin-1 "café" would reach a tool as "caf\uFFFD" and run as if the client had
 * sent that. So a body that is not UTF-8 is refused, -32700 as one that is not JSON is (handler.ts),
 * as a stdio line is (utf8-lines.ts). The fatal decoder costs what the usual one does while the bytes
 * are UTF-8, on small bodies and large (measured, Node 20). A byte order mark is skipped (RFC 8259
 * §8.1: MAY ignore). Throws BodyRefused for a body that is not UTF-8.
 */
export function utf8Body(chunks: readonly Uint8Array[]): string {
  const bytes = chunks.length === 1 ? chunks[0]! : joined(chunks);
  try {
    return decoder.decode(bytes);
  } catch {
    throw new BodyRefused(NOT_UTF8);
  }
}

/** One decoder for every body: each is decoded in one call, which starts afresh (no state carries from the body before). */
const decoder = new TextDecoder("utf-8", { fatal: true });

const NOT_UTF8 = jsonReply(
  400,
  parseError("the body holds bytes that are not UTF-8; send one JSON-RPC message as the body, as JSON in UTF-8"),
);

/** The chunks as one run of bytes: a character may be cut between two of them. */
function joined(chunks: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const chunk of chunks) size += chunk.byteLength;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
