import type { Registry } from "../core/registry.js";
import type { Resource } from "./resources.js";
import { normalOf } from "./run.js";

/**
 * Throws when `resource` is another spelling of a resource registered already, a fixed URI of a
 * fixed URI (`docs://a~b` and `docs://a%7Eb`, `Docs://A` and `docs://a`) or a template of a template
 * (`docs://{id}/a~b` and `docs://{id}/a%7Eb`, `Docs://{id}` and `docs://{id}`): the two are one once
 * normalised (RFC 3986 §6.2.2; uri-normal.ts), which is how reads, subscriptions and updates compare
 * them and how templates match, so the first would answer for both and the second would never be
 * read. A fixed URI and a template are never one (a template's normal form keeps its expressions).
 * The same spelling twice is the registry's to refuse (Registry.add); templates that differ once
 * normalised may still overlap, the first matching reads. Answers `resource`, to add.
 */
export function checkSpelling(registry: Registry, resource: Resource): Resource {
  const normal = normalOf(resource);
  for (const other of registry.resources.values()) {
    if (other.uri === resource.uri || normalOf(other) !== normal) continue;
    const [kind, same] = resource.template ? ["Resource template", "template"] : ["Resource", "URI"];
    throw new TypeError(
      `${kind} "${resource.uri}" is the same ${same} as ${kind.toLowerCase()} "${other.uri}", registered already: both read as "${normal}" (RFC 3986 §6.2.2), so the first would answer for both. Register the ${kind.toLowerCase()} once, under one spelling.`,
    );
  }
  return resource;
}
