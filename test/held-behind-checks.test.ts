/**
 * What a 2026-07-28 `subscriptions/listen` stream holds behind a resource update whose read check
 * waits (an asynchronous `allow`: listen/listen.ts), over HTTP through `server.fetch` with real signed
 * tokens. At `server.close()` the stream delivers what it holds before its final result, as stdio's
 * shutdown does (test/stdio-held.test.ts): the update if its check answers within
 * `limits.shutdownGraceMs`, what follows it in any case, and nothing once the stream has ended.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Limits } from "../src/core/limits.js";
import { META } from "../src/core/types.js";
import { pico } from "../src/index.js";
import { testIssuer } from "../src/testing.js";
import { BOTH, ENDPOINT, EventReader, messageOf, modern, modernMessage, within } from "./http-helpers.js";

const issuer = await testIssuer({ audience: ENDPOINT });

/** A promise the test settles from outside: when a read check answers. */
function gate() {
  let open!: (allowed: boolean) => void;
  const opened = new Promise<boolean>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** A server whose `notes://slow` read check answers when `check` opens; other notes are readable at once. */
function notes(check: Promise<boolean>, limits?: Limits) {
  return pico({
    name: "notes",
    version: "1.0.0",
    limits,
    auth: { verify: issuer.verify, resource: ENDPOINT, authorizationServers: [issuer.issuer], required: false },
  })
    .tool("hello", { auth: "public", run: () => "hi" })
    .resource("notes://{id}", {
      auth: { allow: (_identity, { id }) => (id === "slow" ? check : true) },
      read: ({ id }) => `note ${id}`,
    });
}

const tag = { [META.subscriptionId]: "L" };
const updated = (uri: string) => ({
  jsonrpc: "2.0",
  method: "notifications/resources/updated",
  params: { uri, _meta: tag },
});
const toolsChanged = { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: tag } };
const final = {
  jsonrpc: "2.0",
  id: "L",
  result: { resultType: "complete", _meta: { [META.serverInfo]: { name: "notes", version: "1.0.0" }, ...tag } },
};

const readers: EventReader[] = [];
afterEach(async () => {
  await Promise.all(readers.splice(0).map((reader) => reader.cancel().catch(() => {})));
});

const notifications = { toolsListChanged: true, resourceSubscriptions: ["notes://"] };

/** A listen stream of bob's, watching notes, acknowledged: the reader of what follows. */
async function listening(server: ReturnType<typeof notes>): Promise<EventReader> {
  const bob = await issuer.mint({ subject: "bob" });
  const response = await server.fetch(
    modern("subscriptions/listen", { notifications }, { authorization: `Bearer ${bob}` }, { id: "L" }),
  );
  return acknowledged(response);
}

/** The reader of a listen stream, past its acknowledgement. */
async function acknowledged(response: Response): Promise<EventReader> {
  const reader = new EventReader(response);
  readers.push(reader);
  expect(messageOf(await reader.next()).method).toBe("notifications/subscriptions/acknowledged");
  return reader;
}

describe("a listen stream's update whose read check waits when the server closes", () => {
  it("is sent, with what waits behind it, before the final result when the check answers within the grace", async () => {
    const check = gate();
    const server = notes(check.opened);
    const reader = await listening(server);
    server.resourceUpdated("notes://slow");
    server.tool("later", { auth: "public", run: () => "" });
    server.resourceUpdated("notes://fast");
    const closed = server.close();
    check.open(true);
    await within(closed, 5000, "server.close()");
    // Was: the final result alone; the update and what followed it were dropped at close(), though
    // the check answered at once.
    expect((await reader.rest()).map(messageOf)).toEqual([
      updated("notes://slow"),
      toolsChanged,
      updated("notes://fast"),
      final,
    ]);
  });

  it("drops the update whose check has not answered by the grace's end, and sends what waits behind it", async () => {
    const check = gate();
    const server = notes(check.opened, { shutdownGraceMs: 200 });
    const reader = await listening(server);
    server.resourceUpdated("notes://slow");
    server.tool("later", { auth: "public", run: () => "" });
    await within(server.close(), 5000, "server.close()");
    // Was: the final result alone, the list change held behind the update dropped with it.
    expect((await reader.rest()).map(messageOf)).toEqual([toolsChanged, final]);
    // The check answering now writes nothing: the stream has ended.
    check.open(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it("is sent before the final result over a real connection when serve({ port })'s listener closes", async () => {
    const check = gate();
    const server = notes(check.opened);
    const listener = await server.serve({ port: 0 });
    const bob = await issuer.mint({ subject: "bob" });
    const { headers, body } = modernMessage("subscriptions/listen", { notifications }, "L");
    const response = await fetch(listener.url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", accept: BOTH, authorization: `Bearer ${bob}` },
      body: JSON.stringify(body),
    });
    const reader = await acknowledged(response);
    server.resourceUpdated("notes://slow");
    const closed = listener.close();
    check.open(true);
    await within(closed, 5000, "the listener's close()");
    // Was: the final result alone.
    expect((await reader.rest()).map(messageOf)).toEqual([updated("notes://slow"), final]);
  });
});
