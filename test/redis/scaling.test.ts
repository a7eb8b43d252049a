/**
 * Several instances of one server serving as one, on a real Redis (picomcp/redis, docs/scaling.md):
 * three child processes behind a round-robin proxy, no sticky sessions. A 2025-11-25 session opened
 * on one instance continues on the others; a dropped stream resumes on another instance with every
 * event; list changes and resource updates reach listen and GET streams on every instance; a task
 * is polled, answered and cancelled through other instances than its own; a requestState used on
 * one instance is refused on the others; a killed instance loses no session and its tasks fail
 * visibly; a Redis restart gives retryable errors, then service again. node-redis runs everything,
 * ioredis a smaller set.
 *
 * redis-server comes from the distribution (apt-get install -y redis-server). Missing, these tests
 * are skipped with that command as the reason, unless PICOMCP_REQUIRE_REDIS is set (CI), which
 * makes them fail.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from "vitest";
import { EventReader } from "../http-helpers.js";
import { LegacyClient, ModernClient } from "./clients.js";
import { Cluster } from "./cluster.js";
import { haveRedis, MISSING, REQUIRED, RedisServer } from "./redis-server.js";

const AVAILABLE = haveRedis();
const USED =
  "Invalid requestState: it was already used (a requestState is good for one retry). Start the call again: send the request without requestState and inputResponses";

/** The JSON-RPC message of an event. */
function message(event: { data: string } | undefined): Record<string, unknown> {
  expect(event).toBeDefined();
  return JSON.parse(event!.data) as Record<string, unknown>;
}

/**
 * Reads events until every one of `methods` came, in any order (a local event may overtake one that
 * travels on the bus), skipping others; bounded. Answers them by method.
 */
async function untilAll(
  reader: EventReader,
  methods: string[],
  what: string,
): Promise<Map<string, Record<string, unknown>>> {
  const seen = new Map<string, Record<string, unknown>>();
  for (let events = 0; events < 50 && seen.size < methods.length; events++) {
    const event = await reader.next(5000).catch((error: Error) => {
      throw new Error(
        `${what}: ${error.message}; got ${[...seen.keys()].join(", ") || "nothing"} of ${methods.join(", ")}`,
      );
    });
    if (!event) throw new Error(`${what} ended before ${methods.join(", ")}`);
    if (!event.data) continue;
    const sent = message(event);
    if (methods.includes(sent.method as string)) seen.set(sent.method as string, sent);
  }
  expect([...seen.keys()].sort(), what).toEqual([...methods].sort());
  return seen;
}

/** Reads events until one has `method` (skipping others), bounded. */
async function untilMethod(reader: EventReader, method: string): Promise<Record<string, unknown>> {
  for (let events = 0; events < 50; events++) {
    const event = await reader.next(5000);
    if (!event) throw new Error(`the stream ended before ${method}`);
    if (!event.data) continue;
    const sent = message(event);
    if (sent.method === method) return sent;
  }
  throw new Error(`no ${method} in 50 events`);
}

