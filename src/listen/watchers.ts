/**
 * What listen streams (listen.ts) and the sessions shared by several instances
 * (transports/http/shared.ts) have in common about resource updates, kept apart from listen.ts so
 * that shared.ts does not load the listen code.
 */
import { Layer } from "../core/layers.js";
import type { Registry } from "../core/registry.js";

/**
 * The `subscriptions/listen` streams of this process that watch resources, by their server's
 * registry, each as what tells its client again that every resource it watches may have changed.
 * For an instance sharing state whose bus subscription was reconnecting (transports/http/shared.ts):
 * an update published meanwhile is kept nowhere.
 */
const watchers = new WeakMap<Registry, Set<() => void>>();

/** A listen stream of `registry` watches resources, `retell` tells it of them again: answers how to stop. */
export function watchResources(registry: Registry, retell: () => void): () => void {
  let retells = watchers.get(registry);
  if (!retells) {
    retells = new Set();
    watchers.set(registry, retells);
  }
  retells.add(retell);
  return () => retells.delete(retell);
}

/** Tells every listen stream of `registry` that watches resources that each of them may have changed. */
export function retellResources(registry: Registry): void {
  for (const retell of watchers.get(registry) ?? []) retell();
}

/**
 * The resources layer's run time, for its read check (`mayRead`), as the code that sends an update
 * outside a `resources/subscribe` loads it: a listen stream that watches resources (listen.ts), a
 * shared session's copy on an instance where none ran (transports/http/shared.ts). Only a server
 * with resources sends updates, so only one with resources loads it.
 */
export const resourceChecks = new Layer<typeof import("../resources/run.js")>();
resourceChecks.wire(() => import("../resources/run.js"));
