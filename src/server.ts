import type { EntryHost } from "./auth/entries.js";
import type { AuthOptions, AuthSettings } from "./auth/settings.js";
import { checkOptions } from "./core/content.js";
import { askingLayer, type Context } from "./core/context.js";
import { Dispatcher } from "./core/dispatch.js";
import { isObject } from "./core/jsonrpc.js";
import { listenLayer } from "./core/methods.js";
import { Registry, type RegistryOptions } from "./core/registry.js";
import type { Schema, StandardSchemaV1 } from "./core/schema.js";
import {
  type CallToolResult,
  compileTool,
  contentCheck,
  enforceLayer,
  outputCheck,
  type Tool,
  type ToolCallArgs,
  type ToolConfig,
} from "./core/tools.js";
import type { InProgress } from "./limits/interruptions.js";
import { cancelledByShutdown, installLimits, resolveLimits } from "./limits/limits.js";
import type { Limits } from "./limits/options.js";
import type { CallOptions } from "./local.js";
import type { MethodName, MiddlewareFor, ToolMiddleware } from "./middleware/middleware.js";
import type { Plugin, Plugins } from "./middleware/plugin.js";
import { OnFirstUse } from "./on-first-use.js";
import type { PromptConfig } from "./prompts/prompts.js";
import type { ResourceConfig } from "./resources/resources.js";
import { installLegacySessions } from "./sessions/legacy.js";
import type { SharedState } from "./state/state.js";
import type { HttpFaces } from "./transports/http/faces.js";
import type { HttpOptions, ServeOptions } from "./transports/http/options.js";
import type { Listening } from "./transports/listening.js";
import type { NodeIncomingMessage, NodeServerResponse } from "./transports/node-types.js";
import { closeOnSignals, SERVE_HOOK, type ServeHook, watchRejections } from "./transports/process.js";
import { claimStdout, stdioProcess } from "./transports/stdout.js";

// The layers the core hands work to (layers.ts), each imported when a program first uses it: from
// here, above the core, so the core never imports a feature and a tools-only server never loads one.
askingLayer.wire(() => import("./asking/layer.js"));
listenLayer.wire(() => import("./listen/listen.js"));
enforceLayer.wire(() => import("./auth/enforce.js"));
contentCheck.wire(() => import("./content/check.js"));
outputCheck.wire(() => import("./content/output.js"));

/** What `pico()` takes: the server's identity, and how it serves. */
export interface ServerOptions extends RegistryOptions {
  /** Streamable HTTP settings for `fetch` (and defaults for `serve({ port })`). */
  http?: HttpOptions;
  /** Message size, concurrency, timeouts, SSE streams and shutdown grace: see docs/limits.md. */
  limits?: Limits;
  /**
   * Whether `serve()` shuts the server down gracefully on SIGTERM and SIGINT and then exits the
   * process (code 0). Default: true; false leaves signals to the application (call `server.close()`).
   */
  signals?: boolean;
  /** OAuth resource server settings, and the default `auth` of registrations (docs/authorization.md). */
  auth?: AuthOptions;
  /**
   * State shared by several instances of this server behind a load balancer: 2025-11-25 sessions,
   * their event history, the requestState replay guard, tasks, and a bus (`redisState()` of
   * `picomcp/redis`, docs/scaling.md). Needs `requestStateKey`. Default: this process's memory. The
   * state stays yours: `server.close()` stops using it, `state.close()` closes it.
   */
  state?: SharedState;
}

/** What `pico()` takes (ServerOptions), each key once. */
const SERVER_OPTIONS: Record<keyof ServerOptions, 0> = {
  name: 0,
  version: 0,
  title: 0,
  description: 0,
  websiteUrl: 0,
  icons: 0,
  instructions: 0,
  pageSize: 0,
  requestStateKey: 0,
  askTimeoutMs: 0,
  http: 0,
  limits: 0,
  signals: 0,
  auth: 0,
  state: 0,
};

