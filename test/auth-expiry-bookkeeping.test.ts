/**
 * The bookkeeping of streams whose token expires (auth/expiries.ts) holds only the streams an expiry
 * ends: a 2025-11-25 session's GET stream, a 2026-07-28 `subscriptions/listen`. A stream that goes
 * on to its answer whatever its token does (a 2026-07-28 tool call's own stream, a 2025-03-26 tool
 * call's, which its client cannot resume) is never held there, however many are opened: it would
 * only be kept, with what it references, until its token's expiry or the next prune. Observed
 * through the module's one bookkeeping (`expiries.watched`), with real signed JWTs good for an hour.
 */
import { afterEach, expect, it } from "vitest";
import { expiries } from "../src/auth/expiries.js";
import { pico } from "../src/index.js";
import { jwtVerifier } from "../src/jwt.js";
import { testIssuer } from "../src/testing.js";
import { ENDPOINT, EventReader, inSession, messageOf, modern, post } from "./http-helpers.js";

const issuer = await testIssuer({ audience: ENDPOINT });
const token = await issuer.mint({ subject: "bob", scopes: ["notes:read"] });
const authorization = `Bearer ${token}`;

const server = pico({
  name: "notes",
  version: "1.0.0",
  auth: {
    verify: jwtVerifier({ issuer: issuer.issuer, keys: issuer.jwks }),
    resource: ENDPOINT,
    authorizationServers: [issuer.issuer],
  },
})
  .resource("notes://{owner}/{id}", { read: ({ owner, id }) => `${owner}'s note ${id}` })
  .tool("export", {
    description: "Exports every note, reporting its progress: its answer comes on an event stream.",
    run: (_args, ctx) => {
      ctx.progress(0, 1, "started");
      return "exported";
    },
  });

const readers: EventReader[] = [];
afterEach(async () => {
  await Promise.all(readers.splice(0).map((reader) => reader.cancel().catch(() => {})));
});

/** The messages of a stream until it ends (within 3 s each). */
async function all(response: Response): Promise<Record<string, unknown>[]> {
  expect(response.status).toBe(200);
  const reader = new EventReader(response);
  readers.push(reader);
  const messages: Record<string, unknown>[] = [];
  for (let event = await reader.next(3000); event; event = await reader.next(3000)) {
    if (event.data !== "") messages.push(messageOf(event));
  }
  return messages;
}

const call = (id: string | number) => ({
  name: "export",
  arguments: {},
  _meta: { progressToken: `p${id}` },
});

it("holds no 2026-07-28 tool call stream, and holds a listen", async () => {
  for (let id = 0; id < 8; id++) {
    const response = await server.fetch(modern("tools/call", call(id), { authorization }, { id }));
    expect((await all(response)).map((message) => message.method ?? "answer")).toEqual([
      "notifications/progress",
      "answer",
    ]);
  }
  expect(expiries.watched).toBe(0);

  const listen = await server.fetch(
    modern("subscriptions/listen", { notifications: { resourceSubscriptions: ["notes://bob/"] } }, { authorization }),
  );
  const reader = new EventReader(listen);
  readers.push(reader);
  expect(messageOf(await reader.next(3000)).method).toBe("notifications/subscriptions/acknowledged");
  expect(expiries.watched).toBe(1);
});

it("holds no tool call stream of a 2025-03-26 session, which its client cannot resume", async () => {
  const watched = expiries.watched;
  const headers = { authorization, "mcp-protocol-version": "2025-03-26" };
  const opened = await server.fetch(
    post(
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "older", version: "1" } },
      },
      { authorization },
    ),
  );
  const session = opened.headers.get("mcp-session-id")!;
  expect((await opened.json()).result.protocolVersion).toBe("2025-03-26");
  const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
  expect((await server.fetch(inSession(session, initialized, headers))).status).toBe(202);
  for (let id = 1; id <= 8; id++) {
    const response = await server.fetch(
      inSession(session, { jsonrpc: "2.0", id, method: "tools/call", params: call(id) }, headers),
    );
    expect((await all(response)).map((message) => message.method ?? "answer")).toEqual([
      "notifications/progress",
      "answer",
    ]);
  }
  expect(expiries.watched).toBe(watched);
});
