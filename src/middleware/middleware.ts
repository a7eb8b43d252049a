import type { PromptMessage, ResourceContents } from "../core/content.js";
import type { LogLevel } from "../core/envelope.js";
import type { Context } from "../core/handler-context.js";
import type { CallToolResult } from "../core/tools.js";
import type { MaybePromise, Meta, ServerCapabilities } from "../core/types.js";

/** What a middleware answers with: a result, or nothing (the result of `next()`, which it must have called). */
// biome-ignore lint/suspicious/noConfusingVoidType: an async middleware that only awaits next() returns Promise<void>.
export type Returned<R> = R | undefined | void;

/** Runs the rest of the chain (the next middleware, at the end the method's handler) and resolves with its result. */
export type Next<R> = () => Promise<R>;

type Result = Record<string, unknown>;
type Params = Record<string, unknown> | undefined;

/** An entry of a list result (`tools/list`, `resources/list`, ...), as the client receives it. */
type Listed = Readonly<Record<string, unknown>>;
type Paged = { cursor?: string; _meta?: Meta };
type Page<Key extends string> = { [K in Key]: Listed[] } & { nextCursor?: string; _meta?: Meta };

/**
 * The params and result of each built-in request method, as middleware sees them. Params are what
 * the client sent, not validated yet (a tool's arguments are checked against its schema inside
 * `next()`), but of the shape written here: a request whose params are not is answered -32602 before
 * any middleware (params.ts); results are what the handler made, before the era adds its fields
 * (2026-07-28 `resultType`, cache hints and `serverInfo` come after middleware). The methods of
 * `subscriptions/listen` and of tasks are not here: their params and results are records.
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
    params: {
      ref: Readonly<Record<string, unknown>>;
      argument: { name: string; value: string };
      context?: { arguments?: Readonly<Record<string, string>> };
      _meta?: Meta;
    };
    result: { completion: { values: string[]; total?: number; hasMore?: boolean } };
  };
  "server/discover": {
    params: { _meta?: Meta } | undefined;
    result: { supportedVersions: string[]; capabilities: ServerCapabilities; instructions?: string };
  };
  ping: { params: { _meta?: Meta } | undefined; result: Result };
  "logging/setLevel": { params: { level: LogLevel; _meta?: Meta }; result: Result };
  "resources/subscribe": { params: { uri: string; _meta?: Meta }; result: Result };
  "resources/unsubscribe": { params: { uri: string; _meta?: Meta }; result: Result };
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
