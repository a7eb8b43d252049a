/**
 * A stream does not outlive the access token it was opened with (docs/authorization.md, "Tokens that
 * expire while a stream is open"): a token is checked on each request, and a stream, which outlives
 * its request, ends once its token has expired, each kind as it ends early. A 2025-11-25 session's
 * GET stream ends its connection (the client resumes with a fresh token, and gets what was sent
 * meanwhile); a 2026-07-28 `subscriptions/listen` ends with its final result; a 2026-07-28 tool
 * call's own stream goes on to its answer (it was admitted with a valid token, and a plain stream
 * cannot be resumed). Through `server.fetch`, with real
 * signed JWTs that expire within 3 s (no clock skew), next to ones that do not.
 */
import { afterEach, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { jwtVerifier } from "../src/jwt.js";
import { harness, testIssuer } from "../src/testing.js";
import {
  ENDPOINT,
  EventReader,
  inSession,
  messageOf,
  modern,
  post,
  type SseEvent,
  sessionStream,
} from "./http-helpers.js";

const issuer = await testIssuer({ audience: ENDPOINT });

/** How long a stream is given to end once its token expired: the token's 2 s, and a margin. */
const ENDS_WITHIN = 6000;

/** A signed token of bob's that expires within 3 s (`exp` is in whole seconds), and one good for an hour. */
const shortLived = () => issuer.mint({ subject: "bob", scopes: ["notes:read"], expiresIn: 3 });
const longLived = () => issuer.mint({ subject: "bob", scopes: ["notes:read"] });

function notes() {
  let cancelled = false;
  const server = pico({
    name: "notes",
    version: "1.0.0",
    auth: {
      // No clock skew: the token stops being accepted at its `exp`, and its streams end then.
      verify: jwtVerifier({ issuer: issuer.issuer, keys: issuer.jwks, clockSkewSeconds: 0 }),
      resource: ENDPOINT,
      authorizationServers: [issuer.issuer],
    },
  })
    .resource("notes://{owner}/{id}", {
      auth: { scopes: ["notes:read"] },
      read: ({ owner, id }) => `${owner}'s note ${id}`,
    })
    .tool("export", {
      description: "Exports every note: reports progress, and takes a while (8 s at most here).",
      run: async (_args, ctx) => {
        ctx.progress(0, 1, "started");
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, 8000);
          ctx.signal.addEventListener("abort", () => {
            cancelled = true;
            clearTimeout(timer);
            resolve(undefined);
          });
        });
        return "exported";
      },
    })
    .tool("export_some", {
      description: "Exports some notes: reports progress, and takes 4.5 s, past a short-lived token.",
      run: async (_args, ctx) => {
        ctx.progress(0, 1, "started");
        await new Promise((resolve) => setTimeout(resolve, 4500));
        return ctx.signal.aborted ? "cancelled" : "exported";
      },
    });
  return { server, cancelled: () => cancelled };
}

const readers: EventReader[] = [];
afterEach(async () => {
  await Promise.all(readers.splice(0).map((reader) => reader.cancel().catch(() => {})));
});

function reading(response: Response): EventReader {
  expect(response.status).toBe(200);
  const reader = new EventReader(response);
  readers.push(reader);
  return reader;
}

/** The events of a stream until it ends, failing if it has not within ENDS_WITHIN. */
async function untilEnd(reader: EventReader): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const deadline = Date.now() + ENDS_WITHIN;
  for (;;) {
    const event = await reader.next(Math.max(deadline - Date.now(), 1));
    if (!event) return events;
    events.push(event);
  }
}

/** The next message of `method` (priming events, with no data, skipped). */
async function nextOf(
  reader: EventReader,
  method: string,
): Promise<{ event: SseEvent; message: Record<string, unknown> }> {
  for (let read = 0; read < 5; read++) {
    const event = await reader.next(3000);
    if (event?.data === "") continue;
    const message = messageOf(event);
    if (message.method === method) return { event: event!, message };
  }
  throw new Error(`no ${method}`);
}

