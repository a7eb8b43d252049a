import type { RequestContext } from "../core/context.js";
import { ErrorCode, McpError, messageOf, Unavailable } from "../core/errors.js";
import type { Context } from "../core/handler-context.js";
import { isObject, type JsonRpcMessage } from "../core/jsonrpc.js";
import type { Registry } from "../core/registry.js";
import { shown } from "../core/safe.js";
import type { CallToolResult, TaskSettings, Tool } from "../core/tools.js";
import type { InputRequest } from "../core/types.js";
import type { Bus } from "../state/state.js";
import { TaskChanges } from "./changes.js";
import { SessionChannel } from "./channel.js";
import { askerOf, runContext } from "./contexts.js";
import { declaresOnlyLegacyTasks, missingTasks } from "./extension.js";
import { Holds } from "./holds.js";
import { after } from "./long-timer.js";
import { ANONYMOUS, callerOf, ownerOf, reaches, sessionOf } from "./owners.js";
import { notStarted, tooMany, unknownTask } from "./refusals.js";
import { TaskRelay } from "./relay.js";
import { type RunEvents, TaskRun } from "./run.js";
import { DEFAULT_MAX_TASKS, type TaskStore } from "./store.js";
import {
  detailed,
  isTerminal,
  legacyTask,
  related,
  type TaskError,
  type TaskRecord,
  taskFields,
  withRelated,
} from "./task.js";
import { StatusWrites } from "./writes.js";

type Result = Record<string, unknown>;

/** How long a task stays readable, and how often clients should poll, unless its tool says otherwise. */
const DEFAULT_TTL_MS = 60 * 60_000;
const DEFAULT_POLL_INTERVAL_MS = 1000;

/**
 * How answers for a run on another instance are handed over (`#handOver`): sent, then checked in the
 * task's record at its next change or after HAND_OVER_CHECK_MS, at most HAND_OVER_ATTEMPTS times
 * (about 3 s), longer than a subscriber takes to reconnect.
 */
const HAND_OVER_ATTEMPTS = 10;
const HAND_OVER_CHECK_MS = 300;

/** What `close` records of the tasks it stops: failed, with no runner (this instance goes, relay.ts). */
const SHUT_DOWN = {
  status: "failed",
  error: { code: ErrorCode.InternalError, message: "The server shut down before the task finished" },
  runner: undefined,
} as const;

/** Why a run stops at `tasks/cancel`, wherever it was received. */
const CANCELLED = "The client cancelled the task";

/** Why a run waiting for answers stops when its questions could not be recorded (`#unrecorded`). */
const UNRECORDED_QUESTIONS = "The task's questions could not be recorded: the server's shared state was unreachable";

/** A tool call to run as a task: the tool, its checked settings, its arguments as sent, the request's context. */
export interface TaskCall {
  readonly tool: Tool;
  readonly settings: TaskSettings;
  readonly args: Record<string, unknown> | undefined;
  readonly ctx: Context;
  /** A 2025-11-25 call's `task.ttl`, the TTL it asked for (the server may give less, never more than the tool's). */
  readonly ttl?: number | undefined;
}

/** What a context class needs to be made for a task's run: the server's, with plug-ins' additions. */
export type ContextClass = typeof RequestContext;

/** 2025-11-25 tasks whose messages may still be waiting for a `tasks/result`; beyond this, the oldest of those not running go. */
const MAX_CHANNELS = 1000;

/**
 * The tasks of one server, in both eras: created by task-augmented `tools/call`s, read by
 * `tasks/get`, answered by `tasks/update` (2026-07-28) or through a waiting `tasks/result`
 * (2025-11-25), cancelled by `tasks/cancel`. Records live in the store; the runs of this process,
 * by task id, in `#runs`; every change goes through `#apply`, which tells `changes`.
 */
