#!/usr/bin/env node
/**
 * The `picomcp` command: `dev`, `list`, `call`, `install`, `run` and `check`, each in src/cli/.
 * Waits for stdout to drain, then exits: a server module may hold timers or sockets open that
 * would otherwise keep a finished `list` or `call` alive.
 */
import { main } from "./cli/main.js";

const code = await main(process.argv.slice(2));
process.stdout.write("", () => process.exit(code));
