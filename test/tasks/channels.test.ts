/**
 * A 2025-11-25 task's way to its client (its channel, tasks/channel.ts) against a hostile session
 * of the same server: one that makes a thousand quick tasks and never collects them leaves another
 * session's running task its channel, so the question it waits on still reaches that session's
 * `tasks/result`. One in-process server (`server.fetch`), 2025-11-25 sessions; every wait is bounded.
 */
import { afterEach, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { EventReader, inSession, messageOf, post, within } from "../http-helpers.js";

const opened: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

type Server = ReturnType<typeof pico>;
let ids = 1;

/** A 2025-11-25 session opened on `server` by a client declaring `capabilities`, and initialized; its id. */
async function open(server: Server, capabilities: Record<string, object>): Promise<string> {
  const response = await server.fetch(
    post({
      jsonrpc: "2.0",
      id: ids++,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "t", version: "1" } },
    }),
  );
  const session = response.headers.get("mcp-session-id")!;
  await response.text();
  await server.fetch(inSession(session, { jsonrpc: "2.0", method: "notifications/initialized" }));
  return session;
}

/** A request's JSON answer (one with a JSON body). */
async function answer(server: Server, session: string, method: string, params: Record<string, unknown>) {
  const response = await server.fetch(
    inSession(
      session,
      { jsonrpc: "2.0", id: ids++, method, params },
      { accept: "application/json, text/event-stream" },
    ),
  );
  const text = await response.text();
  const last = text.startsWith("{")
    ? text
    : text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .at(-1)!
        .slice(6);
  return JSON.parse(last) as { result?: Record<string, unknown> };
}

it("keeps a running task's channel when another session leaves a thousand tasks uncollected, so its question still reaches tasks/result", async () => {
  const server = pico({ name: "channels", version: "1.0.0" })
    .tool("ask", {
      description: "Asks the user to confirm, then answers",
      task: "optional",
      run: async (_args, ctx) => ((await ctx.confirm("Go on?")) ? "went on" : "stopped"),
    })
    .tool("quick", { description: "Answers at once", task: "optional", run: () => "done" });
  opened.push(() => server.close());
  const victim = await open(server, { tasks: {}, elicitation: {} });
  const created = await answer(server, victim, "tools/call", { name: "ask", task: {} });
  const taskId = (created.result!.task as { taskId: string }).taskId;
  let status: unknown;
  for (let polls = 0; polls < 100 && status !== "input_required"; polls++) {
    status = (await answer(server, victim, "tasks/get", { taskId })).result?.status;
    if (status !== "input_required") await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(status).toBe("input_required");

  // A thousand tasks (each with a channel, kept for a tasks/result), never collected.
  const hostile = await open(server, { tasks: {} });
  for (let batch = 0; batch < 10; batch++) {
    await Promise.all(
      Array.from({ length: 100 }, () => answer(server, hostile, "tools/call", { name: "quick", task: {} })),
    );
  }

  // Its response starts with the first message it sends: the task's question.
  // Was: none ever came (the victim's channel had been dropped for the newer ones), the run waiting on it.
  const waiting = await within(
    server.fetch(inSession(victim, { jsonrpc: "2.0", id: ids++, method: "tasks/result", params: { taskId } })),
    5000,
    "the tasks/result's stream",
  );
  const events = new EventReader(waiting);
  opened.push(() => events.cancel().catch(() => {}));
  let question: Record<string, unknown> | undefined;
  while (!question) {
    const event = await events.next(5000);
    expect(event, "the stream ended before the question").toBeDefined();
    // A stream's first event may carry only its id (a priming event, no message).
    const message = event!.data ? messageOf(event) : undefined;
    if (message?.method === "elicitation/create") question = message;
  }
  expect(question).toMatchObject({ params: { message: "Go on?" } });
  const reply = { jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { confirm: true } } };
  expect((await server.fetch(inSession(victim, reply))).status).toBe(202);
  let last: Record<string, unknown> | undefined;
  for (let event = await events.next(5000); event; event = await events.next(5000)) {
    if (event.data) last = messageOf(event);
  }
  expect(last).toMatchObject({ result: { content: [{ type: "text", text: "went on" }] } });
});
