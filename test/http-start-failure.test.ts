/**
 * A server that cannot start (an HTTP option out of range, a plug-in's mistake) served through
 * `server.fetch` and `server.node`: every request is answered with a JSON 500 that says the server
 * did not start, never a rejection (which a runtime answers with a page of its own: Bun's, in
 * development, shows the server's source), and the reason is logged on stderr once, not per request.
 * The official v1 client is refused with that message; Bun's own `export default server` is in
 * runtimes/bun.test.ts.
 */
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { pico } from "../src/index.js";
import { post } from "./http-helpers.js";

const NOT_STARTED = {
  jsonrpc: "2.0",
  error: {
    code: -32603,
    message: "Internal Server Error: this MCP server could not start; its operator finds why in the server's log.",
  },
};

const listeners: HttpServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const listener of listeners.splice(0)) {
    listener.closeAllConnections();
    await new Promise((done) => listener.close(done));
  }
});

/** console.error, recorded (and kept off the test's output). */
function recordErrors() {
  return vi.spyOn(console, "error").mockImplementation(() => {});
}

/** A server whose endpoint cannot be made: maxBodyBytes must be at least 1. */
function misconfigured() {
  return pico({ name: "broken", http: { maxBodyBytes: 0 }, signals: false }).tool("t", {
    description: "Answers ok.",
    run: () => "ok",
  });
}

const list = () => post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

describe("server.fetch of a server that cannot start", () => {
  it("answers every request with a JSON 500 and logs the reason once", async () => {
    const errors = recordErrors();
    const server = misconfigured();
    for (let i = 0; i < 3; i++) {
      const response = await server.fetch(list());
      expect(response.status).toBe(500);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(NOT_STARTED);
    }
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]![0]).toBe("picomcp: the server could not start, so it answers every HTTP request 500:");
    expect(errors.mock.calls[0]![1]).toEqual(
      new TypeError("The HTTP option maxBodyBytes must be an integer of at least 1; got 0."),
    );
  });

  it("does the same for a plug-in's mistake, found as the plug-in machinery loads", async () => {
    const errors = recordErrors();
    const server = pico({ name: "broken", signals: false }).use({ bogus: 1 } as never);
    const response = await server.fetch(list());
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(NOT_STARTED);
    await server.fetch(list());
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]![1])).toMatch(/server\.use needs a middleware function.*; got bogus\./);
  });
});

describe("server.node of a server that cannot start", () => {
  it("answers the official v1 client and plain requests with the same JSON 500, logged once with fetch's", async () => {
    const errors = recordErrors();
    const server = misconfigured();
    const listener = createServer(server.node);
    listeners.push(listener);
    await new Promise<void>((done) => listener.listen(0, "127.0.0.1", done));
    const url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`;

    const client = new Client({ name: "v1", version: "1.0.0" });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(url)))).rejects.toThrow(
      /Error POSTing to endpoint: .*this MCP server could not start/,
    );
    const response = await fetch(new Request(url, list()));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(NOT_STARTED);
    // fetch meets the same failed endpoint: it is not logged again.
    expect((await server.fetch(list())).status).toBe(500);
    expect(errors).toHaveBeenCalledTimes(1);
  });
});
