/**
 * A 2026-07-28 client of the Tasks extension in a few lines, over real HTTP (a `serve({ port: 0 })`
 * listener on 127.0.0.1): every request statelessly with the `_meta` envelope and the SEP-2243
 * headers, `Mcp-Name` carrying the taskId for the tasks methods (SEP-2663 routing headers).
 */
import { expect } from "vitest";
import { META } from "../../src/core/types.js";
import type { SessionAnswer } from "../http-helpers.js";

export const TASKS = "io.modelcontextprotocol/tasks";
const TERMINAL = ["completed", "failed", "cancelled"];

type Body = Record<string, unknown>;

export interface Reply {
  status: number;
  body: { result?: Body; error?: { code: number; message: string; data?: Body } };
}

let nextId = 1;

export class TasksClient {
  readonly #url: string;
  readonly #capabilities: Body;

  /** `declares`: whether the client's requests declare the extension, or the client capabilities they declare. */
  constructor(url: string, declares: boolean | Body = true) {
    this.#url = url;
    if (typeof declares === "object") this.#capabilities = declares;
    else this.#capabilities = declares ? { elicitation: {}, extensions: { [TASKS]: {} } } : { elicitation: {} };
  }

  /** Sends one request; `headers` replaces the standard ones it names (null drops one). */
  async send(method: string, params: Body = {}, headers: Record<string, string | null> = {}): Promise<Reply> {
    const response = await this.open(method, params, headers);
    return { status: response.status, body: (await response.json()) as Reply["body"] };
  }

  /** Sends one request and answers the HTTP response as it comes (an SSE stream for subscriptions/listen). */
  async open(method: string, params: Body = {}, headers: Record<string, string | null> = {}): Promise<Response> {
    const named = method.startsWith("tasks/") ? params.taskId : (params.name ?? params.uri);
    const standard: Record<string, string | null> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof named === "string" ? { "mcp-name": named } : {}),
      ...headers,
    };
    const sent: Record<string, string> = {};
    for (const [name, value] of Object.entries(standard)) if (value !== null) sent[name] = value;
    const _meta = { [META.protocolVersion]: "2026-07-28", [META.clientCapabilities]: this.#capabilities };
    return fetch(this.#url, {
      method: "POST",
      headers: sent,
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta } }),
    });
  }

  /** A request that must succeed: its result. */
  async result(method: string, params: Body = {}): Promise<Body> {
    const reply = await this.send(method, params);
    expect(reply.body.error, `${method} failed`).toBeUndefined();
    return reply.body.result!;
  }

  /** A request that must fail: its JSON-RPC error. */
  async error(method: string, params: Body = {}): Promise<NonNullable<Reply["body"]["error"]>> {
    const reply = await this.send(method, params);
    expect(reply.body.result, `${method} succeeded`).toBeUndefined();
    return reply.body.error!;
  }

  /** Polls `tasks/get` until the task has `status` or is terminal; bounded (a failure guard, not a timing). */
  async until(taskId: string, status?: string): Promise<Body> {
    for (let polls = 0; polls < 400; polls++) {
      const task = await this.result("tasks/get", { taskId });
      if (task.status === status || TERMINAL.includes(task.status as string)) return task;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`task ${taskId} never reached ${status ?? "a terminal status"}`);
  }
}

/** The taskId of a 2025-11-25 task-augmented `tools/call`'s answer (its CreateTaskResult). */
export function createdTaskId(created: SessionAnswer): string {
  const task = created.answer?.result?.task;
  const taskId = typeof task === "object" && task !== null && "taskId" in task ? task.taskId : undefined;
  if (typeof taskId !== "string") throw new Error(`no task was created: ${JSON.stringify(created)}`);
  return taskId;
}
