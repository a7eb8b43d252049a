import type { GateSettings } from "./caller.js";
import type { RequestContext } from "./context.js";
import { nullPrototype } from "./jsonrpc.js";
import type { CarriedAs } from "./layers.js";
import type { Tool } from "./tools.js";
import type { Implementation, Params, Result, ServerCapabilities, StateKey } from "./types.js";

/** One request method: the eras it exists in (absent: not in that era), the capability that gates it, and its handler. */
export interface Method {
  readonly modern?: boolean;
  readonly legacy?: boolean;
  /** Answered with -32601 unless the server advertises this capability. */
  readonly capability?: keyof ServerCapabilities;
  /** Results that carry `ttlMs`/`cacheScope` in 2026-07-28 (§7). */
  readonly cacheable?: boolean;
  /** Handlers that may ask the client for input (2026-07-28 §3.3: only these three methods). */
  readonly interactive?: boolean;
  /** The param the `Mcp-Name` header mirrors over 2026-07-28 HTTP (SEP-2243 routing), beyond the core's. */
  readonly nameParam?: string;
  readonly run: Run;
}

export type Run = (registry: Registry, params: Params, ctx: RequestContext) => Result | Promise<Result>;

/**
 * The layers' registrations, by kind: each layer augments this interface (resources/resources.ts: `resource`;
 * prompts/prompts.ts: `prompt`), so the core holds them, typed, without importing the layers.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the layers' declaration merging.
export interface Registrations {}

type Resource = Registrations extends { resource: infer R extends { uri: string } } ? R : never;
type Prompt = Registrations extends { prompt: infer P extends { name: string } } ? P : never;

/** What the registry holds, by kind. */
export interface Registered {
  tool: Tool;
  resource: Resource;
  prompt: Prompt;
}

type Kind = keyof Registered;

/**
 * Something about the registry changed: legacy sessions send it as a notification, `subscriptions/listen` streams as
 * a tagged one; `closed` ends those streams, and one still delivering puts in `ending` what the shutdown waits for.
 */
export type RegistryEvent =
  | { type: "tools/list_changed" | "resources/list_changed" | "prompts/list_changed" }
  | { type: "closed"; readonly ending?: Promise<unknown>[] }
  | { type: "resources/updated"; uri: string };

/**
 * `serverInfo.version` when `pico()` is given none: the schemas require one, of no format (2025-11-25, 2026-07-28
 * `Implementation`), and "0.0.0", the lowest semver, reads as "not versioned", not as a release.
 */
const DEFAULT_VERSION = "0.0.0";

/** What the registry is made from: the server's identity and what its requests share (ServerOptions, server.ts, adds the rest). */
export interface RegistryOptions extends Omit<Implementation, "version"> {
  /** The server's version, as clients show and log it (`serverInfo.version`). Default: "0.0.0". */
  version?: string;
  /** Guidance for the model about how to use this server; clients may put it in the system prompt. */
  instructions?: string;
  /** Page size of list results; lists are not paginated unless this is set. */
  pageSize?: number;
  /**
   * Signs the `requestState` of multi round-trip requests (2026-07-28), at least 32 bytes. Give every instance behind
   * a load balancer the same key: without one, each process makes its own, and a retry reaching another is rejected.
   */
  requestStateKey?: StateKey;
  /** How long a legacy client has to answer a question (elicitation, sampling, roots). Default: 60 s. */
  askTimeoutMs?: number;
}

/**
 * Everything a server exposes, built once and shared by every connection and request. Maps keep registration order,
 * the order lists come out in (2026-07-28 §7: lists SHOULD be deterministic).
 */
