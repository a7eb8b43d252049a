import { checkOptions } from "../core/content.js";
import type { RequestContext } from "../core/context.js";
import type { Dispatcher } from "../core/dispatch.js";
import { ErrorCode, McpError } from "../core/errors.js";
import type { Context } from "../core/handler-context.js";
import { isObject } from "../core/jsonrpc.js";
import { accessOf, enforceLayer, namedArguments, TASKS, type TaskSettings, type Tool } from "../core/tools.js";
import type { ServerCapabilities } from "../core/types.js";
import { listenExtensions } from "../listen/extensions.js";
import type { Middleware } from "../middleware/middleware.js";
import type { Plugin, PluginMethod, Plugins } from "../middleware/plugin.js";
import type { Bus, SharedState } from "../state/state.js";
import { keepingRequests, requestOf } from "./contexts.js";
import { declaresOnlyLegacyTasks, declaresTasks, missingTasks } from "./extension.js";
import { LegacyTasks } from "./legacy.js";
import { taskListen } from "./listen.js";
import { MemoryTaskStore, type TaskStore } from "./store.js";
import { Tasks } from "./tasks.js";

type Result = Record<string, unknown>;

/**
 * Tasks as a plug-in, in both eras: the server installs it with the first tool registered with a
 * `task` setting (server.ts), so a server without such a tool never loads it.
 *
 * - 2026-07-28, the Tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`): advertised under
 *   `capabilities.extensions` in `server/discover` (never in `initialize`); a `tools/call` of a task
 *   tool from a request that declares it is answered with a `CreateTaskResult`; `tasks/get`,
 *   `tasks/update`, `tasks/cancel`; `taskIds` in `subscriptions/listen` (listen.ts).
 * - 2025-11-25, its experimental tasks ("Tasks"): `capabilities.tasks` in `initialize` (never in
 *   `server/discover`), `execution.taskSupport` in `tools/list`, the `task` parameter of `tools/call`,
 *   `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel` (legacy.ts).
 *
 * `server.call` runs a task tool as an ordinary call.
 */

/**
 * Installs the plug-in on a server, which loads this layer once (on-first-use.ts), with its first
 * task tool: its `use`, which installs a plug-in (`server.use`), and its `plugins`, which do work on
 * the server's plug-ins once they have loaded; `state` is the shared state of several instances
 * (`pico({ state })`).
 */
export function install(
  dispatcher: Dispatcher,
  { use, plugins }: { use(plugin: Plugin): unknown; plugins: { run(work: (plugins: Plugins) => void): void } },
  state: Pick<SharedState, "tasks" | "bus"> | undefined,
): void {
  const { use: innermost, ...parts } = plugin(dispatcher, state?.tasks, state?.bus);
  use(parts);
  plugins.run((plugins) => {
    // Advertised by server/discover's middleware (asExtension), not by the plug-in's capabilities,
    // which 2025 sessions see: a plug-in's own settings for it would be replaced there, unseen.
    plugins.reserve(
      TASKS,
      "which picomcp advertises itself once a tool has a task setting (docs/tasks.md): remove it from the plug-in's capabilities.extensions, or, if the plug-in serves the Tasks extension itself, give no tool a task setting.",
    );
    // A 2025 task asks its client through the tasks/result request waiting for it (contexts.ts).
    plugins.Context = keepingRequests(plugins.Context);
    // Inside every user middleware, whenever added: each sees a task's call and its CreateTaskResult.
    plugins.useInnermost(innermost);
  });
}

/**
 * What 2025-11-25 sessions are told in `initialize` ("Tasks": capabilities.tasks; the `requests` map
 * is exhaustive). Not the Tasks extension: SEP-2663 "Backward Compatibility" says it "is not defined
 * under the 2025-11-25 protocol version"; `server/discover` swaps one for the other (asExtension).
 */
const LEGACY_CAPABILITIES: ServerCapabilities & { tasks: object } = {
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
};

