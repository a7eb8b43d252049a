/**
 * 2025-11-25 tasks across instances (docs/scaling.md, src/tasks/relay.ts): the official v1 client
 * (@modelcontextprotocol/sdk) behind a round-robin balancer over three instances sharing a real
 * Redis. A task's question (elicitation/create) and progress reach a `tasks/result` that landed on
 * another instance than the one running the task, with related-task `_meta`; the client's answer,
 * POSTed to a third instance, reaches the run; plain round robin never hangs; and a `tasks/result`
 * waiting for a task whose instance dies answers with the task's failure.
 *
 * Requests are sent to chosen instances through the balancer's `x-to` header, added by the client's
 * fetch, so that each case is the one named, every time. Every wait is bounded (`within`).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { within } from "../http-helpers.js";
import { Cluster } from "./cluster.js";
import { haveRedis, MISSING, REQUIRED, RedisServer } from "./redis-server.js";

const AVAILABLE = haveRedis();
const RELATED = "io.modelcontextprotocol/related-task";
/** A bound on each exchange: a failure guard (today's code hangs here), not a timing. */
const BOUND_MS = 15_000;

/** Where each kind of message goes: a JSON-RPC method, or "answer" for the client's responses. Absent: round robin. */
type Routes = Partial<Record<string, number>>;

/** What the balancer said about each message the client sent: the kind, and the instance that took it. */
interface Sent {
  readonly kind: string;
  readonly instance: string | null;
}

/** A v1 client through the balancer, answering elicitations with `{ ok: true }`, sending each kind of message where `routes` says. */
async function connect(url: string, routes: Routes) {
  const sent: Sent[] = [];
  const asked: Record<string, unknown>[] = [];
  const routed = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    let kind = init?.method ?? "GET";
    if (typeof init?.body === "string") {
      const message = JSON.parse(init.body) as { method?: string };
      kind = message.method ?? "answer";
    }
    const to = routes[kind];
    if (to !== undefined) headers.set("x-to", String(to));
    const response = await fetch(input, { ...init, headers });
    sent.push({ kind, instance: response.headers.get("x-instance") });
    return response;
  };
  const client = new Client({ name: "relay-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params);
    return { action: "accept", content: { ok: true } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: routed }));
  // callToolStream asks for a task only for a tool whose execution.taskSupport it has listed.
  await client.listTools();
  return { client, sent, asked };
}

/** One callToolStream to its end: its messages' types, the task's id, the final result. */
async function callAsTask(client: Client, name: string, args: Record<string, unknown>, progress?: Progress[]) {
  const types: string[] = [];
  let taskId = "";
  let result: Record<string, unknown> | undefined;
  const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
    onprogress: (p) => progress?.push(p),
  });
  for await (const message of stream) {
    types.push(message.type);
    if (message.type === "taskCreated") taskId = message.task.taskId;
    if (message.type === "result") result = message.result;
    if (message.type === "error") throw message.error;
  }
  return { types, taskId, result };
}