describe("a stream opened with a token that expires", () => {
  it("2025-11-25 GET stream: its connection ends once the token expired; a resume with a fresh token gets what came meanwhile", async () => {
    const { server } = notes();
    const token = await shortLived();
    const client = harness(server, { token });
    expect((await client.request("resources/subscribe", { uri: "notes://bob/" })).result).toEqual({});
    const reader = reading(await server.fetch(sessionStream(client.sessionId!, { authorization: `Bearer ${token}` })));
    server.resourceUpdated("notes://bob/1");
    const live = await nextOf(reader, "notifications/resources/updated");
    expect(live.message.params).toEqual({ uri: "notes://bob/1" });

    // Nothing more comes on it, and it ends: what a leak would carry is never written there.
    expect(await untilEnd(reader)).toEqual([]);
    server.resourceUpdated("notes://bob/2");

    const fresh = await longLived();
    const resumed = reading(
      await server.fetch(
        sessionStream(client.sessionId!, { authorization: `Bearer ${fresh}`, "last-event-id": live.event.id! }),
      ),
    );
    expect((await nextOf(resumed, "notifications/resources/updated")).message.params).toEqual({
      uri: "notes://bob/2",
    });
  });

  it("2025-11-25 tool call's stream: its connection ends once the token expired, resumable with a fresh token", async () => {
    const { server, cancelled } = notes();
    const token = await shortLived();
    const client = harness(server, { token });
    expect((await client.listTools()).status).toBe(200);
    const session = { authorization: `Bearer ${token}`, "mcp-session-id": client.sessionId! };
    const call = {
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "export", arguments: {}, _meta: { progressToken: "p" } },
    };
    const reader = reading(await server.fetch(inSession(client.sessionId!, call, session)));
    const progress = await nextOf(reader, "notifications/progress");
    expect(await untilEnd(reader)).toEqual([]);
    // The request goes on: its answer waits in the session's history for the client's resume.
    expect(cancelled()).toBe(false);
    const fresh = await longLived();
    const resumed = await server.fetch(
      sessionStream(client.sessionId!, { authorization: `Bearer ${fresh}`, "last-event-id": progress.event.id! }),
    );
    reading(resumed);
  });

  it("2025-03-26 tool call's stream, which its client cannot resume (no priming event): goes on to its answer", async () => {
    const { server, cancelled } = notes();
    const token = await shortLived();
    const headers = { authorization: `Bearer ${token}`, "mcp-protocol-version": "2025-03-26" };
    const clientInfo = { name: "older", version: "1" };
    const opened = await server.fetch(
      post(
        {
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo },
        },
        { authorization: headers.authorization },
      ),
    );
    const session = opened.headers.get("mcp-session-id")!;
    expect((await opened.json()).result.protocolVersion).toBe("2025-03-26");
    const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
    expect((await server.fetch(inSession(session, initialized, headers))).status).toBe(202);
    const call = {
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "export_some", arguments: {}, _meta: { progressToken: "p" } },
    };
    const reader = reading(await server.fetch(inSession(session, call, headers)));
    expect(messageOf(await reader.next()).method).toBe("notifications/progress");
    // Past the token's expiry (3 s) the answer (at 4.5 s) still comes on this stream, the only one it has.
    expect((await untilEnd(reader)).map((event) => messageOf(event))).toEqual([
      { jsonrpc: "2.0", id: 9, result: { content: [{ type: "text", text: "exported" }] } },
    ]);
    expect(cancelled()).toBe(false);
  });

  it("2026-07-28 subscriptions/listen: ends with its final result once the token expired; one with a live token goes on", async () => {
    const { server } = notes();
    const listen = (token: string, id: string) =>
      server.fetch(
        modern(
          "subscriptions/listen",
          { notifications: { resourceSubscriptions: ["notes://bob/"] } },
          { authorization: `Bearer ${token}` },
          { id },
        ),
      );
    const short = reading(await listen(await shortLived(), "short"));
    const long = reading(await listen(await longLived(), "long"));
    for (const reader of [short, long]) {
      expect(messageOf(await reader.next()).method).toBe("notifications/subscriptions/acknowledged");
    }

    const ended = (await untilEnd(short)).map((event) => messageOf(event));
    expect(ended).toEqual([
      {
        jsonrpc: "2.0",
        id: "short",
        result: {
          resultType: "complete",
          _meta: {
            "io.modelcontextprotocol/serverInfo": { name: "notes", version: "1.0.0" },
            "io.modelcontextprotocol/subscriptionId": "short",
          },
        },
      },
    ]);
    server.resourceUpdated("notes://bob/3");
    expect((await nextOf(long, "notifications/resources/updated")).message.params).toMatchObject({
      uri: "notes://bob/3",
    });
  });

  it("2026-07-28 tools/call streaming its progress: goes on to its answer after the token expired", async () => {
    const { server } = notes();
    const token = await shortLived();
    const reader = reading(
      await server.fetch(
        modern(
          "tools/call",
          { name: "export_some", arguments: {}, _meta: { progressToken: "p" } },
          { authorization: `Bearer ${token}` },
          { id: "call" },
        ),
      ),
    );
    expect(messageOf(await reader.next()).method).toBe("notifications/progress");
    const ended = (await untilEnd(reader)).map((event) => messageOf(event));
    expect(ended).toEqual([
      {
        jsonrpc: "2.0",
        id: "call",
        result: expect.objectContaining({ content: [{ type: "text", text: "exported" }], resultType: "complete" }),
      },
    ]);
  });
});
