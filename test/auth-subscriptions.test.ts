/**
 * Resource updates under `auth` rules (docs/authorization.md, "What a refused caller sees"): a
 * `notifications/resources/updated` names a URI and says when it changed, so a subscription, to the
 * URI or to a prefix of it, tells it only to a caller `resources/read` would admit. Both eras, through
 * `server.fetch` with real signed tokens: a 2026-07-28 `subscriptions/listen` and a 2025-11-25 session's
 * `resources/subscribe` with its GET stream.
 */
import { afterEach, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { harness, testIssuer } from "../src/testing.js";
import { ENDPOINT, EventReader, messageOf, modern, sessionStream } from "./http-helpers.js";

const issuer = await testIssuer({ audience: ENDPOINT });

function notes() {
  return pico({
    name: "notes",
    version: "1.0.0",
    auth: { verify: issuer.verify, resource: ENDPOINT, authorizationServers: [issuer.issuer], required: false },
  })
    .resource("notes://{owner}/{id}", {
      auth: { scopes: ["notes:read"], allow: (identity, { owner }) => identity.subject === owner },
      read: ({ owner, id }) => `${owner}'s note ${id}`,
    })
    .resource("notes://board/{id}", { auth: { roles: ["editor"] }, read: ({ id }) => `board ${id}` });
}

const readers: EventReader[] = [];
afterEach(async () => {
  await Promise.all(readers.splice(0).map((reader) => reader.cancel()));
});

/** The URIs of the updates a reader gets, until (and with) `last`. */
async function updatesUntil(reader: EventReader, last: string): Promise<string[]> {
  const uris: string[] = [];
  for (;;) {
    const event = await reader.next();
    // A priming event (an id, no data) carries no message.
    if (event?.data === "") continue;
    const message = messageOf(event);
    if (message.method !== "notifications/resources/updated") continue;
    const uri = (message.params as { uri: string }).uri;
    uris.push(uri);
    if (uri === last) return uris;
  }
}

/** Updates of other users' notes and of the board, which bob may not read, then of his own. */
function publish(server: ReturnType<typeof notes>): void {
  for (const uri of ["notes://ada/1", "notes://bob/2", "notes://board/3", "notes://ada/4", "notes://bob/5"]) {
    server.resourceUpdated(uri);
  }
}

describe("resource updates, to a caller who may read some of them", () => {
  it("2026-07-28 subscriptions/listen: only the URIs the caller may read, by prefix or by name", async () => {
    const server = notes();
    const bob = await issuer.mint({ subject: "bob", scopes: ["notes:read"] });
    const response = await server.fetch(
      modern(
        "subscriptions/listen",
        { notifications: { resourceSubscriptions: ["notes:", "notes://ada/1"] } },
        { authorization: `Bearer ${bob}` },
      ),
    );
    const reader = new EventReader(response);
    readers.push(reader);
    expect(messageOf(await reader.next()).method).toBe("notifications/subscriptions/acknowledged");
    publish(server);
    expect(await updatesUntil(reader, "notes://bob/5")).toEqual(["notes://bob/2", "notes://bob/5"]);
  });

  it("2025-11-25 resources/subscribe: only the URIs the subscriber may read, on the session's stream", async () => {
    const server = notes();
    const bob = await issuer.mint({ subject: "bob", scopes: ["notes:read"] });
    const client = harness(server, { token: bob });
    for (const uri of ["notes:", "notes://ada/1"]) {
      expect((await client.request("resources/subscribe", { uri })).result).toEqual({});
    }
    const stream = await server.fetch(sessionStream(client.sessionId!, { authorization: `Bearer ${bob}` }));
    const reader = new EventReader(stream);
    readers.push(reader);
    publish(server);
    expect(await updatesUntil(reader, "notes://bob/5")).toEqual(["notes://bob/2", "notes://bob/5"]);
  });
});
