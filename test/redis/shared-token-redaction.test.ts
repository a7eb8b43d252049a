/**
 * The caller's access token cut out of what a 2025-11-25 session shared by two instances on a real
 * Redis sends (docs/authorization.md): a review said an error raised on instance b, for a session
 * whose token was first seen on instance a, may go out unredacted, since each instance cuts only
 * the tokens its copy of the session was presented. The token of the request being answered is
 * cut wherever it was first seen: the request presents it to the instance that answers it, which
 * cuts it out of its JSON body (auth/gate.ts's finish) and out of every message of its stream, and
 * its copy of the session learns it before the request runs (AuthGate.presented). The official v1
 * client opens its session on a and sends its call to b, as a balancer without sticky sessions may;
 * the tool echoes the token it was told (a handler that got it some other way). Two servers on
 * 127.0.0.1; every wait is bounded. Skipped (with the install command as the reason) without
 * redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { within } from "../http-helpers.js";
import { BOUND_MS, busLoss } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";
import { SHARING } from "./shared-state.js";

const redis = useRedisServer();
let prefixes = 0;

const { opened, userState } = busLoss(redis);
/** The resource every instance serves, whatever URL it listens on: the audience of the token. */
const RESOURCE = "http://localhost/mcp";
/** An opaque token (no JWT, no "Bearer" before it in a message): only the token's own redaction can cut it. */
const TOKEN = "opaque-reader-7f3a9c41d2";

/** An instance named `name` (its Redis user) sharing its state under `prefix`, listening on 127.0.0.1. */
async function instance(name: string, prefix: string) {
  const server = pico({
    name: "shared-token-redaction",
    ...SHARING,
    state: await userState(name, prefix),
    auth: {
      verify: async (token) => (token === TOKEN ? { subject: "ada", audience: RESOURCE } : undefined),
      resource: RESOURCE,
      authorizationServers: ["https://auth.example.com"],
    },
  })
    .tool("fail", {
      description: "Fails, echoing the token in its error.",
      run: () => {
        throw new Error(`upstream refused token ${TOKEN}`);
      },
    })
    .tool("report_then_fail", {
      description: "Reports progress echoing the token, then fails echoing it too.",
      run: async (_args, ctx) => {
        await ctx.progress(1, 2, `calling upstream with ${TOKEN}`);
        throw new Error(`upstream refused token ${TOKEN}`);
      },
    });
  const listening = await server.serve({ port: 0, host: "127.0.0.1" });
  opened.push(() => listening.close());
  return new URL(listening.url);
}

/** The official v1 client with the token, its session opened on `a`, its calls sent to `b` (`calls` counts them). */
async function connect(a: URL, b: URL) {
  const sent = { calls: 0 };
  const routed: typeof fetch = (_input, init) => {
    const call = typeof init?.body === "string" && init.body.includes('"tools/call"');
    if (call) sent.calls++;
    const to = call ? b : a;
    return fetch(new URL(to.pathname, to), init);
  };
  const transport = new StreamableHTTPClientTransport(a, {
    fetch: routed,
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
  });
  const client = new Client({ name: "v1", version: "1.0.0" });
  await client.connect(transport);
  opened.push(() => client.close());
  return { client, sent };
}

describe("a shared 2025-11-25 session's token, first seen on instance a, in what instance b answers (official v1 client)", () => {
  it("cuts it out of an error answered as JSON", async () => {
    const prefix = `token-redaction-${prefixes++}:`;
    const a = await instance(`ra${prefixes}`, prefix);
    const b = await instance(`rb${prefixes}`, prefix);
    const { client, sent } = await connect(a, b);
    const result = await within(client.callTool({ name: "fail" }), BOUND_MS, "the call answered by instance b");
    expect(result).toMatchObject({ isError: true, content: [{ text: "upstream refused token [redacted]" }] });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    // Instance b saw the token first with this call.
    expect(sent.calls).toBe(1);
  });

  it("cuts it out of every message of the call's stream: its progress and its error", async () => {
    const prefix = `token-redaction-${prefixes++}:`;
    const a = await instance(`ra${prefixes}`, prefix);
    const b = await instance(`rb${prefixes}`, prefix);
    const { client, sent } = await connect(a, b);
    const progress: unknown[] = [];
    const call = client.callTool({ name: "report_then_fail" }, undefined, {
      onprogress: (sent) => progress.push(sent),
    });
    const result = await within(call, BOUND_MS, "the call answered by instance b");
    expect(progress).toEqual([{ progress: 1, total: 2, message: "calling upstream with [redacted]" }]);
    expect(result).toMatchObject({ isError: true, content: [{ text: "upstream refused token [redacted]" }] });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    // Instance b saw the token first with this call.
    expect(sent.calls).toBe(1);
  });
});
