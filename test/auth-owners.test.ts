/**
 * Whom sessions, tasks and requestStates belong to: the caller's issuer and subject, a pair that no
 * other pair may spell the same way (docs/authorization.md). Through `server.fetch`, with a verifier
 * whose issuers are not URLs.
 */
import { describe, expect, it, vi } from "vitest";
import { pico } from "../src/index.js";
import { ENDPOINT, post } from "./http-helpers.js";

const identities: Record<string, { issuer: string; subject: string }> = {
  first: { issuer: "tenant", subject: "a b" },
  second: { issuer: "tenant a", subject: "b" },
};

function server(idleTimeoutMs?: number) {
  return pico({
    name: "owners",
    version: "1.0.0",
    ...(idleTimeoutMs && { http: { sessions: { idleTimeoutMs } } }),
    auth: {
      verify: async (token) => ({ ...identities[token]!, audience: ENDPOINT }),
      resource: ENDPOINT,
      authorizationServers: ["https://auth.example.com"],
    },
  }).tool("whoami", { description: "Says who.", run: (_args, ctx) => `${ctx.auth!.issuer}/${ctx.auth!.subject}` });
}

describe("the owner of a session", () => {
  it("is the pair (issuer, subject): another pair that joins to the same words does not own it", async () => {
    const mcp = server();
    const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
    const opened = await mcp.fetch(
      post({ jsonrpc: "2.0", id: 0, method: "initialize", params }, { authorization: "Bearer first" }),
    );
    expect(opened.status).toBe(200);
    await opened.json();
    const session = opened.headers.get("mcp-session-id")!;
    const call = (token: string) =>
      mcp.fetch(
        post(
          { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {} } },
          { authorization: `Bearer ${token}`, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
        ),
      );
    const own = await call("first");
    expect(own.status).toBe(200);
    await own.body?.cancel();
    const other = await call("second");
    expect(other.status).toBe(404);
    await other.body?.cancel();
  });

  it("is the only caller whose requests keep it from expiring: anyone else's, answered 404, leave its idle time running", async () => {
    // Only the clock is faked: the sessions' idle time is read from Date.now().
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const mcp = server(60_000);
      const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } };
      const opened = await mcp.fetch(
        post({ jsonrpc: "2.0", id: 0, method: "initialize", params }, { authorization: "Bearer first" }),
      );
      await opened.json();
      const session = opened.headers.get("mcp-session-id")!;
      const ping = (token: string) =>
        mcp.fetch(
          post(
            { jsonrpc: "2.0", id: 1, method: "ping" },
            { authorization: `Bearer ${token}`, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
          ),
        );
      // Another caller who knows the id, every 40 s: each request within the idle time of the one before.
      for (let step = 0; step < 3; step++) {
        vi.setSystemTime(Date.now() + 40_000);
        const other = await ping("second");
        expect(other.status).toBe(404);
        await other.body?.cancel();
      }
      // 120 s after its owner's last use. Was: 200, each of the other caller's requests having restarted its idle time.
      const own = await ping("first");
      expect(own.status).toBe(404);
      await own.body?.cancel();
    } finally {
      vi.useRealTimers();
    }
  });
});
