/**
 * `listening.close()` on Node's, Bun's and Deno's own listeners: a call that outlives the grace period
 * is answered with the shutdown error before its connection closes, never cut off ("socket hang up").
 */
import { describe, expect, it } from "vitest";
import { bunExecutable, denoExecutable, run } from "./harness.js";

const FIXTURE = "test/runtimes/shutdown.ts";
const DENO_FLAGS = ["--no-lock", "--no-prompt", "--sloppy-imports", "--allow-net=127.0.0.1"];

const runtimes: [name: string, command: () => string, args: string[]][] = [
  ["Node", () => process.execPath, ["--import", "tsx", FIXTURE]],
  ["Bun", bunExecutable, [FIXTURE]],
  ["Deno", denoExecutable, ["run", ...DENO_FLAGS, FIXTURE]],
];

describe("listening.close() with a call in progress", () => {
  it.each(runtimes)(
    "on %s sends the call's shutdown error before it closes the connection",
    async (_, command, args) => {
      const { stdout } = await run(command(), args, {
        timeout: 30_000,
        env: { ...process.env, DENO_NO_UPDATE_CHECK: "1" },
      });
      const outcome = JSON.parse(stdout.trim().split("\n").at(-1)!);
      expect(outcome).toMatchObject({
        status: 503,
        body: {
          id: 1,
          error: { code: -32603, message: expect.stringMatching(/^Server shutting down: "tools\/call"/) },
        },
      });
    },
  );
});