export class Registry {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly pageSize: number;
  readonly tools = new Map<string, Tool>();
  /** Resources and resource templates, by URI or template string. */
  readonly resources = new Map<string, Resource>();
  readonly prompts = new Map<string, Prompt>();
  /** The three maps by the kind of what they hold. */
  readonly #byKind: { readonly [K in Kind]: Map<string, Registered[K]> } = {
    tool: this.tools,
    resource: this.resources,
    prompt: this.prompts,
  };
  readonly askTimeoutMs: number;
  /** The server's auth settings (`pico({ auth })`), set by the server. */
  auth: GateSettings | undefined;
  /** Signs `requestState` (see rounds.ts); a random key per process when undefined. */
  readonly stateKey: StateKey | undefined;
  /** Capabilities plug-ins add (see plugin.ts), merged into `capabilities()` key by key. */
  readonly advertised: Record<string, object> = {};
  readonly #listeners = new Set<(event: RegistryEvent) => void>();
  /** The methods layers and plug-ins added (`install`) to the core's; no prototype, so `__proto__` finds nothing. */
  methods: Record<string, Method> = nullPrototype({});
  /**
   * Set while a layer loads: `server.ready()`, and so every transport, waits for it, so no request is answered -32601
   * meanwhile. None starts once the server may have answered a request (a transport began, none loading): a first
   * resource, prompt, task tool or `use` then throws at the call.
   */
  installing: Promise<void> | undefined;
  /** The server's limits, for the methods that bound what a client holds; set by its dispatcher (none without one). */
  limits: Partial<CarriedAs<"limits">> = {};

  constructor(options: RegistryOptions) {
    const { instructions, pageSize, requestStateKey, askTimeoutMs, ...info } = options;
    if (typeof info.name !== "string" || info.name === "") {
      throw new TypeError('pico() needs a name, the server\'s name as clients show it: e.g. pico({ name: "github" }).');
    }
    const version = info.version ?? DEFAULT_VERSION;
    if (typeof version !== "string") {
      throw new TypeError(
        `pico()'s version must be a string, such as "1.0.0"; got ${String(version)}. Leave it out for "${DEFAULT_VERSION}".`,
      );
    }
    if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize > 0)) {
      throw new TypeError(`pageSize must be a positive integer; got ${pageSize}.`);
    }
    // 0 would fail every question at once; past 2^31 - 1 ms a timer fires at once (setTimeout's range).
    if (askTimeoutMs !== undefined && !(Number.isInteger(askTimeoutMs) && askTimeoutMs > 0 && askTimeoutMs < 2 ** 31)) {
      throw new TypeError(`askTimeoutMs must be an integer from 1 to 2147483647 (ms); got ${askTimeoutMs}.`);
    }
    // Spread first, so a given version keeps its place in serverInfo and a default one comes after the name.
    this.info = { ...info, version };
    this.instructions = instructions;
    this.pageSize = pageSize ?? Infinity;
    this.askTimeoutMs = askTimeoutMs ?? 60_000;
    this.stateKey = requestStateKey;
    if (requestStateKey !== undefined && keyLength(requestStateKey) < 32) {
      throw new TypeError("requestStateKey must be at least 32 bytes (256 bits) long.");
    }
  }

  addTool(tool: Tool): void {
    this.add("tool", tool.name, tool);
  }

  /**
   * Adds a tool, resource or prompt under its key (name, URI or template), telling clients. A key taken throws: a
   * second registration under it is a mistake, said at start-up.
   */
  add<K extends Kind>(kind: K, key: string, entry: Registered[K]): void {
    const map = this.#byKind[kind];
    if (map.has(key)) {
      const unique = `${kind} ${kind === "resource" ? "URIs" : "names"}`;
      throw new TypeError(
        `${kind.charAt(0).toUpperCase()}${kind.slice(1)} "${key}" is already registered; ${unique} must be unique.`,
      );
    }
    map.set(key, entry);
    this.emit({ type: `${kind}s/list_changed` });
  }

  /** Puts the ruled form of a registration (auth/settings.ts) in its place, unless it was removed meanwhile. */
  swap<K extends Kind>(kind: K, key: string, ruled: Registered[K]): void {
    const map = this.#byKind[kind];
    if (map.has(key)) map.set(key, ruled);
  }

  /** Adds methods to the table (a layer's, a plug-in's); the names are the caller's to check. */
  install(methods: Readonly<Record<string, Method>>): void {
    this.methods = nullPrototype({ ...this.methods, ...methods });
  }

  /** Makes `server.ready()` (and so every transport) wait for a layer that is loading, with any other still loading. */
  wait(loading: Promise<unknown>): void {
    const installing: Promise<void> = Promise.all([this.installing, loading]).then(() => {
      if (this.installing === installing) this.installing = undefined;
    });
    // A failure is for whoever waits (ready(), serve(), each request), not an unhandled rejection.
    installing.catch(() => {});
    this.installing = installing;
  }

  /** Removes a tool, resource or prompt; answers whether there was one. */
  remove(kind: Kind, key: string): boolean {
    if (!this.#byKind[kind].delete(key)) return false;
    this.emit({ type: `${kind}s/list_changed` });
    return true;
  }

  /** Only what is implemented is advertised (2025-11-25 "Capabilities"; 2026-07-28 §2: caps match handlers). */
  capabilities(): ServerCapabilities {
    const capabilities: ServerCapabilities & Record<string, object> = { logging: {} };
    if (this.tools.size > 0) capabilities.tools = { listChanged: true };
    if (this.resources.size > 0) capabilities.resources = { subscribe: true, listChanged: true };
    if (this.prompts.size > 0) capabilities.prompts = { listChanged: true };
    if (this.prompts.size > 0 || this.resources.size > 0) capabilities.completions = {};
    for (const key in this.advertised) capabilities[key] = { ...capabilities[key], ...this.advertised[key] };
    return capabilities;
  }

  /** Whether `capabilities()` has this capability, without building them (once per request). */
  offers(capability: keyof ServerCapabilities): boolean {
    switch (capability) {
      case "tools":
      case "resources":
      case "prompts":
        return this[capability].size > 0;
      case "completions":
        return this.prompts.size > 0 || this.resources.size > 0;
      case "logging":
        return true;
      default:
        return capability in this.advertised;
    }
  }

  subscribe(listener: (event: RegistryEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: RegistryEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}

function keyLength(key: StateKey): number {
  return typeof key === "string" ? new TextEncoder().encode(key).byteLength : key.byteLength;
}
