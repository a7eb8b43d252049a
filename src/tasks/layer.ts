import { retryAnswers } from "../asking/rounds.js";
import { RequestContext } from "../core/context.js";
import { ErrorCode, McpError } from "../core/errors.js";
import type { Context } from "../core/handler-context.js";
import { isObject } from "../core/jsonrpc.js";
import type { Middleware } from "../core/middleware.js";
import type { Plugin } from "../core/plugin.js";
import type { Registry } from "../core/registry.js";
import { MemoryTaskStore, type TaskStore } from "./store.js";
import { TASKS } from "./task.js";
import { type ContextClass, declaresTasks, missingTasks, Tasks } from "./tasks.js";

/**
 * The Tasks extension of 2026-07-28 (SEP-2663, `io.modelcontextprotocol/tasks`) as a plug-in: the
 * server installs it with the first tool registered with a `task` setting (server.ts), so a server
 * without such a tool never loads it. It adds `tasks/get`, `tasks/update` and `tasks/cancel`,
 * advertises the extension, and answers a `tools/call` of a task tool from a client that declares
 * the extension with a `CreateTaskResult`, the tool running in the background. 2025-11-25 sessions
 * call task tools as usual, for now (their experimental tasks are not implemented yet).
 */

/** What the server gives the plug-in: its registry, its context class, and the bounds of its rounds. */
export interface TasksHost {
  readonly registry: Registry;
  readonly Context: () => ContextClass;
  /** `limits.maxUsedRequestStates`: how many used `requestState`s the rounds remember (see rounds.ts). */
  readonly maxUsedStates: number;
  /** Where tasks are kept. Default: in memory, at most 1000. */
  readonly store?: TaskStore;
}

export function tasksPlugin(host: TasksHost): Plugin {
  const tasks = new Tasks(host.store ?? new MemoryTaskStore(), host.Context);
  const { registry } = host;
  registry.subscribe((event) => {
    if (event.type === "closed") void tasks.close();
  });
  // The three methods exist only for clients that declared the extension (SEP-2663), in 2026-07-28.
  const gated = (method: "get" | "update" | "cancel") => ({
    legacy: false,
    // SEP-2663 "Streamable HTTP: Routing Headers": Mcp-Name carries the taskId, for load balancers.
    nameParam: "taskId",
    run: (params: Record<string, unknown> | undefined, ctx: Context) => {
      if (!declaresTasks(ctx)) throw missingTasks(`tasks/${method}`);
      return tasks[method](params, ctx);
    },
  });
  const use: Middleware = (call, next) => {
    if (call.method !== "tools/call") return next();
    const name = call.params?.name;
    const tool = typeof name === "string" ? registry.tools.get(name) : undefined;
    const settings = tool?.task;
    const ctx = call.ctx;
    // 2025-11-25 sessions and in-process calls run the tool as before.
    if (!tool || !settings || !(ctx instanceof RequestContext) || ctx.era !== "modern") return next();
    if (!declaresTasks(ctx)) {
      if (settings.support === "required") throw missingTasks(`Tool "${tool.name}" runs only as a task, so it`);
      return next();
    }
    const params = call.params;
    const args = params?.arguments;
    if (args !== undefined && args !== null && !isObject(args)) {
      throw new McpError(ErrorCode.InvalidParams, "tools/call params.arguments must be an object of named arguments");
    }
    if (!settings.askFirst) return tasks.create(tool, args ?? undefined, ctx);
    // Ask first: the first round runs in the request (its questions come back as input_required),
    // and the retry that answers them starts the task with those answers.
    if (params?.requestState === undefined) return next();
    const answers = retryAnswers({
      ctx,
      method: "tools/call",
      params,
      keeper: registry,
      stateKey: registry.stateKey,
      maxUsedStates: host.maxUsedStates,
    });
    return answers.then((known) => tasks.create(tool, args ?? undefined, ctx, known));
  };
  return {
    name: "tasks",
    capabilities: { extensions: { [TASKS]: {} } },
    methods: {
      "tasks/get": gated("get"),
      "tasks/update": gated("update"),
      "tasks/cancel": gated("cancel"),
    },
    use,
  };
}
