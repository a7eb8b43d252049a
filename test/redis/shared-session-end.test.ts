/**
 * A 2025-11-25 session shared by two instances on a real Redis (`pico({ state })`), ended by a
 * DELETE that another instance than the one running a request of it serves: the official v1
 * client's request in progress must get the answer it gets on one instance (-32600 "Session ended",
 * test/http-session-end.test.ts), not hang until its own timeout. The client's fetch sends its
 * DELETE to instance b and everything else to instance a, as a load balancer without sticky
 * sessions may. Two in-process servers on 127.0.0.1; every wait is bounded. Skipped (with the
 * install command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import { failure, signal, within } from "../http-helpers.js";
import { busLoss } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
let prefixes = 0;

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close().catch(() => {});
});

const { userClient } = busLoss(redis, opened);

const ENDED =
  "Session ended: the session was closed (deleted, or evicted for a newer one) while this request was in progress, and the request was cancelled; send initialize to start a new session, then send the request again";

/** An instance sharing its state under `prefix`, listening on 127.0.0.1; `started` resolves once its tool runs. */
async function instance(name: string, prefix: string, started: { resolve: () => void }) {
  const state = await redisState({ client: await userClient(name), prefix });
  opened.push(() => state.close());
  const server = pico({
    name: "shared-session-end",
    version: "1.0.0",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
    signals: false,
  })
    .tool("poll", {
      description: "Closes its stream (the client polls for the result, SEP-1699), then waits until it is cancelled.",
      run: async (_args, ctx) => {
        ctx.closeStream();
        started.resolve();
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        return "never";
      },
    })
    .tool("wait", {
      description: "Reports progress when asked to, then waits until it is cancelled.",
      run: async (_args, ctx) => {
        await ctx.progress(1, 2);
        started.resolve();
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        return "never";
      },
    });
  const listening = await server.serve({ port: 0, host: "127.0.0.1" });
  opened.push(() => listening.close());
  return new URL(listening.url);
}

describe("a shared 2025-11-25 session deleted through another instance while a request of it runs (official v1 client)", () => {
  for (const progress of [true, false]) {
    const shape = progress ? "streamed (progress sent first)" : "not yet streamed";
    it(`answers the request, ${shape}, with the error saying the session ended`, async () => {
      const prefix = `end-${prefixes++}:`;
      const started = signal();
      const a = await instance(`a${prefixes}`, prefix, started);
      const b = await instance(`b${prefixes}`, prefix, signal());
      // DELETE goes to b, everything else to a.
      const routed: typeof fetch = (_input, init) => {
        const to = init?.method === "DELETE" ? b : a;
        return fetch(new URL(to.pathname, to), init);
      };
      const transport = new StreamableHTTPClientTransport(a, { fetch: routed });
      const client = new Client({ name: "v1", version: "1.0.0" });
      await client.connect(transport);
      opened.push(() => client.close());
      const call = failure(
        client.callTool(
          { name: "wait" },
          undefined,
          progress ? { timeout: 5000, onprogress: () => {} } : { timeout: 5000 },
        ),
      );
      await within(started.promise, 5000, "the tool running on instance a");
      await transport.terminateSession();
      // Was: the client's own timeout ("Request timed out"), the request running on instance a.
      expect(await call).toBe(`MCP error -32600: ${ENDED}`);
    });
  }

  it("answers the request whose stream the client resumed on the deleting instance (SEP-1699 polling)", async () => {
    const prefix = `end-${prefixes++}:`;
    const started = signal();
    const a = await instance(`a${prefixes}`, prefix, started);
    const b = await instance(`b${prefixes}`, prefix, signal());
    // The client's resume (GET with Last-Event-ID) and its DELETE go to b, everything else to a.
    const resumed = signal();
    const routed: typeof fetch = (_input, init) => {
      const resume = new Headers(init?.headers).has("last-event-id");
      if (resume) resumed.resolve();
      const to = init?.method === "DELETE" || resume ? b : a;
      return fetch(new URL(to.pathname, to), init);
    };
    const transport = new StreamableHTTPClientTransport(a, { fetch: routed });
    const client = new Client({ name: "v1", version: "1.0.0" });
    await client.connect(transport);
    opened.push(() => client.close());
    const call = failure(client.callTool({ name: "poll" }, undefined, { timeout: 5000 }));
    await within(started.promise, 5000, "the tool running on instance a");
    await within(resumed.promise, 5000, "the client resuming its stream on instance b");
    await transport.terminateSession();
    // Was: b answered the resume 404 (the stream had only its priming event, which the shared
    // history did not know), and the client's call timed out ("Request timed out").
    expect(await call).toBe(`MCP error -32600: ${ENDED}`);
  });
});
