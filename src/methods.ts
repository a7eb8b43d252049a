import { checkArgumentsOf, checkCallerOf, refuse, shows } from "./auth/enforce.js";
import { complete } from "./completion.js";
import type { RequestContext } from "./context.js";
import { ErrorCode, McpError } from "./errors.js";
import { listen } from "./listen.js";
import { getPrompt } from "./prompts.js";
import { LOG_LEVELS, type LogLevel } from "./protocol/envelope.js";
import { isObject } from "./protocol/jsonrpc.js";
import type { ServerCapabilities } from "./protocol/types.js";
import { MODERN_VERSIONS } from "./protocol/versions.js";
import type { Registry } from "./registry.js";
import { toContents } from "./resources.js";
import { callTool } from "./tools.js";

type Params = Record<string, unknown> | undefined;
type Result = Record<string, unknown>;

/** One request method: the eras it exists in, the capability that gates it, and its handler. */
export interface Method {
  readonly modern: boolean;
  readonly legacy: boolean;
  /** Answered with -32601 unless the server advertises this capability. */
  readonly capability?: keyof ServerCapabilities;
  /** Results that carry `ttlMs`/`cacheScope` in 2026-07-28 (§7). */
  readonly cacheable?: boolean;
  /** Handlers that may ask the client for input (2026-07-28 §3.3: only these three methods). */
  readonly interactive?: boolean;
  readonly run: (registry: Registry, params: Params, ctx: RequestContext) => Result | Promise<Result>;
}

/**
 * The method table. `initialize` is not here: it creates a session, which the dispatcher owns.
 * A method missing from an era's column answers -32601 in that era (2026-07-28 §8 "Removed").
 */
