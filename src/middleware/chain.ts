import { resultProblem } from "../content/results.js";
import { isObject } from "../core/jsonrpc.js";
import type { MaybePromise } from "../core/types.js";
import type { Chain, ChainCall } from "../core/wrapping.js";
import type { Next, Returned } from "./middleware.js";
import type { StructuredCheck } from "./structured.js";

/**
 * The middleware chain as it runs: composed once per method from what `server.use` registered (see
 * middleware.ts for the types users write, and core/wrapping.ts for the chain's shape, which the
 * dispatcher runs).
 */

type Result = Record<string, unknown>;

/** A middleware as the chain stores it, whatever method it was typed for. */
type Link = (call: ChainCall, next: Next<Result>) => MaybePromise<Returned<Result>>;

/** Which requests a middleware applies to: every one, one method's, or one tool's calls. */
export type Scope = { method?: string; tool?: string };

/**
 * Composes the middleware that apply to `method` once, in registration order (the first is the
 * outermost), into one chain; undefined when none applies, so the method runs as if there were none.
 * `structured`: the check of a tool call's structuredContent, for the chain of `tools/call`.
 */
export function compose(
  links: readonly { scope: Scope; run: Link; owner?: string }[],
  method: string,
  structured: StructuredCheck,
): Chain | undefined {
  const tools = method === "tools/call" ? structured : undefined;
  const last: Chain = tools ? async (call, handler) => tools.handled(call, await handler()) : untouched;
  return links.reduceRight<Chain | undefined>(
    (chain, { scope, run, owner }) =>
      scope.method !== undefined && scope.method !== method
        ? chain
        : wrap(scope.tool === undefined ? run : forTool(scope.tool, run), chain ?? last, {
            who: owner ? `${owner}'s middleware` : run.name ? `Middleware "${run.name}"` : "Middleware",
            tools,
          }),
    undefined,
  );
}

const untouched: Chain = async (_, handler) => handler();

/** Only the calls of one tool go through `run`; the others go straight on. */
function forTool(tool: string, run: Link): Link {
  return (call, next) => (call.params?.name === tool ? run(call, next) : next());
}

/**
 * `who`: the middleware as the message of a malformed result names it (its plug-in, or its function's
 * name); `tools`: the structuredContent check, in the chain of tools/call.
 */
function wrap(run: Link, inner: Chain, { who, tools }: { who: string; tools: StructuredCheck | undefined }): Chain {
  return async (call, handler) => {
    let pending: Promise<Result> | undefined;
    let over = false;
    const next = () => {
      if (pending) return Promise.reject(new Error(`Middleware for "${call.method}" called next() twice`));
      // What the middleware returned is on its way out (the outermost's is the answer, which frees
      // the request's slot, deadline and cancellation): a handler run now would act for nobody.
      if (over) {
        return Promise.reject(
          new Error(
            `Middleware for "${call.method}" called next() after it returned: the handler does not run, since its result could reach no one; call next() before returning`,
          ),
        );
      }
      pending = inner(call, handler);
      return pending;
    };
    let returned: Returned<Result>;
    try {
      returned = await run(call, next);
    } finally {
      over = true;
    }
    if (returned === undefined) {
      if (!pending) {
        throw new TypeError(
          `Middleware for "${call.method}" returned nothing without calling next(): return a result, or return await next()`,
        );
      }
      return pending;
    }
    // A short-circuit that started the handler anyway: its failure is nobody's to report.
    pending?.catch(() => {});
    if (!isObject(returned)) {
      const what = Array.isArray(returned) ? "an array" : typeof returned;
      throw new TypeError(`Middleware for "${call.method}" returned ${what}; a result is an object`);
    }
    // Checked by the checks a handler's result passes (content/results.ts): the official clients
    // refuse or misread a built-in method's result of another shape, a tool call's without content.
    const problem = resultProblem(call, returned);
    if (problem !== undefined)
      throw new TypeError(`${who} for "${call.method}" returned a malformed result: ${problem}`);
    return tools ? tools.checked(call, returned, who) : returned;
  };
}
