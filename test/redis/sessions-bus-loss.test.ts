/**
 * 2025-11-25 sessions shared by two instances on a real Redis, when one instance's subscriber is
 * away while another publishes: pub/sub keeps nothing for a subscriber that is reconnecting, so
 * what the session's copy on that instance missed (a DELETE, a log level, a list change, a URL-mode
 * completion, a client's answer to its question or its cancellation) must be made good once it is back
 * (docs/scaling.md). The subscriber of instance b is killed with CLIENT KILL and kept away (its
 * Redis user off) while instance a publishes, which another subscriber sees; then let back. Two
 * in-process servers (`server.fetch`); every wait is bounded. Skipped (with the install command as
 * the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import { EventReader, inSession, messageOf, signal, within } from "../http-helpers.js";
import { BOUND_MS, busLoss, openSession, until } from "./bus-loss.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();
let prefixes = 0;

const { opened, userClient, subscriberAway, published, getStream } = busLoss(redis);

type Server = ReturnType<typeof pico>;

/** What the latest run of the tool "wait" did: it started, then its signal aborted (with this reason). */
let waits = { started: signal(), aborted: signal<unknown>() };

/** An instance named `name` (its Redis user), sharing its state under `prefix`. */
async function instance(name: string, prefix: string): Promise<Server> {
  const state = await redisState({ client: await userClient(name), prefix });
  opened.push(() => state.close());
  const server = pico({
    name: "sessions-bus-loss",
    requestStateKey: "a shared secret of 32 bytes or more!",
    state,
    signals: false,
    // Far past every bound here: an answer that never comes fails the test, not the question.
    askTimeoutMs: 60_000,
  })
    .tool("log", {
      description: "Logs once at info and once at error, then answers.",
      run: (_args, ctx) => {
        ctx.log.info("an info line");
        ctx.log.error("an error line");
        return "logged";
      },
    })
    .tool("confirm", {
      description: "Asks the user to confirm, then says what they answered.",
      run: async (_args, ctx) => {
        const answer = await ctx.elicit("Sure?", z.object({ ok: z.boolean() }));
        return answer.action === "accept" && answer.content.ok ? "confirmed" : "not confirmed";
      },
    })
    .tool("sign_in", {
      description: "Sends the user to sign in (URL mode), then answers.",
      run: async (_args, ctx) =>
        (await ctx.elicitUrl("Sign in", "https://example.com/sign-in", { elicitationId: `sign-in-${name}` })).action,
    })
    .tool("wait", {
      description: "Waits until the client cancels the call.",
      run: (_args, ctx) =>
        new Promise<string>((resolve) => {
          const { started, aborted } = waits;
          ctx.signal.addEventListener("abort", () => {
            aborted.resolve(ctx.signal.reason);
            resolve("cancelled");
          });
          started.resolve();
        }),
    })
    .tool("extra", { description: "A tool to remove.", run: () => "extra" });
  opened.push(() => server.close());
  return server;
}

/** A 2025-11-25 session opened on `server` (elicitation in both modes); its id. */
const open = (server: Server) => openSession(server, { elicitation: { form: {}, url: {} } });

let ids = 1;

/** Every message of a request's answer (a stream's events, or one JSON body). */
async function messages(server: Server, session: string, method: string, params: Record<string, unknown> = {}) {
  const response = await server.fetch(inSession(session, { jsonrpc: "2.0", id: ids++, method, params }));
  const text = await response.text();
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
    return { status: response.status, sent: text ? [JSON.parse(text) as Record<string, unknown>] : [] };
  }
  const sent = text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line.length > 6)
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
  return { status: response.status, sent };
}

/** Instance b's subscriber goes away; `publish` runs on instance a; b comes back once a message of `type` was published. */
async function whileAway(name: string, prefix: string, type: string, publish: () => Promise<unknown>): Promise<void> {
  const away = await subscriberAway(name);
  const seen = await published(prefix, type);
  await publish();
  await within(seen.seen, BOUND_MS, `the ${type} message`);
  await away.back();
}

