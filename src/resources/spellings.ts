import type { Registry } from "../core/registry.js";
import type { Resource } from "./resources.js";
import { normalOf } from "./run.js";

/**
 * Throws when `resource`, at a fixed URI, is another spelling of a fixed resource registered
 * already (`docs://a~b` and `docs://a%7Eb`, `Docs://A` and `docs://a`): the two are one URI once
 * normalised (RFC 3986 §6.2.2; uri-normal.ts), which is how reads, subscriptions and updates compare
 * them, so the first would answer for both and the second would never be read. The same spelling
 * twice is the registry's to refuse (Registry.add); templates may overlap, the first matching reads.
 * Answers `resource`, to add.
 */
export function checkSpelling(registry: Registry, resource: Resource): Resource {
  if (resource.template) return resource;
  const normal = normalOf(resource);
  for (const other of registry.resources.values()) {
    if (other.template || other.uri === resource.uri || normalOf(other) !== normal) continue;
    throw new TypeError(
      `Resource "${resource.uri}" is the same URI as resource "${other.uri}", registered already: both read as "${normal}" (RFC 3986 §6.2.2), so the first would answer for both. Register the resource once, under one spelling.`,
    );
  }
  return resource;
}
