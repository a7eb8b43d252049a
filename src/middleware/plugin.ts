import { type Context, NO_ANSWERS, RequestContext } from "../core/context.js";
import type { Call, Dispatcher, Wrapping } from "../core/dispatch.js";
import { isObject, nullPrototype } from "../core/jsonrpc.js";
import { METHODS } from "../core/methods.js";
import type { Method, Registry } from "../core/registry.js";
import type { ServerCapabilities } from "../core/types.js";
import type { Chain } from "../core/wrapping.js";
import { compose, type Scope } from "./chain.js";
import type { Middleware } from "./middleware.js";
import { checkingParams } from "./params.js";
import { StructuredCheck } from "./structured.js";

type Result = Record<string, unknown>;
type MaybePromise<T> = T | Promise<T>;

/** A request method a plug-in adds: its handler, and the eras it exists in (both by default). */
export interface PluginMethod {
  /** Served to 2026-07-28 requests (`_meta` envelope). Default: true. */
  modern?: boolean;
  /** Served in 2025-era sessions (after `initialize`). Default: true. */
  legacy?: boolean;
  /**
   * The param that the `Mcp-Name` header of a 2026-07-28 HTTP request for this method must mirror
   * (SEP-2243 routing headers; e.g. `"taskId"` for the Tasks extension's methods): the request is
   * refused with -32020 when the header is missing or differs. Default: none.
   */
  nameParam?: string;
  run(params: Record<string, unknown> | undefined, ctx: Context): MaybePromise<Result>;
}

/**
 * One plug-in: what it adds to a server, every part optional. It is the interface a feature layer
 * plugs in with, and `server.use(plugin)` installs one (`server.use(fn)` is a plug-in of only `use`).
 */
export interface Plugin {
  /** Names the plug-in in error messages. */
  name?: string;
  /** Request methods added to the method table, by name; a built-in method cannot be replaced. */
  methods?: Record<string, PluginMethod>;
  /**
   * Merged into the capabilities the server advertises (the `initialize` result and `server/discover`):
   * `extensions` entries by key (2026-07-28 extensions, e.g. `{ extensions: { "io.example/echo": {} } }`).
   */
  capabilities?: ServerCapabilities;
  /**
   * Properties added to every request's context (`ctx`), each made from the context the first time a
   * handler or middleware reads it, then kept for that request. Type them by augmenting `Context`.
   */
  context?: Record<string, (ctx: Context) => unknown>;
  /** Wraps every request, as `server.use(fn)` does. */
  use?: Middleware;
}

const PARTS = ["name", "methods", "capabilities", "context", "use"];

/**
 * The methods of the layers that install theirs with their first registration (resources, prompts,
 * and completion with either): taken by a plug-in before that, a plug-in's method would be replaced
 * by the layer's, silently, so they are built-in names whether the layer has loaded or not.
 */
const LAYER_METHODS = [
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
];

/** A plug-in has only the parts Plugin names: anything else is a mistake, said at start-up. */
function checkPlugin(value: unknown): asserts value is Plugin {
  const unknown = isObject(value) ? Object.keys(value).find((key) => !PARTS.includes(key)) : typeof value;
  if (unknown !== undefined) {
    throw new TypeError(
      `server.use needs a middleware function, a method or { tool } and a function, or a plug-in of ${PARTS.join(", ")}; got ${unknown}.`,
    );
  }
}

/** How each object part of a plug-in is written, for the message that says one is not. */
const SHAPES = {
  methods: '{ "x/echo": { run: (params, ctx) => ({}) } }',
  capabilities: '{ extensions: { "io.example/echo": {} } }',
  context: "{ tenant: (ctx) => tenantOf(ctx.auth) }",
};

/**
 * Each part is of its kind: read as it is, a string's characters would be taken for methods or
 * context properties named "0", "1", … and said so, which points nowhere near the mistake.
 */
/**
 * An extension identifier: a `_meta` key whose prefix is mandatory (2026-07-28 "Extension Negotiation",
 * "_meta"): dot-separated labels, each a letter first, a letter or digit last, hyphens inside, then
 * `/`; then a name, if any, an alphanumeric first and last, with `-`, `_` and `.` inside.
 */
const EXTENSION_ID = /^(?:[a-z](?:[a-z\d-]*[a-z\d])?\.)*[a-z](?:[a-z\d-]*[a-z\d])?\/(?:[a-z\d](?:[\w.-]*[a-z\d])?)?$/i;

