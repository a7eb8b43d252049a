/**
 * `notifications/tasks` through `subscriptions/listen` (SEP-2663 "Task Status Notifications") over
 * Streamable HTTP on a 127.0.0.1 listener: the taskIds filter, the acknowledgement that names the
 * caller's own tasks only, a DetailedTask at every change, -32021 for a request that asks for
 * taskIds without declaring the extension, and progress messages as the task's statusMessage.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ErrorCode, pico } from "../../src/index.js";
import type { Listening } from "../../src/transports/listen.js";
import { EventReader, messageOf } from "../http-helpers.js";
import { TasksClient } from "./tasks-helpers.js";

const releases = new Map<string, () => void>();

const server = pico({ name: "tasks-listen", version: "1.0.0" })
  .tool("step", {
    description: "Reports progress, then waits until released",
    input: z.object({ label: z.string() }),
    task: "optional",
    run: async ({ label }, ctx) => {
      ctx.progress(1, 2, `${label}: half way`);
      ctx.log.info("not delivered: the request is over");
      await new Promise<void>((resolve) => releases.set(label, resolve));
      return `done ${label}`;
    },
  })
  .tool("ask", {
    description: "Asks a name",
    task: "optional",
    run: async (_args, ctx) => {
      const answer = await ctx.elicit("Name?", z.object({ name: z.string() }), { key: "name" });
      return answer.action === "accept" ? `Hello, ${answer.content.name}` : "Hello";
    },
  });

let listening: Listening;
let client: TasksClient;

beforeAll(async () => {
  listening = await server.serve({ port: 0 });
  client = new TasksClient(listening.url);
});

afterAll(async () => {
  await listening.close();
});

async function released(label: string): Promise<void> {
  await expect.poll(() => releases.has(label)).toBe(true);
  releases.get(label)!();
}

describe("subscriptions/listen with taskIds", () => {
  it("acknowledges the caller's tasks, then streams each one's DetailedTask, tagged, at every change", async () => {
    const created = await client.result("tools/call", { name: "step", arguments: { label: "a" } });
    const taskId = created.taskId as string;
    // The progress message becomes the task's statusMessage (the request it would belong to is over).
    await expect.poll(async () => (await client.result("tasks/get", { taskId })).statusMessage).toBe("a: half way");
    const response = await client.open("subscriptions/listen", {
      notifications: { taskIds: [taskId, "not-a-task"] },
    });
    expect(response.status).toBe(200);
    const events = new EventReader(response);
    const ack = messageOf(await events.next());
    expect(ack.method).toBe("notifications/subscriptions/acknowledged");
    const params = ack.params as Record<string, unknown>;
    // Unknown ids are left out, as another caller's would be: their existence is not revealed.
    expect(params.notifications).toEqual({ taskIds: [taskId] });
    const subscriptionId = (params._meta as Record<string, unknown>)["io.modelcontextprotocol/subscriptionId"];
    const now = messageOf(await events.next());
    expect(now).toMatchObject({ method: "notifications/tasks", params: { taskId, status: "working" } });
    await released("a");
    const done = messageOf(await events.next());
    expect(done).toMatchObject({
      method: "notifications/tasks",
      params: {
        taskId,
        status: "completed",
        result: { resultType: "complete", content: [{ type: "text", text: "done a" }] },
        _meta: { "io.modelcontextprotocol/subscriptionId": subscriptionId },
      },
    });
    // Identical to what tasks/get answers at that moment.
    const { resultType: _, _meta: __, ...got } = await client.result("tasks/get", { taskId });
    const { _meta: ___, ...pushed } = done.params as Record<string, unknown>;
    expect(pushed).toEqual(got);
    await events.cancel();
  });

  it("tells a task's questions with input_required, and its return to work once answered", async () => {
    const created = await client.result("tools/call", { name: "ask" });
    const taskId = created.taskId as string;
    await client.until(taskId, "input_required");
    const events = new EventReader(await client.open("subscriptions/listen", { notifications: { taskIds: [taskId] } }));
    await events.next();
    const asking = messageOf(await events.next());
    expect(asking.params).toMatchObject({
      status: "input_required",
      inputRequests: { name: { method: "elicitation/create", params: { message: "Name?" } } },
    });
    await client.result("tasks/update", {
      taskId,
      inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
    });
    const statuses: string[] = [];
    for (let event = 0; event < 3 && statuses.at(-1) !== "completed"; event++) {
      statuses.push((messageOf(await events.next()).params as { status: string }).status);
    }
    expect(statuses).toEqual(["working", "completed"]);
    await events.cancel();
  });

  it("refuses taskIds from a request that did not declare the extension with -32021 (HTTP 400)", async () => {
    const undeclared = new TasksClient(listening.url, false);
    const reply = await undeclared.send("subscriptions/listen", { notifications: { taskIds: ["x"] } });
    expect(reply.status).toBe(400);
    // The number itself: the extension's older drafts say -32003 here (docs/tasks.md).
    expect(reply.body.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
    });
    expect(reply.body.error!.message).toContain("notifications.taskIds");
  });

  it("refuses taskIds that are not an array of strings with -32602", async () => {
    const reply = await client.send("subscriptions/listen", { notifications: { taskIds: "x" } });
    expect(reply.body.error?.code).toBe(ErrorCode.InvalidParams);
    expect(reply.body.error?.message).toContain("array of at most 100 taskIds");
  });
});
