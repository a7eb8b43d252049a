import { isObject, type RequestId } from "./jsonrpc.js";
import { type ClientCapabilities, type Implementation, META, type Meta } from "./types.js";

export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const LEVELS: readonly unknown[] = LOG_LEVELS;

export function isLogLevel(value: unknown): value is LogLevel {
  return LEVELS.includes(value);
}

/** A 2026-07-28 request's envelope as read, with its id and `_meta`: its context's init (RequestInit), made once per request. */
export interface Envelope {
  id: RequestId;
  meta: Meta;
  era: "modern";
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LogLevel | undefined;
}

/** True when a request claims the modern era: its `_meta` names a protocol version (2026-07-28 §10.2). */
export function claimsModern(meta: unknown): meta is Meta {
  return isObject(meta) && META.protocolVersion in meta;
}

/** Reads the envelope of 2026-07-28 §1.1, or says what is wrong: a malformed claim is -32602, never a silent fall back to the legacy era. */
export function readEnvelope(id: RequestId, meta: Meta): Envelope | string {
  const protocolVersion = meta[META.protocolVersion];
  if (typeof protocolVersion !== "string") return `_meta["${META.protocolVersion}"] must be a string`;
  const clientCapabilities = meta[META.clientCapabilities];
  if (!isObject(clientCapabilities)) {
    return `_meta["${META.clientCapabilities}"] is required: an object of the capabilities this client declares ({} for none)`;
  }
  const clientInfo = meta[META.clientInfo];
  if (clientInfo !== undefined && !isImplementation(clientInfo)) {
    return `_meta["${META.clientInfo}"] must be an object with string "name" and "version"`;
  }
  const logLevel = meta[META.logLevel];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    return `_meta["${META.logLevel}"] must be one of ${LOG_LEVELS.join(", ")}`;
  }
  return {
    id,
    meta,
    era: "modern",
    protocolVersion,
    // What the client declares, as it declares it: handlers check the parts they use.
    clientCapabilities: clientCapabilities as ClientCapabilities,
    clientInfo,
    logLevel,
  };
}

export function isImplementation(value: unknown): value is Implementation {
  return isObject(value) && typeof value.name === "string" && typeof value.version === "string";
}
