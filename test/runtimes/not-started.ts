/**
 * A server that cannot start (maxBodyBytes must be at least 1), as the entry point of `bun run`,
 * which serves its default export: every request meets the start-up error.
 */
import { pico } from "../../src/index.js";

export default pico({ name: "broken", version: "1.0.0", http: { maxBodyBytes: 0 } }).tool("t", {
  description: "Answers ok.",
  run: () => "ok",
});
