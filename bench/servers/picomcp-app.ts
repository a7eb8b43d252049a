/** The workload served by picomcp, imported from the repository's src/ (built by bench/src/build.ts). */
import { pico } from "../../src/index.js";
import { addInput, echoInput, statsInput, statsOutput } from "./schemas.js";
import { add, SERVER_INFO, stats } from "./workload.js";

/**
 * The heap bench opens twice `--sessions` idle sessions (2,000 by default), past picomcp's default cap
 * of 1,000, which would evict the first ones; the SDKs' and the bare servers have no cap.
 */
const MAX_SESSIONS = 100_000;

export function app(options: { sessions?: boolean } = {}) {
  const sessions = options.sessions === true ? { maxSessions: MAX_SESSIONS } : (options.sessions ?? true);
  return pico({ ...SERVER_INFO, http: { sessions } })
    .tool("add", { input: addInput, run: ({ a, b }) => add(a, b) })
    .tool("echo", { input: echoInput, run: ({ text }) => text })
    .tool("stats", { input: statsInput, output: statsOutput, run: ({ values }) => stats(values) });
}
