import type { RequestContext } from "../core/context.js";
import { ErrorCode, McpError } from "../core/errors.js";
import type { Context } from "../core/handler-context.js";
import { isObject } from "../core/jsonrpc.js";
import type { Registry } from "../core/registry.js";
import type { CallToolResult, TaskSettings, Tool } from "../core/tools.js";
import type { InputRequest } from "../core/types.js";
import type { Bus } from "../state/state.js";
import { type RunEvents, TaskRun } from "./run.js";
import type { TaskStore } from "./store.js";
import { detailed, isTerminal, TASKS, type TaskError, type TaskRecord, taskFields } from "./task.js";

type Result = Record<string, unknown>;

/** How long a task stays readable, and how often clients should poll, unless its tool says otherwise. */
export const DEFAULT_TTL_MS = 60 * 60_000;
export const DEFAULT_POLL_INTERVAL_MS = 1000;

/** How a run's status change is retried against a shared store that is unreachable: a minute, every second. */
const MAX_KEEP_ATTEMPTS = 60;
const KEEP_RETRY_MS = 1000;

/** A tool call to run as a task: the tool, its checked settings, its arguments as sent, the request's context. */
export interface TaskCall {
  readonly tool: Tool;
  readonly settings: TaskSettings;
  readonly args: Record<string, unknown> | undefined;
  readonly ctx: Context;
}

/** What a context class needs to be made for a task's run: the server's, with plug-ins' additions. */
export type ContextClass = typeof RequestContext;

/**
 * The tasks of one server: created by task-augmented `tools/call`s, read by `tasks/get`, answered
 * by `tasks/update`, cancelled by `tasks/cancel`. Records live in the store; the runs of this
 * process, by task id, in `#runs`.
 */
export class Tasks {
  readonly #store: TaskStore;
  readonly #Context: () => ContextClass;
  readonly #registry: Registry;
  readonly #runs = new Map<string, { run: TaskRun; expiry: ReturnType<typeof setTimeout> }>();
  /** Several instances share the store: a task's answers and cancellation go to the one running it. */
  #bus: Bus | undefined;

  constructor(store: TaskStore, Context: () => ContextClass, registry: Registry) {
    this.#store = store;
    this.#Context = Context;
    this.#registry = registry;
  }

  /** Shares this server's tasks with the other instances on `bus`: it carries answers and cancellations to the run. */
  share(bus: Bus): void {
    this.#bus = bus;
    bus.subscribe((message) => {
      if (message.type === "task-input") void this.#answer(message.taskId, message.responses).catch(() => {});
      else if (message.type === "task-cancel") this.#stop(message.taskId, "The client cancelled the task");
    });
  }

