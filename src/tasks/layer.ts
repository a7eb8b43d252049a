import type { Dispatcher } from "../core/dispatch.js";
import { ErrorCode, McpError } from "../core/errors.js";
import type { Context } from "../core/handler-context.js";
import { isObject } from "../core/jsonrpc.js";
import type { Middleware } from "../core/middleware.js";
import type { Plugin } from "../core/plugin.js";
import type { TaskSettings, Tool } from "../core/tools.js";
import type { Bus, SharedState } from "../state/state.js";
import { MemoryTaskStore, type TaskStore } from "./store.js";
import { TASKS } from "./task.js";
import { declaresTasks, missingTasks, Tasks } from "./tasks.js";

/**
 * The Tasks extension of 2026-07-28 (SEP-2663, `io.modelcontextprotocol/tasks`) as a plug-in: the
 * server installs it with the first tool registered with a `task` setting (server.ts), so a server
 * without such a tool never loads it. It adds `tasks/get`, `tasks/update` and `tasks/cancel`,
 * advertises the extension, and answers a `tools/call` of a task tool from a client that declares
 * the extension with a `CreateTaskResult`, the tool running in the background. 2025-11-25 sessions
 * and `server.call` get an ordinary call: 2025-11-25's experimental tasks are not part of this layer
 * (docs/tasks.md says so; issue 15).
 */

const installed = new WeakSet<Dispatcher>();

/** Installs the plug-in on a server (`server.use`) once, whichever of its task tools asks first. */
export function install(
  dispatcher: Dispatcher,
  server: { use(plugin: Plugin): unknown },
  state?: Pick<SharedState, "tasks" | "bus">,
): void {
  if (installed.has(dispatcher)) return;
  installed.add(dispatcher);
  server.use(plugin(dispatcher, state?.tasks, state?.bus));
}

/**
 * The plug-in of one server, made from its dispatcher (server.ts): the registry it reads tools from,
 * the context class its requests use, the bounds of its rounds. `store`: where tasks are kept
 * (default: in memory, at most 1000); `bus`: how answers and cancellations reach the instance
 * running a task when several share the store (`pico({ state })`).
 */
export function plugin(dispatcher: Dispatcher, store: TaskStore = new MemoryTaskStore(), bus?: Bus): Plugin {
  const { registry } = dispatcher;
  // The run's context is made with the server's class (installing this plug-in made `plugins`), so
  // plug-ins' additions to ctx are there too.
  const tasks = new Tasks(store, () => dispatcher.plugins!.Context, registry);
  if (bus) tasks.share(bus);
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
    const settings = tool?.task === undefined ? undefined : settingsOf(tool);
    const ctx = call.ctx;
    // 2025-11-25 sessions and in-process calls run the tool as before.
    if (!tool || !settings || ctx.era !== "modern") return next();
    if (!declaresTasks(ctx)) {
      if (settings.support === "required") throw missingTasks(`Tool "${tool.name}" runs only as a task, so it`);
      return next();
    }
    const params = call.params;
    const args = params?.arguments;
    if (args !== undefined && args !== null && !isObject(args)) {
      throw new McpError(ErrorCode.InvalidParams, "tools/call params.arguments must be an object of named arguments");
    }
    const task = { tool, settings, args: args ?? undefined, ctx };
    if (!settings.askFirst) return tasks.create(task);
    // Ask first: the first round runs in the request (its questions come back as input_required),
    // and the retry that answers them starts the task with those answers.
    if (params?.requestState === undefined) return next();
    // The round runner checks the state: the asking layer's, loaded already by the round that asked.
    return import("../asking/layer.js").then(async ({ retryAnswers }) => {
      const answers = await retryAnswers({
        ctx,
        method: "tools/call",
        params,
        states: dispatcher.states,
      });
      return tasks.create(task, answers);
    });
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

const checked = new WeakMap<Tool, TaskSettings>();

/**
 * A tool's `task` setting, checked once: the core keeps it as given, so that a server without task
 * tools carries no code for it. A wrong one (possible from JavaScript) fails the tool's calls with
 * what to fix.
 */
function settingsOf(tool: Tool): TaskSettings {
  let settings = checked.get(tool);
  if (settings) return settings;
  const task = tool.task;
  settings = typeof task === "string" ? { support: task } : task;
  const whole = (ms: unknown) => ms === undefined || (typeof ms === "number" && ms > 0 && Number.isInteger(ms));
  if (
    !isObject(settings) ||
    (settings.support !== "optional" && settings.support !== "required") ||
    !whole(settings.ttlMs) ||
    !whole(settings.pollIntervalMs)
  ) {
    throw new McpError(
      ErrorCode.InternalError,
      `Tool "${tool.name}" has an invalid task setting ${JSON.stringify(task)}: use "optional", "required" or { support, ttlMs?, pollIntervalMs?, askFirst? } with whole positive milliseconds.`,
    );
  }
  checked.set(tool, settings);
  return settings;
}