export class Tasks {
  readonly store: TaskStore;
  readonly changes = new TaskChanges();
  readonly #Context: () => ContextClass;
  readonly #registry: Registry;
  readonly #runs = new Map<string, TaskRun>();
  /** How each 2025-11-25 task reaches its session: kept after the run until a tasks/result took what waited, or the TTL. */
  readonly #channels = new Map<string, SessionChannel>();
  /**
   * The session each 2025-11-25 task holds in use (Session.tasks), apart from its channel: a channel
   * let go for room (MAX_CHANNELS, one client's many tasks) leaves the result in the store, and its
   * session must stay for a tasks/result to read it. Walked for holds past their TTL once there are
   * twice as many as MAX_CHANNELS, or as the last walk left.
   */
  readonly #holds = new Holds(MAX_CHANNELS);
  /** Several instances share the store: a task's answers and cancellation go to the one running it. */
  #bus: Bus | undefined;
  /** With a bus: a 2025-11-25 task's messages reach a `tasks/result` on another instance (relay.ts). */
  relay: TaskRelay | undefined;
  /** What the runs did, recorded in the store, again while it is unreachable, until `close` (`#unrecorded`). */
  readonly #writes = new StatusWrites((taskId) => this.#unrecorded(taskId));
  /** The tasks being stored before their runs start: they count towards the bound of runs (`create`). */
  #starting = 0;
  /** The caller (`callerOf`) of each task running here or being stored, and how many each has: `create` bounds them. */
  readonly #callers = new Map<string, string>();
  readonly #perCaller = new Map<string, number>();
  /** Set by `close`: no run starts after it, and no answers are handed over. */
  #closed = false;
  /** What `close` waits for besides the runs: tasks being stored and started, answers being handed over. */
  readonly #pending = new Set<Promise<unknown>>();
  /** Ends the waits of the answers being handed over (`#nextChange`) at `close`. */
  readonly #waits = new Set<() => void>();
  /** Ends this server's listening on the bus (`close`): the state outlives the server, and would keep it. */
  #unshare: (() => void) | undefined;
  /** Ends this server's watching of the store for its tasks ended elsewhere (`close`), for the same reason. */
  readonly #unwatch: (() => void) | undefined;

  constructor(store: TaskStore, Context: () => ContextClass, registry: Registry) {
    this.store = store;
    this.#Context = Context;
    this.#registry = registry;
    // A task of this server ended elsewhere while its message here was lost: the run stops all the same.
    this.#unwatch = store.watchEnds?.((taskId, record) => this.#stop(taskId, endedElsewhere(record)));
  }

