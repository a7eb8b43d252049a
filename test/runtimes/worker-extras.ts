/**
 * The Worker of the workerd tests of what a Worker must keep up across requests: the smoke server
 * with a 200 ms `handlerTimeoutMs` and a tool that outlives it, a 500 ms `receiveTimeoutMs`, and a tool that changes the tool
 * list, for a `subscriptions/listen` stream opened by another request, and a tool that asks the
 * client a question, which a 2025 client without a session cannot be asked.
 */
import { z } from "zod";
import { smokeServer } from "./server.js";

// Not exported: workerd takes every named export of the main module for an entry point.
const DEADLINE_MS = 200;

const server = smokeServer({ limits: { handlerTimeoutMs: DEADLINE_MS, receiveTimeoutMs: 500 } }).tool("sleep", {
  description: "Sleeps for two seconds, ten times the deadline.",
  run: () => new Promise<string>((resolve) => setTimeout(() => resolve("woke up"), 10 * DEADLINE_MS)),
});

const SPARE = { description: "Nothing but a tool to add and remove.", run: () => "spare" };

server.tool("toggle_spare", {
  description: "Adds the tool spare, or removes it if it is there: the tool list changes either way.",
  run: () => {
    if (server.remove("tool", "spare")) return "removed";
    server.tool("spare", SPARE);
    return "added";
  },
});

server.tool("ask_name", {
  description: "Asks the user for a name, and says it.",
  run: async (_args, ctx) => JSON.stringify(await ctx.elicit("Your name?", z.object({ name: z.string() }))),
});

export default server;
