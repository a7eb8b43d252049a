/**
 * A tool whose module is not there, called in-process on Deno, which names the module by its
 * `file://` URL in the error ("Module not found \"file:///…\""), where Node names its path. Prints
 * the result the client would get, as one JSON line.
 */
import { pico } from "../../src/index.js";

const server = pico({ name: "plugins", version: "1.0.0" }).tool("run_plugin", {
  description: "Loads the plugin module and runs it.",
  run: async () => {
    // A computed specifier: Deno resolves it only when the tool runs.
    const plugin = "./plugins/missing.ts";
    await import(plugin);
    return "ran";
  },
});

console.log(JSON.stringify(await server.call("run_plugin")));
