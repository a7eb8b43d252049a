/**
 * The prompts layer, as the server loads it with the first `.prompt()` (see on-first-use.ts): the
 * registration checks, and the methods the server then installs in its method table
 * (`Registry.install`), so a server without prompts carries neither.
 */
export { compilePrompt } from "./prompts.js";
export { methods } from "./run.js";