/**
 * The plug-in of one server, made from its dispatcher (server.ts): the registry it reads tools from,
 * the context class its requests use, the bounds of its rounds. `store`: where tasks are kept
 * (default: in memory, at most limits.maxTasks); `bus`: how answers and cancellations reach the instance
 * running a task when several share the store (`pico({ state })`).
 */
export function plugin(
  dispatcher: Dispatcher,
  // As many as the instance may run (limits.maxTasks): a smaller store would refuse tasks the limit allows.
  store: TaskStore = new MemoryTaskStore({ maxTasks: dispatcher.limits.maxTasks }),
  bus?: Bus,
): Plugin & { use: Middleware } {
  const { registry } = dispatcher;
  // The run's context is made with the server's class (installing this plug-in made `plugins`), so
  // plug-ins' additions to ctx are there too.
  const tasks = new Tasks(store, () => dispatcher.plugins!.Context, registry);
  const legacy = new LegacyTasks(tasks);
  if (bus) tasks.share(bus);
  // The shutdown waits for the runs to be recorded failed: a deploy's next instance reads them at once.
  dispatcher.finishing.push(() => tasks.close());
  listenExtensions.set(registry, [...(listenExtensions.get(registry) ?? []), taskListen(tasks)]);
  // Each method in the eras it exists in; in 2026-07-28 for requests that declare the extension
  // (SEP-2663), or only 2025-11-25's tasks capability (on tasks of 2025-11-25 sessions), and with the
  // routing header over HTTP (SEP-2663 "Routing Headers": Mcp-Name carries the taskId, for load balancers).
  const both = (
    method: string,
    modern: (params: Result | undefined, ctx: Context) => Promise<Result>,
    old: (params: Result | undefined, ctx: RequestContext) => Promise<Result>,
  ): PluginMethod => ({
    nameParam: "taskId",
    run: (params, ctx) => {
      if (ctx.era === "legacy") return inSessionWithTasks(method, old)(params, ctx);
      if (declaresTasks(ctx)) return modern(params, ctx);
      // SEP-2663 "Backward Compatibility" (SHOULD): the tasks of 2025-11-25 sessions, as 2025-11-25 answers.
      if (declaresOnlyLegacyTasks(ctx)) return old(params, requestIn(ctx));
      throw missingTasks(method);
    },
  });
  const use: Middleware = (call, next) => {
    const ctx = call.ctx;
    if (call.method === "server/discover") return asExtension(next());
    if (call.method === "tools/list") {
      return ctx.era === "legacy" && hasTasks(ctx) ? withTaskSupport(next(), registry.tools) : next();
    }
    if (call.method !== "tools/call" || ctx.era === "local") return next();
    const params = call.params;
    const name = params?.name;
    const tool = typeof name === "string" ? registry.tools.get(name) : undefined;
    const settings = tool?.task === undefined ? undefined : settingsOf(tool);
    if (ctx.era === "legacy") {
      if (hasTasks(ctx)) return legacyCall({ tool, settings, params, ctx, tasks }) ?? next();
      return tool && settings?.support === "required" ? admitted(tool, ctx, () => noTasksFor(tool, ctx)) : next();
    }
    if (!tool || !settings) return next();
    // Whatever is wrong with the call, a caller the tool refuses is answered as an ordinary call would be (admitted).
    if (!declaresTasks(ctx)) {
      if (settings.support !== "required") return next();
      return admitted(tool, ctx, () => {
        throw missingTasks(`Tool "${tool.name}" runs only as a task, so it`);
      });
    }
    const task = () => ({ tool, settings, args: namedArguments(params?.arguments), ctx });
    // Ask first: the first round runs in the request (its questions come back as input_required),
    // and the retry that answers them starts the task with those answers.
    if (params?.requestState === undefined)
      return settings.askFirst ? next() : admitted(tool, ctx, () => tasks.create(task()));
    // The round runner checks the state (the asking layer's), first, as it does for any tool's
    // retry (core/dispatch.ts, whose rounds load the asking layer), one that does not exist too; only then is the caller checked.
    return import("../asking/layer.js").then(async ({ retryAnswers }) => {
      const answers = await retryAnswers({
        ctx,
        method: "tools/call",
        params,
        states: dispatcher.states,
      });
      return admitted(tool, ctx, () => tasks.create(task(), answers));
    });
  };
  return {
    name: "tasks",
    capabilities: LEGACY_CAPABILITIES,
    methods: {
      "tasks/get": both(
        "tasks/get",
        (params, ctx) => tasks.get(params, ctx),
        (params, ctx) => legacy.get(params, ctx),
      ),
      "tasks/cancel": both(
        "tasks/cancel",
        // SEP-2663: an empty acknowledgement, whatever the task's status.
        async (params, ctx) => {
          await tasks.cancel(params, ctx);
          return {};
        },
        (params, ctx) => legacy.cancel(params, ctx),
      ),
      "tasks/update": {
        legacy: false,
        nameParam: "taskId",
        run: (params, ctx) => {
          if (!declaresTasks(ctx)) throw missingTasks("tasks/update");
          return tasks.update(params, ctx);
        },
      },
      // 2025-11-25 only: SEP-2663 removed them (-32601 in 2026-07-28).
      "tasks/result": {
        modern: false,
        run: inSessionWithTasks("tasks/result", (params, ctx) => legacy.result(params, ctx)),
      },
      "tasks/list": { modern: false, run: inSessionWithTasks("tasks/list", (params, ctx) => legacy.list(params, ctx)) },
    },
    use,
  };
}

