/**
 * What a stream holds behind a resource update whose read check waits (an asynchronous `allow`:
 * src/transports/held.ts), over HTTP with real signed tokens. At `server.close()` a 2026-07-28
 * `subscriptions/listen` stream delivers what it holds before its final result, as stdio's shutdown
 * does (test/stdio-held.test.ts): the update if its check answers within `limits.shutdownGraceMs`,
 * what follows it in any case, and nothing once the stream has ended. And what a stream holds (a
 * listen stream, a 2025-11-25 session's GET stream) is bounded however much the server sends while
 * the check waits: one of each change notification, other notifications up to
 * `limits.maxSseBufferBytes`. A task's status on a listen stream waits behind such an update too.
 */
import { afterEach, describe, expect, it } from "vitest";
import { META } from "../src/core/types.js";
import { pico } from "../src/index.js";
import type { Limits } from "../src/limits/options.js";
import { harness, testIssuer } from "../src/testing.js";
import {
  BOTH,
  ENDPOINT,
  EventReader,
  messageOf,
  modern,
  modernMessage,
  sessionStream,
  within,
} from "./http-helpers.js";

const issuer = await testIssuer({ audience: ENDPOINT });

/** A promise the test settles from outside: when a read check answers. */
function gate() {
  let open!: (allowed: boolean) => void;
  const opened = new Promise<boolean>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * A server whose `notes://slow` read check answers when `check` opens (or, a function, as what it
 * answers for that check); other notes are readable at once.
 */
function notes(check: Promise<boolean> | (() => Promise<boolean>), limits?: Limits) {
  return pico({
    name: "notes",
    version: "1.0.0",
    limits,
    auth: { verify: issuer.verify, resource: ENDPOINT, authorizationServers: [issuer.issuer], required: false },
  })
    .tool("hello", { auth: "public", run: () => "hi" })
    .resource("notes://{id}", {
      auth: { allow: (_identity, { id }) => (id !== "slow" ? true : typeof check === "function" ? check() : check) },
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

/** A 2025-11-25 session of bob's, subscribed to notes: the reader of its GET stream. */
async function subscribed(server: ReturnType<typeof notes>): Promise<EventReader> {
  const bob = await issuer.mint({ subject: "bob" });
  const client = harness(server, { token: bob });
  expect((await client.request("resources/subscribe", { uri: "notes://" })).result).toEqual({});
  const reader = new EventReader(
    await server.fetch(sessionStream(client.sessionId!, { authorization: `Bearer ${bob}` })),
  );
  readers.push(reader);
  return reader;
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

/** Every message of `reader` until the first that `last` matches, with it. */
async function until(
  reader: EventReader,
  last: (message: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>[]> {
  const messages: Record<string, unknown>[] = [];
  for (;;) {
    const event = await reader.next();
    // A priming event (an id, no data) carries no message.
    if (event?.data === "") continue;
    const message = messageOf(event);
    messages.push(message);
    if (last(message)) return messages;
  }
}

const isUpdateOf = (uri: string) => (message: Record<string, unknown>) =>
  message.method === "notifications/resources/updated" && (message.params as { uri: string }).uri === uri;

/**
 * While `notes://slow`'s check waits: the same update 300 times more, 300 list changes, and updates
 * of 2,000 other notes. Then the check answers; once its update has reached the reader, an update of
 * `notes://last` marks the end. Answers what the reader got from the first update to that mark.
 */
async function flood(server: ReturnType<typeof notes>, check: ReturnType<typeof gate>, reader: EventReader) {
  server.resourceUpdated("notes://slow");
  for (let i = 0; i < 300; i++) {
    server.resourceUpdated("notes://slow");
    server.tool(`tool_${i}`, { auth: "public", run: () => "" });
  }
  for (let i = 0; i < 2000; i++) server.resourceUpdated(`notes://other-${i}`);
  check.open(true);
  const first = await until(reader, isUpdateOf("notes://slow"));
  server.resourceUpdated("notes://last");
  return [...first.slice(-1), ...(await until(reader, isUpdateOf("notes://last")))];
}

/**
 * What `flood` got: the update that waited, one list change, then the first of the other updates, up
 * to `maxBytes` of them (their JSON), in order, then the mark.
 */
function expectBounded(messages: Record<string, unknown>[], maxBytes: number): void {
  const got = messages.map((message) =>
    message.method === "notifications/resources/updated"
      ? (message.params as { uri: string }).uri
      : String(message.method),
  );
  expect(got.slice(0, 2)).toEqual(["notes://slow", "notifications/tools/list_changed"]);
  const others = got.slice(2, -1);
  expect(others.length).toBeGreaterThan(0);
  expect(others).toEqual(others.map((_, i) => `notes://other-${i}`));
  const bytes = messages.slice(2, -1).reduce((sum, message) => sum + JSON.stringify(message).length, 0);
  expect(bytes).toBeLessThanOrEqual(maxBytes);
  expect(got.at(-1)).toBe("notes://last");
}

describe("what a stream holds behind a read check that waits, however much the server sends meanwhile", () => {
  // 16 KiB: what one reader may have unread (limits.maxSseBufferBytes); 2,000 updates are ~200 KB.
  const limits = { maxSseBufferBytes: 16 * 1024 };

  it("2025-11-25 session's GET stream: one of each change notification, and other notifications up to the limit", async () => {
    const check = gate();
    const server = notes(check.opened, limits);
    const reader = await subscribed(server);
    // Was: all of it held for as long as the check waited, 301 updates of notes://slow, 300 list
    // changes and the 2,000 other updates, and sent then: the session's history kept the last 100
    // events, and the reader, too far behind the rest, was dropped.
    expectBounded(await flood(server, check, reader), limits.maxSseBufferBytes);
  });

  it("2026-07-28 listen stream: the same, and the stream is not dropped when the check answers", async () => {
    const check = gate();
    const server = notes(check.opened, limits);
    const reader = await listening(server);
    // Was: the same 2,603 messages held, and sent at once when the check answered: far more than the
    // reader may have unread, so the stream was dropped as a reader too far behind. Half the limit:
    // what is held goes out at once, SSE framing and all.
    expectBounded(await flood(server, check, reader), limits.maxSseBufferBytes / 2);
  });
});

describe("a task's status on a listen stream behind an update whose read check waits", () => {
  const tasks = { _meta: { [META.clientCapabilities]: { extensions: { "io.modelcontextprotocol/tasks": {} } } } };

  it("comes after the update, in the order they happened", async () => {
    const check = gate();
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const server = notes(check.opened).tool("wait", {
      auth: "public",
      task: "optional",
      run: async () => {
        await finished;
        return "done";
      },
    });
    const bob = await issuer.mint({ subject: "bob" });
    const client = harness(server, { era: "modern", token: bob });
    const taskId = (await client.request("tools/call", { name: "wait", arguments: {}, ...tasks })).result
      ?.taskId as string;
    expect(taskId).toBeTypeOf("string");
    const response = await server.fetch(
      modern(
        "subscriptions/listen",
        { notifications: { ...notifications, taskIds: [taskId] }, ...tasks },
        { authorization: `Bearer ${bob}` },
        { id: "L" },
      ),
    );
    const reader = await acknowledged(response);
    expect(messageOf(await reader.next()).params).toMatchObject({ taskId, status: "working" });
    server.resourceUpdated("notes://slow");
    finish();
    await expect
      .poll(async () => {
        const get = modern("tasks/get", { taskId, ...tasks }, { authorization: `Bearer ${bob}`, "mcp-name": taskId });
        return ((await (await server.fetch(get)).json()) as { result?: { status?: string } }).result?.status;
      })
      .toBe("completed");
    check.open(true);
    // Was: the task's completion first, sent at once while the update that came before it waited.
    const [first, second] = [messageOf(await reader.next()), messageOf(await reader.next())];
    expect(first).toEqual(updated("notes://slow"));
    expect(second).toMatchObject({
      method: "notifications/tasks",
      params: { taskId, status: "completed", _meta: tag },
    });
  });
});

describe("an update identical to one held, while that one's read check waits", () => {
  /** Checks of `notes://slow`, in turn: the first waits for `first`, the next ones allow. */
  function checks(first: Promise<boolean>) {
    let made = 0;
    return () => (made++ === 0 ? first : Promise.resolve(true));
  }

  it("2025-11-25 session's GET stream: is sent when the first check says no and its own allows", async () => {
    const first = gate();
    const server = notes(checks(first.opened));
    const reader = await subscribed(server);
    server.resourceUpdated("notes://slow");
    server.resourceUpdated("notes://slow");
    server.resourceUpdated("notes://last");
    first.open(false);
    // Was: notes://last alone: the second update was merged into the first, and lost with its no.
    const got = (await until(reader, isUpdateOf("notes://last"))).map((message) => message.params);
    expect(got).toEqual([{ uri: "notes://slow" }, { uri: "notes://last" }]);
  });

  it("2026-07-28 listen stream: is sent when the first check does not answer within 10 s and its own allows", async () => {
    const server = notes(checks(new Promise<boolean>(() => {})));
    const reader = await listening(server);
    server.resourceUpdated("notes://slow");
    server.resourceUpdated("notes://slow");
    server.resourceUpdated("notes://last");
    // The first check counts as a no after 10 s (the one wait of that length in this file).
    const got: Record<string, unknown>[] = [];
    while (!isUpdateOf("notes://last")(got.at(-1) ?? {})) got.push(messageOf(await reader.next(15_000)));
    // Was: notes://last alone, the second update lost with the first one's timeout.
    expect(got).toEqual([updated("notes://slow"), updated("notes://last")]);
  }, 20_000);
});
