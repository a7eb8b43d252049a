import type { RequestContext } from "./context.js";
import { ErrorCode, McpError } from "./errors.js";
import { isObject } from "./protocol/jsonrpc.js";
import type { ServerCapabilities } from "./protocol/types.js";
import { MODERN_VERSIONS } from "./protocol/versions.js";
import type { Registry } from "./registry.js";
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
    run: (registry, params) => page(registry, "tools", [...registry.tools.values()], params, (tool) => tool.descriptor),
  },
  "tools/call": {
    modern: true,
    legacy: true,
    capability: "tools",
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
};

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