/** What the chain of `.tool()` calls has registered, by name: the types `server.call` checks against. */
type ToolTypes = Record<string, { args: unknown; structured: unknown }>;

type StructuredOf<O> = O extends Schema ? StandardSchemaV1.InferOutput<O> : unknown;

type CallParameters<Args> = undefined extends Args
  ? [args?: Args, options?: CallOptions]
  : [args: Args, options?: CallOptions];

/** A server's in-process calls: those in progress (local.ts), and those whose pipeline still loads (`Server.call`). */
interface LocalCalls {
  inProgress: InProgress;
  starting: Set<Promise<unknown>>;
}

/**
 * A server's in-process calls, made with its first. The shutdown lets those made before it start, then
 * gives them the grace period and interrupts the rest, beside the requests (the limits layer's `drain`).
 */
function localCalls(dispatcher: Dispatcher): LocalCalls {
  const calls: LocalCalls = {
    inProgress: { limits: dispatcher.limits, born: new Map(), idle: [], cancelled: cancelledByShutdown },
    starting: new Set(),
  };
  dispatcher.finishing.push(async () => {
    await Promise.allSettled(calls.starting);
    await dispatcher.admission?.drain(calls.inProgress);
  });
  return calls;
}

/** A layer that checks and adds one kind of entry: the resources layer, or the prompts layer. */
interface EntryLayer<Config, Entry> {
  compile(key: string, config: Config): Entry;
  add(host: EntryHost, entry: Entry): void;
}

/** The registry behind a server, for picomcp's own tooling (`picomcp/testing`); not public API. */
export let registryOf: (server: Server<never>) => Registry;

/** Any server, whatever tools its chain registered (what `picomcp/testing` takes). */
export type AnyServer = Pick<Server, "fetch" | "ready">;

/** An MCP server: a registry of tools, resources and prompts, and the ways to serve it. */
export class Server<Tools extends ToolTypes = {}> {
  readonly #registry: Registry;
  readonly #dispatcher: Dispatcher;
  /** `pico({ auth })`, checked by `#settings` once they load. */
  readonly #authOptions: AuthOptions | undefined;
  /** The auth settings, loaded with the first server or registration that has auth (see #ruled). */
  readonly #settings: OnFirstUse<AuthSettings>;
  /** `pico({ http, state })`: what `serve({ port })` adds its own options to. */
  readonly #defaults: HttpOptions;
  /**
   * The HTTP faces (`fetch`, `node`, `serve({ port })`, transports/http/faces.ts) and their endpoint,
   * loaded with the first of them, so that a stdio server carries none of it.
   */
  #faces: Promise<HttpFaces> | undefined;
  /** Closes the server on SIGTERM and SIGINT (process.ts); undefined with `pico({ signals: false })`. */
  readonly #onSignals: typeof closeOnSignals | undefined;
  // Each loads with the first registration that needs it (see on-first-use.ts).
  readonly #resources: OnFirstUse<typeof import("./resources/layer.js")>;
  readonly #prompts: OnFirstUse<typeof import("./prompts/layer.js")>;
  /** The Tasks layer (a plug-in), installed with the first tool that has a `task` setting, which it checks. */
  readonly #tasks: OnFirstUse<typeof import("./tasks/layer.js")>;
  /** The plug-in machinery (middleware/plugin.ts), set on the dispatcher, which runs requests through it. */
  readonly #plugins: OnFirstUse<Plugins>;
  /** What the resources and prompts layers add their entries to: the registry, under this server's auth. */
  readonly #host: EntryHost;
  /** The methods of `use` calls made while a layer was loading, which ready() checks (#wrappable). */
  #unchecked: string[] = [];
  /** Stops the stdio serving of `serve()`, and its end. */
  #stdio: { stop: AbortController; done: Promise<void> } | undefined;
  /**
   * The in-process calls (local.ts), made with the first: those in progress, and those made before
   * `close()` that are not yet (their pipeline loading), which the shutdown lets start (see `call`).
   */
  #calls: LocalCalls | undefined;

