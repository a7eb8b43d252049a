/**
 * A tool that outlives a client's call timeout, run as a task (docs/tasks.md), in both protocol
 * eras: `build_report` works through its sections for a few seconds, reporting progress, asks the
 * user to confirm before publishing, and stops when the task is cancelled. A 2026-07-28 client that
 * declares the Tasks extension gets a task at once and polls `tasks/get` (or listens for
 * `notifications/tasks`); a 2025-11-25 client that sends the `task` parameter gets one too and
 * collects the result with `tasks/result` (examples/tasks/client.ts does, with the official v1
 * client); any other client gets the same tool as an ordinary call.
 * `node --import tsx examples/tasks/server.ts` serves it over stdio; `--port 3000` over Streamable
 * HTTP on 127.0.0.1. SECTION_MS sets how long each section takes (default 1000).
 */

import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { pico } from "picomcp";
import { z } from "zod";

/** Waits `ms`, or less when `signal` aborts (then it rejects with the signal's reason). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

export function createTasksServer(options: { sectionMs?: number } = {}) {
  const sectionMs = options.sectionMs ?? 1000;
  return pico({ name: "tasks-example", version: "1.0.0" }).tool("build_report", {
    description: "Builds a report on a topic, section by section, then publishes it once the user confirms.",
    input: z.object({ topic: z.string().max(200), sections: z.number().int().min(1).max(10).default(3) }),
    output: z.object({ topic: z.string(), sections: z.array(z.string()), published: z.boolean() }),
    // Clients that declare the extension get a task; a finished report stays readable for 10 minutes.
    task: { support: "optional", ttlMs: 10 * 60_000, pollIntervalMs: 500 },
    run: async ({ topic, sections }, ctx) => {
      const written: string[] = [];
      for (let i = 1; i <= sections; i++) {
        await pause(sectionMs, ctx.signal); // tasks/cancel aborts ctx.signal: the work stops here
        written.push(`Section ${i} of ${topic}`);
        // A 2026-07-28 task's statusMessage; a 2025-11-25 client's notifications/progress.
        ctx.progress(i, sections, `${i} of ${sections} sections written`);
      }
      // Inside a task this moves it to input_required; tasks/update answers, and run starts again
      // from the top with the answer known (so keep side effects after the questions in real code).
      const published = await ctx.confirm(`Publish the report on ${topic}?`);
      return { topic, sections: written, published };
    },
  });
}

// Run, not imported: import.meta.url names the file by its real path (symlinks resolved), argv[1] as typed.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = createTasksServer({ sectionMs: Number(process.env.SECTION_MS || 1000) });
  const at = process.argv.indexOf("--port");
  if (at === -1) await server.serve();
  else console.error(`tasks example at ${(await server.serve({ port: Number(process.argv[at + 1]) })).url}`);
}
