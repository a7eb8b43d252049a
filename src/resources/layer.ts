/**
 * The resources layer, as the server loads it with the first `.resource()` (see on-first-use.ts):
 * the registration checks, and the methods the server then installs in its method table
 * (`Registry.install`), so a server without resources carries neither; and the normal form of URIs
 * (uri-normal.ts) `server.resourceUpdated` names an update by.
 */
import { addEntry, type EntryHost } from "../auth/entries.js";
import type { Resource } from "./resources.js";
import { checkSpelling } from "./spellings.js";

export { compileResource as compile } from "./resources.js";
export { methods } from "./run.js";
export { normalUri } from "./uri-normal.js";

/**
 * Adds a resource of `server.resource()` or `server.include`, under the server's auth; refused when
 * it is another spelling of a URI registered (spellings.ts).
 */
export function add(host: EntryHost, resource: Resource): void {
  addEntry(host, { kind: "resource", key: resource.uri, entry: checkSpelling(host.registry, resource) });
}
