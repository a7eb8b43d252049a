/**
 * A stdio client that stops reading while the server churns its registry: registers and removes a
 * tool and reports a subscribed resource updated, in a loop. Those notifications say "the list
 * changed" and "this resource changed": a second one identical to one still waiting for the client
 * tells it nothing new, since it reads the list or the resource after the first anyway. So while one
 * waits, its copies are not queued, and what the server holds for a client that does not read stays
 * bounded. In-process (serveLines, with a stdout whose drain the test controls), and over a real child
 * process serving through `server.serve()` on Node, Bun and Deno.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { Context } from "../src/core/handler-context.js";
import { Registry } from "../src/core/registry.js";
import type { Schema } from "../src/core/schema.js";
import { compileTool, type ToolConfig } from "../src/core/tools.js";
import type { Limits } from "../src/limits/options.js";
import { compileResource } from "../src/resources/resources.js";
import { serveLines } from "../src/transports/stdio.js";
import { addResource, serverDispatcher } from "./core-helpers.js";
import { MODERN_META, pipe } from "./hardening-helpers.js";
import { signal, within } from "./http-helpers.js";
import { bunExecutable, denoExecutable } from "./runtimes/harness.js";
import { call, killWireChildren, type Memory, mib, WireChild } from "./stdio-helpers.js";
import { TASKS } from "./tasks/tasks-helpers.js";

afterAll(killWireChildren);

type AnyTool = ToolConfig<Schema | undefined, Schema | undefined>;

const line = (message: unknown) => `${JSON.stringify(message)}\n`;

/** A 2025-11-25 session subscribed to notes://a, and a 2026-07-28 listen for tool changes and notes://a. */
const SUBSCRIBE = [
  {
    jsonrpc: "2.0",
    id: "init",
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "churn", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: "subscribe", method: "resources/subscribe", params: { uri: "notes://a" } },
  {
    jsonrpc: "2.0",
    id: "listen",
    method: "subscriptions/listen",
    params: { notifications: { toolsListChanged: true, resourceSubscriptions: ["notes://a"] }, _meta: MODERN_META },
  },
];

const CHANGES = ["notifications/tools/list_changed", "notifications/resources/updated"];

/**
 * `registry` served in-process (serveLines) to a 2025-11-25 session subscribed to notes://a and a
 * 2026-07-28 listen on it (SUBSCRIBE), whose stdout then takes no more writes until `resume`;
 * `waited`: the messages written since it was full, parsed.
 */
async function pausedOnceSubscribed(registry: Registry, limits?: Limits) {
  const io = pipe();
  const written: string[] = [];
  let full = false;
  const drain = signal();
  const served = serveLines(serverDispatcher(registry, limits), {
    input: io.input,
    write: (chunk) => written.push(chunk) > 0 && !full,
    drained: () => drain.promise,
  });
  io.push(SUBSCRIBE.map(line).join(""));
  const subscribed = () => written.join("").includes('"id":"subscribe"') && written.join("").includes("acknowledged");
  while (!subscribed()) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  full = true;
  const before = written.length;
  return {
    io,
    /** Stdout takes writes again, stdin ends, and serving ends. */
    async resume() {
      full = false;
      drain.resolve();
      io.end();
      await within(served, 5000, "serveLines resolving");
    },
    waited: () =>
      written
        .slice(before)
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((text) => JSON.parse(text) as { id?: string; method?: string; params?: Record<string, unknown> }),
  };
}

