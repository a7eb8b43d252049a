/**
 * What a client sends, nested deeper than JSON.stringify can recurse (100,000 levels of arrays, which
 * JSON.parse reads), with instances sharing their state on a real Redis (`pico({ state })`,
 * docs/scaling.md): its answer to a question asked on instance a, its cancellation of a request
 * running there, or its 2026-07-28 tasks/update for a task running there, posted to instance b, which
 * relays it on the bus; and a session opened with such capabilities, whose record every instance
 * reads. Each reaches instance a whole, as it would have had it been posted there, and b goes on
 * serving. Two servers on 127.0.0.1 over real HTTP; every wait is bounded. Skipped (with the install
 * command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, expect, it } from "vitest";
import { META } from "../../src/core/types.js";
import { pico } from "../../src/index.js";
import { BOTH, EventReader, messageOf, modernMessage, signal, within } from "../http-helpers.js";
import { BOUND_MS } from "./bus-loss.js";
import { TASKS } from "./clients.js";
import { useRedisServer } from "./redis-server.js";
import { sharedState } from "./shared-state.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
let prefixes = 0;

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/** Levels of arrays in the deep part of each message: far past what JSON.stringify recurses through. */
const DEPTH = 100_000;
const DEEP = `${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`;

/** How deep `value` nests arrays, first items first (a loop: recursion would overflow the stack too). */
function depthOf(value: unknown): number {
  let depth = 0;
  for (let item = value; Array.isArray(item); item = item[0]) depth++;
  return depth;
}

/** Two instances sharing their state under one prefix, each listening on 127.0.0.1, and what instance a's tools saw. */
async function instances() {
  const prefix = `deep-${prefixes++}:`;
  const started = signal();
  const aborted = signal<string>();
  const urls: string[] = [];
  for (let i = 0; i < 2; i++) {
    const state = await sharedState(redis.get(), prefix, opened);
    const server = pico({
      name: "shared-deep-messages",
      version: "1.0.0",
      requestStateKey: "a shared secret of 32 bytes or more!",
      state,
      signals: false,
    })
      .tool("pick", {
        description: "Asks for a value, and says how deep the answer nests",
        run: async (_args, ctx) => {
          const schema = { type: "object", properties: { value: { type: "string" } } };
          const answer = await ctx.elicit("Pick a value", schema, { key: "value" });
          return answer.action === "accept" ? `depth ${depthOf(answer.content.value)}` : answer.action;
        },
      })
      .tool("pick_task", {
        description: "A task that asks for a value, and says how deep the answer nests",
        task: "optional",
        run: async (_args, ctx) => {
          const schema = { type: "object", properties: { value: { type: "string" } } };
          const answer = await ctx.elicit("Pick a value", schema, { key: "value" });
          return answer.action === "accept" ? `depth ${depthOf(answer.content.value)}` : answer.action;
        },
      })
      .tool("wait", {
        description: "Waits until it is cancelled",
        run: (_args, ctx) =>
          new Promise<string>((resolve) => {
            started.resolve();
            ctx.signal.addEventListener("abort", () => {
              aborted.resolve(String(ctx.signal.reason?.message));
              resolve("cancelled");
            });
          }),
      });
    const listening = await server.serve({ port: 0, host: "127.0.0.1" });
    opened.push(() => listening.close());
    urls.push(listening.url);
  }
  return { a: urls[0]!, b: urls[1]!, started: started.promise, aborted: aborted.promise };
}

/** POSTs `body` (JSON text, written by hand where it nests deep) to `url`, in `session` if given. */
function postTo(url: string, body: string, session?: string): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: BOTH };
  if (session) Object.assign(headers, { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" });
  return fetch(url, { method: "POST", body, headers });
}

/** A 2025-11-25 session opened on `url` by a client that elicits, initialized: its id. */
async function openSession(url: string): Promise<string> {
  const params = {
    protocolVersion: "2025-11-25",
    capabilities: { elicitation: { form: {} } },
    clientInfo: { name: "t", version: "1" },
  };
  const response = await postTo(url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params }));
  const session = response.headers.get("mcp-session-id")!;
  await response.text();
  const initialized = await postTo(
    url,
    JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    session,
  );
  expect(initialized.status).toBe(202);
  return session;
}

/** Calls tool `name` on `url` in `session`: its stream. */
async function callTool(url: string, session: string, id: number, name: string): Promise<EventReader> {
  const body = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
  const response = await postTo(url, body, session);
  expect(response.status).toBe(200);
  return new EventReader(response);
}

/** Instance b still serves the session: a ping is answered. */
async function stillServes(url: string, session: string): Promise<void> {
  const response = await postTo(url, JSON.stringify({ jsonrpc: "2.0", id: 99, method: "ping" }), session);
  expect(response.status).toBe(200);
  const text = await response.text();
  expect(text).toContain('"id":99');
  expect(text).toContain('"result":{}');
}

