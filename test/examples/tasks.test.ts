/**
 * examples/tasks/server.ts over Streamable HTTP on 127.0.0.1: a 2026-07-28 client that declares
 * the Tasks extension gets a task, polls it through its sections, answers its question with
 * tasks/update and reads the inlined result; one that cancels sees the run stop; a client without
 * the extension calls the same tool as an ordinary call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTasksServer } from "../../examples/tasks/server.js";
import type { Listening } from "../../src/transports/listen.js";
import { TasksClient } from "../tasks/tasks-helpers.js";

let listening: Listening;

beforeAll(async () => {
  listening = await createTasksServer({ sectionMs: 20 }).serve({ port: 0 });
});

afterAll(async () => {
  await listening.close();
});

describe("the tasks example", () => {
  it("runs build_report as a task: working, then input_required, then completed with the structured result", async () => {
    const client = new TasksClient(listening.url);
    const created = await client.result("tools/call", { name: "build_report", arguments: { topic: "tides" } });
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: 600_000, pollIntervalMs: 500 });
    const taskId = created.taskId as string;
    const asking = await client.until(taskId, "input_required");
    const [key, question] = Object.entries(asking.inputRequests as Record<string, { params: { message: string } }>)[0]!;
    expect(question.params.message).toBe("Publish the report on tides?");
    await client.result("tasks/update", {
      taskId,
      inputResponses: { [key]: { action: "accept", content: { confirm: true } } },
    });
    const done = await client.until(taskId);
    expect(done).toMatchObject({
      status: "completed",
      result: {
        structuredContent: {
          topic: "tides",
          sections: ["Section 1 of tides", "Section 2 of tides", "Section 3 of tides"],
          published: true,
        },
      },
    });
  });

  it("stops the work when the task is cancelled", async () => {
    const client = new TasksClient(listening.url);
    const created = await client.result("tools/call", {
      name: "build_report",
      arguments: { topic: "x", sections: 10 },
    });
    const taskId = created.taskId as string;
    await client.result("tasks/cancel", { taskId });
    expect(await client.result("tasks/get", { taskId })).toMatchObject({ status: "cancelled" });
  });

  it("answers a client without the extension in the request itself, asking as any tool does", async () => {
    const client = new TasksClient(listening.url, false);
    const round = await client.result("tools/call", { name: "build_report", arguments: { topic: "y", sections: 1 } });
    expect(round).toMatchObject({ resultType: "input_required" });
    expect(round).not.toHaveProperty("taskId");
  });
});
