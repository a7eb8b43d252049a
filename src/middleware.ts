import type { ResourceContents } from "./content.js";
import type { Context } from "./context.js";
import type { PromptMessage } from "./prompts.js";
import { isObject } from "./protocol/jsonrpc.js";
import type { Meta, ServerCapabilities } from "./protocol/types.js";
import type { CallToolResult } from "./tools.js";

type Result = Record<string, unknown>;
type Params = Record<string, unknown> | undefined;
type MaybePromise<T> = T | Promise<T>;

/** An entry of a list result (`tools/list`, `resources/list`, ...), as the client receives it. */
type Listed = Readonly<Record<string, unknown>>;
type Paged = { cursor?: string; _meta?: Meta };
type Page<Key extends string> = { [K in Key]: Listed[] } & { nextCursor?: string; _meta?: Meta };

/**
 * The params and result of each built-in request method, as middleware sees them. Params are what
 * the client sent, not validated yet (a tool's arguments are checked against its schema inside
 * `next()`); results are what the handler made, before the era adds its fields (2026-07-28
 * `resultType`, cache hints and `serverInfo` come after middleware).
 */
export interface MethodTypes {
  "tools/call": {
    params: { name: string; arguments?: Readonly<Record<string, unknown>>; _meta?: Meta };
    result: CallToolResult;
  };
  "tools/list": { params: Paged | undefined; result: Page<"tools"> };
  "resources/list": { params: Paged | undefined; result: Page<"resources"> };
  "resources/templates/list": { params: Paged | undefined; result: Page<"resourceTemplates"> };
  "resources/read": { params: { uri: string; _meta?: Meta }; result: { contents: ResourceContents[]; _meta?: Meta } };
  "prompts/list": { params: Paged | undefined; result: Page<"prompts"> };
  "prompts/get": {
    params: { name: string; arguments?: Readonly<Record<string, string>>; _meta?: Meta };
    result: { description?: string; messages: PromptMessage[]; _meta?: Meta };
  };
  "completion/complete": {
    params: { ref: Readonly<Record<string, unknown>>; argument: { name: string; value: string } };
    result: { completion: { values: string[]; total?: number; hasMore?: boolean } };
  };
  "server/discover": {
    params: { _meta?: Meta } | undefined;
    result: { supportedVersions: string[]; capabilities: ServerCapabilities; instructions?: string };
  };
  ping: { params: { _meta?: Meta } | undefined; result: Result };
}

/** A method name: a built-in one (typed params and result) or any other (a plug-in's). */
export type MethodName = keyof MethodTypes | (string & {});

/** The params of a request for `M`: typed for built-in methods, a record for the others. */
export type ParamsOf<M extends string> = M extends keyof MethodTypes ? MethodTypes[M]["params"] : Params;
/** The result of a request for `M`: typed for built-in methods, a record for the others. */
export type ResultOf<M extends string> = M extends keyof MethodTypes ? MethodTypes[M]["result"] : Result;

/** One request as middleware sees it: its method, its params as sent, and its context. */
export interface MiddlewareCall<M extends string = string, P = ParamsOf<M>> {
  readonly method: M;
  readonly params: P;
  /** Era, protocol version, client, caller (`auth`), `signal`, `meta`, progress and logs. */
  readonly ctx: Context;
}

/** What a middleware answers with: a result, or nothing (the result of `next()`, which it must have called). */
// biome-ignore lint/suspicious/noConfusingVoidType: an async middleware that only awaits next() returns Promise<void>.
type Returned<R> = R | undefined | void;

/** Runs the rest of the chain (the next middleware, at the end the method's handler) and resolves with its result. */
export type Next<R> = () => Promise<R>;

/**
 * Wraps the handling of requests (hono's `(c, next)`): call `await next()` to go on, return a result
 * to answer without going on, throw `McpError` for a JSON-RPC error. Returning nothing after
 * `next()` answers with the result `next()` resolved with.
 */
export type Middleware<M extends string = string, P = ParamsOf<M>, R = ResultOf<M>> = (
  call: MiddlewareCall<M, P>,
  next: Next<R>,
) => MaybePromise<Returned<R>>;

/** Middleware of the union of methods `M` (one method, or any when M is `string`). */
export type MiddlewareFor<M extends string> = Middleware<M, ParamsOf<M>, ResultOf<M>>;

/** Middleware for the calls of one tool: `arguments` as sent, the result typed from its output schema. */
export type ToolMiddleware<Name extends string = string, Structured = unknown> = Middleware<
  "tools/call",
  { name: Name; arguments?: Readonly<Record<string, unknown>>; _meta?: Meta },
  CallToolResult<Structured>
>;

/** The chain as composed: the request and the handler at its end in, the result out. */
export type Chain = (call: MiddlewareCall<string, Params>, handler: () => MaybePromise<Result>) => Promise<Result>;

/** A middleware as the chain stores it, whatever method it was typed for. */
type Link = (call: MiddlewareCall<string, Params>, next: Next<Result>) => MaybePromise<Returned<Result>>;

/** Which requests a middleware applies to: every one, one method's, or one tool's calls. */
export type Scope = { method?: string; tool?: string };

/**
 * Composes the middleware that apply to `method` once, in registration order (the first is the
 * outermost), into one chain; undefined when none applies, so the method runs as if there were none.
 */
export function compose(links: readonly { scope: Scope; run: Link }[], method: string): Chain | undefined {
  let chain: Chain | undefined;
  for (let i = links.length - 1; i >= 0; i--) {
    const { scope, run } = links[i]!;
    if (scope.method !== undefined && scope.method !== method) continue;
    chain = wrap(scope.tool === undefined ? run : forTool(scope.tool, run), chain ?? last);
  }
  return chain;
}

const last: Chain = async (_, handler) => handler();

/** Only the calls of one tool go through `run`; the others go straight on. */
function forTool(tool: string, run: Link): Link {
  return (call, next) => (call.params?.name === tool ? run(call, next) : next());
}

function wrap(run: Link, inner: Chain): Chain {
  return async (call, handler) => {
    let pending: Promise<Result> | undefined;
    const next = () => {
      if (pending) return Promise.reject(new Error(`Middleware for "${call.method}" called next() twice`));
      pending = inner(call, handler);
      return pending;
    };
    const returned = await run(call, next);
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
      throw new TypeError(`Middleware for "${call.method}" returned ${typeof returned}; a result is an object`);
    }
    return returned;
  };
}
