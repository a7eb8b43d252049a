/**
 * What the middleware result tests expect of a request answered -32603: the same error through the
 * official v1 client (2025-11-25) and v2 client (2026-07-28), each wording it its own way.
 */
import { ProtocolError } from "@modelcontextprotocol/client";
import { McpError as V1Error } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import { z } from "zod";
import { ErrorCode } from "../../src/index.js";
import type { servedToClients } from "./served.js";

/** A request as the clients send it, and the message of the -32603 it is answered with. */
export type InternalError = [request: { method: string; params?: Record<string, unknown> }, message: string];

/** Any result: the requests are expected to fail, so their result schema is never used. */
export const ANY = z.object({}).passthrough();

/** Sends each request with both official clients and expects -32603 with its message. */
export async function expectInternalErrors(
  clients: ReturnType<typeof servedToClients>,
  expected: InternalError[],
): Promise<void> {
  const legacy = await clients.legacy();
  const modern = await clients.modern();
  for (const [request, message] of expected) {
    const v1 = await legacy.request(request, ANY, { timeout: 5_000 }).catch((error: unknown) => error);
    expect(v1).toBeInstanceOf(V1Error);
    expect(v1).toMatchObject({
      code: ErrorCode.InternalError,
      message: `MCP error -32603: Internal error: ${message}`,
    });
    const v2 = await modern.request(request, ANY, { timeout: 5_000 }).catch((error: unknown) => error);
    expect(v2).toBeInstanceOf(ProtocolError);
    expect(v2).toMatchObject({ code: ErrorCode.InternalError, message: `Internal error: ${message}` });
  }
}