  constructor(options: ServerOptions) {
    // Plain JavaScript lets `pico()` and `pico("github")` through.
    if (!(options instanceof Object)) {
      throw new TypeError(
        `pico() takes an object of options: e.g. pico({ name: "github" }); got ${JSON.stringify(options) ?? String(options)}.`,
      );
    }
    checkOptions(options, SERVER_OPTIONS, "pico()");
    const { http, auth, limits, signals, state, ...rest } = options;
    const registry = new Registry(rest);
    const dispatcher = new Dispatcher(registry, resolveLimits(limits));
    this.#registry = registry;
    this.#dispatcher = dispatcher;
    this.#authOptions = auth;
    // Every server has the limits (safe defaults) and the 2025 era, which every transport serves; asking
    // the client loads with a handler's first question (askingLayer, above).
    installLimits(dispatcher);
    installLegacySessions(dispatcher);
    // Each layer adds its methods to this server's table as it loads.
    const installed = <Part extends { methods: Registry["methods"] }>(part: Part) => {
      registry.install(part.methods);
      return part;
    };
    this.#resources = new OnFirstUse(registry, () => import("./resources/layer.js").then(installed));
    this.#prompts = new OnFirstUse(registry, () => import("./prompts/layer.js").then(installed));
    const plugins = new OnFirstUse(registry, () =>
      import("./middleware/plugin.js").then(({ Plugins }) => (dispatcher.plugins = new Plugins(registry))),
    );
    this.#plugins = plugins;
    this.#tasks = new OnFirstUse(registry, async () => {
      const tasks = await import("./tasks/layer.js");
      tasks.install(dispatcher, { use: (plugin) => this.#use(plugin), plugins }, state);
      return tasks;
    });
    this.#settings = new OnFirstUse(registry, () =>
      import("./auth/settings.js").then(({ AuthSettings }) => (registry.auth = new AuthSettings(auth))),
    );
    // The options are checked when the settings have loaded: a mistake rejects ready() and serve().
    if (auth !== undefined) this.#settings.run(() => {});
    this.#host = { registry, ruled: (declared, rule, swap) => this.#ruled(declared, rule, swap) };
    this.#defaults = { ...http, state };
    this.#onSignals = (signals ?? true) ? closeOnSignals : undefined;
  }

  /**
   * Registers a tool. Names are 1–128 letters A-Z and a-z, digits, `_`, `.` or `-`; an invalid or taken name
   * throws here, at start-up, rather than when a model calls the tool. A `task` setting is checked
   * as `resource()` is, by the Tasks layer, which loads with the first one.
   */
  tool<Name extends string, I extends Schema | undefined = undefined, O extends Schema | undefined = undefined>(
    name: Name,
    config: ToolConfig<I, O>,
  ): Server<Tools & { [K in Name]: { args: ToolCallArgs<I>; structured: StructuredOf<O> } }> {
    this.#addTool(compileTool(name, config as ToolConfig<Schema | undefined, Schema | undefined>));
    return this as never;
  }

  /**
   * Registers a resource at a fixed URI, or a resource template (RFC 6570, e.g. `"users://{id}/profile"`)
   * whose variables `read` receives, typed from the template string. Checked by the resources layer,
   * which loads with the first one: a mistake rejects `ready()` (and `serve()`) until it has, and
   * throws here once it has. A server's first one comes before it serves: after, it throws here, as
   * its mistake could not (it would fail every request from then on).
   */
  resource<Uri extends string>(uri: Uri, config: ResourceConfig<Uri>): this {
    return this.#register(this.#resources, "resource", [uri, config as unknown as ResourceConfig<string>]);
  }

  /**
   * Registers a prompt: a template of messages the user can pick, with validated string arguments.
   * Checked as `resource()` is, by the prompts layer, which loads with the first one.
   */
  prompt<I extends Schema | undefined = undefined>(name: string, config: PromptConfig<I>): this {
    return this.#register(this.#prompts, "prompt", [name, config as PromptConfig<Schema | undefined>]);
  }

  /** A resource or prompt, checked and added by its layer, which loads with the first one. */
  #register<Config extends { auth?: unknown }, Entry>(
    part: Pick<OnFirstUse<EntryLayer<Config, Entry>>, "now" | "run">,
    kind: string,
    [key, config]: [key: string, config: Config],
  ): this {
    this.#checkedAtCall(part.now, `server.${kind}`, `register its first ${kind}`);
    this.#checkedRule(config.auth);
    part.run((layer) => layer.add(this.#host, layer.compile(key, config)));
    return this;
  }

  /**
   * Registers every tool, resource and prompt of another server here, under this server's auth:
   * a way to serve the same definitions with OAuth over HTTP and without it over stdio. Names
   * must not clash; the other server's own options (name, instructions, auth) do not come along.
   * Once this server serves, it throws for another not ready, or that brings the first resource or
   * prompt (as `resource()` does).
   */
  include<Other extends ToolTypes>(other: Server<Other>): Server<Tools & Other> {
    const registry = other.#registry;
    const { resources, prompts } = registry;
    // Before anything is added: what would wait for a layer cannot throw here once serving (#checkedAtCall).
    const waits =
      registry.installing ||
      (resources.size > 0 && !this.#resources.now) ||
      (prompts.size > 0 && !this.#prompts.now) ||
      (other.#tasks.now && !this.#tasks.now);
    this.#checkedAtCall(!waits, "server.include", "await other.ready(), and include its first resources and prompts");
    for (const entry of [...resources.values(), ...prompts.values()]) this.#checkedRule(entry.config.auth);
    for (const tool of registry.tools.values()) {
      // The other server's auth advertised its rule (auth/settings.ts's register); this server's rules it anew.
      const { securitySchemes: _, _meta, ...descriptor } = tool.descriptor;
      const { securitySchemes: __, ...meta } = _meta ?? {};
      this.#addTool({
        ...tool,
        descriptor: Object.keys(meta).length > 0 ? { ...descriptor, _meta: meta } : descriptor,
      });
    }
    // Through their layers, which install their methods here with the first of each.
    const copy = () => {
      for (const resource of resources.values()) this.#resources.run((layer) => layer.add(this.#host, resource));
      for (const prompt of prompts.values()) this.#prompts.run((layer) => layer.add(this.#host, prompt));
    };
    // The other server's resources and prompts may still be waiting for their layer (on-first-use.ts).
    if (registry.installing) this.#registry.wait(other.ready().then(copy));
    else copy();
    return this as never;
  }

  #addTool(tool: Tool): void {
    const registry = this.#registry;
    // The Tasks extension (tasks/) checks the setting, as the resources layer checks a resource: a
    // mistake throws here once it has loaded, rejects ready() until then (listing every tool would
    // fail on it otherwise). Its first tool comes before the server serves, as a first resource does.
    if (tool.task !== undefined) {
      this.#checkedAtCall(this.#tasks.now, "server.tool", "register its first task tool");
      this.#tasks.run((tasks) => tasks.checkTask(tool));
    }
    this.#checkedRule(tool.auth);
    const ruled = this.#ruled(
      tool.auth,
      (settings) => settings.ruleTool(tool),
      (ruled) => registry.swap("tool", tool.name, ruled),
    );
    registry.addTool(ruled ?? tool);
  }

  /**
   * A registration under the server's auth: its rule checked and its scopes noted by the auth
   * settings (auth/settings.ts), which load with the first server or registration that has auth, so
   * a server without any never carries them. Answers the ruled entry to add, once the settings have
   * loaded; before that, undefined: the entry is added as declared (its name taken, in order), and
   * `swap` puts the ruled one in its place when they have (`ready()`, and so serving, waits for that; a bad rule
   * rejects `ready()`). Undefined too for a server and a registration without auth. Called at the
   * registration's call, or later by a layer that loaded since (a resource registered before serve()):
   * whether the first rule comes too late is `#checkedRule`'s, at the call.
   */
  #ruled<T>(declared: unknown, rule: (settings: AuthSettings) => T, swap: (ruled: T) => void): T | undefined {
    if (declared === undefined && this.#authOptions === undefined) return undefined;
    const settings = this.#settings.now;
    if (settings) return rule(settings);
    this.#settings.run((loaded) => swap(rule(loaded)));
    return undefined;
  }

  /**
   * Adds middleware, or installs a plug-in (see docs/middleware.md). Middleware wraps the requests
   * of the method table in registration order, the first added outermost: every request, one
   * method's (`"tools/call"`: typed params and result) or one tool's (`{ tool }`: the name checked
   * against the tools registered so far, the result typed from its output schema). `initialize`
   * and notifications are not wrapped; `server.call` is, as a `tools/call`. A server's first `use`
   * comes before it serves (`serve()`, the first request of `fetch` or `node`): once it may have
   * answered a request (nothing registered before still loading, see #checkedAtCall), it throws.
   */
  use(middleware: MiddlewareFor<string> | Plugin): this;
  use<M extends MethodName>(method: M, middleware: MiddlewareFor<M>): this;
  use<Name extends keyof Tools & string>(
    target: { tool: Name },
    middleware: ToolMiddleware<Name, Tools[Name]["structured"]>,
  ): this;
  use(
    target: MiddlewareFor<string> | Plugin | string | { tool: string },
    middleware?: (call: never, next: never) => unknown,
  ): this {
    // The machinery loads with the first use, and a mistake in what that use was given is found only
    // then: on a server already serving it would fail every request from then on, unseen by this call.
    this.#checkedAtCall(this.#plugins.now, "server.use", "make its first use");
    return this.#use(target, middleware);
  }

  /** A registration's `auth` rule, at its call: the first rule of a server already serving is refused, as a first resource is. */
  #checkedRule(declared: unknown): void {
    if (declared !== undefined || this.#authOptions !== undefined)
      this.#checkedAtCall(this.#settings.now, "auth", "declare its first rule (or pico({ auth }))");
  }

  /**
   * Refuses a registration (or `use`) once the server may have answered a request, while the part
   * that checks it has not `loaded`: the checks would run only once it had, too late to throw at the
   * call, and their error would fail every request from then on (Registry.wait). Once loaded, the
   * part checks at the call. The server may have answered once `serve()` or the first request of
   * `fetch` or `node` has begun and no layer is loading. While one is, every transport that began
   * waits for it (ready(), which waits for those that start meanwhile too), so what is registered
   * then, such as a `use` right after `serve()` on a server whose first resource still loads, is
   * checked before the first answer, as before serving: a mistake there is a start-up error.
   */
  #checkedAtCall(loaded: unknown, call: string, first: string): void {
    if ((this.#faces ?? this.#stdio) && !this.#registry.installing && !loaded) {
      throw new TypeError(`${call}: the server is serving; ${first} before serve() and the first request.`);
    }
  }

  /** `use` without its check: also how a layer of ours installs its plug-in (Tasks), whenever its first tool comes. */
  #use(target: MiddlewareFor<string> | Plugin | string | { tool: string }, middleware?: unknown): this {
    // What the method table and the tools say is checked here and now; the rest when it is installed.
    let scope: { method: string; tool?: string } | undefined;
    if (typeof target === "string") {
      // A layer still loading (a first resource, prompt or task tool, a plug-in) may install it: checked
      // once every layer has, by ready(), which every transport waits for before it answers (a misspelt
      // name is then a start-up error, never a middleware that silently wraps nothing).
      if (this.#registry.installing) this.#unchecked.push(target);
      else this.#checkWrappable(target);
      scope = { method: target };
    } else if (isObject(target) && "tool" in target) {
      const { tool } = target;
      if (typeof tool !== "string" || !this.#registry.tools.has(tool)) {
        throw new TypeError(
          `server.use({ tool: ${JSON.stringify(tool)} }): no such tool is registered; register it with .tool() first.`,
        );
      }
      scope = { method: "tools/call", tool };
    }
    this.#plugins.run((plugins) => {
      if (typeof target === "function") plugins.use({}, target);
      else if (scope) plugins.use(scope, middleware);
      else plugins.install(target);
    });
    return this;
  }

  /** A method middleware can wrap: one of the method table's (initialize is the handshake, not in it). */
  #checkWrappable(method: string): void {
    if (!this.#dispatcher.method(method)) {
      throw new TypeError(
        `server.use("${method}"): there is no such request method to wrap (initialize and notifications are never wrapped; install a plug-in's methods before wrapping them).`,
      );
    }
  }

  /**
   * Removes a tool, resource (by URI or template) or prompt; clients are told the list changed.
   * Answers whether there was one. A resource or prompt is found once the server is ready (its
   * registration checked, see `ready()`).
   */
  remove(kind: "tool" | "resource" | "prompt", key: string): boolean {
    return this.#registry.remove(kind, key);
  }

  /**
   * Tells subscribed clients that a resource's contents changed (`notifications/resources/updated`),
   * by the URI in the normal form subscriptions are kept in (resources/uri-normal.ts, which the
   * resources layer brings): a client that subscribed to "notes://%69ndex" is told of "notes://index";
   * an update of "docs://a%7Eb" is sent as "docs://a~b". Before that layer has loaded nothing here can
   * have subscribed, but the clients of other instances sharing state can have (an instance that only
   * publishes updates): it goes to them as the program spelled it.
   */
  resourceUpdated(uri: string): void {
    this.#registry.emit({ type: "resources/updated", uri: this.#resources.now?.normalUri(uri) ?? uri });
  }

  /**
   * Tells the 2025-era client that was sent the URL-mode elicitation `elicitationId` (the id given
   * to `ctx.elicitUrl`) that its out-of-band step is done (`notifications/elicitation/complete`).
   * Answers whether a session of this process was waiting for it. 2026-07-28 clients have no such
   * notification: they retry the request when the user is back.
   */
  completeElicitation(elicitationId: string): boolean {
    // No elicitation was ever sent before the asking layer loaded.
    const done = askingLayer.now?.completeElicitation(this.#dispatcher.urlElicitations, elicitationId) ?? false;
    // Shared sessions: the instance holding the session that was sent it tells its client; noted, for
    // one whose subscription is reconnecting (urlNote in transports/http/bus-notes.ts; shared.ts reads it then).
    if (!done) this.#defaults.state?.bus.announce({ type: "url", id: elicitationId }, `url:${elicitationId}`);
    return done;
  }

  /**
   * Calls a tool in-process, through the same validation and result pipeline as a client's
   * `tools/call`. Tool errors come back as `isError` results; `McpError` and unknown names throw.
   * `close()` treats a call made before it as a request received before it (its grace period, then
   * `ctx.signal` aborts and the call rejects), and refuses a call made after it.
   */
  async call<Name extends keyof Tools & string>(
    name: Name,
    ...[args, options]: CallParameters<Tools[Name]["args"]>
  ): Promise<CallToolResult<Tools[Name]["structured"]>> {
    const dispatcher = this.#dispatcher;
    // It counts from now, as a request from when it is read: the in-process pipeline, which loads with
    // the first call (with the asking layer it runs under: local.ts), may still be loading at close().
    const closed = dispatcher.closing;
    this.#calls ??= localCalls(dispatcher);
    const calls = this.#calls;
    const starting = Promise.all([import("./asking/layer.js"), this.ready()]).then(([{ startLocally }]) =>
      startLocally(dispatcher, { name, arguments: args, closed, calls: calls.inProgress }, options),
    );
    const started = () => calls.starting.delete(starting);
    if (!closed) calls.starting.add(starting);
    starting.then(started, started);
    const result = await (await starting).result;
    return result as unknown as CallToolResult<Tools[Name]["structured"]>;
  }

  /**
   * The Streamable HTTP endpoint as a Web handler: `Request` in, `Response` out. A bound property,
   * so `export default server` works on Cloudflare Workers, Bun and Deno. `listener` is what the
   * runtime passes after the request: from a Bun server on a loopback address, the endpoint accepts
   * only loopback `Host` headers unless `allowedHosts` says otherwise, as `serve()` does. A server
   * that could not start answers every request with a JSON 500 and logs why once: never a rejection.
   */
  readonly fetch = async (request: Request, listener?: unknown): Promise<Response> =>
    (await this.#http()).fetch(request, listener);

  /**
   * Where Bun listens when this server is a module's default export: Bun serves such an export
   * itself, with the `hostname` it finds on it (and `port`, else `$PORT` or 3000). Loopback, as
   * `serve()`; to listen elsewhere, export `{ fetch: server.fetch, hostname: "0.0.0.0" }`.
   */
  readonly hostname = "127.0.0.1";

  /**
   * `deno serve` calls this with the address it listens on when this server is a module's default
   * export (and then prints nothing itself). On a loopback address (`deno serve --host 127.0.0.1`),
   * the endpoint accepts only loopback `Host` headers, as `serve()` does, unless `allowedHosts` says
   * otherwise. Prints the line `deno serve` would have, once the endpoint is ready. With
   * `--parallel` only Deno's first worker is told, so the others need `allowedHosts` for the same check.
   */
  readonly onListen = (address: { hostname: string; port: number }): void => {
    // Registered before any request's `fetch` waits on the faces, so it runs before any request is handled.
    this.#http().then(
      (faces) => faces.listening(address),
      () => {}, // The faces failed to load: every request's fetch fails with that error.
    );
  };

  /**
   * The same endpoint as `fetch`, as a `node:http` request listener, for Node servers that do not
   * use Web requests: `http.createServer(server.node)`, `app.all("/mcp", server.node)` in Express,
   * Fastify's `request.raw` and `reply.raw` after `reply.hijack()`. Sessions, limits, auth and
   * `close()` are shared with `fetch`. A body that a parser such as `express.json()` already read
   * is taken from `req.body`. Resolves once the response is handed off; never rejects (a failure
   * answers 500).
   */
  readonly node = async (req: NodeIncomingMessage, res: NodeServerResponse): Promise<void> =>
    (await this.#http()).node(req, res);

  /**
   * Serves the server. Without options: stdio (newline-delimited JSON-RPC on stdin/stdout), until
   * stdin ends or `close()`; from the call on, stdout carries the protocol only (console output and
   * other writes to stdout go to stderr), and once serving ends they are given back. With a port:
   * Streamable HTTP on Node, Bun or Deno, on 127.0.0.1 unless `host` says otherwise; loopback
   * servers accept only loopback Host headers (DNS rebinding protection). Neither touches the
   * console before it is called.
   */
  serve(): Promise<void>;
  serve(options: ServeOptions): Promise<Listening>;
  async serve(options?: ServeOptions): Promise<unknown> {
    // Checked before anything else, and without awaiting: from the call on, stdout is the protocol's.
    const refused = (globalThis as { [SERVE_HOOK]?: ServeHook })[SERVE_HOOK]?.();
    if (refused) return refused;
    const unwatch = watchRejections();
    if (!options) {
      const stop = new AbortController();
      const unhook = this.#onSignals?.(() => this.close());
      try {
        // stdout is taken at once, before the stdio transport loads: a log line after serve() is on stderr.
        const proc = stdioProcess();
        const claimed = claimStdout(proc.stdout, proc.stderr);
        // The transport is loaded on demand, so an HTTP server never pays for it; serving starts
        // once the layers the registrations need have loaded and checked them (see ready()).
        const done = Promise.all([import("./transports/stdio.js"), this.ready()]).then(
          ([{ serveStdio }]) =>
            serveStdio(this.#dispatcher, {
              process: proc,
              claimed,
              stop,
              // stdio has no headers: the caller's identity comes from the environment (the auth.stdio hook).
              auth: this.#settings.now?.stdioAuth(),
            }),
          (thrown: unknown) => {
            claimed.release();
            throw thrown;
          },
        );
        this.#stdio = { stop, done };
        await done;
      } finally {
        unhook?.();
        unwatch();
      }
      return undefined;
    }
    // HTTP code is loaded on demand, so a stdio server never pays for it; if it cannot load, serve()
    // rejects with why and watches no more.
    const faces = this.#http();
    faces.catch(unwatch);
    return (await faces).serve(options, unwatch);
  }

  /**
   * Resolves once the layers that the registrations so far need have loaded and checked them (a
   * resource's or prompt's, a task tool's `task` setting, the auth settings of `pico({ auth })` and of `auth` rules, the plug-in
   * machinery of `use`); rejects with the first mistake found there, such as a plug-in part that
   * does not exist. `serve()` and `server.call` wait for it and reject with that error; `fetch` and
   * `node` answer every request with a JSON 500 and log the error once on stderr (not-started.ts). Registrations the core checks
   * itself (`.tool()`, a middleware's method or tool) throw at the call instead, except a
   * middleware's method while a layer is loading: it is checked here, once every layer has.
   */
  async ready(): Promise<void> {
    // A layer may install another as it loads (the Tasks layer is a plug-in): wait for them all.
    while (this.#registry.installing) await this.#registry.installing;
    // Here rather than in a Registry.wait: a layer may load another as it loads (Tasks the plug-in
    // machinery, which installs its methods), after such a wait would have checked.
    for (const method of this.#unchecked) this.#checkWrappable(method);
    // Methods are never uninstalled: checked once is checked for good (a mistake rejects every ready()).
    this.#unchecked = [];
  }

  /**
   * Shuts the server down gracefully: new requests and `server.call`s are refused, open
   * `subscriptions/listen` streams end with their final result (2026-07-28 §4), requests and calls in
   * progress have `limits.shutdownGraceMs` to finish and the rest are answered with an error (a call
   * rejects); then stdio serving ends and the HTTP sessions and streams of `fetch`, `node` and
   * `serve({ port })` close (the handle `serve({ port })` returns also closes its listener; a
   * listener of your own stays yours to close), and the endpoint lets go
   * of the registry and of the shared state's bus (`pico({ state })`, which stays yours to close).
   * The server serves nothing more afterwards.
   */
  async close(): Promise<void> {
    this.#stdio?.stop.abort();
    await this.#dispatcher.drain();
    await this.#stdio?.done;
    // Faces that failed to load made no endpoint to close: their error went to the call that needed them.
    await (await this.#faces?.catch(() => undefined))?.close();
  }

  static {
    registryOf = (server) => server.#registry;
  }

  /** The HTTP faces, loaded with the first call that needs them: from then on the server serves (#checkedAtCall). */
  #http(): Promise<HttpFaces> {
    this.#faces ??= import("./transports/http/faces.js").then(({ httpFaces }) =>
      httpFaces({
        dispatcher: this.#dispatcher,
        defaults: this.#defaults,
        settings: this.#settings,
        server: this,
        onSignals: this.#onSignals,
      }),
    );
    return this.#faces;
  }
}

/** Makes a server. Chain `.tool()` calls on it; the chain carries the types `server.call` checks. */
export function pico(options: ServerOptions): Server {
  return new Server(options);
}

export type { Context };