describe("stdio's output under a flood of list_changed and resources/updated, in-process", () => {
  it("queues no copy of a change notification still waiting for a client that does not read", async () => {
    const registry = new Registry({ name: "churn", version: "1" });
    addResource(registry, compileResource("notes://a", { read: () => "a" }));
    const churned = signal();
    const churn = {
      run: () => {
        // Stdout takes no more writes: all of it waits, merged, for the client to read again.
        for (let i = 0; i < 1000; i++) {
          registry.addTool(compileTool("temp", { run: () => "temp" } as unknown as AnyTool));
          registry.remove("tool", "temp");
          registry.emit({ type: "resources/updated", uri: "notes://a" });
        }
        churned.resolve();
        return "churned";
      },
    };
    registry.addTool(compileTool("churn", churn as unknown as AnyTool));
    const paused = await pausedOnceSubscribed(registry);
    paused.io.push(line(call("churn", "churn")));
    await within(churned.promise, 5000, "the churn");
    await paused.resume();
    // What waited while stdout was full: one of each distinct change notification, then the answer.
    const waited = paused.waited();
    const changes = waited.filter((message) => CHANGES.includes(message.method ?? ""));
    const distinct = new Set(changes.map((message) => JSON.stringify(message)));
    expect(changes.length).toBe(distinct.size);
    // legacy and listen, for tools/list_changed and resources/updated: at most four distinct lines.
    expect(distinct.size).toBeLessThanOrEqual(4);
    expect(waited.filter((message) => message.id === "churn")).toHaveLength(1);
    // The last change notifications come before the answer to the call that made them.
    const answered = waited.findIndex((message) => message.id === "churn");
    expect(waited.findLastIndex((message) => CHANGES.includes(message.method ?? ""))).toBeLessThan(answered);
  });

  /**
   * Updates past maxSseBufferBytes are dropped so that a flood of different URIs (a parent subscribed)
   * stays bounded; what else waits (a long answer, logs) bounds nothing of theirs. Was: any 16 KiB
   * waiting dropped the update of the URI subscribed itself, its only one, and the client never read
   * the resource again.
   */
  it("queues a resource's update behind more than maxSseBufferBytes of other messages", async () => {
    const registry = new Registry({ name: "behind", version: "1" });
    addResource(registry, compileResource("notes://a", { read: () => "a" }));
    const ran = signal();
    const behind = {
      run: (_args: unknown, ctx: Context) => {
        // The first fills stdout; the second waits, 32 KiB of log past the 16 KiB bound.
        ctx.log.info("x".repeat(32 * 1024));
        ctx.log.info("x".repeat(32 * 1024));
        registry.emit({ type: "resources/updated", uri: "notes://a" });
        ran.resolve();
        return "behind";
      },
    };
    registry.addTool(compileTool("behind", behind as unknown as AnyTool));
    const paused = await pausedOnceSubscribed(registry, { maxSseBufferBytes: 16 * 1024 });
    // In the 2025-11-25 session, whose logs go out at info and above.
    paused.io.push(line({ jsonrpc: "2.0", id: "behind", method: "tools/call", params: { name: "behind" } }));
    await within(ran.promise, 5000, "the call");
    await paused.resume();
    const waited = paused.waited();
    expect(waited.filter((message) => message.method === "notifications/message")).toHaveLength(2);
    // The session's, and the listen's.
    const updates = waited.filter((message) => message.method === "notifications/resources/updated");
    expect(updates.map((message) => message.params?.uri)).toEqual(["notes://a", "notes://a"]);
    expect(waited.filter((message) => message.id === "behind")).toHaveLength(1);
  });
});

const CHURN_FIXTURE = "test/fixtures/stdio-churn-server.ts";

const runtimes: [name: string, start: () => WireChild][] = [
  ["Node", () => new WireChild(process.execPath, ["--expose-gc", "--import", "tsx", CHURN_FIXTURE])],
  ["Bun", () => new WireChild(bunExecutable(), [CHURN_FIXTURE])],
  [
    "Deno",
    () =>
      new WireChild(
        denoExecutable(),
        ["run", "--no-lock", "--no-prompt", "--sloppy-imports", "--allow-env", "--v8-flags=--expose-gc", CHURN_FIXTURE],
        { DENO_NO_UPDATE_CHECK: "1" },
      ),
  ],
];

/** Iterations of the churn: each makes six notifications (two list_changed and one updated, for the session and for the listen). */
const COUNT = 100_000;

describe("a stdio client that stops reading while the server churns its registry", () => {
  for (const [name, start] of runtimes) {
    it(`on ${name}: the server's memory stays near its baseline, and it answers the call once the client reads`, async () => {
      const child = start();
      for (const message of SUBSCRIBE) await child.send(message);
      await child.response("subscribe");
      await child.until(
        () => child.methods.has("notifications/subscriptions/acknowledged"),
        20_000,
        "the listen's acknowledgement",
      );
      const before = await child.memory("before");
      child.process.stdout.pause();
      await child.send(call("churn", "churn", { count: COUNT }));
      await child.until(() => child.stderr.includes("churned"), 120_000, "the churn to finish");
      child.process.stdout.resume();
      const churn = (await child.response("churn", 120_000)) as { result: { content: { text: string }[] } };
      const after = JSON.parse(churn.result.content[0]!.text) as Memory;
      const changes = CHANGES.map((method) => child.methods.get(method) ?? 0);
      console.error(
        `stdio on ${name}, ${COUNT} churns (${6 * COUNT} change notifications) with the client paused: RSS ${mib(before.rss)} -> ${mib(after.rss)} MiB, heap ${mib(before.heapUsed)} -> ${mib(after.heapUsed)} MiB; ${changes.join(" list_changed, ")} updated sent`,
      );
      // Before, every copy was queued: about 60 MiB of lines while nobody read (+137 MiB of heap on Node).
      // What the server keeps is its heap after a full GC; RSS, printed above, also holds what the runtime's
      // allocator has not given back yet (Deno's grows by some 50 MiB with nothing kept), so it is not asserted.
      expect(mib(after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers)).toBeLessThan(20);
      child.process.stdin.end();
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(child.answers.get("churn")).toBe(1);
      expect(child.garbage).toEqual([]);
    }, 300_000);
  }
});

