/**
 * The experimental tasks of 2025-11-25 ("Tasks", SEP-1686) on the wire, over Streamable HTTP
 * sessions on a 127.0.0.1 listener (test/fixtures/tasks-server.ts): the capability, the `task`
 * parameter and its refusals, the 2025 Task shape, `tasks/result` (blocking, exactly the call's
 * result or error, related-task `_meta`, the run's progress and logs on its stream), `tasks/list`
 * and `tasks/cancel`, and tasks bound to their session. The official v1 client drives the same
 * server in test/peers/tasks-v1.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode } from "../../src/index.js";
import type { Listening } from "../../src/transports/listen.js";
import { tasksServer } from "../fixtures/tasks-server.js";
import { EventReader } from "../http-helpers.js";
import { TasksClient } from "./tasks-helpers.js";

const RELATED = "io.modelcontextprotocol/related-task";
type Body = Record<string, unknown>;
type Message = {
  id?: unknown;
  method?: string;
  params?: Body;
  result?: Body;
  error?: { code: number; message: string };
};

let listening: Listening;

beforeAll(async () => {
  listening = await tasksServer().serve({ port: 0 });
});

afterAll(async () => {
  await listening.close();
});

/** A 2025-11-25 session over HTTP: every message it received for a request, the response last. */
class Session {
  capabilities: Body = {};
  #id = "";
  #next = 1;