/**
 * Whether a 2025 request's session has tasks: they came with 2025-11-25 ("Tasks"), and a session of an
 * older revision, offered no `capabilities.tasks` (sessions/session.ts), is served as a server without
 * tasks serves ("Tasks": it ignores a `task` parameter, and lists no `execution.taskSupport`).
 */
function hasTasks(ctx: Context): boolean {
  // Revisions are dates of one form, so they compare as strings.
  return ctx.protocolVersion >= "2025-11-25";
}

/** A 2025 tasks method, which a session of an older revision does not have: -32601 there, as any method its protocol lacks. */
function inSessionWithTasks(
  method: string,
  run: (params: Result | undefined, ctx: RequestContext) => Promise<Result>,
): (params: Result | undefined, ctx: Context) => Promise<Result> {
  return (params, ctx) => {
    if (!hasTasks(ctx)) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Method not found: "${method}" is not available in protocol ${ctx.protocolVersion}`,
      );
    }
    return run(params, requestIn(ctx));
  };
}

/** -32601 for a tool that runs only as a task, called in a session of a revision without tasks. */
function noTasksFor(tool: Tool, ctx: Context): never {
  throw new McpError(
    ErrorCode.MethodNotFound,
    `Tool "${tool.name}" runs only as a task, which protocol ${ctx.protocolVersion} does not have (tasks came with 2025-11-25); it cannot be called in this session`,
  );
}

/**
 * A 2025-11-25 `tools/call` ("Tasks": tool-level negotiation): with a `task` parameter, a tool that
 * may run as a task answers with a `CreateTaskResult`; one that may not, or a call without it to a
 * tool that runs only as a task, is refused with -32601. Undefined: an ordinary call.
 */
function legacyCall(call: {
  tool: Tool | undefined;
  settings: TaskSettings | undefined;
  params: Result | undefined;
  ctx: Context;
  tasks: Tasks;
}): Promise<Result> | undefined {
  const { tool, settings, params, ctx } = call;
  const task = params?.task;
  if (!tool || (task === undefined && settings?.support !== "required")) return undefined;
  // A caller the tool refuses learns nothing of how it runs: they get what an ordinary call answers.
  return admitted(tool, ctx, () => {
    if (task === undefined) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Tool "${tool.name}" runs only as a task: call it with params.task (its execution.taskSupport is "required")`,
      );
    }
    if (!settings) {
      throw new McpError(
        ErrorCode.MethodNotFound,
        `Tool "${tool.name}" does not run as a task: call it without params.task (it has no execution.taskSupport)`,
      );
    }
    const ttl = isObject(task) ? task.ttl : undefined;
    if (
      !isObject(task) ||
      (ttl !== undefined && ttl !== null && !(typeof ttl === "number" && Number.isInteger(ttl) && ttl > 0))
    ) {
      throw new McpError(
        ErrorCode.InvalidParams,
        "Invalid params: params.task must be an object, with ttl (if any) a whole positive number of milliseconds",
      );
    }
    const args = namedArguments(params?.arguments);
    return call.tasks.create({ tool, settings, args, ctx, ttl: typeof ttl === "number" ? ttl : undefined });
  });
}

