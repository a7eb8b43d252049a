/**
 * The prompts layer, as the server loads it with the first `.prompt()` (see on-first-use.ts): the
 * registration checks, and the methods the server then installs in its method table
 * (`Registry.install`), so a server without prompts carries neither.
 */
import { addEntry, type EntryHost } from "../auth/entries.js";
import type { Prompt } from "./prompts.js";

export { compilePrompt as compile } from "./prompts.js";
export { methods } from "./run.js";

/** Adds a prompt of `server.prompt()` or `server.include`, under the server's auth. */
export function add(host: EntryHost, prompt: Prompt): void {
  addEntry(host, { kind: "prompt", key: prompt.name, entry: prompt });
}
