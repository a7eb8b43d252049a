/**
 * One caller cannot take every task slot of an instance: each caller may run at most
 * `limits.maxTasksPerCaller` tasks at a time on an instance (docs/limits.md, docs/tasks.md). A caller
 * is a verified identity (all its sessions, both eras) or, without auth, a 2025-11-25 session;
 * anonymous 2026-07-28 requests cannot be told apart, so they are counted together, under
 * `limits.maxAnonymousTasks` (test/peers/tasks-anonymous.test.ts has its default). On one instance (the in-memory store) and
 * with its state shared on a real Redis (`pico({ state })`); in-process servers (`server.fetch`)
 * driven by the testing harness with real signed tokens; every wait is bounded. Skipped (with the
 * install command as the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { afterEach, expect, it } from "vitest";
import type { Limits } from "../../src/index.js";
import { pico } from "../../src/index.js";
import type { redisState } from "../../src/redis.js";
import { harness, testIssuer } from "../../src/testing.js";
import { useRedisServer } from "./redis-server.js";
import { sharedState } from "./shared-state.js";
import { forever } from "./tasks-helpers.js";

const redis = useRedisServer();
const opened: (() => Promise<unknown>)[] = [];
let prefixes = 0;

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

const RESOURCE = "http://localhost/mcp";
const issuer = await testIssuer({ audience: RESOURCE });
const TASKS = "io.modelcontextprotocol/tasks";
const declared = { _meta: { "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } } } };
type Server = ReturnType<typeof pico>;

/** A server of the `forever` task tool, signing in optional; with `shared`, its state on Redis. */
async function server(shared: boolean, limits: Limits = {}): Promise<Server> {
  const state: Awaited<ReturnType<typeof redisState>> | undefined = shared
    ? await sharedState(redis.get(), `tasks-per-caller-${prefixes++}:`, opened)
    : undefined;
  const made = pico({
    name: "tasks-per-caller",
    version: "1.0.0",
    limits,
    requestStateKey: "a shared secret of 32 bytes or more!",
    ...(state && { state }),
    signals: false,
    auth: { verify: issuer.verify, resource: RESOURCE, authorizationServers: [issuer.issuer], required: false },
  }).tool("forever", { ...forever(() => {}), auth: "public" });
  opened.push(() => made.close());
  return made;
}

/** A client of `on`: one 2025-11-25 session, or 2026-07-28 requests; signed in as `subject`, or anonymous. */
function client(on: Server, era: "legacy" | "modern", subject?: string) {
  const token = subject === undefined ? undefined : issuer.mint({ subject });
  const calls = harness(on, { era });
  // A 2026-07-28 request naming a task says so in Mcp-Name too.
  const send = async (method: string, params: Record<string, unknown>) =>
    calls.request(method, era === "modern" ? { ...params, ...declared } : params, {
      ...(token && { token: await token }),
      ...(era === "modern" && typeof params.taskId === "string" && { headers: { "mcp-name": params.taskId } }),
    });
  return {
    start: () => send("tools/call", { name: "forever", arguments: {}, ...(era === "legacy" && { task: {} }) }),
    cancel: (taskId: string) => send("tasks/cancel", { taskId }),
  };
}

/** The task id a `tools/call` answered, in either era. */
function taskIdOf(answer: { result?: Record<string, unknown> }): string | undefined {
  const result = answer.result;
  const task = result?.task as { taskId?: string } | undefined;
  return (task?.taskId ?? result?.taskId) as string | undefined;
}

async function startMany(calls: ReturnType<typeof client>, count: number): Promise<string[]> {
  const answers = await Promise.all(Array.from({ length: count }, () => calls.start()));
  return answers.map((answer) => {
    const taskId = taskIdOf(answer);
    expect(taskId, JSON.stringify(answer)).toBeTypeOf("string");
    return taskId as string;
  });
}

const REFUSED = /^Could not create a task: you are running 100 tasks on this server already/;

for (const shared of [false, true]) {
  const where = shared ? "with state shared on Redis" : "alone";

  it(`refuses a signed-in caller's task past 100 at a time (the default), in both eras, while another caller still gets tasks, ${where}`, async () => {
    const on = await server(shared);
    const hostile = { modern: client(on, "modern", "hostile"), legacy: client(on, "legacy", "hostile") };
    // One identity, both eras: its 2025 session's tasks count with its 2026-07-28 ones.
    const taskIds = [...(await startMany(hostile.modern, 60)), ...(await startMany(hostile.legacy, 40))];
    for (const calls of [hostile.modern, hostile.legacy]) {
      const refused = await calls.start();
      // Was: created, up to the instance's 1000, every other caller then locked out.
      expect(refused.error?.message).toMatch(REFUSED);
      expect(refused.error?.message).toContain("(limits.maxTasksPerCaller = 100)");
      expect(refused.error?.data).toEqual({ limit: "maxTasksPerCaller", max: 100 });
    }
    expect(await startMany(client(on, "modern", "victim"), 1)).toHaveLength(1);
    expect(await startMany(client(on, "legacy", "another victim"), 1)).toHaveLength(1);
    // A task that ends gives its slot back.
    expect((await hostile.modern.cancel(taskIds[0] as string)).error).toBeUndefined();
    expect(await startMany(hostile.modern, 1)).toHaveLength(1);
    expect((await hostile.modern.start()).error?.message).toMatch(REFUSED);
  });

  it(`counts each 2025-11-25 session without auth as a caller, and anonymous 2026-07-28 requests together under limits.maxAnonymousTasks, ${where}`, async () => {
    const on = await server(shared, { maxTasksPerCaller: 3, maxAnonymousTasks: 10 });
    const first = client(on, "legacy");
    await startMany(first, 3);
    const refused = await first.start();
    expect(refused.error?.message).toMatch(/^Could not create a task: you are running 3 tasks on this server already/);
    expect(await startMany(client(on, "legacy"), 3)).toHaveLength(3);
    // Anonymous 2026-07-28 callers cannot be told apart: a per-caller bound would be shared by them
    // all, so they share a larger one of their own, and cannot take the tasks of the others.
    expect(await startMany(client(on, "modern"), 10)).toHaveLength(10);
    // Was: created, up to the instance's limits.maxTasks.
    expect((await client(on, "modern").start()).error?.data).toEqual({ limit: "maxAnonymousTasks", max: 10 });
    expect(await startMany(client(on, "legacy"), 1)).toHaveLength(1);
  });
}
