import { legacyRounds } from "./asking/rounds.js";
import type { IdentityInit } from "./auth/identity.js";
import { RequestContext } from "./core/context.js";
import type { Dispatcher } from "./core/dispatch.js";
import { ErrorCode, McpError } from "./core/errors.js";
import { shown } from "./core/safe.js";
import { type CallToolResult, callTool } from "./core/tools.js";
import type { ClientCapabilities, Implementation, InputRequest, Meta } from "./core/types.js";
import { LATEST_VERSION } from "./core/versions.js";

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

/** One in-process tool call: the tool and its arguments. */
export interface LocalCall {
  name: string;
  arguments: unknown;
}

/**
 * `server.call`: a tool called in-process, through the same validation and result pipeline as a
 * client's `tools/call`, its questions answered by `onInput`. It runs under the round runner, so it
 * loads with the asking layer (asking/layer.ts).
 */
export async function callLocally(
  dispatcher: Dispatcher,
  call: LocalCall,
  options: CallOptions | undefined,
): Promise<CallToolResult> {
  const { name, arguments: args } = call;
  const { registry, plugins } = dispatcher;
  // What plug-ins installed: the `tools/call` middleware chain, which the call goes through as a
  // client's would, and their context class.
  const chain = plugins?.chain("tools/call");
  const auth = options?.auth && (await (await import("./auth/to-identity.js")).toIdentity(options.auth));
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
  const handler = () => {
    const tool = registry.tools.get(name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${shown(name)}". Registered tools: ${[...registry.tools.keys()].join(", ") || "none"}.`,
      );
    const run = () => callTool(tool, args, ctx) as Promise<never>;
    return legacyRounds({ run, ctx, ask: onInput && { ask: async (request) => onInput(request) } }, NO_INPUT);
  };
  const params = { name, arguments: args as Record<string, unknown> | undefined };
  const running = chain ? chain({ method: "tools/call", params, ctx }, handler) : handler();
  try {
    const result = await untilAborted(Promise.resolve(running), options?.signal);
    // A cancelled call has no result, as a cancelled request gets no response.
    if (ctx.cancelled) throw options?.signal?.reason ?? new DOMException("The call was cancelled", "AbortError");
    return result as unknown as CallToolResult;
  } finally {
    // As over a transport: nothing of the call follows its result, and its handler may ask no more.
    ctx.finish();
  }
}

/**
 * Rejects with the signal's reason as soon as it aborts, as `fetch` does: a cancelled request stops
 * counting at once over a transport, so a tool that ignores `ctx.signal` must not hold the caller either.
 */
function untilAborted<T>(running: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return running;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
    running.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
