/**
 * The official v1 client's transports, made to ask for an older protocol version: the v1 client
 * always asks `initialize` for its newest (2025-11-25), and accepts any version it supports that the
 * server answers with, so rewriting the request's `protocolVersion` makes it a client of that version.
 */
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { tsxProgram } from "./fixture.js";

/** `message` as a client of `version` sends it: its `initialize` asks for that version. */
function asking(version: string, message: JSONRPCMessage): JSONRPCMessage {
  if (!("method" in message) || message.method !== "initialize") return message;
  return { ...message, params: { ...message.params, protocolVersion: version } };
}

/** The TypeScript program `file` over stdio, for a client of `version`. */
export class StdioOfVersion extends StdioClientTransport {
  constructor(
    file: string,
    readonly version: string,
  ) {
    super(tsxProgram(file));
  }
  override send(message: JSONRPCMessage): Promise<void> {
    return super.send(asking(this.version, message));
  }
}

/** Streamable HTTP to `url`, for a client of `version`. */
export class HttpOfVersion extends StreamableHTTPClientTransport {
  constructor(
    url: URL,
    readonly version: string,
  ) {
    super(url);
  }
  override send(message: JSONRPCMessage): Promise<void> {
    return super.send(asking(this.version, message));
  }
}
