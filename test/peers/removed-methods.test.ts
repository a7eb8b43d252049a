/**
 * A 2026-07-28 request for a method that revision removed (2026-07-28 §8 "Removed") is answered
 * -32601 saying so, and what to use instead, whatever the server offers: `resources/subscribe` on a
 * server without resources was told "this server has no resources", though no server has it in
 * 2026-07-28 (subscriptions/listen replaced it); `initialize`, `ping` and `logging/setLevel` were
 * told only that the protocol lacks them. A `tasks/*` request to a server without task tools is told
 * that the server runs no tasks, in both eras (was: "not available in protocol 2026-07-28", or
 * 2025-11-25, though both have them where a server offers tasks); a misspelled one (`tasks/gett`) to a
 * server that runs tasks is told only that it is not available. Over Streamable HTTP on
 * 127.0.0.1: the official v2 client in 2026-07-28 and the v1 client in a 2025-11-25 session, and
 * picomcp's harness for the methods the v2 client refuses to send in 2026-07-28 (it checks the
 * method against the protocol itself), as other clients do send them.
 */
import { EmptyResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { harness } from "../../src/testing.js";
import { failure, remote } from "../http-helpers.js";
import { servedToClients } from "./served.js";

/** Tools only: no resources, no task tools. */
const tools = servedToClients(pico({ name: "tools-only", version: "1.0.0" }).tool("echo", { run: () => "echo" }));
/** A resource and a task tool: the removed methods' families are served. */
const everything = servedToClients(
  pico({ name: "everything", version: "1.0.0" })
    .tool("report", { task: "optional", run: () => "done" })
    .resource("notes://1", { read: () => "one" }),
);

const IN_MODERN = "is not available in protocol 2026-07-28";
/** What a 2026-07-28 request for each removed method is told after the method's name. */
const REMOVED = {
  initialize: `${IN_MODERN}, which has no handshake: send params._meta with "io.modelcontextprotocol/protocolVersion" and "io.modelcontextprotocol/clientCapabilities" in every request, and call server/discover to learn what this server offers`,
  ping: `${IN_MODERN}: call server/discover to check that the server answers`,
  "logging/setLevel": `${IN_MODERN}: send the log level in each request's params._meta["io.modelcontextprotocol/logLevel"]`,
  "resources/subscribe": `${IN_MODERN}, which replaced it with subscriptions/listen: call that with params.notifications.resourceSubscriptions, the URIs to follow`,
  "resources/unsubscribe": `${IN_MODERN}: close the subscriptions/listen stream that follows the URI`,
  "tasks/result": `${IN_MODERN}: tasks/get answers a finished task with its result`,
  "tasks/list": `${IN_MODERN}: keep the taskId of each task tools/call creates, and call tasks/get with it`,
} as const;
type Removed = keyof typeof REMOVED;
const NO_TASKS =
  "is not available because this server runs no tasks (no io.modelcontextprotocol/tasks extension, no capabilities.tasks): call its tools with tools/call, whose answer carries the result";
const TASK_METHODS = ["tasks/get", "tasks/update", "tasks/cancel", "tasks/result", "tasks/list"];

const params = { taskId: "t1", uri: "notes://1", level: "info" };

/** The JSON-RPC error the v2 client reports, from the body of the server's 404. */
async function modernError(call: Promise<unknown>): Promise<unknown> {
  const reported = await failure(call);
  return JSON.parse(reported.slice(reported.indexOf("{"))).error;
}

describe("a 2026-07-28 request for a method that revision does not have", () => {
  /** Checks what a 2026-07-28 request for each method gets from `served` (404, -32601), through the harness. */
  const expectNotFound = async <M extends string>(
    served: { url: string },
    methods: M[],
    why: (method: M) => string,
  ) => {
    const client = harness(remote(served.url), { era: "modern", url: served.url });
    for (const method of methods) {
      const answer = await client.request(method, params);
      expect(answer.status, method).toBe(404);
      expect(answer.error, method).toEqual({ code: -32601, message: `Method not found: "${method}" ${why(method)}` });
    }
  };
  const removed = (method: Removed) => REMOVED[method];

  it("says the method was removed, and what to use instead, on a server without resources or tasks", async () => {
    const methods: Removed[] = [
      "initialize",
      "ping",
      "logging/setLevel",
      "resources/subscribe",
      "resources/unsubscribe",
    ];
    await expectNotFound(tools, methods, removed);
  });

  it("says so on a server with resources and task tools too", async () => {
    const methods: Removed[] = ["resources/subscribe", "resources/unsubscribe", "tasks/result", "tasks/list"];
    await expectNotFound(everything, methods, removed);
  });

  it("says a server without task tools runs no tasks", async () => {
    // The v2 client sends the three methods the extension has; tasks/result and tasks/list it refuses itself.
    const client = await tools.modern();
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      expect(await modernError(client.request({ method, params }, z.looseObject({}))), method).toEqual({
        code: -32601,
        message: `Method not found: "${method}" ${NO_TASKS}`,
      });
    }
    await expectNotFound(tools, ["tasks/result", "tasks/list"], () => NO_TASKS);
  });

  it("tells a tasks method the server lacks, on a server that runs tasks, only that it is not available", async () => {
    // Was: "this server runs no tasks", to a server with a task tool, for a misspelled tasks/get.
    await expectNotFound(everything, ["tasks/gett", "tasks/foo"], () => IN_MODERN);
  });
});

describe("a 2025-11-25 session's tasks/* request to a server without task tools (official v1 client)", () => {
  it("says the server runs no tasks", async () => {
    const client = await tools.legacy();
    for (const method of TASK_METHODS) {
      expect(await failure(client.request({ method, params }, EmptyResultSchema)), method).toBe(
        `MCP error -32601: Method not found: "${method}" ${NO_TASKS}`,
      );
    }
  });

  it("tells a tasks method the server lacks, on a server that runs tasks, only that it is not available", async () => {
    const client = await everything.legacy();
    for (const method of ["tasks/gett", "tasks/foo"]) {
      expect(await failure(client.request({ method, params }, EmptyResultSchema)), method).toBe(
        `MCP error -32601: Method not found: "${method}" is not available in protocol 2025-11-25`,
      );
    }
  });
});
