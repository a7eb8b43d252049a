/**
 * What `serve()` does to the process it runs in (Node, Bun, Deno; nothing on Workers, which have
 * no `process`): an unhandled rejection in user code is logged instead of killing the server, and
 * SIGTERM/SIGINT shut it down gracefully, while it serves. (Over stdio, stdout carries protocol only
 * while it serves: see stdout.ts.) Building a server touches none of this.
 */

interface ProcessLike {
  on?(event: string, listener: (...args: never[]) => void): unknown;
  off?(event: string, listener: (...args: never[]) => void): unknown;
  exit?(code?: number): never;
}

const runtime = (): ProcessLike | undefined => (globalThis as unknown as { process?: ProcessLike }).process;

/**
 * Set by the picomcp command while it imports a server module to serve what it exports
 * (cli/load.ts): a module that calls serve() as it loads is refused there, rather than left serving
 * stdio on the user's terminal. A registered symbol: the module may import another copy of picomcp.
 */
export const SERVE_HOOK = Symbol.for("picomcp.serve");

/** What the picomcp command puts at SERVE_HOOK while it loads a module: how that module's serve() ends. */
export type ServeHook = () => Promise<never>;

/**
 * What adds a member to `members` and listens to `events` while there is any (once for them all):
 * it answers the function that takes the member out again, which does nothing once done. Nothing on
 * a runtime without process events; nothing either where `on` throws (some Deno and Bun versions have
 * no signal events: shutdown stays with server.close()).
 */
function whileAny<T>(members: Set<T>, events: string[], listener: (event: never) => void): (member: T) => () => void {
  return (member) => {
    const proc = runtime();
    if (!proc?.on) return () => {};
    if (members.size === 0) {
      try {
        for (const event of events) proc.on(event, listener);
      } catch {
        return () => {};
      }
    }
    members.add(member);
    return () => {
      if (members.delete(member) && members.size === 0) for (const event of events) proc.off?.(event, listener);
    };
  };
}

const onRejection = (reason: unknown) => {
  console.error("picomcp: an unhandled promise rejection in the server's code (the server keeps running):", reason);
};
/** A token per serve() that watches. */
const watchRejection = whileAny(new Set<object>(), ["unhandledRejection"], onRejection);

/**
 * While serving, an unhandled rejection in user code is logged to stderr and the server keeps
 * running (Node's default would end the process). Answers the function that stops watching.
 */
export const watchRejections = (): (() => void) => watchRejection({});

const closers = new Set<() => Promise<unknown>>();
let stopping = false;

function onSignal(signal: string): void {
  const proc = runtime();
  if (stopping) {
    // A second signal does not wait for the grace period.
    proc?.exit?.(signal === "SIGINT" ? 130 : 143);
    return;
  }
  stopping = true;
  console.error(`picomcp: ${signal}, shutting down (send it again to exit at once)`);
  void Promise.allSettled([...closers].map((close) => close())).then(() => proc?.exit?.(0));
}

/**
 * Shuts down gracefully on SIGTERM and SIGINT: every server that registered `close` stops accepting,
 * finishes what is in progress within its grace period, and the process then exits with code 0.
 * Answers the function that unregisters it.
 */
export const closeOnSignals: (close: () => Promise<unknown>) => () => void = whileAny(
  closers,
  ["SIGTERM", "SIGINT"],
  onSignal,
);
