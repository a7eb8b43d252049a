import type { AnyAccess } from "./caller.js";
import type { RequestContext } from "./context.js";
import { ErrorCode, McpError } from "./errors.js";
import { nullPrototype } from "./jsonrpc.js";
import { Layer } from "./layers.js";
import type { Method, Registry, Run } from "./registry.js";
import { shown } from "./safe.js";
import { callTool, describeTool, enforceLayer } from "./tools.js";
import type { Params, Result } from "./types.js";
import { MODERN_VERSIONS } from "./versions.js";

export type Shows = (ctx: RequestContext, declared: AnyAccess | undefined) => boolean;
const EVERYTHING: Shows = () => true;

/** `subscriptions/listen` at run time (listen/listen.ts): wired in by the server (server.ts), loaded with the first listen. */
export const listenLayer = new Layer<{ readonly listen: Run }>();

/** A list as this caller sees it: everything, unless `hideUnauthorized` leaves out what it may not use (caller checks, loaded then). */
export function visible(ctx: RequestContext, list: (shows: Shows) => Result): Result | Promise<Result> {
  if (!ctx.gate?.settings?.hide) return list(EVERYTHING);
  return enforceLayer.use((enforce) => list(enforce.shows));
}

/**
 * The core's method table: the methods every server has, in both eras or in 2026-07-28. Layers add theirs when
 * installed (`Registry.install`): the legacy sessions layer its 2025-only ones (sessions/legacy.ts, `initialize`
 * among them), the resources and prompts layers with the first resource or prompt (resources/run.ts, prompts/run.ts).
 * A method is -32601 in an era it is not in (2026-07-28 §8 "Removed"). No prototype: `__proto__` finds nothing.
 */
export const METHODS: Readonly<Record<string, Method>> = nullPrototype<Method>({
  "server/discover": {
    modern: true,
    cacheable: true,
    run: (registry) => {
      const result: Result = { supportedVersions: MODERN_VERSIONS, capabilities: registry.capabilities() };
      if (registry.instructions !== undefined) result.instructions = registry.instructions;
      return result;
    },
  },
  "tools/list": {
    modern: true,
    legacy: true,
    capability: "tools",
    cacheable: true,
    run: (registry, params, ctx) =>
      visible(ctx, (shows) =>
        page(registry, params, {
          key: "tools",
          items: [...registry.tools.values()].filter((tool) => shows(ctx, tool.auth)),
          describe: (tool) => describeTool(tool.descriptor, ctx.era),
        }),
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
      if (!tool) throw unknownTool(name);
      // Its arguments are checked after its caller (callTool): a hidden tool is an unknown one, whatever they are.
      return callTool(tool, params?.arguments, ctx);
    },
  },
  "subscriptions/listen": {
    modern: true,
    // Its code is the listen layer's (listen/listen.ts), loaded with the first listen.
    run: (registry, params, ctx) => listenLayer.use((layer) => layer.listen(registry, params, ctx)),
  },
});

/** A list as `page` takes it: the result's key, the items in registration order, and what a client is shown of each. */
export interface Listing<T> {
  readonly key: string;
  readonly items: T[];
  readonly describe: (item: T) => unknown;
}

/** The error of a `tools/call` for a tool that does not exist (or that `hideUnauthorized` hides). */
export function unknownTool(name: string): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `Unknown tool "${shown(name)}". Call tools/list to see the available tools.`,
  );
}

/** Cursor pagination over a list in registration order; the cursor is an opaque offset (2025-11-25 "Pagination"). */
export function page<T>(registry: Registry, params: Params, { key, items, describe }: Listing<T>): Result {
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