describe("a stdio client that stops reading while many different resources change", () => {
  /**
   * Updates of different resources merge into none: before, each waited for the client, so a client
   * subscribed to a parent URI that paused made the server hold one line per resource changed, without
   * bound (20,000 of 20,000 queued and sent here). Past maxSseBufferBytes they are dropped, as a log
   * is, and as a 2025 session's GET stream drops its notifications for a reader that far behind.
   */
  it("on Node: past maxSseBufferBytes waiting, the later ones are dropped, and the call is answered once", async () => {
    const child = new WireChild(process.execPath, ["--import", "tsx", CHURN_FIXTURE], {
      PICO_LIMITS: JSON.stringify({ maxSseBufferBytes: 16 * 1024 }),
    });
    for (const message of SUBSCRIBE.slice(0, 3)) await child.send(message);
    await child.response("subscribe");
    child.process.stdout.pause();
    const count = 20_000;
    await child.send(call("spread", "spread", { count }));
    await child.until(() => child.stderr.includes("spread"), 60_000, "the updates to be sent");
    child.process.stdout.resume();
    await child.response("spread", 60_000);
    const sent = child.methods.get("notifications/resources/updated") ?? 0;
    console.error(`stdio on Node, ${count} different resources updated with the client paused: ${sent} sent`);
    // What the pipe and the runtime's buffers took before they filled (some 2,000 lines of 80 bytes), and 16 KiB more.
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(count / 4);
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.answers.get("spread")).toBe(1);
    expect(child.garbage).toEqual([]);
  }, 120_000);
});

describe("a stdio client that stops reading while a task's status churns", () => {
  it("on Node: a newer status of the task supersedes one still waiting, and the last one arrives", async () => {
    const child = new WireChild(process.execPath, ["--import", "tsx", CHURN_FIXTURE]);
    const tasks = { ...MODERN_META, "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS]: {} } } };
    const request = (id: string, method: string, params: Record<string, unknown>) =>
      child.send({ jsonrpc: "2.0", id, method, params: { ...params, _meta: tasks } });
    const count = 20_000;
    await request("task", "tools/call", { name: "statuses", arguments: { count } });
    const created = (await child.response("task")) as { result: { taskId: string } };
    const taskId = created.result.taskId;
    await request("listen", "subscriptions/listen", { notifications: { taskIds: [taskId] } });
    await child.until(() => child.methods.get("notifications/tasks") === 1, 20_000, "the task's first status");
    child.process.stdout.pause();
    await child.send(call("release", "release"));
    await child.until(() => child.stderr.includes("statused"), 60_000, "the statuses to be sent");
    child.process.stdout.resume();
    type Status = { params: { taskId: string; status: string; statusMessage?: string } };
    const statuses = () =>
      child.messages.filter((message) => message.method === "notifications/tasks") as unknown as Status[];
    await child.until(
      () => statuses().some((status) => status.params.status === "completed"),
      60_000,
      "the task's completed status",
    );
    const sent = statuses().length;
    console.error(`stdio on Node, ${count} status changes of one task with the client paused: ${sent} sent`);
    // Before, every status was queued and sent: count + 2 of them.
    expect(sent).toBeLessThan(count / 4);
    // In order: each step later than the one before, then the end.
    const steps = statuses()
      .map((status) => status.params.statusMessage)
      .filter((message) => message?.startsWith("step "))
      .map((message) => Number(message!.slice(5)));
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(statuses().at(-1)!.params.status).toBe("completed");
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.garbage).toEqual([]);
  }, 120_000);
});
