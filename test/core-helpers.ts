/**
 * Shared helpers of the resource, prompt, completion, logging and listen tests: hand-written JSON-RPC
 * through the request-scoped core (no transport), in a legacy session and in the 2026-07-28 era.
 */
import { Dispatcher, type Exchange } from "../src/core/dispatch.js";
import type { JsonRpcMessage, JsonRpcResponse, RequestId } from "../src/core/jsonrpc.js";
import type { Registry } from "../src/core/registry.js";
import { META } from "../src/core/types.js";
import { installLimits, resolveLimits } from "../src/limits/limits.js";
import type { Limits } from "../src/limits/options.js";
import type { Prompt } from "../src/prompts/prompts.js";
import { methods as promptMethods } from "../src/prompts/run.js";
import type { Resource } from "../src/resources/resources.js";
import { methods as resourceMethods } from "../src/resources/run.js";
import { installLegacySessions } from "../src/sessions/legacy.js";
import type { Peer } from "../src/sessions/peer.js";

export const SERVER_INFO = { name: "t", version: "1" };

/** The 2026-07-28 per-request envelope (§1.1), with `extra` keys merged in. */
export function envelope(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { [META.protocolVersion]: "2026-07-28", [META.clientCapabilities]: {}, ...extra };
}

export interface Core {
  readonly dispatcher: Dispatcher;
  /** The legacy session's peer, initialized with 2025-11-25. */
  readonly peer: Peer;
  /** Notifications the requests emitted (progress, log messages, listen traffic), in order. */
  readonly notifications: JsonRpcMessage[];
  legacy(method: string, params?: Record<string, unknown>, options?: Options): Promise<JsonRpcResponse | undefined>;
  modern(method: string, params?: Record<string, unknown>, options?: Options): Promise<JsonRpcResponse | undefined>;
}

interface Options {
  id?: RequestId;
  /** Extra `_meta` keys (merged into the envelope for modern requests). */
  meta?: Record<string, unknown>;
  exchange?: Exchange;
}

/** Adds a compiled resource to `registry` at its URI, as a server without auth does. */
export function addResource(registry: Registry, resource: Resource): void {
  registry.add("resource", resource.uri, resource);
}

/** Adds a compiled prompt to `registry` under its name, as a server without auth does. */
export function addPrompt(registry: Registry, prompt: Prompt): void {
  registry.add("prompt", prompt.name, prompt);
}

/**
 * A dispatcher on `registry` as a server makes it: with the limits layer, serving both eras (the 2025
 * era is the sessions layer's), and the methods of resources and of prompts if it has any, which a server's layers install with the
 * first of each (server.ts).
 */
export function serverDispatcher(registry: Registry, limits?: Limits): Dispatcher {
  if (registry.resources.size > 0) registry.install(resourceMethods);
  if (registry.prompts.size > 0) registry.install(promptMethods);
  const dispatcher = new Dispatcher(registry, resolveLimits(limits));
  installLimits(dispatcher);
  installLegacySessions(dispatcher);
  return dispatcher;
}

/** A dispatcher on `registry`, with a legacy session already negotiated. */
export async function core(registry: Registry): Promise<Core> {
  const dispatcher = serverDispatcher(registry);
  const peer: Peer = { session: undefined };
  const notifications: JsonRpcMessage[] = [];
  const exchange: Exchange = { emit: (message) => notifications.push(message) };
  let nextId = 0;
  const request = async (peerFor: Peer, method: string, params: Record<string, unknown>, options: Options) =>
    dispatcher.answer(
      { jsonrpc: "2.0", id: options.id ?? ++nextId, method, params },
      peerFor,
      options.exchange ?? exchange,
    );
  await dispatcher.answer(
    { jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-11-25" } },
    peer,
  );
  dispatcher.notification({ jsonrpc: "2.0", method: "notifications/initialized" }, peer);
  return {
    dispatcher,
    peer,
    notifications,
    legacy: (method, params = {}, options = {}) =>
      request(peer, method, options.meta ? { ...params, _meta: options.meta } : params, options),
    modern: (method, params = {}, options = {}) =>
      request({ session: undefined }, method, { ...params, _meta: envelope(options.meta) }, options),
  };
}

/** What a modern result carries besides its own fields (2026-07-28 §1.3, §7). */
export const SERVER_INFO_META = { [META.serverInfo]: SERVER_INFO };
