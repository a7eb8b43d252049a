import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { failure, SESSION_ENDED, signal, within } from "./http-helpers.js";

/**
 * A 2025-11-25 session that ends while a request of it is in progress (DELETE, or eviction at
 * maxSessions when every session is busy): the request is cancelled, and its POST is answered with
 * a JSON-RPC error that says so and what to do. Before, its stream ended without a response: the
 * official v1 client resumed it, got 404, retried, and its call hung until its own timeout.
 */

const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function listen(maxSessions = 10) {
  const started = signal();
  const server = pico({ name: "ends", version: "1.0.0", signals: false, http: { sessions: { maxSessions } } }).tool(
    "wait",
    {
      description: "Reports progress when asked to, then waits until it is cancelled.",
      run: async (_args, ctx) => {
        await ctx.progress(1, 2);
        started.resolve();
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        return "never";
      },
    },
  );
  const listening = await server.serve({ port: 0 });
  closers.push(() => listening.close());
  return { url: new URL(listening.url), started };
}

async function connect(url: URL) {
  const transport = new StreamableHTTPClientTransport(url);
  const client = new Client({ name: "v1", version: "1.0.0" });
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, transport };
}

describe("a 2025-11-25 session ending while a request of it is in progress (official v1 client)", () => {
  for (const progress of [true, false]) {
    const shape = progress ? "streamed (progress sent first)" : "not yet streamed";
    it(`answers the request, ${shape}, with an error saying the session ended, when it is deleted`, async () => {
      const { url, started } = await listen();
      const { client, transport } = await connect(url);
      const call = failure(
        client.callTool(
          { name: "wait" },
          undefined,
          progress ? { timeout: 5000, onprogress: () => {} } : { timeout: 5000 },
        ),
      );
      await within(started.promise, 5000, "the tool running");
      const deleted = await fetch(url, {
        method: "DELETE",
        headers: { "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-11-25" },
      });
      expect(deleted.status).toBe(200);
      // Was: the client's own timeout ("Request timed out") after resuming into a 404.
      expect(await call).toBe(`MCP error -32600: ${SESSION_ENDED}`);
    });
  }

  it("answers the request of a busy session evicted for a new one at maxSessions", async () => {
    const { url, started } = await listen(1);
    const { client } = await connect(url);
    const call = failure(client.callTool({ name: "wait" }, undefined, { timeout: 5000, onprogress: () => {} }));
    await within(started.promise, 5000, "the tool running");
    // The only session is busy: a new one evicts it.
    await connect(url);
    expect(await call).toBe(`MCP error -32600: ${SESSION_ENDED}`);
  });
});
