/**
 * The resources layer, as the server loads it with the first `.resource()` (see on-first-use.ts):
 * the registration checks, and the methods the server then installs in its method table
 * (`Registry.install`), so a server without resources carries neither; and `server.resourceUpdated`'s
 * run time.
 */
export { compileResource } from "./resources.js";
export { methods, resourceUpdated } from "./run.js";
export { checkSpelling } from "./spellings.js";
