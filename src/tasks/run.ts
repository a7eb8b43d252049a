import type { Round } from "../asking/carried.js";
import type { RequestContext } from "../core/context.js";
import { ErrorCode, isMcpError } from "../core/errors.js";
import { safeMessage } from "../core/safe.js";
import { type CallToolResult, callTool, type Tool, unsendable } from "../core/tools.js";
import type { InputRequest } from "../core/types.js";
import type { TaskError } from "./task.js";

/** More rounds of questions than this is a tool that keeps asking: the task fails instead of looping forever. */
const MAX_ROUNDS = 16;

/** What a task's run tells its task: the questions it waits on, and how it ended. */
export interface RunEvents {
  asking(questions: Record<string, InputRequest>): void;
  working(): void;
  completed(result: CallToolResult): void;
  failed(error: TaskError): void;
}

/**
 * One tool call running as a task, in this process: the tool's `run` with a context of its own
 * (its `signal` aborts on `tasks/cancel`, the TTL or the server's shutdown), asked questions
 * answered through `tasks/update`. As in every era, a run that asks something not answered yet
 * stops there, and runs again from the top once every question of its round is answered.
 */
export class TaskRun {
  readonly ctx: RequestContext;
  readonly #tool: Tool;
  readonly #args: Record<string, unknown> | undefined;
  readonly #events: RunEvents;
  /** Set for a 2025 task made without a session (stateless HTTP): no answer could reach it (ask.ts's message for that). */
  readonly #unreachable: true | undefined;
  /** Every answer so far, by key: a later round reads the earlier rounds' answers from here. */
  readonly #answers: Map<string, unknown>;
  /** The keys of the current round not answered yet. */
  #waiting = new Set<string>();
  #resume: (() => void) | undefined;

  constructor(
    call: {
      tool: Tool;
      args: Record<string, unknown> | undefined;
      ctx: RequestContext;
      unreachable?: true | undefined;
    },
    events: RunEvents,
    answers: Map<string, unknown> = new Map(),
  ) {
    this.#tool = call.tool;
    this.#args = call.args;
    this.ctx = call.ctx;
    this.#events = events;
    this.#unreachable = call.unreachable;
    this.#answers = answers;
  }

  /** Runs the rounds to the end; never rejects (the end is told to `events`). */
  async start(): Promise<void> {
    try {
      for (let rounds = 0; rounds <= MAX_ROUNDS; rounds++) {
        const outcome = await this.#runOnce();
        if (this.ctx.cancelled) return;
        if ("result" in outcome) return this.#events.completed(sendable(this.#tool.name, outcome.result));
        if (rounds === MAX_ROUNDS) break;
        this.#waiting = new Set(outcome.asked.keys());
        const answered = new Promise<void>((resolve) => {
          this.#resume = resolve;
        });
        this.#events.asking(Object.fromEntries(outcome.asked));
        await answered;
        if (this.ctx.cancelled) return;
        this.#events.working();
      }
      this.#events.failed({
        code: ErrorCode.InternalError,
        message: `The tool asked for input ${MAX_ROUNDS} times without finishing`,
      });
    } catch (thrown) {
      if (this.ctx.cancelled) return;
      this.#events.failed(errorOf(thrown));
    }
  }

  /**
   * Takes the answers to questions of the current round (others are ignored, SEP-2663 "Task Update
   * Requests": SHOULD); answers whether the round is now fully answered, and then runs it again.
   */
  answer(responses: Record<string, unknown>): boolean {
    for (const [key, answer] of Object.entries(responses)) {
      if (!this.#waiting.delete(key)) continue;
      this.#answers.set(key, answer);
    }
    if (this.#waiting.size > 0 || !this.#resume) return false;
    const resume = this.#resume;
    this.#resume = undefined;
    resume();
    return true;
  }

  /** The keys the current round still waits on. */
  get waiting(): ReadonlySet<string> {
    return this.#waiting;
  }

  /** Stops the run: its signal aborts; whatever it does after is not recorded. */
  cancel(reason: unknown): void {
    this.ctx.cancel(reason);
    this.#resume?.();
  }

  /** One run of the tool: its result, or the round of questions it stopped at. */
  #runOnce(): Promise<{ result: CallToolResult } | Round> {
    const ctx = this.ctx;
    ctx.round = undefined;
    return new Promise<{ result: CallToolResult } | Round>((resolve, reject) => {
      // Stopped at a question: a macrotask after the first one, so questions asked together travel together.
      ctx.asking = { answers: this.#answers, stuck: () => resolve(ctx.round!), unreachable: this.#unreachable };
      const done = (result: CallToolResult) => resolve({ result });
      const result = callTool(this.#tool, this.#args, ctx);
      if (result instanceof Promise) result.then(done, reject);
      else done(result);
    }).finally(() => {
      ctx.asking = undefined;
      ctx.round = undefined;
    });
  }
}

/**
 * The result a task records: the tool's, or, when JSON cannot carry it (a BigInt, a cycle, nesting
 * deeper than JSON.stringify recurses), the tool error a call answers for such a result. Recorded so,
 * every store holds it and every read answers it: SEP-2663 "Task Status" keeps a result with
 * `isError` `completed`, and inlines it in `tasks/get`, which could not be sent otherwise (-32603);
 * 2025-11-25's `tasks/result` answers it with its related-task `_meta` (MUST), which the response's
 * own fallback would drop.
 */
function sendable(toolName: string, result: CallToolResult): CallToolResult {
  try {
    JSON.stringify(result);
    return result;
  } catch (thrown) {
    return unsendable(toolName, thrown);
  }
}

/**
 * A JSON-RPC error as a failed task carries it: an `McpError`'s code, else an internal error. One
 * whose `data` JSON cannot carry is the internal error a call answers for it, for the same reason
 * as `sendable`'s.
 */
export function errorOf(thrown: unknown): TaskError {
  if (isMcpError(thrown)) {
    const error: TaskError = { code: thrown.code, message: thrown.message };
    if (thrown.data === undefined) return error;
    try {
      JSON.stringify(thrown.data);
    } catch (unwritable) {
      const why = safeMessage(unwritable);
      return { code: ErrorCode.InternalError, message: `Internal error: the response cannot be sent as JSON: ${why}` };
    }
    error.data = thrown.data;
    return error;
  }
  return { code: ErrorCode.InternalError, message: "Internal error: the task ended unexpectedly" };
}
