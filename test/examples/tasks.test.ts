/**
 * examples/tasks/server.ts over Streamable HTTP on 127.0.0.1: a 2026-07-28 client that declares
 * the Tasks extension gets a task, polls it through its sections, answers its question with
 * tasks/update and reads the inlined result; one that cancels sees the run stop; a client without
 * the extension calls the same tool as an ordinary call. Then the example itself as a child
 * process over stdio, where the same task runs without any HTTP header.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
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

describe("the tasks example over stdio", () => {
  it("runs build_report as a task for a 2026-07-28 client on stdin/stdout", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "examples/tasks/server.ts"], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      env: { PATH: process.env.PATH ?? "", SECTION_MS: "10" },
    });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    let id = 0;
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {
        elicitation: {},
        extensions: { "io.modelcontextprotocol/tasks": {} },
      },
    };
    const send = async (method: string, params: Record<string, unknown>) => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta } })}\n`);
      const line = await lines.next();
      const message = JSON.parse(line.value as string) as { id: number; result: Record<string, unknown> };
      expect(message.id).toBe(id);
      return message.result;
    };
    try {
      const created = await send("tools/call", { name: "build_report", arguments: { topic: "moss", sections: 1 } });
      expect(created).toMatchObject({ resultType: "task", status: "working" });
      const taskId = created.taskId;
      let task: Record<string, unknown> = {};
      for (let polls = 0; polls < 300 && task.status !== "input_required"; polls++) {
        task = await send("tasks/get", { taskId });
      }
      const key = Object.keys(task.inputRequests as object)[0]!;
      await send("tasks/update", { taskId, inputResponses: { [key]: { action: "decline" } } });
      for (let polls = 0; polls < 300 && task.status !== "completed"; polls++)
        task = await send("tasks/get", { taskId });
      expect(task).toMatchObject({ result: { structuredContent: { topic: "moss", published: false } } });
    } finally {
      child.stdin.end();
      child.kill();
    }
  }, 20_000);
});