  /**
   * Shares this server's tasks with the other instances on `bus`: it carries answers and
   * cancellations to the run, and a 2025-11-25 task's messages to a `tasks/result` on another instance.
   */
  share(bus: Bus): void {
    this.#bus = bus;
    const relay = new TaskRelay(bus, this);
    this.relay = relay;
    this.#unshare = bus.subscribe((message) => {
      relay.receive(message);
      if (message.type === "task-input") void this.#answer(message.taskId, message.responses).catch(() => {});
      else if (message.type === "task-cancel") this.#stop(message.taskId, CANCELLED);
      // Another instance changed a task: this one's watchers (listen streams with taskIds) hear it.
      else if (message.type === "task" && this.changes.watched(message.taskId)) void this.#reread(message.taskId);
      else if (message.type === "rejoined") this.#rejoined();
    });
  }

  /**
   * This instance's subscription was away (pub/sub kept nothing for it): the changes, and the
   * cancellations of its runs, that other instances published meanwhile are read from the store.
   */
  #rejoined(): void {
    for (const taskId of [...this.changes.watchedIds()]) void this.#reread(taskId);
    for (const taskId of [...this.#runs.keys()]) {
      // Inside then: a store (user code) whose get throws rather than rejects is away too, and a
      // throw here would leave the bus's listener (in the Redis client's socket handler with ioredis).
      Promise.resolve()
        .then(() => this.store.get(taskId))
        .then(
          // Cancelled elsewhere (or gone): the run stops, as task-cancel would have stopped it.
          (record) => (!record || isTerminal(record.status)) && this.#stop(taskId, endedElsewhere(record)),
          () => {}, // The store is away: its runs keep going, as they would have.
        );
    }
  }

  /** Tells this instance's watchers of a task what another instance made of it (the store has it). */
  async #reread(taskId: string): Promise<void> {
    let record: TaskRecord | undefined;
    try {
      record = await this.store.get(taskId);
    } catch {
      return; // The store is away: the watchers hear the task's next change instead.
    }
    if (record) this.changes.publish(taskId, record);
  }

  /**
   * Creates the task of a tool call and starts its run; answers the era's `CreateTaskResult` once the
   * task is in the store (SEP-2663: a `tasks/get` for it must resolve from then on).
   */
  async create(call: TaskCall, answers?: Map<string, unknown>): Promise<Result> {
    if (this.#closed) throw notStarted();
    // The runs are this process's, whatever the store holds (a shared one has no bound of its own):
    // a client starting tasks that never end would grow it without bound.
    const most = this.#registry.limits.maxTasks ?? DEFAULT_MAX_TASKS;
    if (this.#runs.size + this.#starting >= most) {
      throw new McpError(
        ErrorCode.InternalError,
        `Could not create a task: the server is running ${most} tasks already, the most it may (limits.maxTasks = ${most}); try again once one has finished, or cancel those you no longer need with tasks/cancel.`,
        { limit: "maxTasks", max: most },
      );
    }
    const { settings, ctx } = call;
    const caller = callerOf(ctx);
    const share = this.#shareOf(caller, most);
    // One caller taking every slot above would lock every other caller out.
    if ((this.#perCaller.get(caller) ?? 0) >= share) throw tooMany(caller, share);
    const legacy = ctx.era === "legacy";
    const now = Date.now();
    const longest = settings.ttlMs ?? DEFAULT_TTL_MS;
    const record: TaskRecord = {
      taskId: crypto.randomUUID(),
      status: "working",
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: call.ttl === undefined ? longest : Math.min(call.ttl, longest),
      pollIntervalMs: settings.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS,
      owner: ownerOf(ctx),
      ...(this.relay && { runner: this.relay.id }),
    };
    this.#starting++;
    this.#hold(record.taskId, caller);
    try {
      await this.#tracked(this.#start(record, call, answers));
    } catch (thrown) {
      // Never started: its slot is free again (a run started frees it as it ends, `#free`).
      if (!this.#runs.has(record.taskId)) this.#free(record.taskId);
      throw thrown;
    } finally {
      this.#starting--;
    }
    return legacy ? { task: legacyTask(record) } : { resultType: "task", ...taskFields(record) };
  }

  /**
   * Puts the task in the store, then starts its run, unless the server began closing meanwhile: its
   * runs are ended, so this one never starts, and its task is recorded as theirs are (`close` waits).
   */
  async #start(record: TaskRecord, call: TaskCall, answers: Map<string, unknown> | undefined): Promise<void> {
    const { tool, args, ctx } = call;
    try {
      // An owner's list keeps as many as the instance does (a shared store bounds it): tasks/list misses none.
      await this.store.put(record, { maxListed: this.#registry.limits.maxTasks ?? DEFAULT_MAX_TASKS });
    } catch (thrown) {
      throw new McpError(ErrorCode.InternalError, `Could not create a task: ${messageOf(thrown)}`);
    }
    const taskId = record.taskId;
    if (this.#closed) {
      await this.#end(taskId).catch(() => {});
      throw notStarted();
    }
    const legacy = ctx.era === "legacy";
    const session = sessionOf(ctx);
    const channel = legacy ? new SessionChannel(askerOf(ctx)) : undefined;
    if (channel) {
      if (this.#channels.size >= MAX_CHANNELS) this.#dropChannel();
      this.#channels.set(taskId, channel);
      // Its session is in use until its outcome is taken, or its TTL passes (Session.tasks).
      if (session && !session.oneRequest) this.#holds.hold(session, taskId, record.createdAt + record.ttlMs);
    }
    const run = new TaskRun(
      // Without a session the client's answer to a question would come on a request of its own, which nothing ties to the run.
      { tool, args, ctx: this.#contextFor(ctx, taskId, channel), unreachable: session?.oneRequest || undefined },
      this.#events(taskId, channel),
      answers,
    );
    // The TTL ends the run too (nobody could read its result afterwards), and the task is gone.
    const expiry = after(record.ttlMs, () => {
      this.#stop(taskId, "The task's TTL passed");
      this.#holds.unhold(taskId);
      this.#channels.delete(taskId);
      this.changes.publish(taskId, undefined);
    });
    // A run stopped (tasks/cancel, the TTL, the shutdown) needs no timer either: one whose tool does
    // not watch its signal never finishes, and its timer would keep this server until the TTL.
    run.ctx.signal.addEventListener("abort", expiry.cancel, { once: true });
    this.#runs.set(taskId, run);
    // A finished task needs no timer: the store forgets it at its TTL, or sooner when full, so a
    // client starting many quick tasks leaves no pending timer per task for the TTL's length.
    void run.start().finally(() => {
      this.#runs.delete(taskId);
      this.#free(taskId);
      expiry.cancel();
    });
  }

  /**
   * How many tasks `caller` may run here at once: anonymous HTTP requests without a session together
   * (`ANONYMOUS`), limits.maxAnonymousTasks, by default half of the instance's `most`, so that they
   * cannot take every task from the callers the server can tell apart; any other caller,
   * limits.maxTasksPerCaller.
   */
  #shareOf(caller: string, most: number): number {
    const limits = this.#registry.limits;
    if (caller === ANONYMOUS) return limits.maxAnonymousTasks ?? Math.ceil(most / 2);
    return limits.maxTasksPerCaller ?? Infinity;
  }

  /** Counts a task of `caller`'s, being stored, then running here, towards its bound (`create`). */
  #hold(taskId: string, caller: string): void {
    this.#callers.set(taskId, caller);
    this.#perCaller.set(caller, (this.#perCaller.get(caller) ?? 0) + 1);
  }

  /** The task runs here no more (or never started): its caller may start another. Once per task. */
  #free(taskId: string): void {
    const caller = this.#callers.get(taskId);
    if (caller === undefined) return;
    this.#callers.delete(taskId);
    const left = (this.#perCaller.get(caller) ?? 1) - 1;
    if (left > 0) this.#perCaller.set(caller, left);
    else this.#perCaller.delete(caller);
  }

  /**
   * Lets go of the oldest channel of a task no longer running here, whose messages waited for a
   * `tasks/result` that did not come. A running task's channel stays, however many were made after
   * it (a session leaving a thousand tasks uncollected): its questions wait on it, and the runs are
   * bounded (`create`). The task's hold on its session stays (`#holds`): its result is in the store.
   */
  #dropChannel(): void {
    for (const taskId of this.#channels.keys()) {
      if (this.#runs.has(taskId)) continue;
      this.#channels.delete(taskId);
      return;
    }
  }

  /**
   * What a task's run last did could not be recorded (its write was given up): the store may never
   * show it. A run waiting for answers stops, since its questions may be unknown to every client (the
   * task reads `working`), so nobody could answer them; a task whose run has ended, or stopped so, is
   * let go (`release`): it reads failed once its lease runs out, not `working` until its TTL.
   */
  #unrecorded(taskId: string): void {
    if (this.#runs.get(taskId)?.waiting.size) this.#stop(taskId, UNRECORDED_QUESTIONS);
    if (!this.#runs.has(taskId)) this.#letGo(taskId);
  }

  /**
   * Tells the store this server runs the task no more (`release`). A store is user code: one that
   * throws is told no more than that (its lease may then keep the task `working` until its TTL),
   * and its throw reaches neither the status writes' retries nor `close`.
   */
  #letGo(taskId: string): void {
    try {
      this.store.release?.(taskId);
    } catch {}
  }

  /** Settles as `work` does; `close` waits for it meanwhile. */
  #tracked<T>(work: Promise<T>): Promise<T> {
    this.#pending.add(work);
    const done = () => this.#pending.delete(work);
    work.then(done, done);
    return work;
  }

  /** `tasks/get` (2026-07-28): the task with its status's fields inlined. */
  async get(params: Result | undefined, ctx: Context): Promise<Result> {
    return detailed(await this.find(params, ctx));
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
    const record = await this.find(params, ctx);
    if (record.status !== "input_required") return {};
    // The run is another instance's: the answers go there.
    if (!this.#runs.has(record.taskId) && this.#bus) {
      await this.#tracked(this.#handOver(this.#bus, record, responses));
      return {};
    }
    await this.#answer(record.taskId, responses);
    return {};
  }

  /**
   * Answers for a run on another instance go there on the bus, again until the task's record shows
   * them taken (it changed, or no longer waits on them): pub/sub keeps nothing for a subscriber that
   * is reconnecting. Bounded: past HAND_OVER_ATTEMPTS the client is told to send them again, and so
   * it is when the server closes meanwhile (`close` ends the wait, and waits for the last check).
   */
  async #handOver(bus: Bus, record: TaskRecord, responses: Record<string, unknown>): Promise<void> {
    const { taskId, lastUpdatedAt } = record;
    const asked = Object.keys(responses).filter((key) => record.inputRequests?.[key] !== undefined);
    const taken = (now: TaskRecord | undefined) =>
      now?.status !== "input_required" ||
      now.lastUpdatedAt !== lastUpdatedAt ||
      !asked.some((key) => now.inputRequests?.[key] !== undefined);
    for (let attempt = 0; asked.length > 0 && attempt < HAND_OVER_ATTEMPTS; attempt++) {
      if (this.#closed) {
        throw new Unavailable(
          `Server shutting down: send the same tasks/update again (answers task "${taskId}" took already are ignored)`,
        );
      }
      await bus.publish({ type: "task-input", taskId, responses });
      await this.#nextChange(taskId, HAND_OVER_CHECK_MS);
      if (taken(await this.store.get(taskId))) return;
    }
    if (asked.length === 0) return;
    // An McpError, not the 503 of an unreachable store: importing that class here grows every server's core chunk.
    throw new McpError(
      ErrorCode.InternalError,
      `The server instance running task "${taskId}" did not take the answers (its connection to the shared state may be reconnecting); send the same tasks/update again in a moment`,
    );
  }

  /**
   * Settles at the task's next change here (the bus tells it), after `ms`, or at `close`, whichever
   * comes first; at once after `close`, which woke the waits there were then: a hand-over whose
   * PUBLISH was answered after it would wait `ms` that `close` waits out.
   */
  #nextChange(taskId: string, ms: number): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        unwatch();
        clearTimeout(timer);
        this.#waits.delete(done);
        resolve();
      };
      const unwatch = this.changes.watch(taskId, done);
      const timer = setTimeout(done, ms);
      this.#waits.add(done);
    });
  }

  /** Hands answers to this process's run of a task, if it has one. */
  async #answer(taskId: string, responses: Record<string, unknown>): Promise<void> {
    const run = this.#runs.get(taskId);
    if (!run) return;
    const taken = Object.keys(responses).filter((key) => run.waiting.has(key));
    if (taken.length === 0) return;
    const resumed = run.answer(responses);
    // Answered questions leave `inputRequests` at once; the last answer resumes the run.
    await this.#apply(taskId, (current) => {
      if (current.status !== "input_required") return undefined;
      if (resumed) return { ...withoutQuestions(current), status: "working", lastUpdatedAt: Date.now() };
      const inputRequests = { ...current.inputRequests };
      for (const key of taken) delete inputRequests[key];
      return { ...current, inputRequests, lastUpdatedAt: Date.now() };
    });
  }

  /**
   * `tasks/cancel`: a task not finished yet is cancelled at once and its run's signal aborts (on the
   * instance running it, through the bus, when that is another). Answers the task as it now is;
   * undefined for one that had finished already, also while this was being applied (the store's
   * change saw it terminal), which stays as it was. Once recorded, the cancel has happened: the
   * running instance is told with `announce`, which holds the message while the state is unreachable
   * and sends it once it is back (the running instance, if its own subscription was away, reads the
   * record when it rejoins), so that a failed publish neither answers the client a 503 for a cancel
   * that was recorded nor leaves the run going on.
   */
  async cancel(params: Result | undefined, ctx: Context): Promise<TaskRecord | undefined> {
    const record = await this.find(params, ctx);
    if (isTerminal(record.status)) return undefined;
    const cancelled = await this.#change(record.taskId, {
      status: "cancelled",
      statusMessage: "Cancelled by the client",
    });
    if (!cancelled) return undefined;
    if (!this.#runs.has(record.taskId)) this.#bus?.announce({ type: "task-cancel", taskId: record.taskId });
    this.#stop(record.taskId, CANCELLED);
    return cancelled;
  }

  /**
   * Ends every run of this process (the server is shutting down) and records them as failed, then
   * stops listening on the bus. The runs stop first, whatever the store does, and none starts after
   * (a task being stored meanwhile is recorded failed too); answers being handed over to another
   * instance are not waited on any more. Never rejects: a shared store that is unreachable now keeps
   * the task as it was, let go (`release`), and it reads as failed once its lease runs out
   * (redis/tasks.ts). Resolves once every write to the store has been answered: none is made, or
   * tried again, after it (StatusWrites).
   */
  async close(): Promise<void> {
    this.#closed = true;
    const ids = [...this.#runs.keys()];
    for (const taskId of ids) this.#stop(taskId, "The server is shutting down");
    for (const wake of [...this.#waits]) wake();
    // The writes of runs that ended before, still failing, are tried a last time with these.
    await Promise.allSettled([...ids.map((taskId) => this.#end(taskId)), this.#writes.close(), ...this.#pending]);
    // Once its runs are recorded: nothing on the bus is for this server any more (its runs ended, its
    // listen streams with the shutdown), and a tasks/result here following a task elsewhere reads the
    // store until it ends (legacy.ts).
    this.#unshare?.();
    this.#unwatch?.();
  }

  /** Records a task of this server failed by the shutdown, and lets it go in the store whatever came of that. */
  #end(taskId: string): Promise<TaskRecord | undefined> {
    return this.#change(taskId, SHUT_DOWN).finally(() => this.#letGo(taskId));
  }

  /** The 2025-11-25 way of a task of this process to its client (see channel.ts); undefined for other tasks. */
  channelOf(taskId: string): SessionChannel | undefined {
    return this.#channels.get(taskId);
  }

  /** A finished 2025-11-25 task's messages went out with its result: its channel is no longer needed. */
  delivered(taskId: string): void {
    this.#holds.unhold(taskId);
    if (!this.#runs.has(taskId)) this.#channels.delete(taskId);
  }

  /** The caller's task named by `params.taskId`; -32602 for one that is unknown, gone or another caller's. */
  async find(params: Result | undefined, ctx: Context): Promise<TaskRecord> {
    const taskId = params?.taskId;
    if (typeof taskId !== "string") {
      throw new McpError(ErrorCode.InvalidParams, "Invalid params: params.taskId must be the taskId of a task");
    }
    const record = await this.store.get(taskId);
    // Another caller's task is as unknown as one that never existed: its existence is not revealed.
    if (record && reaches(record, ctx)) return record;
    // A request treated as not declaring the extension (SEP-2663: MUST) gets -32021 for every other task.
    if (declaresOnlyLegacyTasks(ctx)) {
      throw missingTasks(
        `no task "${shown(taskId)}" of your 2025-11-25 sessions exists (it may have expired); any other task`,
      );
    }
    throw unknownTask(taskId);
  }

  /** Whom the request's tasks belong to (see `ownerOf`). */
  ownerOf(ctx: Context): string {
    return ownerOf(ctx);
  }

  #events(taskId: string, channel: SessionChannel | undefined): RunEvents {
    return {
      asking: (questions: Record<string, InputRequest>) => {
        this.#writes.keep(taskId, () =>
          this.#runWrite(taskId, changing({ status: "input_required", inputRequests: questions })),
        );
        if (channel) this.#askThrough(channel, taskId, questions);
      },
      // tasks/update may have recorded the return to work already (its last answer).
      working: () =>
        this.#writes.keep(taskId, () =>
          this.#runWrite(taskId, (current) =>
            current.status === "input_required"
              ? { ...withoutQuestions(current), status: "working", lastUpdatedAt: Date.now() }
              : undefined,
          ),
        ),
      completed: (result: CallToolResult) => {
        // 2025-11-25 "Tasks": a tool result with isError SHOULD fail the task (its tasks/result still
        // returns that result); SEP-2663 keeps it completed, failed being for JSON-RPC errors only.
        const failed = channel !== undefined && result.isError === true;
        const statusMessage = failed ? textOf(result) : undefined;
        this.#writes.keep(taskId, () =>
          this.#runWrite(taskId, changing({ status: failed ? "failed" : "completed", result, statusMessage })),
        );
      },
      failed: (error: TaskError) =>
        this.#writes.keep(taskId, () =>
          this.#runWrite(taskId, changing({ status: "failed", error, statusMessage: error.message })),
        ),
    };
  }

  /** 2025-11-25: the round's questions go to the client as requests tied to the task; each answer goes to the run. */
  #askThrough(channel: SessionChannel, taskId: string, questions: Record<string, InputRequest>): void {
    const run = this.#runs.get(taskId);
    if (!run) return;
    for (const [key, question] of Object.entries(questions)) {
      const request = { ...question, params: related({ ...question.params }, taskId) };
      channel.ask(request, run.ctx.signal).then(
        (answer) => run.answer({ [key]: answer }),
        async (thrown: unknown) => {
          if (run.ctx.cancelled) return;
          // A question the client refused or did not answer is answered with the failure, as in any 2025 round.
          const { AskFailure } = await import("../asking/layer.js");
          run.answer({ [key]: new AskFailure(messageOf(thrown)) });
        },
      );
    }
  }

  /** A change of a task's status (`changing`). */
  #change(taskId: string, change: Partial<TaskRecord>): Promise<TaskRecord | undefined> {
    return this.#apply(taskId, changing(change));
  }

  /**
   * A write of what a run of this server did (`#apply`). One that finds the task ended, or gone,
   * stops the run: another instance cancelled it and its message never came here (dropped while
   * Redis was away, or missed while this instance's subscription was), or its TTL passed.
   */
  async #runWrite(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    // The store calls `change` with the record as it is (again for each retry of its compare-and-swap).
    const found: { record?: TaskRecord } = {};
    const changed = await this.#apply(taskId, (current) => {
      found.record = current;
      return change(current);
    });
    if (!found.record || isTerminal(found.record.status)) this.#stop(taskId, endedElsewhere(found.record));
    return changed;
  }

  /**
   * Every change of a task goes through here: the store applies it, and a task that changed is
   * published (`changes`), and told to its 2025-11-25 client (`notifications/tasks/status`).
   */
  async #apply(
    taskId: string,
    change: (record: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    let changed: TaskRecord | undefined;
    await this.store.update(taskId, (current) => {
      changed = change(current);
      return changed;
    });
    if (!changed) return undefined;
    this.changes.publish(taskId, changed);
    const params = legacyTask(changed);
    this.channelOf(taskId)?.notify({ jsonrpc: "2.0", method: "notifications/tasks/status", params }, false);
    return changed;
  }

  #stop(taskId: string, reason: string): void {
    // Cancelled, here or elsewhere: its client wants no outcome of it, and its session is free to go idle.
    if (reason === CANCELLED) this.#holds.unhold(taskId);
    this.#runs.get(taskId)?.cancel(new DOMException(reason, "AbortError"));
    // A stopped run whose tool ignores its signal never ends: its slot is free now. A task still
    // being stored keeps its slot: its run is yet to start.
    if (this.#runs.delete(taskId)) this.#free(taskId);
  }

  /**
   * The run's own context: the request's client and caller, but not its lifetime (the response ends
   * that). Its gate is the server's auth settings: the run answers no HTTP request, so challenges
   * (the HTTP side of the request's gate) have nowhere to go. In 2025-11-25 its notifications go to
   * the session through `channel`, tied to the task; in 2026-07-28 progress becomes the task's
   * statusMessage, and logs have nowhere to go (see contexts.ts).
   */
  #contextFor(ctx: Context, taskId: string, channel: SessionChannel | undefined): RequestContext {
    const session = sessionOf(ctx);
    const init = {
      id: ctx.requestId,
      meta: ctx.meta,
      protocolVersion: ctx.protocolVersion,
      era: ctx.era,
      clientInfo: ctx.client.info,
      clientCapabilities: ctx.client.capabilities,
      client: ctx.client,
      auth: ctx.auth,
      logLevel: session?.logLevel,
      session,
    };
    const via = channel ? { emit: (message: JsonRpcMessage) => channel.notify(withRelated(message, taskId)) } : {};
    // A message the store failed (a shared store unreachable) is dropped, not tried again: the next
    // one says more, and a retry could write an older message over a newer one.
    const note = channel
      ? undefined
      : (statusMessage: string) =>
          void this.#runWrite(taskId, (current) =>
            current.status === "working" && current.statusMessage !== statusMessage
              ? { ...current, statusMessage, lastUpdatedAt: Date.now() }
              : undefined,
          ).catch(() => {});
    return runContext(this.#Context(), { init, via, settings: this.#registry.auth, note });
  }
}

/** A change of a running task's status, as `#apply` takes it: nothing once it is terminal (those states never change). */
function changing(change: Partial<TaskRecord>): (current: TaskRecord) => TaskRecord | undefined {
  return (current) =>
    isTerminal(current.status) ? undefined : { ...withoutQuestions(current), ...change, lastUpdatedAt: Date.now() };
}

/**
 * Why a run stops whose task ended without this server ending it (its message lost on the way, see
 * `#runWrite`): a cancel, as `tasks/cancel` says it; another end, as its record says; gone, its TTL.
 */
function endedElsewhere(record: TaskRecord | undefined): string {
  if (!record) return "The task is gone from the store (its TTL passed)";
  return record.status === "cancelled" ? CANCELLED : `The task ended elsewhere: it reads ${record.status}`;
}

function withoutQuestions(record: TaskRecord): TaskRecord {
  const { inputRequests: _, statusMessage: __, ...rest } = record;
  return rest;
}

/** The first text of a tool result: what a 2025-11-25 task that failed with it says in its statusMessage. */
function textOf(result: CallToolResult): string {
  for (const block of result.content ?? []) if (block.type === "text") return block.text;
  return "The tool reported an error";
}
