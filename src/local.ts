import { legacyRounds } from "./asking/rounds.js";
import type { IdentityInit } from "./auth/identity.js";
import { RequestContext } from "./core/context.js";
import type { Dispatcher } from "./core/dispatch.js";
import { ErrorCode, McpError } from "./core/errors.js";
import { shown } from "./core/safe.js";
import { type CallToolResult, callTool } from "./core/tools.js";
import type { ClientCapabilities, Implementation, InputRequest, Meta } from "./core/types.js";
import { LATEST_VERSION } from "./core/versions.js";
import type { InProgress } from "./limits/interruptions.js";

const NO_INPUT = "server.call has no client to ask: pass onInput in the call options to answer the tool's questions.";

/** The options of `server.call`. */
export interface CallOptions {
  /** Cancels the call, as `notifications/cancelled` would. */
  signal?: AbortSignal;
  /** Passed to the handler as `ctx.meta`. */
  meta?: Meta;
  /** The client the call pretends to come from. */
  client?: { info?: Implementation; capabilities?: ClientCapabilities };
  /** Answers the tool's questions (elicitation, sampling, roots) in place of a client. */
  onInput?: (request: InputRequest) => unknown;
  /** The caller, as a verified token would describe it: `ctx.auth`, checked against the tool's `auth`. */
  auth?: IdentityInit;
}

/** One in-process tool call: the tool and its arguments, and where it is counted. */
export interface LocalCall {
  name: string;
  arguments: unknown;
  /** Whether `server.close()` had been called when the call was made: then it is refused, as a request read then is. */
  closed: boolean;
  /**
   * The server's in-process calls in progress (server.ts's, made with its first call). Limits bound
   * clients, so no cap counts them and no deadline ends them; but the shutdown, beside the requests',
   * gives them `limits.shutdownGraceMs` and then interrupts them, as it does requests (the limits
   * layer's `drain`).
   */
  calls: InProgress;
}

/**
 * `server.call`: a tool called in-process, through the same validation and result pipeline as a
 * client's `tools/call`, its questions answered by `onInput`. It runs under the round runner, so it
 * loads with the asking layer (asking/layer.ts). Resolves once the call is in progress (counted in
 * `calls`, which the shutdown waits for), with its result to come.
 */
export async function startLocally(
  dispatcher: Dispatcher,
  call: LocalCall,
  options: CallOptions | undefined,
): Promise<{ result: Promise<CallToolResult> }> {
  const { name, arguments: args, calls } = call;
  const { registry, plugins } = dispatcher;
  // What plug-ins installed: the `tools/call` middleware chain, which the call goes through as a
  // client's would, and their context class.
  const chain = plugins?.chain("tools/call");
  const auth = options?.auth && (await (await import("./auth/to-identity.js")).toIdentity(options.auth));
  if (call.closed) {
    throw new McpError(
      ErrorCode.InternalError,
      `Server closed: server.close() was called, so server.call("${shown(name)}") did not run; the server accepts no new calls.`,
    );
  }
  const ctx = new (plugins?.Context ?? RequestContext)(
    {
      id: undefined,
      meta: options?.meta,
      protocolVersion: LATEST_VERSION,
      era: "local",
      clientInfo: options?.client?.info,
      clientCapabilities: options?.client?.capabilities ?? {},
      auth,
    },
    undefined,
    registry.auth,
  );
  ctx.follow(options?.signal);
  const onInput = options?.onInput;
  const params = { name, arguments: args as Record<string, unknown> | undefined };
  // The params as the middleware left them (arguments it rewrote), as a client's tools/call runs them.
  const handler = () => {
    const tool = registry.tools.get(params.name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${shown(params.name)}". Registered tools: ${[...registry.tools.keys()].join(", ") || "none"}.`,
      );
    const run = () => callTool(tool, params.arguments, ctx) as Promise<never>;
    return legacyRounds({ run, ctx, ask: onInput && { ask: async (request) => onInput(request) } }, NO_INPUT);
  };
  calls.born.set(ctx, undefined);
  return {
    result: (async () => {
      try {
        const running = chain ? chain({ method: "tools/call", params, ctx }, handler) : handler();
        // Rejects as soon as the caller's signal aborts (with its reason, as `fetch` does) or the shutdown
        // ends the call, as a request stops counting then: a tool that ignores `ctx.signal` holds no one.
        const result = await ctx.race(Promise.resolve(running));
        // A cancelled call has no result, as a cancelled request gets no response.
        if (ctx.cancelled) throw options?.signal?.reason ?? new DOMException("The call was cancelled", "AbortError");
        return result as unknown as CallToolResult;
      } catch (thrown) {
        if (!ctx.interrupted) throw thrown;
        // Only the shutdown interrupts a call: it gets no handler timeout. Without a grace period (its module
        // gone), the default words say so.
        const grace = `${dispatcher.limits.shutdownGraceMs / 1000} s grace period`;
        const how = calls.graceless
          ? undefined
          : `did not finish within the ${grace} of server.close() (limits.shutdownGraceMs) and was cancelled`;
        throw new McpError(ErrorCode.InternalError, calls.cancelled(`server.call("${shown(name)}")`, how));
      } finally {
        // The shutdown waits for none to be in progress (interruptions.ts's `settled`).
        if (calls.born.delete(ctx) && calls.born.size === 0) for (const wake of calls.idle.splice(0)) wake();
        // As over a transport: nothing of the call follows its result, and its handler may ask no more.
        ctx.finish();
      }
    })(),
  };
}
