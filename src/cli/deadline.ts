/**
 * How long the CLI waits for the server it loaded to answer one request (`--timeout`): without a
 * bound, a tool that never returns (a server with `limits.handlerTimeoutMs: Infinity`, or a
 * middleware that never calls back) holds `call` or `list` until Ctrl+C, with no word of why.
 */
import { type Args, flagValue, UsageError } from "./args.js";

/** The milliseconds the CLI waits for each answer unless `--timeout` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Past 2^31 - 1 ms a timer fires at once: that many is as good as no bound. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** The `--timeout <ms>` of a verb's arguments, or the default. */
export function timeoutOf(args: Args): number {
  const asked = flagValue(args, "timeout");
  if (asked === undefined) return DEFAULT_TIMEOUT_MS;
  if (!/^\d+$/.test(asked) || Number(asked) < 1) {
    throw new UsageError(`--timeout ${asked}: give the milliseconds to wait for the server, such as 120000`);
  }
  return Number(asked);
}

/** No answer came within the time allowed: `method` is the request that got none. */
export class TimedOut extends Error {
  readonly method: string;
  readonly ms: number;
  constructor(method: string, ms: number) {
    super(
      `the server did not answer ${method} within ${ms} ms: a handler or middleware of its own waits on something ` +
        "that does not come. Give that wait a timeout of its own, or check what the server logged.",
    );
    this.method = method;
    this.ms = ms;
  }
}

/**
 * What the user of a verb with `--timeout` is told when `what` (`the tool "x"`, `tools/list`) got no
 * answer within it: that the request was cancelled, and what to do, wait longer or look at the server.
 * `progress`, the request's last progress report in words, says it was at work: only longer will do.
 */
export function noAnswer(what: string, ms: number, progress?: string): Error {
  const longer = `raise --timeout (such as --timeout ${ms * 4})`;
  const advice =
    progress === undefined
      ? `If it needs longer, ${longer}; if it should have answered by now, check the server: a handler, or a ` +
        "middleware before it, waits on something that does not come (limits.handlerTimeoutMs bounds that on the " +
        "server's side, unless it is Infinity)."
      : `It was still at work, its last progress report ${progress}: if it needs longer, ${longer}.`;
  return new Error(`${what} did not answer within ${ms} ms (--timeout), so picomcp cancelled the request. ${advice}`);
}

/** The deadlines counting now: once nothing else is left in the process, what can still end a wait. */
const counting = new Set<Deadline>();

/**
 * Called once nothing is left in the process but the deadlines (Node's "beforeExit", server-ends.ts):
 * a request still waits, and only its deadline can end it now, by cancelling it, which ends a handler
 * that waits for its `ctx.signal`. Each then keeps the process alive until it passes, and the verb
 * says that no answer came within --timeout. Answers whether any was counting (if not, what the verb
 * awaits can never settle).
 */
export function holdDeadlines(): boolean {
  for (const deadline of counting) deadline.hold();
  return counting.size > 0;
}

/**
 * A signal that aborts once `ms` have passed, not counting the time it is paused: while the person
 * at the terminal answers a question of the server's (an elicitation form), the wait is theirs.
 */
export class Deadline {
  readonly #controller = new AbortController();
  #left: number;
  #since = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(ms: number) {
    this.#left = ms;
    this.resume();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  pause(): void {
    this.clear();
    this.#left -= Date.now() - this.#since;
  }

  resume(): void {
    this.#since = Date.now();
    this.#timer = setTimeout(() => this.#controller.abort(), Math.max(0, Math.min(this.#left, LONGEST_TIMER_MS)));
    // The bound alone keeps nothing alive while the server has work of its own (a timer, a socket): a
    // process that ends is told apart from one that waits, and only a wait is held (holdDeadlines).
    this.#timer.unref?.();
    counting.add(this);
  }

  /** Keeps the process alive until the deadline passes (holdDeadlines). */
  hold(): void {
    this.#timer?.ref?.();
  }

  clear(): void {
    clearTimeout(this.#timer);
    counting.delete(this);
  }

  /** `promise`, or a rejection once the deadline passes, whichever comes first. */
  race<T>(promise: Promise<T>): Promise<T> {
    const { signal } = this;
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const expire = () => reject(signal.reason);
      signal.addEventListener("abort", expire, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", expire));
    });
  }
}
