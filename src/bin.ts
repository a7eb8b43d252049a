#!/usr/bin/env node
/**
 * The `picomcp` command: `dev`, `list`, `call`, `install`, `run` and `check`, each in src/cli/.
 * Waits for stdout to drain, then exits: a server module may hold timers or sockets open that
 * would otherwise keep a finished `list` or `call` alive.
 */
import { main } from "./cli/main.js";

// The package's root is the folder above this file's, in the package (dist/bin.js) as in a checkout
// (src/bin.ts): the build writes every module into dist/ itself, so only here is the path the same.
const code = await main(process.argv.slice(2), new URL("../package.json", import.meta.url));
process.stdout.write("", () => process.exit(code));