/**
 * Starts a task for a caller the tool's `auth` admits; anyone else gets what an ordinary call to it
 * answers (401/403 over HTTP, an `isError` refusal, or "Unknown tool" when hidden: docs/authorization.md),
 * and no task is made: a refused caller runs nothing and fills no task store.
 */
async function admitted(tool: Tool, ctx: Context, start: () => Promise<Result>): Promise<Result> {
  const request = requestIn(ctx);
  if (accessOf(request, tool.auth) !== "public") {
    const refused = await enforceLayer.use((enforce) => enforce.refusedCall(tool, request));
    if (refused) return { ...refused };
  }
  return start();
}

/** The request context a method's handler gets, as the dispatcher makes it (its stream and session, which `Context` does not show). */
function requestIn(ctx: Context): RequestContext {
  const request = requestOf(ctx);
  if (request) return request;
  throw new McpError(ErrorCode.InternalError, "Internal error: a tasks method ran outside a request");
}

/**
 * `server/discover` with the Tasks extension in place of 2025-11-25's `capabilities.tasks` (SEP-2663
 * "Capability Negotiation": the extension, in response to server/discover; "Backward Compatibility":
 * MUST NOT advertise the legacy capability under a version that includes the extension).
 */
async function asExtension(result: Promise<Result>): Promise<Result> {
  const discovered = await result;
  const capabilities = discovered.capabilities;
  if (!isObject(capabilities)) return discovered;
  const { tasks: _, extensions, ...rest } = capabilities;
  return {
    ...discovered,
    capabilities: { ...rest, extensions: { ...(isObject(extensions) && extensions), [TASKS]: {} } },
  };
}

/** 2025-11-25 `tools/list` with each task tool's `execution.taskSupport` ("Tasks": tool-level negotiation). */
async function withTaskSupport(result: Promise<Result>, tools: ReadonlyMap<string, Tool>): Promise<Result> {
  const listed = await result;
  if (!Array.isArray(listed.tools)) return listed;
  return {
    ...listed,
    tools: listed.tools.map((entry: Result) => {
      const tool = typeof entry.name === "string" ? tools.get(entry.name) : undefined;
      return tool?.task === undefined ? entry : { ...entry, execution: { taskSupport: settingsOf(tool).support } };
    }),
  };
}

const checked = new WeakMap<Tool, TaskSettings>();

/** What `{ support, … }` may hold (core/tools.ts's TaskSettings), each key once. */
const TASK_SETTINGS: Record<keyof TaskSettings, 0> = { support: 0, ttlMs: 0, pollIntervalMs: 0, askFirst: 0 };

/**
 * Checks a tool's `task` setting as it is registered (server.ts): the core keeps it as given, so that
 * a server without task tools carries no code for it. A wrong one (possible from JavaScript) throws
 * a TypeError that says what to fix, so that no request meets it: listing it would fail every
 * client's `tools/list`.
 */
export function checkTask(tool: Tool): void {
  settingsOf(tool);
}

/** A tool's `task` setting, checked once (see checkTask, which every registered task tool went through). */
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
    !whole(settings.pollIntervalMs) ||
    (settings.askFirst !== undefined && typeof settings.askFirst !== "boolean")
  ) {
    throw new TypeError(
      `Tool "${tool.name}" has an invalid task setting ${JSON.stringify(task) ?? String(task)}: use "optional", "required" or { support, ttlMs?, pollIntervalMs?, askFirst? } with whole positive milliseconds and askFirst true or false.`,
    );
  }
  checkOptions(settings, TASK_SETTINGS, `Tool "${tool.name}"'s task setting`);
  checked.set(tool, settings);
  return settings;
}
