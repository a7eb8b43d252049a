/**
 * The server's code ending the process under a verb that loads it in-process (`list`, `call`,
 * `install`, `check`): a `process.exit` in it, a throw nothing catches (in a timer, or a
 * rejected promise nobody awaits, which Node raises as the same), or an await on a promise nothing
 * is left to settle (Node's event loop empties, and the process would end as if it were done; in a
 * request, its --timeout is still left to cancel it, and is waited for).
 * Said in one line, with where the throw was, instead of a silent exit (0 for `process.exit(0)`)
 * or Node's stack dump; exit 2 when it happened as the module loaded (it did not load), 1 after.
 */
import { holdDeadlines } from "./deadline.js";
import { isLoading } from "./load.js";
import { EXIT, warn } from "./verb.js";

const LEAVE = "A server module exports its server and leaves the process to picomcp.";

/**
 * Watches the process while `verb` runs; answers the function that stops watching. `outcome` is
 * what the end cost, said after "so": `run` watches the load alone, whose end means no server.
 */
export function watchServerEnds(verb: string, outcome = `${verb} did not finish`): () => void {
  let said = false;
  const codeNow = () => (isLoading() ? EXIT.cannotRun : EXIT.failed);
  const onExit = (code: number) => {
    if (said) return;
    said = true;
    const when = isLoading() ? "while it loaded" : `before ${verb} was done`;
    warn(
      `picomcp ${verb}: the server's code ended the process with process.exit(${code}) ${when}, so ${outcome}. ${LEAVE}`,
    );
    // Read by process.exit once its "exit" listeners have run.
    process.exitCode = codeNow();
  };
  const onThrow = (thrown: unknown) => {
    said = true;
    warn(
      `picomcp ${verb}: the server's code threw outside any request (in a timer, or a promise nothing awaited), ` +
        `so ${outcome}: ${describe(thrown)}`,
    );
    process.exit(codeNow());
  };
  // "beforeExit" comes only when the event loop is empty, never for process.exit: while the verb
  // still runs, what it awaits can no longer settle, unless a request's --timeout can still cancel
  // it (a handler that ends only through its ctx.signal): then that is waited for, and said.
  let held = false;
  const onDrained = () => {
    if (holdDeadlines()) {
      if (!held) {
        warn(
          `picomcp ${verb}: the request waits on nothing the process can still deliver (no timer, socket or request ` +
            "of the server's own is left), so only its cancellation can end it: picomcp cancels it when --timeout has " +
            "passed; Ctrl+C stops now. A handler that waits for its ctx.signal ends then; one that awaits a promise " +
            "whose resolve is never called does not.",
        );
      }
      held = true;
      return;
    }
    said = true;
    const when = isLoading() ? "while it loaded" : `before ${verb} was done`;
    warn(
      `picomcp ${verb}: the server's code awaits a promise that nothing can settle any more (no timer, socket or ` +
        `request is left to settle it) ${when}, so ${outcome}. Look for a promise whose resolve is never called.`,
    );
    process.exit(codeNow());
  };
  process.on("exit", onExit);
  process.on("uncaughtException", onThrow);
  process.on("beforeExit", onDrained);
  return () => {
    process.off("exit", onExit);
    process.off("uncaughtException", onThrow);
    process.off("beforeExit", onDrained);
  };
}

/** `Name: message (at file:line:column)`: the error and the place it was thrown, without the rest of the stack. */
function describe(thrown: unknown): string {
  if (!(thrown instanceof Error)) return String(thrown);
  const frame = /^\s+at (?:.*? \()?(.+?)\)?$/m.exec(thrown.stack ?? "")?.[1];
  return `${thrown.name}: ${thrown.message}${frame ? ` (at ${frame})` : ""}`;
}
