import { type Context, RequestContext } from "./context.js";
import { Dispatcher } from "./dispatch.js";
import { ErrorCode, McpError } from "./errors.js";
import type { ClientCapabilities, Implementation, Meta } from "./protocol/types.js";
import { LATEST_VERSION } from "./protocol/versions.js";
import { Registry, type ServerOptions } from "./registry.js";
import type { Schema, StandardSchemaV1 } from "./schema.js";
import { type CallToolResult, callTool, compileTool, type ToolCallArgs, type ToolConfig } from "./tools.js";
import { serveStdio } from "./transports/stdio.js";

/** What the chain of `.tool()` calls has registered, by name: the types `server.call` checks against. */
type ToolTypes = Record<string, { args: unknown; structured: unknown }>;

type StructuredOf<O> = O extends Schema ? StandardSchemaV1.InferOutput<O> : unknown;

export interface CallOptions {
  /** Cancels the call, as `notifications/cancelled` would. */
  signal?: AbortSignal;
  /** Passed to the handler as `ctx.meta`. */
  meta?: Meta;
  /** The client the call pretends to come from. */
  client?: { info?: Implementation; capabilities?: ClientCapabilities };
}

type CallParameters<Args> = undefined extends Args
  ? [args?: Args, options?: CallOptions]
  : [args: Args, options?: CallOptions];

/** An MCP server: a registry of tools, resources and prompts, and the ways to serve it. */
export class Server<Tools extends ToolTypes = {}> {
  readonly #registry: Registry;
  readonly #dispatcher: Dispatcher;

  constructor(options: ServerOptions) {
    this.#registry = new Registry(options);
    this.#dispatcher = new Dispatcher(this.#registry);
  }

  /**
   * Registers a tool. Names are 1–128 letters, digits, `_`, `.` or `-`; an invalid or taken name
   * throws here, at start-up, rather than when a model calls the tool.
   */
  tool<Name extends string, I extends Schema | undefined = undefined, O extends Schema | undefined = undefined>(
    name: Name,
    config: ToolConfig<I, O>,
  ): Server<Tools & { [K in Name]: { args: ToolCallArgs<I>; structured: StructuredOf<O> } }> {
    this.#registry.addTool(compileTool(name, config as ToolConfig<Schema | undefined, Schema | undefined>));
    return this as never;
  }

  /**
   * Calls a tool in-process, through the same validation and result pipeline as a client's
   * `tools/call`. Tool errors come back as `isError` results; `McpError` and unknown names throw.
   */
  async call<Name extends keyof Tools & string>(
    name: Name,
    ...[args, options]: CallParameters<Tools[Name]["args"]>
  ): Promise<CallToolResult<Tools[Name]["structured"]>> {
    const tool = this.#registry.tools.get(name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${name}". Registered tools: ${[...this.#registry.tools.keys()].join(", ") || "none"}.`,
      );
    const ctx = new RequestContext({
      id: undefined,
      meta: options?.meta,
      protocolVersion: LATEST_VERSION,
      era: "local",
      clientInfo: options?.client?.info,
      clientCapabilities: options?.client?.capabilities ?? {},
    });
    ctx.follow(options?.signal);
    return callTool(tool, args as Record<string, unknown> | undefined, ctx) as Promise<
      CallToolResult<Tools[Name]["structured"]>
    >;
  }

  /** Serves over stdio: newline-delimited JSON-RPC on stdin/stdout. Exits the process when stdin ends. */
  async serve(): Promise<void> {
    await serveStdio(this.#dispatcher);
  }
}

/** Makes a server. Chain `.tool()` calls on it; the chain carries the types `server.call` checks. */
export function pico(options: ServerOptions): Server {
  return new Server(options);
}

export type { Context };