export const METHODS: Record<string, Method> = {
  "server/discover": {
    modern: true,
    legacy: false,
    cacheable: true,
    run: (registry) => {
      const result: Result = { supportedVersions: MODERN_VERSIONS, capabilities: registry.capabilities() };
      if (registry.instructions !== undefined) result.instructions = registry.instructions;
      return result;
    },
  },
  ping: { modern: false, legacy: true, run: () => ({}) },
  "tools/list": {
    modern: true,
    legacy: true,
    capability: "tools",
    cacheable: true,
    run: (registry, params, ctx) =>
      page(
        registry,
        "tools",
        [...registry.tools.values()].filter((tool) => shows(ctx, tool.auth)),
        params,
        (tool) => tool.descriptor,
      ),
  },
  "tools/call": {
    modern: true,
    legacy: true,
    capability: "tools",
    interactive: true,
    run: (registry, params, ctx) => {
      const name = params?.name;
      if (typeof name !== "string") {
        throw new McpError(ErrorCode.InvalidParams, "tools/call needs params.name: the name of a tool from tools/list");
      }
      const tool = registry.tools.get(name);
      if (!tool) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool "${name}". Call tools/list to see the available tools.`,
        );
      }
      const args = params?.arguments;
      if (args !== undefined && args !== null && !isObject(args)) {
        throw new McpError(ErrorCode.InvalidParams, `tools/call params.arguments must be an object of named arguments`);
      }
      return callTool(tool, args ?? undefined, ctx) as Promise<unknown> as Promise<Result>;
    },
  },
  "resources/list": {
    modern: true,
    legacy: true,
    capability: "resources",
    cacheable: true,
    run: async (registry, params, ctx) => {
      const listed: unknown[] = [];
      for (const resource of registry.resources.values()) {
        if (!shows(ctx, resource.config.auth)) continue;
        if (!resource.template) listed.push(resource.descriptor);
        else if (resource.config.list) {
          let found = resource.config.list(ctx);
          if (found instanceof Promise) found = await found;
          const mimeType = resource.mimeType;
          for (const item of found)
            listed.push(mimeType === undefined || "mimeType" in item ? item : { ...item, mimeType });
        }
      }
      return page(registry, "resources", listed, params, (item) => item);
    },
  },
  "resources/templates/list": {
    modern: true,
    legacy: true,
    capability: "resources",
    cacheable: true,
    run: (registry, params, ctx) =>
      page(
        registry,
        "resourceTemplates",
        [...registry.resources.values()].filter((resource) => resource.template && shows(ctx, resource.config.auth)),
        params,
        (resource) => resource.descriptor,
      ),
  },
  "resources/read": {
    modern: true,
    legacy: true,
    capability: "resources",
    cacheable: true,
    interactive: true,
    run: (registry, params, ctx) => readResource(registry, params, ctx),
  },
  "resources/subscribe": {
    modern: false,
    legacy: true,
    capability: "resources",
    run: (_registry, params, ctx) => {
      ctx.session?.subscriptions.add(requireUri(params, "resources/subscribe"));
      return {};
    },
  },
  "resources/unsubscribe": {
    modern: false,
    legacy: true,
    capability: "resources",
    run: (_registry, params, ctx) => {
      ctx.session?.subscriptions.delete(requireUri(params, "resources/unsubscribe"));
      return {};
    },
  },
  "prompts/list": {
    modern: true,
    legacy: true,
    capability: "prompts",
    cacheable: true,
    run: (registry, params, ctx) =>
      page(
        registry,
        "prompts",
        [...registry.prompts.values()].filter((prompt) => shows(ctx, prompt.config.auth)),
        params,
        (prompt) => prompt.descriptor,
      ),
  },
  "prompts/get": {
    modern: true,
    legacy: true,
    capability: "prompts",
    interactive: true,
    run: (registry, params, ctx) => {
      const name = params?.name;
      const prompt = typeof name === "string" ? registry.prompts.get(name) : undefined;
      if (!prompt) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown prompt ${JSON.stringify(name)}. Call prompts/list to see the available prompts.`,
        );
      }
      const args = params?.arguments;
      if (args !== undefined && args !== null && !isObject(args)) {
        throw new McpError(
          ErrorCode.InvalidParams,
          "prompts/get params.arguments must be an object of string arguments",
        );
      }
      const refused = checkCallerOf(ctx, prompt.config.auth, `prompt "${prompt.name}"`);
      if (refused) {
        refuse(
          ctx,
          refused,
          () =>
            new McpError(
              ErrorCode.InvalidParams,
              `Unknown prompt ${JSON.stringify(name)}. Call prompts/list to see the available prompts.`,
            ),
        );
      }
      return getPrompt(prompt, args ?? undefined, ctx);
    },
  },
  "completion/complete": {
    modern: true,
    legacy: true,
    capability: "completions",
    run: (registry, params) => complete(registry, params),
  },
  "logging/setLevel": {
    modern: false,
    legacy: true,
    capability: "logging",
    run: (_registry, params, ctx) => {
      const level = params?.level;
      if (!LOG_LEVELS.includes(level as LogLevel)) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: level must be one of ${LOG_LEVELS.join(", ")}`);
      }
      if (ctx.session) ctx.session.logLevel = level as LogLevel;
      return {};
    },
  },
  "subscriptions/listen": { modern: true, legacy: false, run: listen },
};

function requireUri(params: Params, method: string): string {
  const uri = params?.uri;
  if (typeof uri !== "string") throw new McpError(ErrorCode.InvalidParams, `${method} needs params.uri (a string)`);
  return uri;
}

/**
 * `resources/read`: an exact URI first, then templates in registration order. An unknown URI is
 * an error, never empty contents: -32002 before 2026-07-28, -32602 since (§9), with `data.uri`.
 */
async function readResource(registry: Registry, params: Params, ctx: RequestContext): Promise<Result> {
  const uri = requireUri(params, "resources/read");
  let resource = registry.resources.get(uri);
  let args: Record<string, string> | undefined = resource && !resource.template ? {} : undefined;
  if (!args) {
    for (const candidate of registry.resources.values()) {
      args = candidate.template?.match(uri);
      if (args) {
        resource = candidate;
        break;
      }
    }
  }
  if (!resource || !args) throw notFound(uri, ctx);
  const what = `resource ${uri}`;
  const refused = checkCallerOf(ctx, resource.config.auth, what);
  if (refused) refuse(ctx, refused, () => notFound(uri, ctx));
  let denied = checkArgumentsOf(ctx, resource.config.auth, { ...args, uri }, what);
  if (denied instanceof Promise) denied = await denied;
  if (denied) refuse(ctx, denied);
  let returned = resource.config.read({ ...args, uri }, ctx);
  if (returned instanceof Promise) returned = await returned;
  // A template matched, but `read` found nothing there: the same error as an unknown URI, never empty contents.
  if (returned === undefined) throw notFound(uri, ctx);
  return { contents: toContents(returned, uri, resource.mimeType) };
}

function notFound(uri: string, ctx: RequestContext): McpError {
  const code = ctx.era === "modern" ? ErrorCode.InvalidParams : ErrorCode.ResourceNotFound;
  return new McpError(
    code,
    `Resource not found: ${uri}. Call resources/list or resources/templates/list to see what can be read.`,
    { uri },
  );
}

/** Cursor pagination over a list in registration order; the cursor is an opaque offset (2025-11-25 "Pagination"). */
function page<T>(registry: Registry, key: string, items: T[], params: Params, describe: (item: T) => unknown): Result {
  const cursor = params?.cursor;
  let start = 0;
  if (cursor !== undefined) {
    start = typeof cursor === "string" ? decodeCursor(cursor) : -1;
    if (!(start >= 0 && start <= items.length)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid cursor for ${key}: list again without a cursor to start over`,
      );
    }
  }
  const end = Math.min(items.length, start + registry.pageSize);
  const result: Result = { [key]: items.slice(start, end).map(describe) };
  if (end < items.length) result.nextCursor = btoa(String(end));
  return result;
}

function decodeCursor(cursor: string): number {
  try {
    const text = atob(cursor);
    return /^\d+$/.test(text) ? Number(text) : -1;
  } catch {
    return -1;
  }
}
