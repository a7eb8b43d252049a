/**
 * Middleware for a method whose layer is still loading: a correct program in a natural order
 * (test/fixtures/wrapped-after-serve-server.ts registers a resource, a prompt and a task tool, then
 * wraps resources/read, prompts/get, tasks/get and tasks/list, right after `serve()` or before it).
 * Was: right after `serve()`, `server.use` threw at the call "there is no such request method to
 * wrap" (the middleware machinery loaded before) or "the server is serving; make its first use
 * before serve()" (whether or not a use came before); before `serve()`, a task tool's methods were
 * checked before the Tasks layer had installed them, so `serve()` rejected with "there is no such
 * request method to wrap"; either way the process died before answering `initialize`. Now serving
 * waits for those layers, as ever, and for the `use` calls made meanwhile, whose methods are checked
 * once every layer has loaded: each middleware wraps its method for the official clients, v1
 * (2025-11-25) and v2 (2026-07-28), over stdio (a child process).
 */
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { within } from "../http-helpers.js";
import { tsxProgram } from "./fixture.js";

const FIXTURE = "test/fixtures/wrapped-after-serve-server.ts";
const wrapped = (method: string) => ({ "test/wrapped": method });

const closing: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const each of closing) await each.close();
});

describe.each([
  ["right after serve(), the server's first use", "after-serve"],
  ["right after serve(), the middleware machinery loaded by a use before", "loaded-before"],
  ["before serve()", "before-serve"],
])("middleware added %s (stdio)", (_, order) => {
  const program = tsxProgram(FIXTURE, { ORDER: order });

  it("wraps resources/read, prompts/get, tasks/get and tasks/list for the v1 client", async () => {
    const client = new LegacyClient({ name: "v1", version: "1.0.0" });
    closing.push(client);
    await within(client.connect(new LegacyStdio(program)), 10_000, "initialize");
    expect(await client.readResource({ uri: "docs://readme" })).toEqual({
      contents: [{ uri: "docs://readme", text: "read me" }],
      _meta: wrapped("resources/read"),
    });
    expect((await client.getPrompt({ name: "greet" }))._meta).toEqual(wrapped("prompts/get"));
    // The client asks for a task only for a tool it has seen listed with taskSupport.
    await client.listTools();
    const stream = client.experimental.tasks.callToolStream({ name: "report" }, CallToolResultSchema);
    const first = await stream.next();
    const { taskId } = (first.value as { task: { taskId: string } }).task;
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, _meta: wrapped("tasks/get") });
    expect(await client.experimental.tasks.listTasks()).toMatchObject({ _meta: wrapped("tasks/list") });
    for await (const _message of stream);
  });

  it("wraps resources/read and prompts/get for the v2 client", async () => {
    const client = new ModernClient({ name: "v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
    closing.push(client);
    await within(client.connect(new ModernStdio(program)), 10_000, "connect");
    expect(await client.readResource({ uri: "docs://readme" })).toMatchObject({
      contents: [{ uri: "docs://readme", text: "read me" }],
      _meta: wrapped("resources/read"),
    });
    expect((await client.getPrompt({ name: "greet" }))._meta).toMatchObject(wrapped("prompts/get"));
  });
});
