import type { Registry } from "../core/registry.js";

/**
 * The `subscriptions/listen` streams of this process that watch resources, by their server's
 * registry, each as what tells its client again that every resource it watches may have changed.
 * For an instance sharing state whose bus subscription was reconnecting (transports/http/shared.ts):
 * an update published meanwhile is kept nowhere. Kept apart from listen.ts, so that shared.ts does
 * not load the listen code.
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