  static async open(capabilities: Body = {}): Promise<Session> {
    const session = new Session();
    const opened = await session.#post({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } },
    });
    session.#id = opened.headers.get("mcp-session-id")!;
    session.capabilities = ((await opened.json()) as { result: { capabilities: Body } }).result.capabilities;
    expect((await session.#post({ jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
    return session;
  }

  /** Sends a request; answers what came back for it, in order (a JSON reply is one message). */
  async messages(method: string, params: Body = {}): Promise<Message[]> {
    const response = await this.#post({ jsonrpc: "2.0", id: this.#next++, method, params });
    if (response.headers.get("content-type") !== "text/event-stream") return [(await response.json()) as Message];
    const events = await new EventReader(response).rest();
    return events.filter((event) => event.data !== "").map((event) => JSON.parse(event.data) as Message);
  }

  async result(method: string, params: Body = {}): Promise<Body> {
    const response = (await this.messages(method, params)).at(-1)!;
    expect(response.error, `${method} failed`).toBeUndefined();
    return response.result!;
  }

  async error(method: string, params: Body = {}): Promise<{ code: number; message: string }> {
    const response = (await this.messages(method, params)).at(-1)!;
    expect(response.result, `${method} succeeded`).toBeUndefined();
    return response.error!;
  }

  /** Sends a request as a client that accepts only JSON: no stream for it, one JSON reply. */
  async jsonOnly(method: string, params: Body = {}): Promise<Message> {
    const response = await this.#post({ jsonrpc: "2.0", id: this.#next++, method, params }, "application/json");
    return (await response.json()) as Message;
  }

  /** Sends the client's answer to a request of the server's. */
  async answer(id: unknown, result: Body): Promise<void> {
    expect((await this.#post({ jsonrpc: "2.0", id, result })).status).toBe(202);
  }

  /** Opens the session's GET stream, where the server's own messages go. */
  async standalone(): Promise<EventReader> {
    const headers = { accept: "text/event-stream", "mcp-session-id": this.#id, "mcp-protocol-version": "2025-11-25" };
    return new EventReader(await fetch(listening.url, { headers }));
  }

  #post(body: unknown, accept = "application/json, text/event-stream"): Promise<Response> {
    const headers: Record<string, string> = { "content-type": "application/json", accept };
    if (this.#id) Object.assign(headers, { "mcp-session-id": this.#id, "mcp-protocol-version": "2025-11-25" });
    return fetch(listening.url, { method: "POST", headers, body: JSON.stringify(body) });
  }
}

describe("2025-11-25 tasks over an HTTP session", () => {
  let session: Session;

  beforeAll(async () => {
    session = await Session.open();
  });

  it("advertises capabilities.tasks in initialize, and each task tool's execution.taskSupport", async () => {
    expect(session.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = (await session.result("tools/list")) as { tools: Body[] };
    expect(tools.find((tool) => tool.name === "plain")).not.toHaveProperty("execution");
    expect(tools.find((tool) => tool.name === "confirm_delete")?.execution).toEqual({ taskSupport: "required" });
  });

  it("creates a task with the TTL asked for (at most the tool's), in the 2025 Task shape", async () => {
    const created = await session.result("tools/call", { name: "slow", arguments: { ms: 10 }, task: { ttl: 5000 } });
    const task = created.task as Body;
    expect(task).toMatchObject({ status: "working", ttl: 5000, pollInterval: 20 });
    expect(task).not.toHaveProperty("ttlMs");
    expect(created).not.toHaveProperty("resultType");
    const got = await session.result("tasks/get", { taskId: task.taskId });
    expect(Object.keys(got).sort()).toEqual(["createdAt", "lastUpdatedAt", "pollInterval", "status", "taskId", "ttl"]);
    const longer = await session.result("tools/call", { name: "slow", arguments: { ms: 0 }, task: { ttl: 1e10 } });
    expect((longer.task as Body).ttl).toBe(3_600_000);
  });

  it("answers tasks/result once the task ends, with the run's progress, logs and status first, tied to the task", async () => {
    const created = await session.result("tools/call", {
      name: "slow",
      arguments: { ms: 100 },
      task: {},
      _meta: { progressToken: "p1" },
    });
    const taskId = (created.task as Body).taskId;
    const received = await session.messages("tasks/result", { taskId });
    // A status notification comes only if the task changes while tasks/result waits (it may finish first).
    const statuses = received.filter((message) => message.method === "notifications/tasks/status");
    for (const status of statuses) {
      expect(status.params).toMatchObject({ taskId, status: "completed", ttl: 3_600_000 });
      // It carries the Task, without the related-task key (SHOULD NOT).
      expect(status.params).not.toHaveProperty("_meta");
    }
    const messages = received.filter((message) => message.method !== "notifications/tasks/status");
    const related = { [RELATED]: { taskId } };
    expect(messages.map((message) => message.method ?? "response")).toEqual([
      "notifications/progress",
      "notifications/message",
      "notifications/progress",
      "response",
    ]);
    expect(messages[0]!.params).toEqual({
      progressToken: "p1",
      progress: 1,
      total: 2,
      message: "half way",
      _meta: related,
    });
    expect(messages[1]!.params).toEqual({ level: "info", data: "working on it", _meta: related });
    expect(messages[3]!.result).toEqual({ content: [{ type: "text", text: "slept 100 ms" }], _meta: related });
    // The related-task key stays off tasks/get (SHOULD NOT).
    expect(await session.result("tasks/get", { taskId })).not.toHaveProperty("_meta");
  });

  it("answers tasks/result with the call's JSON-RPC error for a task that failed with one", async () => {
    const created = await session.result("tools/call", { name: "protocol_error", task: {} });
    const error = await session.error("tasks/result", { taskId: (created.task as Body).taskId });
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams, message: "no such record" });
  });

  it("refuses a task parameter for a tool without a task setting, and a call without one to a task-only tool", async () => {
    const plain = await session.error("tools/call", { name: "plain", task: {} });
    expect(plain.code).toBe(ErrorCode.MethodNotFound);
    expect(plain.message).toContain("call it without params.task");
    const required = await session.error("tools/call", { name: "confirm_delete", arguments: { file: "x" } });
    expect(required.code).toBe(ErrorCode.MethodNotFound);
    expect(required.message).toContain('its execution.taskSupport is "required"');
    const bad = await session.error("tools/call", { name: "slow", task: { ttl: -1 } });
    expect(bad.code).toBe(ErrorCode.InvalidParams);
    expect(await session.result("tools/call", { name: "slow", arguments: { ms: 0 } })).toMatchObject({
      content: [{ text: "slept 0 ms" }],
    });
  });

  it("lists the session's tasks, cancels a running one, and refuses to cancel it again", async () => {
    const created = await session.result("tools/call", { name: "blocked", arguments: { label: "raw" }, task: {} });
    const taskId = (created.task as Body).taskId;
    const { tasks } = (await session.result("tasks/list")) as { tasks: Body[] };
    expect(tasks.find((task) => task.taskId === taskId)).toMatchObject({ status: "working", ttl: 3_600_000 });
    expect(await session.result("tasks/cancel", { taskId })).toMatchObject({ taskId, status: "cancelled" });
    await expect
      .poll(async () => (await session.result("tools/call", { name: "cancelled_runs" })).content)
      .toEqual([{ type: "text", text: expect.stringContaining("raw") }]);
    expect((await session.error("tasks/cancel", { taskId })).code).toBe(ErrorCode.InvalidParams);
    const result = await session.error("tasks/result", { taskId });
    expect(result.message).toContain("was cancelled");
  });

  it("asks a task's question on the GET stream when the waiting tasks/result takes only JSON", async () => {
    const fresh = await Session.open({ elicitation: {} });
    const created = await fresh.result("tools/call", {
      name: "confirm_delete",
      arguments: { file: "b.txt" },
      task: {},
    });
    const taskId = (created.task as Body).taskId;
    await expect.poll(async () => (await fresh.result("tasks/get", { taskId })).status).toBe("input_required");
    const events = await fresh.standalone();
    const waiting = fresh.jsonOnly("tasks/result", { taskId });
    let question: Message | undefined;
    for (let event = 0; event < 5 && !question?.method; event++) {
      const next = await events.next();
      if (next?.data) question = JSON.parse(next.data) as Message;
    }
    expect(question).toMatchObject({
      method: "elicitation/create",
      params: { message: "Delete b.txt?", _meta: { [RELATED]: { taskId } } },
    });
    await fresh.answer(question!.id, { action: "accept", content: { confirm: true } });
    expect((await waiting).result).toMatchObject({ content: [{ type: "text", text: "deleted b.txt" }] });
    await events.cancel();
  });

  it("lists a page of 50 at a time, with nextCursor while more remain", async () => {
    const fresh = await Session.open();
    const ids: unknown[] = [];
    for (let i = 0; i < 51; i++) {
      const created = await fresh.result("tools/call", { name: "slow", arguments: { ms: 0 }, task: {} });
      ids.push((created.task as Body).taskId);
    }
    const first = (await fresh.result("tasks/list")) as { tasks: Body[]; nextCursor?: string };
    expect(first.tasks.map((task) => task.taskId)).toEqual(ids.slice(0, 50));
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await fresh.result("tasks/list", { cursor: first.nextCursor })) as Body;
    expect((second.tasks as Body[]).map((task) => task.taskId)).toEqual(ids.slice(50));
    expect(second).not.toHaveProperty("nextCursor");
    expect((await fresh.error("tasks/list", { cursor: "nope" })).code).toBe(ErrorCode.InvalidParams);
  });

  it("goes on to the next page when the task its cursor follows has expired meanwhile", async () => {
    const fresh = await Session.open();
    const ids: unknown[] = [];
    for (let i = 0; i < 53; i++) {
      // The 50th, the last of the first page, expires first.
      const task = i === 49 ? { ttl: 150 } : {};
      const created = await fresh.result("tools/call", { name: "slow", arguments: { ms: 0 }, task });
      ids.push((created.task as Body).taskId);
    }
    const first = (await fresh.result("tasks/list")) as { tasks: Body[]; nextCursor?: string };
    expect(first.tasks.map((task) => task.taskId)).toEqual(ids.slice(0, 50));
    // Bounded (a failure guard, not a timing): until the 50th task has expired.
    for (let polls = 0; polls < 100; polls++) {
      const listed = (await fresh.result("tasks/list")) as { tasks: Body[] };
      if (!listed.tasks.some((task) => task.taskId === ids[49])) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const second = (await fresh.result("tasks/list", { cursor: first.nextCursor })) as Body;
    expect((second.tasks as Body[]).map((task) => task.taskId)).toEqual(ids.slice(50));
  });

  it("keeps tasks to their session: another session, or a 2026-07-28 request, cannot see them", async () => {
    const created = await session.result("tools/call", { name: "slow", arguments: { ms: 0 }, task: {} });
    const taskId = (created.task as Body).taskId as string;
    const other = await Session.open();
    expect((await other.error("tasks/get", { taskId })).code).toBe(ErrorCode.InvalidParams);
    expect(((await other.result("tasks/list")) as { tasks: Body[] }).tasks).toEqual([]);
    const modern = new TasksClient(listening.url);
    expect((await modern.error("tasks/get", { taskId })).code).toBe(ErrorCode.InvalidParams);
    // 2026-07-28 removed tasks/result and tasks/list; 2025-11-25 never had tasks/update.
    expect((await modern.send("tasks/result", { taskId })).body.error?.code).toBe(ErrorCode.MethodNotFound);
    expect((await modern.send("tasks/list")).body.error?.code).toBe(ErrorCode.MethodNotFound);
    expect((await session.error("tasks/update", { taskId, inputResponses: {} })).code).toBe(ErrorCode.MethodNotFound);
  });
});
