/**
 * examples/tasks/client.ts as a child process: the official v1 client starts examples/tasks/server.ts
 * over stdio and runs build_report as a 2025-11-25 task, from creation through input_required (the
 * confirmation, asked on the tasks/result stream) to the report, with the run's progress.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

describe("the tasks example's v1 client", () => {
  it("runs build_report as a 2025-11-25 task and prints the report", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/tasks/client.ts", "moss"],
      {
        cwd: fileURLToPath(new URL("../..", import.meta.url)),
        env: { PATH: process.env.PATH ?? "", SECTION_MS: "10" },
        timeout: 20_000,
      },
    );
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^task [0-9a-f-]{36} created$/);
    expect(lines).toContain("status: input_required");
    expect(lines).toContain("progress: 1 of 2 sections written");
    expect(lines).toContain("asked: Publish the report on moss? (yes)");
    expect(lines.at(-1)).toBe(
      'report: {"topic":"moss","sections":["Section 1 of moss","Section 2 of moss"],"published":true}',
    );
  }, 30_000);
});
