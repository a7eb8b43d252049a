/**
 * Anonymous 2026-07-28 callers cannot take every task of an instance (docs/limits.md, docs/tasks.md):
 * they carry no session and no identity, so the server counts them together, at most
 * `limits.maxAnonymousTasks` (by default half of `limits.maxTasks`), and the callers it can tell
 * apart keep theirs: a signed-in caller its own share, and the official v1 client's 2025-11-25
 * session too. Over a real `serve({ port: 0 })` listener on 127.0.0.1; the anonymous flood is sent
 * as raw 2026-07-28 requests (no official client can take a CreateTaskResult in that era, see
 * tasks-v2.test.ts). Over stdio the pipe is the caller, whatever the era: its 2026-07-28 requests
 * share `limits.maxTasksPerCaller`, as a 2025 session's do (raw lines to the fixture as a child
 * process).
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { testIssuer } from "../../src/testing.js";
import type { Listening } from "../../src/transports/listen.js";
import { forever } from "../redis/tasks-helpers.js";
import { TASKS, TasksClient } from "../tasks/tasks-helpers.js";
import { ROOT } from "./fixture.js";

const RESOURCE = "http://localhost/mcp";
const issuer = await testIssuer({ audience: RESOURCE });
let listening: Listening;
const clients: Client[] = [];

beforeAll(async () => {
  listening = await pico({
    name: "tasks-anonymous",
    version: "1.0.0",
    limits: { maxTasks: 20 },
    auth: { verify: issuer.verify, resource: RESOURCE, authorizationServers: [issuer.issuer], required: false },
  })
    .tool("forever", { ...forever(() => {}), auth: "public" })
    .serve({ port: 0 });
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await listening.close();
});

/** Starts tasks of `forever` as `caller` until `count` were asked for; answers the created ids and the refusals. */
async function flood(caller: TasksClient, count: number, headers: Record<string, string> = {}) {
  const created: string[] = [];
  const refused: { code: number; message: string; data?: Record<string, unknown> }[] = [];
  for (let sent = 0; sent < count; sent++) {
    const { body } = await caller.send("tools/call", { name: "forever", arguments: {} }, headers);
    if (body.error) refused.push(body.error);
    else created.push(body.result?.taskId as string);
  }
  return { created, refused };
}

it("holds anonymous 2026-07-28 callers to limits.maxAnonymousTasks together, while a signed-in caller and a 2025 session still get tasks", async () => {
  const anonymous = new TasksClient(listening.url);
  const { created, refused } = await flood(anonymous, 20);
  // Was: all 20 created (only limits.maxTasks held them), and every caller after them refused.
  expect(created).toHaveLength(10);
  expect(refused).toHaveLength(10);
  expect(refused[0]).toEqual({
    code: -32603,
    message:
      "Could not create a task: callers who are not signed in are running 10 tasks on this server already, the most they may together (limits.maxAnonymousTasks = 10); wait for one to finish, or cancel those you no longer need with tasks/cancel, then call the tool again.",
    data: { limit: "maxAnonymousTasks", max: 10 },
  });

  // A signed-in caller has a share of its own.
  const token = await issuer.mint({ subject: "alice" });
  const signedIn = await flood(new TasksClient(listening.url), 3, { authorization: `Bearer ${token}` });
  expect(signedIn.refused).toEqual([]);
  expect(signedIn.created).toHaveLength(3);

  // So has a 2025-11-25 session of the official v1 client, anonymous as it is.
  const client = new Client({ name: "v1-session", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
  clients.push(client);
  const stream = client.experimental.tasks.callToolStream({ name: "forever", arguments: {} }, CallToolResultSchema);
  // The client sends the task parameter for a tool it has listed as taskSupport "optional".
  expect((await client.listTools()).tools[0]?.execution).toEqual({ taskSupport: "optional" });
  const first = await stream.next();
  expect(first.value).toMatchObject({ type: "taskCreated", task: { status: "working" } });
  const taskId = (first.value as { task: { taskId: string } }).task.taskId;
  expect(await client.experimental.tasks.cancelTask(taskId)).toMatchObject({ taskId, status: "cancelled" });
  for await (const _ of stream) {
    // The stream ends with the cancelled task.
  }

  // A task that ends gives the anonymous callers a place again.
  await anonymous.result("tasks/cancel", { taskId: created[0] });
  const again = await flood(anonymous, 2);
  expect(again.created).toHaveLength(1);
  expect(again.refused.map((error) => error.data)).toEqual([{ limit: "maxAnonymousTasks", max: 10 }]);
});

it("refuses a limits.maxAnonymousTasks that is not a positive integer when pico() is called", () => {
  expect(() => pico({ name: "x", limits: { maxAnonymousTasks: 0 } })).toThrow(
    new TypeError("limits.maxAnonymousTasks must be an integer of at least 1, at most 2^53 - 1, or Infinity; got 0."),
  );
});

it("counts a stdio pipe's 2026-07-28 requests as one caller, held to limits.maxTasksPerCaller", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "test/fixtures/tasks-server.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "" },
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  try {
    type Answer = { id?: number; result?: Record<string, unknown>; error?: { data?: unknown } };
    const answers = new Map<number, Answer>();
    const waiting = new Map<number, () => void>();
    createInterface({ input: child.stdout }).on("line", (line) => {
      const message = JSON.parse(line) as Answer;
      if (typeof message.id !== "number") return;
      answers.set(message.id, message);
      waiting.get(message.id)?.();
    });
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } },
    };
    const calls = Array.from({ length: 101 }, (_, id) => {
      const answered = new Promise<void>((resolve) => waiting.set(id, resolve));
      const params = { name: "blocked", arguments: { label: `pipe ${id}` }, _meta };
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params })}\n`);
      return answered;
    });
    await Promise.all(calls);
    const refused = [...answers.values()].filter((answer) => answer.error);
    // Was: all 101 created (only limits.maxTasks, 1000, held an anonymous 2026-07-28 caller).
    expect([...answers.values()].filter((answer) => answer.result?.resultType === "task")).toHaveLength(100);
    expect(refused.map((answer) => answer.error?.data)).toEqual([{ limit: "maxTasksPerCaller", max: 100 }]);
  } finally {
    child.kill();
    await exited;
  }
});