function clusterSuite(client: "node-redis" | "ioredis", full: boolean) {
  // The smaller set for the second client: its adapter is what differs, not the server's logic.
  const fullOnly = (name: string, test: () => Promise<void>, timeoutMs?: number) => {
    if (full) it(name, test, timeoutMs);
  };
  describe(`three instances sharing Redis through ${client}`, () => {
    let redis: RedisServer | undefined;
    let cluster: Cluster | undefined;

    beforeAll(async () => {
      if (!AVAILABLE) {
        if (REQUIRED) throw new Error(`${MISSING} (PICOMCP_REQUIRE_REDIS is set, so Redis is required)`);
        return;
      }
      redis = await RedisServer.start();
      cluster = await Cluster.start(3, {
        REDIS_URL: redis.url,
        REDIS_CLIENT: client,
        PREFIX: `t-${client}:`,
        LEASE_MS: "900",
      });
    }, 60_000);

    beforeEach((ctx) => {
      if (!AVAILABLE) ctx.skip(MISSING);
    });

    afterAll(async () => {
      await cluster?.close();
      await redis?.close();
    });

    it("continues a 2025-11-25 session opened on one instance on the others, and ends it on every one", async () => {
      const legacy = new LegacyClient(cluster!.url);
      const opener = await legacy.open();
      const seen = new Set<string>([opener]);
      const pids = new Set<unknown>();
      for (let call = 0; call < 6; call++) {
        const { result, instance } = await legacy.result("tools/call", { name: "whoami" });
        seen.add(instance);
        pids.add((result.content as { text: string }[])[0]!.text);
      }
      // Round robin: every instance served the session, each a process of its own.
      expect(seen).toEqual(new Set(["0", "1", "2"]));
      expect(pids.size).toBe(3);
      const level = await legacy.result("logging/setLevel", { level: "error" });
      expect(level.result).toEqual({});
      expect((await legacy.delete()).status).toBe(200);
      // Every instance forgets it as the bus tells it (eventually, not at the same instant: docs/scaling.md).
      for (let to = 0; to < 3; to++) {
        let status = 0;
        for (let attempt = 0; attempt < 50 && status !== 404; attempt++) {
          status = (await legacy.post("tools/list", {}, to)).status;
          if (status !== 404) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(status, `instance ${to}`).toBe(404);
      }
    });

    it("refuses a confirmed answer (requestState) replayed to another instance", async () => {
      const modern = new ModernClient(cluster!.url);
      const first = await modern.result("tools/call", { name: "delete_repo", arguments: { repo: "acme/x" } }, 0);
      expect(first.resultType).toBe("input_required");
      const retry = {
        name: "delete_repo",
        arguments: { repo: "acme/x" },
        inputResponses: { "confirm-1": { action: "accept", content: { confirm: true } } },
        requestState: first.requestState,
      };
      const done = await modern.result("tools/call", retry, 1);
      expect(done.content).toEqual([{ type: "text", text: "Deleted acme/x" }]);
      for (const to of [2, 0, 1]) {
        const again = await modern.reply("tools/call", retry, to);
        expect(again.error, `replayed to instance ${to}`).toEqual({ code: -32602, message: USED });
      }
    });

    it("polls, answers and cancels a task through instances other than the one running it", async () => {
      const modern = new ModernClient(cluster!.url);
      const created = await modern.result("tools/call", { name: "approve" }, 0);
      expect(created).toMatchObject({ resultType: "task", status: "working" });
      const taskId = created.taskId as string;
      const asking = await modern.until(taskId, (task) => task.status === "input_required", 1);
      expect(asking.inputRequests).toMatchObject({ ok: { method: "elicitation/create" } });
      expect(
        await modern.result(
          "tasks/update",
          { taskId, inputResponses: { ok: { action: "accept", content: { ok: true } } } },
          2,
        ),
      ).toMatchObject({ resultType: "complete" });
      const done = await modern.until(taskId, (task) => task.status === "completed", 1);
      const pid = cluster!.instances[0]!.pid;
      expect(done.result).toMatchObject({ content: [{ type: "text", text: `approved by ${pid}` }] });

      const forever = await modern.result("tools/call", { name: "forever" }, 0);
      const id = forever.taskId as string;
      expect(await modern.result("tasks/cancel", { taskId: id }, 1)).toMatchObject({ resultType: "complete" });
      expect((await modern.result("tasks/get", { taskId: id }, 2)).status).toBe("cancelled");
    });

    it("serves a 2025-11-25 session's tasks on every instance, not only the one that made them", async () => {
      const legacy = new LegacyClient(cluster!.url);
      await legacy.open(0);
      const created = await legacy.result("tools/call", { name: "forever", task: { ttl: 60_000 } }, 0);
      const taskId = (created.result.task as { taskId: string }).taskId;
      for (const to of [1, 2]) {
        const got = await legacy.result("tasks/get", { taskId }, to);
        expect(got.result, `tasks/get on instance ${to}`).toMatchObject({ taskId, status: "working" });
        const listed = await legacy.result("tasks/list", {}, to);
        expect(listed.result.tasks, `tasks/list on instance ${to}`).toEqual([expect.objectContaining({ taskId })]);
      }
      const cancelled = await legacy.result("tasks/cancel", { taskId }, 1);
      expect(cancelled.result).toMatchObject({ taskId, status: "cancelled" });
      expect((await legacy.result("tasks/get", { taskId }, 0)).result).toMatchObject({ status: "cancelled" });
      // Bound to the session: another session of the same (anonymous) caller sees none of them.
      const other = new LegacyClient(cluster!.url);
      await other.open(1);
      expect((await other.result("tasks/list", {}, 2)).result.tasks).toEqual([]);
      const hidden = await other.post("tasks/get", { taskId }, 2);
      expect(((await hidden.json()) as { error?: { code: number } }).error?.code).toBe(-32602);
    });

    fullOnly("resumes a dropped stream on another instance with every event after the last one read", async () => {
      const legacy = new LegacyClient(cluster!.url);
      await legacy.open(0);
      const response = await legacy.post(
        "tools/call",
        { name: "steps", arguments: { count: 12, everyMs: 40 }, _meta: { progressToken: "p" } },
        0,
      );
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      const first = new EventReader(response);
      const primed = await first.next(5000);
      expect(primed?.id).toMatch(/^\d+-0$/);
      const progress: number[] = [];
      let last = primed!.id!;
      while (progress.length < 3) {
        const event = await first.next(5000);
        if (!event?.data) continue;
        progress.push((message(event).params as { progress: number }).progress);
        last = event.id!;
      }
      await first.cancel();
      // The client comes back through the balancer; instance 1 never saw the stream.
      const resumed = await legacy.get(1, last);
      expect(resumed.status).toBe(200);
      expect(resumed.headers.get("x-instance")).toBe("1");
      // Primed with the id it resumed after, as on the instance that wrote the stream.
      const rest = await (await new EventReader(resumed).primed(last)).rest(5000);
      const sent = rest.filter((event) => event.data).map(message);
      for (const event of sent.slice(0, -1)) progress.push((event.params as { progress: number }).progress);
      expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
      expect(sent.at(-1)).toMatchObject({ result: { content: [{ type: "text", text: "did 12 steps" }] } });
      // Event ids follow on without a gap.
      const [stream] = last.split("-");
      expect(rest.filter((event) => event.data).map((event) => event.id)).toEqual(
        Array.from({ length: 10 }, (_, n) => `${stream}-${n + 4}`),
      );
    });

    fullOnly(
      "delivers list changes and resource updates from one instance to listen and GET streams on every instance",
      async () => {
        const legacy = new LegacyClient(cluster!.url);
        await legacy.open(0);
        await legacy.result("resources/subscribe", { uri: "doc://a" }, 1);
        const get = await legacy.get(2);
        expect(get.status).toBe(200);
        const standalone = new EventReader(get);
        await standalone.next(5000); // the priming event
        const modern = new ModernClient(cluster!.url);
        const listens = await Promise.all(
          [0, 1, 2].map((to) => modern.listen({ toolsListChanged: true, resourceSubscriptions: ["doc://a"] }, to)),
        );
        await new LegacyClient(cluster!.url).open(0);
        await modern.result("tools/call", { name: "notify", arguments: { uri: "doc://a" } }, 0);
        await modern.result("tools/call", { name: "grow", arguments: { name: "grown_1" } }, 1);
        const wanted = ["notifications/resources/updated", "notifications/tools/list_changed"];
        for (const [n, reader] of listens.entries()) {
          const got = await untilAll(reader, wanted, `listen stream on instance ${n}`);
          expect(got.get("notifications/resources/updated")?.params).toMatchObject({ uri: "doc://a" });
          await reader.cancel();
        }
        const got = await untilAll(standalone, wanted, "the GET stream on instance 2");
        expect(got.get("notifications/resources/updated")?.params).toEqual({ uri: "doc://a" });
        await standalone.cancel();
      },
    );

    fullOnly("tells a listen stream on one instance how a task running on another changes", async () => {
      const modern = new ModernClient(cluster!.url);
      const created = await modern.result("tools/call", { name: "approve" }, 0);
      const taskId = created.taskId as string;
      const reader = await modern.listen({ taskIds: [taskId] }, 1);
      /** The stream's next notifications/tasks for the task with `status` (bounded: 50 events). */
      const untilStatus = async (status: string) => {
        for (let events = 0; events < 50; events++) {
          const event = await reader.next(5000);
          if (!event) throw new Error(`the listen stream ended before the task was ${status}`);
          if (!event.data) continue;
          const sent = message(event);
          const params = sent.params as { taskId?: string; status?: string } | undefined;
          if (sent.method === "notifications/tasks" && params?.taskId === taskId && params.status === status) {
            return params;
          }
        }
        throw new Error(`no notifications/tasks with status ${status} in 50 events`);
      };
      // Instance 0 runs the task; instance 1's stream hears each change through the bus.
      expect(await untilStatus("input_required")).toMatchObject({ inputRequests: { ok: {} } });
      await modern.result(
        "tasks/update",
        { taskId, inputResponses: { ok: { action: "accept", content: { ok: true } } } },
        2,
      );
      const pid = cluster!.instances[0]!.pid;
      expect(await untilStatus("completed")).toMatchObject({ result: { content: [{ text: `approved by ${pid}` }] } });
      await reader.cancel();
    });

    fullOnly("routes the answer to a question to the instance that asked it", async () => {
      const legacy = new LegacyClient(cluster!.url);
      await legacy.open(0);
      const response = await legacy.post("tools/call", { name: "ask_name" }, 0);
      const reader = new EventReader(response);
      const question = await untilMethod(reader, "elicitation/create");
      // The answer lands on instance 2: the bus takes it to instance 0, whose request waits for it.
      expect((await legacy.answer(question.id, { action: "accept", content: { name: "Ada" } }, 2)).status).toBe(202);
      const answer = (await reader.rest(5000))
        .filter((event) => event.data)
        .map(message)
        .at(-1);
      expect(answer).toMatchObject({ result: { content: [{ type: "text", text: "Hello Ada" }] } });
    });

    fullOnly("gives questions asked at once by two instances of one session ids of their own", async () => {
      const legacy = new LegacyClient(cluster!.url);
      await legacy.open(0);
      // Each instance's copy of the session asks its first question: the client tells them apart by id alone.
      const readers = await Promise.all(
        [0, 1].map(async (to) => new EventReader(await legacy.post("tools/call", { name: "ask_name" }, to))),
      );
      const questions = await Promise.all(readers.map((reader) => untilMethod(reader, "elicitation/create")));
      expect(questions[0]!.id).not.toEqual(questions[1]!.id);
      // Each answer, landing on instance 2, reaches only the request that asked it.
      for (const [n, name] of ["Ada", "Grace"].entries()) {
        const answered = await legacy.answer(questions[n]!.id, { action: "accept", content: { name } }, 2);
        expect(answered.status).toBe(202);
      }
      for (const [n, name] of ["Ada", "Grace"].entries()) {
        const answer = (await readers[n]!.rest(5000))
          .filter((event) => event.data)
          .map(message)
          .at(-1);
        expect(answer, `instance ${n}`).toMatchObject({
          result: { content: [{ type: "text", text: `Hello ${name}` }] },
        });
      }
    });

    fullOnly("routes a cancellation to the instance running the request", async () => {
      const legacy = new LegacyClient(cluster!.url);
      await legacy.open(0);
      const id = 424_242;
      const response = await legacy.post(
        "tools/call",
        { name: "steps", arguments: { count: 500, everyMs: 20 }, _meta: { progressToken: "c" } },
        0,
        id,
      );
      const reader = new EventReader(response);
      await untilMethod(reader, "notifications/progress");
      // The cancellation lands on instance 1; the request runs on instance 0.
      const cancelled = await legacy.notify("notifications/cancelled", { requestId: id, reason: "changed my mind" }, 1);
      expect(cancelled.status).toBe(202);
      const rest = (await reader.rest(5000)).filter((event) => event.data).map(message);
      // A cancelled request gets no response (2025-11-25 "Cancellation"), and its progress stops.
      expect(rest.some((sent) => "result" in sent || "error" in sent)).toBe(false);
      expect(rest.length).toBeLessThan(499);
    });

    fullOnly("tells the client that a URL-mode elicitation completed, whichever instance learns it", async () => {
      const legacy = new LegacyClient(cluster!.url);
      await legacy.open(0);
      const get = await legacy.get(0);
      const standalone = new EventReader(get);
      await standalone.next(5000); // the priming event
      const response = await legacy.post("tools/call", { name: "sign_in", arguments: { id: "sign-in-7" } }, 0);
      const reader = new EventReader(response);
      const question = await untilMethod(reader, "elicitation/create");
      expect(question.params).toMatchObject({ mode: "url", elicitationId: "sign-in-7" });
      expect((await legacy.answer(question.id, { action: "accept" }, 1)).status).toBe(202);
      await reader.rest(5000);
      // The sign-in callback reaches instance 2, which holds no question: the bus takes it to instance 0.
      const { result } = await legacy.result("tools/call", { name: "signed_in", arguments: { id: "sign-in-7" } }, 2);
      expect(result.content).toEqual([{ type: "text", text: "false" }]);
      const completed = await untilMethod(standalone, "notifications/elicitation/complete");
      expect(completed.params).toEqual({ elicitationId: "sign-in-7" });
      await standalone.cancel();
    });

    fullOnly("keeps every session when an instance is killed, and fails its running tasks visibly", async () => {
      const legacy = new LegacyClient(cluster!.url);
      await legacy.open(2);
      const modern = new ModernClient(cluster!.url);
      const task = await modern.result("tools/call", { name: "forever" }, 2);
      const taskId = task.taskId as string;
      await cluster!.kill(2);
      for (let call = 0; call < 4; call++) {
        const { instance } = await legacy.result("tools/call", { name: "whoami" });
        expect(instance).not.toBe("2");
      }
      // Nobody renews the task's lease now: it reads as failed, saying why.
      const failed = await modern.until(taskId, (current) => current.status !== "working", 0);
      expect(failed).toMatchObject({
        status: "failed",
        error: { code: -32603, message: expect.stringContaining("instance running this task stopped") },
      });
    });

    fullOnly(
      "answers 503 with Retry-After while Redis is away, and serves again once it is back",
      async () => {
        const legacy = new LegacyClient(cluster!.url);
        // What each recovery wait saw, printed if the test fails (a restart is the test most at the mercy of the machine).
        const log: string[] = [];
        const started = Date.now();
        const note = (what: string) => log.push(`${Date.now() - started} ${what}`);
        onTestFailed(() => console.error(`RESTART LOG\n${log.join("\n")}`));
        const modern = new ModernClient(cluster!.url);
        const running = (await modern.result("tools/call", { name: "forever" }, 0)).taskId as string;
        const asked = await modern.result("tools/call", { name: "delete_repo", arguments: { repo: "acme/y" } }, 0);
        await redis!.stop();
        const refused = await legacy.post(
          "initialize",
          {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "t", version: "1" },
          },
          0,
        );
        expect(refused.status).toBe(503);
        expect(refused.headers.get("retry-after")).toBe("1");
        expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
          /shared state is unreachable/,
        );
        const task = await modern.reply("tools/call", { name: "approve" }, 1);
        expect(task.error?.message).toMatch(/retry in a moment/);
        // Reading a task, or claiming a requestState, needs the store too: retryable, as every such request.
        const retry = {
          name: "delete_repo",
          arguments: { repo: "acme/y" },
          inputResponses: { "confirm-1": { action: "accept", content: { confirm: true } } },
          requestState: asked.requestState,
        };
        const requests: [string, Record<string, unknown>][] = [
          ["tasks/get", { taskId: running }],
          ["tasks/cancel", { taskId: running }],
          ["tools/call", retry],
        ];
        for (const [method, params] of requests) {
          const unreachable = await modern.send(method, params, 1);
          expect(unreachable.status, method).toBe(503);
          expect(unreachable.headers.get("retry-after"), method).toBe("1");
          const { error } = (await unreachable.json()) as { error: { code: number; message: string } };
          expect(error.code, method).toBe(-32603);
          expect(error.message, method).toMatch(/^The server's shared state is unreachable \(.*\); retry in a moment$/);
        }
        await redis!.resume();
        note("redis-server restarted");
        // Bounded (a failure guard, not a timing: a loaded machine may take a while): the clients reconnect on their own.
        const deadline = Date.now() + 30_000;
        let status = 0;
        while (Date.now() < deadline && status !== 200) {
          const again = await legacy.post(
            "initialize",
            {
              protocolVersion: "2025-11-25",
              capabilities: {},
              clientInfo: { name: "t", version: "1" },
            },
            0,
          );
          status = again.status;
          if (status === 200) legacy.session = again.headers.get("mcp-session-id")!;
          note(`initialize on 0: ${status} ${(await again.text()).slice(0, 400)}`);
          if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(status).toBe(200);
        // Instance 1 reconnects on its own schedule: until then it answers 503, as it should.
        let initialized = 0;
        while (Date.now() < deadline && initialized !== 202) {
          const sent = await legacy.notify("notifications/initialized", {}, 1);
          initialized = sent.status;
          note(`notifications/initialized on 1: ${initialized} ${(await sent.text()).slice(0, 120)}`);
          if (initialized === 503) await new Promise((resolve) => setTimeout(resolve, 100));
          else expect(initialized).toBe(202);
        }
        expect(initialized).toBe(202);
        expect((await legacy.result("tools/call", { name: "whoami" }, 1)).instance).toBe("1");
        // The bus is back too: a task made on one instance is answered through another.
        const created = await modern.result("tools/call", { name: "approve" }, 0);
        const taskId = created.taskId as string;
        note(`task ${taskId} created on 0`);
        await modern.until(taskId, (task) => task.status === "input_required", 1);
        note("task input_required, read on 1");
        const answer = { ok: { action: "accept", content: { ok: true } } };
        let done: Record<string, unknown> | undefined;
        // Bounded: the subscriber connection may still be resubscribing; an answer it missed is sent again.
        while (Date.now() < deadline && done?.status !== "completed") {
          // Instance 2 was killed by the test before: instance 1 takes the answer to instance 0.
          await modern.result("tasks/update", { taskId, inputResponses: answer }, 1);
          done = await modern.result("tasks/get", { taskId }, 1);
          note(`task answered through 1: ${String(done.status)}`);
          if (done.status !== "completed") await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(done).toMatchObject({ status: "completed" });
      },
      90_000,
    );
  });
}

clusterSuite("node-redis", true);
clusterSuite("ioredis", false);
