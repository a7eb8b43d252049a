/**
 * 2026-07-28 `subscriptions/listen` requests open on one stdio pipe, as the official v2 client opens
 * them. A listen is a request in progress on its connection until it is cancelled, so it counts toward
 * `limits.maxConcurrentRequestsPerConnection` with the other requests: one past it is answered with the
 * busy error naming that limit, and closing one makes room. Before, listens were never refused: a client
 * could hold any number of them open on one pipe, each a registry listener written to on every change.
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tsxProgram } from "./fixture.js";

const MAX = 3;

const BUSY = {
  code: -32603,
  data: { limit: "maxConcurrentRequestsPerConnection", max: MAX },
};

let client: Client;

beforeAll(async () => {
  client = new Client({ name: "v2-listen", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(
    new StdioClientTransport(
      tsxProgram("test/fixtures/stdio-churn-server.ts", {
        PICO_LIMITS: JSON.stringify({ maxConcurrentRequestsPerConnection: MAX }),
      }),
    ),
  );
});

afterAll(async () => {
  await client?.close();
});

describe("subscriptions/listen over stdio (official v2 client)", () => {
  it("opens listens up to maxConcurrentRequestsPerConnection and refuses one more with the busy error", async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const open = [];
    for (let i = 0; i < MAX; i++) open.push(await client.listen({ toolsListChanged: true }));
    for (const subscription of open) expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    const refused = client.listen({ toolsListChanged: true });
    await expect(refused).rejects.toMatchObject(BUSY);
    await expect(refused).rejects.toThrow(
      `Server busy: too many requests in progress on this connection (limits.maxConcurrentRequestsPerConnection = ${MAX}); retry after a request in progress has been answered`,
    );
    // The listens hold the connection's slots: a call waits for one to close, as another listen does.
    await expect(client.callTool({ name: "memory" })).rejects.toMatchObject(BUSY);

    // The close is notifications/cancelled: the slot is free as soon as the server reads it.
    await open.pop()!.close();
    const again = await client.listen({ toolsListChanged: true });
    expect(again.honoredFilter).toEqual({ toolsListChanged: true });
    for (const subscription of [...open, again]) await subscription.close();
    const result = await client.callTool({ name: "memory" });
    expect(result.isError).toBeFalsy();
  });
});