it("ends here a session deleted on another instance while this one's subscriber was away", async () => {
  const prefix = `sessions-loss-${prefixes++}:`;
  const [a, b] = [await instance("sa1", prefix), await instance("sb1", prefix)];
  const session = await open(a);
  expect((await messages(b, session, "tools/list")).status).toBe(200);
  await whileAway("sb1", prefix, "session", async () => {
    const deleted = await a.fetch(
      new Request("http://localhost/mcp", {
        method: "DELETE",
        headers: { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
      }),
    );
    expect(deleted.status).toBe(200);
  });
  // Before: instance b went on serving its copy (until its next check of the record, minutes away).
  let status = 200;
  for (let polls = 0; polls < 200 && status !== 404; polls++) {
    status = (await messages(b, session, "tools/list")).status;
    if (status !== 404) await sleep(25);
  }
  expect(status).toBe(404);
});

it("takes up a log level set on another instance while this one's subscriber was away", async () => {
  const prefix = `sessions-loss-${prefixes++}:`;
  const [a, b] = [await instance("sa2", prefix), await instance("sb2", prefix)];
  const session = await open(a);
  const levels = async () =>
    (await messages(b, session, "tools/call", { name: "log" })).sent
      .filter((sent) => sent.method === "notifications/message")
      .map((sent) => (sent.params as { level: string }).level);
  expect(await levels()).toEqual(["info", "error"]);
  await whileAway("sb2", prefix, "session", () => messages(a, session, "logging/setLevel", { level: "error" }));
  // Before: instance b's copy kept "info", and its requests logged at info.
  let seen = await levels();
  for (let polls = 0; polls < 200 && seen.includes("info"); polls++) {
    await sleep(25);
    seen = await levels();
  }
  expect(seen).toEqual(["error"]);
});

it("tells its GET stream the tool list may have changed after its subscriber was away", async () => {
  const prefix = `sessions-loss-${prefixes++}:`;
  const [a, b] = [await instance("sa3", prefix), await instance("sb3", prefix)];
  const session = await open(a);
  const stream = await getStream(b, session);
  await whileAway("sb3", prefix, "registry", async () => expect(a.remove("tool", "extra")).toBe(true));
  // Before: the list change was lost for instance b, whose GET stream never heard of it.
  expect(await until(stream, "notifications/tools/list_changed")).toMatchObject({ jsonrpc: "2.0" });
});

it("tells its client of a URL-mode elicitation completed on another instance while its subscriber was away", async () => {
  const prefix = `sessions-loss-${prefixes++}:`;
  const [a, b] = [await instance("sa4", prefix), await instance("sb4", prefix)];
  const session = await open(b);
  const stream = await getStream(b, session);
  const calling = b.fetch(
    inSession(session, { jsonrpc: "2.0", id: ids++, method: "tools/call", params: { name: "sign_in" } }),
  );
  const call = new EventReader(await within(calling, BOUND_MS, "the tools/call's stream"));
  const question = await until(call, "elicitation/create");
  expect(question.params).toMatchObject({ mode: "url", elicitationId: "sign-in-sb4" });
  await b.fetch(inSession(session, { jsonrpc: "2.0", id: question.id, result: { action: "accept" } }));
  expect(messageOf((await call.rest(BOUND_MS)).filter((event) => event.data).at(-1))).toMatchObject({
    result: { content: [{ text: "accept" }] },
  });
  await whileAway("sb4", prefix, "url", async () => expect(a.completeElicitation("sign-in-sb4")).toBe(false));
  // Before: the completion was lost for instance b, and its client never told.
  expect(await until(stream, "notifications/elicitation/complete")).toMatchObject({
    params: { elicitationId: "sign-in-sb4" },
  });
});

it("takes a client's answer sent to another instance while its subscriber was away", async () => {
  const prefix = `sessions-loss-${prefixes++}:`;
  const [a, b] = [await instance("sa5", prefix), await instance("sb5", prefix)];
  const session = await open(b);
  const calling = b.fetch(
    inSession(session, { jsonrpc: "2.0", id: ids++, method: "tools/call", params: { name: "confirm" } }),
  );
  const call = new EventReader(await within(calling, BOUND_MS, "the tools/call's stream"));
  const question = await until(call, "elicitation/create");
  await whileAway("sb5", prefix, "client", async () => {
    const answered = await a.fetch(
      inSession(session, { jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { ok: true } } }),
    );
    expect(answered.status).toBe(202);
  });
  // Before: the answer was lost for instance b; its question waited until askTimeoutMs.
  const result = (await call.rest(BOUND_MS)).filter((event) => event.data).at(-1);
  expect(messageOf(result)).toMatchObject({ result: { content: [{ text: "confirmed" }] } });
});

it("cancels a request whose client cancelled it on another instance while this one's subscriber was away", async () => {
  const prefix = `sessions-loss-${prefixes++}:`;
  const [a, b] = [await instance("sa6", prefix), await instance("sb6", prefix)];
  const session = await open(b);
  waits = { started: signal(), aborted: signal<unknown>() };
  const id = ids++;
  const calling = b.fetch(inSession(session, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "wait" } }));
  await within(waits.started.promise, BOUND_MS, "the tool starting");
  await whileAway("sb6", prefix, "client", async () => {
    const cancelled = await a.fetch(
      inSession(session, {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: id, reason: "changed my mind" },
      }),
    );
    expect(cancelled.status).toBe(202);
  });
  // Before: the cancellation was lost for instance b; its request went on until its handler timeout.
  const reason = await within(waits.aborted.promise, BOUND_MS, "ctx.signal aborting");
  expect(reason).toMatchObject({ name: "AbortError", message: "changed my mind" });
  // Nothing is sent for a cancelled request (2025-11-25 "Cancellation"): its stream ends with no answer.
  const call = new EventReader(await within(calling, BOUND_MS, "the tools/call's stream"));
  expect((await call.rest(BOUND_MS)).filter((event) => event.data)).toEqual([]);
});
