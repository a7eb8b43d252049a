/**
 * SEP-2663 "Backward Compatibility": a 2026-07-28 request that declares only 2025-11-25's `tasks`
 * client capability, not the extension, is treated as not declaring the extension (MUST), but may
 * still `tasks/get` and `tasks/cancel` the tasks made in 2025-11-25 sessions (SHOULD), answered as
 * 2025-11-25 answers them (the Task). Owner rules hold: the task of a signed-in caller's session is
 * reached by that caller alone; that of an anonymous session by callers not signed in who know its
 * taskId, as for 2026-07-28 tasks of such callers; any other task (another caller's, one made under
 * the extension, an unknown one) is answered -32021, as to a client that declares nothing. The tasks are made by sessions of the official v1 client over Streamable HTTP on
 * 127.0.0.1, and read with raw 2026-07-28 requests. Was: -32021 for each such request.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ErrorCode, pico } from "../../src/index.js";
import { type TestIssuer, testIssuer } from "../../src/testing.js";
import type { Listening } from "../../src/transports/listen.js";
import { TasksClient } from "../tasks/tasks-helpers.js";

/** 2025-11-25's client `tasks` capability ("Tasks"), declared in a 2026-07-28 request's _meta. */
const LEGACY_ONLY = { tasks: { list: {}, cancel: {} } };

let issuer: TestIssuer;
let listening: Listening;
const stopped: string[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  issuer = await testIssuer({ audience: "placeholder" });
  const server = pico({
    name: "tasks-across-eras",
    version: "1.0.0",
    auth: { verify: issuer.verify, authorizationServers: [issuer.issuer], required: false },
  }).tool("blocked", {
    description: "Waits until its task is cancelled",
    input: z.object({ label: z.string() }),
    auth: "public",
    task: "optional",
    run: ({ label }, ctx) =>
      new Promise((_, reject) => {
        ctx.signal.addEventListener("abort", () => {
          stopped.push(label);
          reject(ctx.signal.reason);
        });
      }),
  });
  listening = await server.serve({ port: 0 });
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await listening.close();
});

/** A 2025-11-25 session of the official v1 client, signed in with `token` if given. */
async function session(token?: string): Promise<Client> {
  const client = new Client({ name: "v1-tasks", version: "1.0.0" });
  clients.push(client);
  const requestInit = token ? { headers: { authorization: `Bearer ${token}` } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(listening.url), { requestInit }));
  return client;
}

/** Starts `blocked` as a 2025-11-25 task in `client`'s session: its taskId. */
async function started(client: Client, label: string): Promise<string> {
  const params = { name: "blocked", arguments: { label }, task: {} };
  const created = await client.request({ method: "tools/call", params }, CreateTaskResultSchema);
  expect(created.task.status).toBe("working");
  return created.task.taskId;
}

/**
 * -32021 naming the extension: a request declaring only the legacy capability is treated as not
 * declaring the extension (SEP-2663: MUST) for every task but its 2025-11-25 sessions' own, whether
 * the task is another caller's, the extension's or unknown, so its existence is not revealed.
 */
function missing(taskId: string) {
  return {
    code: ErrorCode.MissingRequiredClientCapability,
    message: `Missing required client capability: no task "${taskId}" of your 2025-11-25 sessions exists (it may have expired); any other task needs the "io.modelcontextprotocol/tasks" extension; declare it in _meta["io.modelcontextprotocol/clientCapabilities"].extensions`,
    data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
  };
}

/** A raw 2026-07-28 request from a client declaring `capabilities`, signed in with `token` if given. */
function send(capabilities: Record<string, unknown>, method: string, taskId: string, token?: string) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return new TasksClient(listening.url, capabilities).send(method, { taskId }, headers);
}

describe("a 2026-07-28 client declaring only 2025-11-25's tasks capability", () => {
  it("gets and cancels the task an anonymous 2025-11-25 session made, as 2025-11-25 answers", async () => {
    const v1 = await session();
    const taskId = await started(v1, "anonymous");
    const got = await send(LEGACY_ONLY, "tasks/get", taskId);
    expect(got.status).toBe(200);
    expect(got.body.result).toMatchObject({ resultType: "complete", taskId, status: "working", ttl: 3_600_000 });
    const cancelled = await send(LEGACY_ONLY, "tasks/cancel", taskId);
    expect(cancelled.body.result).toMatchObject({ resultType: "complete", taskId, status: "cancelled" });
    // The session that made it sees the cancel, and the run was stopped.
    expect((await v1.experimental.tasks.getTask(taskId)).status).toBe("cancelled");
    expect(stopped).toContain("anonymous");
    // 2025-11-25 "Tasks": a task that has ended cannot be cancelled (MUST), -32602.
    const again = await send(LEGACY_ONLY, "tasks/cancel", taskId);
    expect(again.body.error).toMatchObject({ code: ErrorCode.InvalidParams });
    expect(again.body.error?.message).toBe(`Cannot cancel task "${taskId}": it is cancelled already`);
  });

  it("reaches a signed-in session's task only as that caller", async () => {
    const audience = listening.url;
    const ada = await issuer.mint({ subject: "ada", audience });
    const bob = await issuer.mint({ subject: "bob", audience });
    const taskId = await started(await session(ada), "ada");
    for (const token of [bob, undefined]) {
      const refused = await send(LEGACY_ONLY, "tasks/get", taskId, token);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toEqual(missing(taskId));
    }
    expect((await send(LEGACY_ONLY, "tasks/get", taskId, ada)).body.result).toMatchObject({ status: "working" });
    expect((await send(LEGACY_ONLY, "tasks/cancel", taskId, ada)).body.result).toMatchObject({ status: "cancelled" });
  });

  it("is refused a task made under the extension with -32021, which declaring the extension reaches", async () => {
    const created = await new TasksClient(listening.url).result("tools/call", {
      name: "blocked",
      arguments: { label: "extension" },
    });
    expect(created).toMatchObject({ resultType: "task" });
    const taskId = created.taskId as string;
    expect((await send(LEGACY_ONLY, "tasks/get", taskId)).body.error).toEqual(missing(taskId));
    expect((await send(LEGACY_ONLY, "tasks/cancel", taskId)).body.error).toEqual(missing(taskId));
    const extension = new TasksClient(listening.url);
    expect(await extension.result("tasks/get", { taskId })).toMatchObject({ status: "working" });
    await extension.result("tasks/cancel", { taskId });
    expect(await extension.result("tasks/get", { taskId })).toMatchObject({ status: "cancelled" });
  });
});

describe("a 2026-07-28 client declaring neither", () => {
  it("is refused with -32021 naming the extension, as before", async () => {
    const taskId = await started(await session(), "neither");
    const refused = await send({}, "tasks/get", taskId);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: ErrorCode.MissingRequiredClientCapability });
    await send(LEGACY_ONLY, "tasks/cancel", taskId);
  });
});