  /**
   * Creates the task of a tool call and starts its run; answers the `CreateTaskResult` once the
   * task is in the store (SEP-2663: a `tasks/get` for it must resolve from then on).
   */
  async create(call: TaskCall, answers?: Map<string, unknown>): Promise<Result> {
    const { tool, settings, args, ctx } = call;
    const now = Date.now();
    const record: TaskRecord = {
      taskId: crypto.randomUUID(),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: settings.ttlMs ?? DEFAULT_TTL_MS,
      pollIntervalMs: settings.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
      owner: ownerOf(ctx),
    };
    try {
      await this.#store.put(record);
    } catch (thrown) {
      throw new McpError(ErrorCode.InternalError, `Could not create a task: ${(thrown as Error).message}`);
    }
    const taskId = record.taskId;
    const run = new TaskRun({ tool, args, ctx: this.#contextFor(ctx) }, this.#events(taskId), answers);
    // The TTL ends the run too: nobody could read its result afterwards.
    const expiry = setTimeout(() => this.#stop(taskId, "The task's TTL passed"), record.ttlMs);
    this.#runs.set(taskId, { run, expiry });
    void run.start().finally(() => this.#forget(taskId));
    return { resultType: "task", ...taskFields(record) };
  }

  /** `tasks/get`: the task with its status's fields inlined. */
  async get(params: Result | undefined, ctx: Context): Promise<Result> {
    return detailed(await this.#find(params, ctx));
  }

  /** `tasks/update`: answers to the questions the task waits on; an empty acknowledgement. */
  async update(params: Result | undefined, ctx: Context): Promise<Result> {
    const responses = params?.inputResponses;
    if (!isObject(responses)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        "Invalid params: tasks/update needs params.inputResponses, the answers by the keys of the task's inputRequests",
      );
    }
    const record = await this.#find(params, ctx);
    if (record.status !== "input_required") return {};
    // The run is another instance's: the answers go there.
    if (!this.#runs.has(record.taskId) && this.#bus) {
      await this.#bus.publish({ type: "task-input", taskId: record.taskId, responses });
      return {};
    }
    await this.#answer(record.taskId, responses);
    return {};
  }

  /** Hands answers to this process's run of a task, if it has one. */
  async #answer(taskId: string, responses: Record<string, unknown>): Promise<void> {
    const running = this.#runs.get(taskId);
    if (!running) return;
    const taken = Object.keys(responses).filter((key) => running.run.waiting.has(key));
    if (taken.length === 0) return;
    const resumed = running.run.answer(responses);
    // Answered questions leave `inputRequests` at once; the last answer resumes the run.
    await this.#store.update(taskId, (current) => {
      if (current.status !== "input_required") return undefined;
      if (resumed) return { ...withoutQuestions(current), status: "working", lastUpdatedAt: Date.now() };
      const inputRequests = { ...current.inputRequests };
      for (const key of taken) delete inputRequests[key];
      return { ...current, inputRequests, lastUpdatedAt: Date.now() };
    });
  }

  /** `tasks/cancel`: a task not finished yet is cancelled at once and its run's signal aborts; an acknowledgement. */
  async cancel(params: Result | undefined, ctx: Context): Promise<Result> {
    const record = await this.#find(params, ctx);
    if (!isTerminal(record.status)) {
      await this.#change(record.taskId, { status: "cancelled", statusMessage: "Cancelled by the client" });
      if (!this.#runs.has(record.taskId)) await this.#bus?.publish({ type: "task-cancel", taskId: record.taskId });
      this.#stop(record.taskId, "The client cancelled the task");
    }
    return {};
  }

  /** Ends every run of this process (the server is shutting down): they are recorded as failed. */
  async close(): Promise<void> {
    const ids = [...this.#runs.keys()];
    await Promise.all(
      ids.map(async (taskId) => {
        await this.#change(taskId, {
          status: "failed",
          error: { code: ErrorCode.InternalError, message: "The server shut down before the task finished" },
        });
        this.#stop(taskId, "The server is shutting down");
      }),
    );
  }

  async #find(params: Result | undefined, ctx: Context): Promise<TaskRecord> {
    const taskId = params?.taskId;
    if (typeof taskId !== "string") {
      throw new McpError(ErrorCode.InvalidParams, "Invalid params: params.taskId must be the taskId of a task");
    }
    const record = await this.#store.get(taskId);
    // Another caller's task is as unknown as one that never existed: its existence is not revealed.
    if (!record || record.owner !== ownerOf(ctx)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Failed to retrieve task: no task "${taskId}" (it may have expired); call the tool again to start a new one`,
      );
    }
    return record;
  }

  #events(taskId: string): RunEvents {
    return {
      asking: (questions: Record<string, InputRequest>) =>
        this.#keep(taskId, { status: "input_required", inputRequests: questions }),
      working: () => this.#keep(taskId, { status: "working" }),
      completed: (result: CallToolResult) => this.#keep(taskId, { status: "completed", result }),
      failed: (error: TaskError) => this.#keep(taskId, { status: "failed", error, statusMessage: error.message }),
    };
  }

  /**
   * Records what the run did, trying again while a shared store is unreachable (a memory store
   * never fails): a status is not lost to an outage, and clients see it once the store is back.
   */
  #keep(taskId: string, change: Partial<TaskRecord>, attempt = 0): void {
    const kept = this.#change(taskId, change);
    if (!(kept instanceof Promise)) return;
    kept.catch(() => {
      // After a minute the change is given up: the task keeps its last recorded status until its TTL.
      if (attempt < MAX_KEEP_ATTEMPTS) setTimeout(() => this.#keep(taskId, change, attempt + 1), KEEP_RETRY_MS);
    });
  }

  /** A change of a running task's status; nothing once it is terminal (those states never change). */
  #change(taskId: string, change: Partial<TaskRecord>) {
    return this.#store.update(taskId, (current) =>
      isTerminal(current.status) ? undefined : { ...withoutQuestions(current), ...change, lastUpdatedAt: Date.now() },
    );
  }

  #stop(taskId: string, reason: string): void {
    this.#runs.get(taskId)?.run.cancel(new DOMException(reason, "AbortError"));
    this.#forget(taskId);
  }

  #forget(taskId: string): void {
    const running = this.#runs.get(taskId);
    if (!running) return;
    clearTimeout(running.expiry);
    this.#runs.delete(taskId);
  }

  /**
   * The run's own context: the request's client and caller, but not its lifetime (the response ends
   * that). Its gate is the server's auth settings: the run answers no HTTP request, so challenges
   * (the HTTP side of the request's gate) have nowhere to go.
   */
  #contextFor(ctx: Context): RequestContext {
    const Context = this.#Context();
    return new Context(
      {
        id: ctx.requestId,
        meta: ctx.meta,
        protocolVersion: ctx.protocolVersion,
        era: ctx.era,
        clientInfo: ctx.client.info,
        clientCapabilities: ctx.client.capabilities,
        client: ctx.client,
        auth: ctx.auth,
      },
      undefined,
      this.#registry.auth,
    );
  }
}

function withoutQuestions(record: TaskRecord): TaskRecord {
  const { inputRequests: _, statusMessage: __, ...rest } = record;
  return rest;
}

/** Whether the request declared the Tasks extension (per request in 2026-07-28, SEP-2575). */
export function declaresTasks(ctx: Context): boolean {
  return isObject(ctx.client.capabilities.extensions?.[TASKS]);
}

/** -32021 naming the extension (SEP-2663 "Capability Negotiation", SEP-2575 "Missing Required Capabilities"). */
export function missingTasks(what: string): McpError {
  return new McpError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${what} needs the "${TASKS}" extension; declare it in _meta["io.modelcontextprotocol/clientCapabilities"].extensions`,
    { requiredCapabilities: { extensions: { [TASKS]: {} } } },
  );
}

/** The caller a task belongs to: issuer and subject of the verified identity, "" for anonymous callers. */
function ownerOf(ctx: Context): string {
  const auth = ctx.auth;
  return typeof auth?.subject === "string" ? `${auth.issuer ?? ""} ${auth.subject}` : "";
}
