import type { RequestContext } from "../core/context.js";
import type { Registry } from "../core/registry.js";

type MaybePromise<T> = T | Promise<T>;

/**
 * What a layer adds to `subscriptions/listen` (2026-07-28 §4): a filter field of its own in
 * `params.notifications` and the notifications it streams. The Tasks extension's `taskIds` and
 * `notifications/tasks` (SEP-2663 "Task Status Notifications") are the first. Kept apart from
 * listen.ts so that the layer registering one does not load the listen code, nor listen the layer's.
 */
export interface ListenExtension {
  /**
   * Reads the request's filter; undefined when it asks nothing of this extension. It may refuse the
   * request (throw an `McpError`), before the acknowledgement is sent.
   */
  open(requested: Record<string, unknown>, ctx: RequestContext): MaybePromise<ListenPart | undefined>;
}

/** One extension's part of one listen stream. */
export interface ListenPart {
  /** Merged into the acknowledgement's `notifications`: what the extension will honour. */
  readonly honoured: Record<string, unknown>;
  /** Starts streaming once the acknowledgement is out (`send` tags each notification); answers how to stop. */
  start(send: (method: string, params: Record<string, unknown>) => void): () => void;
}

/** The extensions of each server's listen streams, by its registry: set by the layers that add one. */
export const listenExtensions = new WeakMap<Registry, ListenExtension[]>();
