/** The workload served by picomcp, imported from the repository's src/ (built by bench/src/build.ts). */
import { pico } from "../../src/index.js";
import { addInput, echoInput, statsInput, statsOutput } from "./schemas.js";
import { add, SERVER_INFO, stats } from "./workload.js";

export function app(options: { sessions?: boolean } = {}) {
  return pico({ ...SERVER_INFO, http: { sessions: options.sessions ?? true } })
    .tool("add", { input: addInput, run: ({ a, b }) => add(a, b) })
    .tool("echo", { input: echoInput, run: ({ text }) => text })
    .tool("stats", { input: statsInput, output: statsOutput, run: ({ values }) => stats(values) });
}