describe("2025-11-25 tasks of the v1 client across three instances sharing Redis", () => {
  let redis: RedisServer | undefined;
  let cluster: Cluster | undefined;
  const clients: Client[] = [];

  beforeAll(async () => {
    if (!AVAILABLE) {
      if (REQUIRED) throw new Error(`${MISSING} (PICOMCP_REQUIRE_REDIS is set, so Redis is required)`);
      return;
    }
    redis = await RedisServer.start();
    cluster = await Cluster.start(3, {
      REDIS_URL: redis.url,
      REDIS_CLIENT: "node-redis",
      PREFIX: "t-relay:",
      LEASE_MS: "900",
    });
  }, 60_000);

  beforeEach((ctx) => {
    if (!AVAILABLE) ctx.skip(MISSING);
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });

  afterAll(async () => {
    await cluster?.close();
    await redis?.close();
  });

  it("asks a task's question on a tasks/result of another instance, and takes the answer on a third", async () => {
    const { client, sent, asked } = await connect(cluster!.url, { "tools/call": 0, "tasks/result": 1, answer: 2 });
    clients.push(client);
    const { types, taskId, result } = await within(callAsTask(client, "approve", {}), BOUND_MS, "the task's end");
    expect(types).toContain("taskCreated");
    expect(result).toMatchObject({ content: [{ type: "text", text: expect.stringMatching(/^approved by \d+$/) }] });
    expect(result!._meta).toEqual({ [RELATED]: { taskId } });
    // The question came on instance 1's tasks/result stream, tied to the task (2025-11-25 "Tasks": MUST).
    expect(asked).toEqual([expect.objectContaining({ message: "Approve?", _meta: { [RELATED]: { taskId } } })]);
    const where = (kind: string) => sent.filter((message) => message.kind === kind).map((m) => m.instance);
    expect(where("tools/call")).toEqual(["0"]);
    expect(where("tasks/result")).toEqual(["1"]);
    expect(where("answer")).toEqual(["2"]);
  });

  it("sends a task's progress to a tasks/result of another instance, also when the task ended before it came", async () => {
    const { client, sent } = await connect(cluster!.url, { "tools/call": 2, "tasks/result": 0 });
    clients.push(client);
    const progress: Progress[] = [];
    const { taskId, result } = await within(
      callAsTask(client, "progress_task", { count: 3 }, progress),
      BOUND_MS,
      "the task's end",
    );
    expect(result).toMatchObject({ content: [{ text: expect.stringMatching(/^did 3 steps on \d+$/) }] });
    expect(result!._meta).toEqual({ [RELATED]: { taskId } });
    // The v1 client calls tasks/result once the task has completed: what the run kept goes there first.
    // Each tied to the task by related-task _meta (2025-11-25 "Tasks": MUST).
    const _meta = { [RELATED]: { taskId } };
    expect(progress).toEqual([1, 2, 3].map((n) => ({ progress: n, total: 3, message: `step ${n}`, _meta })));
    expect(sent.filter((message) => message.kind === "tasks/result").map((m) => m.instance)).toEqual(["0"]);
  });

  it("never hangs behind plain round robin: every task that asks or reports progress ends", async () => {
    const { client, sent, asked } = await connect(cluster!.url, {});
    clients.push(client);
    for (let call = 0; call < 4; call++) {
      const approved = await within(callAsTask(client, "approve", {}), BOUND_MS, `approve #${call}`);
      expect(approved.result, `approve #${call}`).toMatchObject({
        content: [{ text: expect.stringMatching(/^approved/) }],
      });
      const progress: Progress[] = [];
      const stepped = await within(
        callAsTask(client, "progress_task", { count: 2 }, progress),
        BOUND_MS,
        `steps #${call}`,
      );
      expect(stepped.result, `steps #${call}`).toMatchObject({
        content: [{ text: expect.stringMatching(/^did 2 steps/) }],
      });
      expect(
        progress.map((p) => p.progress),
        `steps #${call}`,
      ).toEqual([1, 2]);
    }
    expect(asked).toHaveLength(4);
    // Round robin spread the session's messages over every instance.
    expect(new Set(sent.map((message) => message.instance))).toEqual(new Set(["0", "1", "2"]));
  });

  it("answers a tasks/result waiting on one instance with the failure of a task whose instance died", async () => {
    const { client } = await connect(cluster!.url, { "tools/call": 0, "tasks/result": 1 });
    clients.push(client);
    const created = await within(
      client.request(
        { method: "tools/call", params: { name: "forever", arguments: {}, task: { ttl: 60_000 } } },
        CreateTaskResultSchema,
      ),
      BOUND_MS,
      "the task's creation",
    );
    const taskId = created.task.taskId;
    const waiting = client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    const failure = within(waiting, BOUND_MS, "the tasks/result").then(
      () => undefined,
      (error: Error) => error,
    );
    // The task is running on instance 0 and its tasks/result waits on instance 1: instance 0 dies.
    expect((await client.experimental.tasks.getTask(taskId)).status).toBe("working");
    await cluster!.kill(0);
    const error = await failure;
    expect(error?.message).toMatch(/instance running this task stopped before it finished/);
  });
});
