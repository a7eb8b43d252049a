/**
 * A plug-in method whose `run` returns no result object (nothing, a string, null, a number), as each
 * era's official client meets it over Streamable HTTP on 127.0.0.1. A JSON-RPC response has a result
 * or an error (JSON-RPC 2.0 §5), and an MCP result is an object; so such a method is answered with
 * an internal error that names the plug-in, the method and what it returned, in both eras (was: a
 * 2025-11-25 client got a response with neither and waited for its own timeout; a 2026-07-28
 * client got "Cannot read properties of undefined").
 */
import { ProtocolError } from "@modelcontextprotocol/client";
import { McpError as V1Error } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ErrorCode, pico } from "../../src/index.js";
import { servedToClients } from "./served.js";

const RETURNS: Record<string, unknown> = { "x/flush": undefined, "x/name": "cache", "x/none": null, "x/size": 3 };

const server = pico({ name: "plugged", version: "1.0.0" })
  .tool("ping_cache", { description: "Checks the cache.", run: () => "ok" })
  .use({
    name: "cache",
    methods: {
      "x/flush": { run: async () => RETURNS["x/flush"] as never },
      "x/name": { run: () => RETURNS["x/name"] as never },
      "x/none": { run: () => RETURNS["x/none"] as never },
      "x/size": { run: async () => RETURNS["x/size"] as never },
      "x/stats": { run: () => ({ entries: 3 }) },
    },
  });

const clients = servedToClients(server);
const ANY = z.object({}).passthrough();
/** A bound on each request, so a response the client cannot read fails the test instead of hanging it. */
const BOUNDED = { timeout: 5_000 };

describe("a plug-in method that returns no result object", () => {
  it("answers -32603 naming the plug-in, the method and what it returned, in both eras", async () => {
    const legacy = await clients.legacy();
    const modern = await clients.modern();
    for (const [method, returned] of Object.entries(RETURNS)) {
      const what = returned === null ? "null" : typeof returned;
      const message = `Internal error: Plug-in "cache": method "${method}" returned ${what}; a result is an object (return {} for an empty one)`;
      const v1 = await legacy.request({ method }, ANY, BOUNDED).catch((error: unknown) => error);
      expect(v1).toBeInstanceOf(V1Error);
      expect(v1).toMatchObject({ code: ErrorCode.InternalError, message: `MCP error -32603: ${message}` });
      const v2 = await modern.request({ method }, ANY, BOUNDED).catch((error: unknown) => error);
      expect(v2).toBeInstanceOf(ProtocolError);
      expect(v2).toMatchObject({ code: ErrorCode.InternalError, message });
    }
    // A method that returns an object is answered with it, in both eras.
    expect(await legacy.request({ method: "x/stats" }, ANY)).toEqual({ entries: 3 });
    expect(await modern.request({ method: "x/stats" }, ANY)).toMatchObject({ entries: 3 });
  });
});