it("relays an answer nested 100,000 deep to the question it answers on the other instance, whole", async () => {
  const { a, b } = await instances();
  const session = await openSession(a);
  const events = await callTool(a, session, 2, "pick");
  let question: { id: string; method: string } | undefined;
  for (let read = 0; read < 5 && question?.method !== "elicitation/create"; read++) {
    const event = await events.next(BOUND_MS);
    if (event?.data) question = messageOf(event) as typeof question;
  }
  expect(question?.method).toBe("elicitation/create");

  const answer = `{"jsonrpc":"2.0","id":${JSON.stringify(question!.id)},"result":{"action":"accept","content":{"value":${DEEP}}}}`;
  const relayed = await postTo(b, answer, session);
  // Was: 500 "Internal Server Error" in plain text (JSON.stringify of the bus message threw RangeError),
  // and the question waited out askTimeoutMs.
  expect(relayed.status).toBe(202);
  const last = (await events.rest(BOUND_MS)).filter((event) => event.data).at(-1);
  expect(messageOf(last)).toMatchObject({ id: 2, result: { content: [{ type: "text", text: `depth ${DEPTH}` }] } });
  await stillServes(b, session);
});

it("relays a cancellation whose reason nests 100,000 deep to the request it cancels on the other instance", async () => {
  const { a, b, started, aborted } = await instances();
  const session = await openSession(a);
  // Its answer never comes (a cancelled request gets none): the call is not awaited.
  const body = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "wait", arguments: {} } });
  const call = postTo(a, body, session);
  await within(started, BOUND_MS, "the call running on instance a");
  const cancel = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":${DEEP}}}`;
  const relayed = await postTo(b, cancel, session);
  // Was: 500 "Internal Server Error" in plain text, and the request ran on.
  expect(relayed.status).toBe(202);
  // A reason that is not a string is not quoted back, as on one instance (core/dispatch.ts).
  expect(await within(aborted, BOUND_MS, "the cancellation relayed to instance a")).toBe(
    "The client cancelled the request",
  );
  await stillServes(b, session);
  // The call's connection goes with the test's servers; what it ends with is not this test's concern.
  call.catch(() => {});
});

/** A 2026-07-28 request that declares elicitation and the Tasks extension, to `url`; its JSON-RPC answer. */
async function modernTo(url: string, method: string, params: Record<string, unknown>) {
  const capabilities = { elicitation: { form: {} }, extensions: { [TASKS]: {} } };
  const { headers, body } = modernMessage(method, { ...params, _meta: { [META.clientCapabilities]: capabilities } });
  const named: Record<string, string> = typeof params.taskId === "string" ? { "mcp-name": params.taskId } : {};
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: BOTH, ...headers, ...named },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

it("hands a 2026-07-28 tasks/update answer nested 100,000 deep to the instance running the task, whole", async () => {
  const { a, b } = await instances();
  const created = await modernTo(a, "tools/call", { name: "pick_task", arguments: {} });
  const taskId = created.result?.taskId as string;
  expect(taskId).toEqual(expect.any(String));
  const status = async () => (await modernTo(b, "tasks/get", { taskId })).result?.status;
  for (let polls = 0; polls < 200 && (await status()) !== "input_required"; polls++) await sleep(25);
  expect(await status()).toBe("input_required");

  // Written by hand around the deep part: the test's own JSON.stringify cannot write it either.
  const update = modernMessage("tasks/update", {
    taskId,
    inputResponses: { value: { action: "accept", content: { value: "DEEP" } } },
    _meta: { [META.clientCapabilities]: { elicitation: { form: {} }, extensions: { [TASKS]: {} } } },
  });
  const response = await fetch(b, {
    method: "POST",
    headers: { "content-type": "application/json", accept: BOTH, ...update.headers, "mcp-name": taskId },
    body: JSON.stringify(update.body).replace('"DEEP"', DEEP),
  });
  // Was: -32603 "Maximum call stack size exceeded" (the bus message could not be written), the task left waiting.
  expect(await response.json()).toMatchObject({ result: {} });
  for (let polls = 0; polls < 200 && (await status()) !== "completed"; polls++) await sleep(25);
  const done = await modernTo(b, "tasks/get", { taskId });
  expect(done.result).toMatchObject({ status: "completed", result: { content: [{ text: `depth ${DEPTH}` }] } });
});

it("opens a session whose client capabilities nest 100,000 deep, and another instance serves it", async () => {
  const { a, b } = await instances();
  const init = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{"form":{}},"experimental":{"deep":${DEEP}}},"clientInfo":{"name":"t","version":"1"}}}`;
  const opened = await postTo(a, init);
  // Was: 500 "Internal Server Error" in plain text (JSON.stringify of the session's record threw RangeError).
  expect(opened.status).toBe(200);
  const session = opened.headers.get("mcp-session-id")!;
  await opened.text();
  await stillServes(b, session);
});
