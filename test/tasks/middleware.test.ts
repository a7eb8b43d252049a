/**
 * Middleware around a task tool's calls (docs/tasks.md: middleware sees the tools/call request and
 * its CreateTaskResult), whenever it was added: before the task tool, after it, or once the server
 * is ready, when `use` installs at once. Over real HTTP, 2026-07-28 with the Tasks extension.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import type { Listening } from "../../src/transports/listen.js";
import { TasksClient } from "./tasks-helpers.js";

const seen: string[] = [];
let listening: Listening;

beforeAll(async () => {
  const server = pico({ name: "tasks-middleware", version: "1.0.0" })
    .use((call, next) => {
      seen.push(`before ${call.method}`);
      return next();
    })
    .tool("report", { description: "Builds a report", task: "optional", run: () => "the report" });
  await server.ready();
  // Added once the server is ready (installed at once): a rate limit that refuses every second call.
  let calls = 0;
  server.use("tools/call", async (call, next) => {
    seen.push(`after ready ${call.method}`);
    if (++calls % 2 === 0) return { content: [{ type: "text", text: "Rate limited: wait a second" }], isError: true };
    const result = await next();
    seen.push(`after ready saw ${String((result as { resultType?: unknown }).resultType)}`);
    return result;
  });
  listening = await server.serve({ port: 0 });
});

afterAll(async () => {
  await listening.close();
});

describe("middleware around a task tool", () => {
  it("wraps a task's tools/call and sees its CreateTaskResult, even when added after ready()", async () => {
    const client = new TasksClient(listening.url);
    const created = await client.result("tools/call", { name: "report" });
    expect(created.resultType).toBe("task");
    expect(seen).toEqual(["before tools/call", "after ready tools/call", "after ready saw task"]);
    // The second call is refused by the middleware: no task is made.
    const refused = await client.result("tools/call", { name: "report" });
    expect(refused).toMatchObject({ isError: true, content: [{ type: "text", text: "Rate limited: wait a second" }] });
  });
});