function checkParts(plugin: Plugin, what: string): void {
  for (const part of ["methods", "capabilities", "context"] as const) {
    const value: unknown = plugin[part];
    if (value !== undefined && !isObject(value)) {
      throw new TypeError(`${what}: ${part} must be an object such as ${SHAPES[part]}; got ${kindOf(value)}.`);
    }
  }
  const extensions = plugin.capabilities?.extensions;
  if (extensions !== undefined && !isObject(extensions)) {
    throw new TypeError(
      `${what}: capabilities.extensions must be an object of extensions by key; got ${kindOf(extensions)}.`,
    );
  }
  for (const key of Object.keys(extensions ?? {})) {
    if (!EXTENSION_ID.test(key)) {
      throw new TypeError(
        `${what}: capabilities.extensions names ${JSON.stringify(key)}, which is not an extension identifier: give it a reverse-DNS prefix, such as "io.example/${key.slice(key.lastIndexOf("/") + 1)}".`,
      );
    }
  }
  if (plugin.use !== undefined && typeof plugin.use !== "function") {
    throw new TypeError(
      `${what}: use must be a middleware function, (call, next) => next(); got ${kindOf(plugin.use)}.`,
    );
  }
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

/**
 * The capabilities the server sets from its registrations (registry.ts `capabilities()`): a plug-in
 * that advertised them would make the server claim what it does not serve (resources with no
 * resources/list) or deny what it does (tools.listChanged: false, with list_changed sent), where
 * capabilities must match handlers (2025-11-25 "Capabilities", 2026-07-28 §2).
 */
const COMPUTED_CAPABILITIES = ["tools", "resources", "prompts", "completions", "logging"];

type Link = Parameters<typeof compose>[0][number];

/**
 * Checks what a plug-in method returned: a JSON-RPC response carries a result or an error (JSON-RPC
 * 2.0 §5) and an MCP result is an object, so anything else is the method's bug, said as such
 * (a response with neither would leave the client waiting).
 */
function resultOf(method: string): (returned: unknown) => Result {
  return (returned) => {
    if (isObject(returned)) return returned;
    const what = returned === null ? "null" : Array.isArray(returned) ? "an array" : typeof returned;
    throw new TypeError(`${method} returned ${what}; a result is an object (return {} for an empty one)`);
  };
}

/**
 * What the plug-ins of one server installed: the method table, the request context's class and the
 * middleware chain of each method, composed on the method's first request after a change.
 */
export class Plugins implements Wrapping {
  Context: typeof RequestContext = RequestContext;
  readonly #registry: Registry;
  readonly #links: Link[] = [];
  /** Middleware kept inside every other, whenever the others are added (see `useInnermost`). */
  readonly #innermost: Link[] = [];
  /** Composed chains by method name; only names of the method table get here, so it stays bounded. */
  #chains: Record<string, Chain | undefined> = nullPrototype({});
  /** Each extension a plug-in advertised, and that plug-in, as error messages name it. */
  readonly #extensions = new Map<string, string>();
  /** The extensions a layer advertises itself (`reserve`), and what a plug-in that advertises one too is told. */
  readonly #reserved = new Map<string, string>();
  readonly #structured: StructuredCheck;

  constructor(registry: Registry) {
    this.#registry = registry;
    this.#structured = new StructuredCheck(registry.tools);
  }

  /** The middleware chain of `method`, undefined when no middleware applies to it. */
  chain(method: string): Chain | undefined {
    if (method in this.#chains) return this.#chains[method];
    const chain = checkingParams(method, compose([...this.#links, ...this.#innermost], method, this.#structured));
    this.#chains[method] = chain;
    return chain;
  }

  /**
   * The first run of a handler that may ask, at the end of its chain: one that stops at a question goes on in its era's
   * rounds right here, so middleware runs once per request whatever the rounds (2025 questions are asked within the
   * request; each 2026-07-28 round is a request of its own) and sees the final result.
   */
  firstRun(call: Call, dispatcher: Pick<Dispatcher, "registry" | "rounds">): Promise<Result> {
    const { method, message, ctx } = call;
    return new Promise((resolve, reject) => {
      ctx.asking = { answers: NO_ANSWERS, stuck: () => resolve(dispatcher.rounds(call)) };
      const result = method.run(dispatcher.registry, message.params, ctx);
      if (result instanceof Promise) result.then(resolve, reject);
      else resolve(result);
    });
  }

  /** Adds a middleware at the inside of the onion: it runs after every one added before it. `owner`: its plug-in. */
  use(scope: Scope, run: unknown, owner?: string): void {
    if (typeof run !== "function") throw new TypeError(`server.use needs a middleware function; got ${typeof run}.`);
    // Typed for its scope by server.use's signatures; the chain only ever calls it within that scope.
    this.#links.push({ scope, run: run as Link["run"], owner });
    this.#chains = nullPrototype({});
  }

  /**
   * Adds a layer's middleware that must stay inside every user middleware, even one added later:
   * the tasks layer answers a task tool's call without calling next(), so any middleware inside it
   * would never see that call (a rate limit added after `ready()` would not apply to tasks).
   */
  useInnermost(run: Link["run"]): void {
    this.#innermost.push({ scope: {}, run });
    this.#chains = nullPrototype({});
  }

  /**
   * An extension a layer advertises itself, not through a plug-in's capabilities (the tasks layer's,
   * only in `server/discover`): a plug-in that advertises it too, installed before or after, is
   * refused with `refusal`, as a second plug-in would be, rather than have one of the two settings
   * replace the other unseen.
   */
  reserve(extension: string, refusal: string): void {
    const by = this.#extensions.get(extension);
    if (by !== undefined) throw new TypeError(`${by} advertises the extension "${extension}", ${refusal}`);
    this.#reserved.set(extension, refusal);
  }

  install(plugin: unknown): void {
    checkPlugin(plugin);
    const what = plugin.name === undefined ? "A plug-in" : `Plug-in "${plugin.name}"`;
    checkParts(plugin, what);
    if (plugin.methods) this.#addMethods(plugin.methods, what);
    if (plugin.capabilities) this.#advertise(plugin.capabilities, what);
    if (plugin.context) this.#extendContext(plugin.context, what);
    if (plugin.use) this.use({}, plugin.use, what);
  }

  #addMethods(methods: Record<string, PluginMethod>, what: string): void {
    const table: Record<string, Method> = nullPrototype({});
    for (const [name, method] of Object.entries(methods)) {
      if (
        name === "initialize" ||
        LAYER_METHODS.includes(name) ||
        name in METHODS ||
        name in this.#registry.methods ||
        name in table
      ) {
        throw new TypeError(`${what} adds the method "${name}", which the server already has; give it another name.`);
      }
      if (typeof method?.run !== "function") {
        throw new TypeError(`${what}: method "${name}" needs a run function: { run: (params, ctx) => ({}) }.`);
      }
      const run = method.run;
      const answered = resultOf(`${what}: method "${name}"`);
      table[name] = {
        modern: method.modern ?? true,
        legacy: method.legacy ?? true,
        nameParam: method.nameParam,
        run: (_, params, ctx) => {
          const result = run(params, ctx);
          return result instanceof Promise ? result.then(answered) : answered(result);
        },
      };
    }
    this.#registry.install(table);
    this.#chains = nullPrototype({});
  }

  #advertise(capabilities: ServerCapabilities, what: string): void {
    const computed = Object.keys(capabilities).find((key) => COMPUTED_CAPABILITIES.includes(key));
    if (computed !== undefined) {
      throw new TypeError(
        `${what} advertises capabilities.${computed}, which the server sets from what is registered; advertise what the plug-in adds in capabilities.extensions.`,
      );
    }
    for (const key of Object.keys(capabilities.extensions ?? {})) {
      const reserved = this.#reserved.get(key);
      if (reserved !== undefined) throw new TypeError(`${what} advertises the extension "${key}", ${reserved}`);
      if (this.#extensions.has(key)) throw new TypeError(`${what} advertises the extension "${key}" a second time.`);
      this.#extensions.set(key, what);
    }
    for (const [key, value] of Object.entries(capabilities)) {
      if (!isObject(value)) throw new TypeError(`${what}: capabilities.${key} must be an object.`);
      const extra = this.#registry.advertised;
      extra[key] = { ...extra[key], ...value };
    }
  }

  #extendContext(context: Record<string, (ctx: Context) => unknown>, what: string): void {
    const Base = this.Context;
    const Extended = class extends Base {};
    const probe = new Base({
      id: undefined,
      meta: undefined,
      protocolVersion: "",
      era: "local",
      clientInfo: undefined,
      clientCapabilities: {},
    });
    for (const [name, make] of Object.entries(context)) {
      if (name in probe) throw new TypeError(`${what} adds ctx.${name}, which the context already has.`);
      if (typeof make !== "function") throw new TypeError(`${what}: context.${name} must be a function of ctx.`);
      Object.defineProperty(Extended.prototype, name, {
        get(this: RequestContext) {
          const value = make(this);
          Object.defineProperty(this, name, { value, enumerable: true });
          return value;
        },
      });
    }
    this.Context = Extended;
  }
}
