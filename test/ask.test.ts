/**
 * Asking the client (src/asking/ask.ts) through the dispatcher, with hand-written JSON-RPC: what each
 * era's client is sent, which capabilities each question needs, how answers are checked, where a
 * handler may ask, and the legacy requests over a connection (answers, refusals, timeouts,
 * cancellation and `notifications/elicitation/complete`).
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { completeElicitation } from "../src/asking/questions.js";
import type { Context } from "../src/core/context.js";
import type { Dispatcher } from "../src/core/dispatch.js";
import { ErrorCode } from "../src/core/errors.js";
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from "../src/core/jsonrpc.js";
import { Registry } from "../src/core/registry.js";
import type { Schema } from "../src/core/schema.js";
import { compileTool, type ToolConfig } from "../src/core/tools.js";
import type { ClientCapabilities, ElicitResult } from "../src/core/types.js";
import { pico } from "../src/index.js";
import { compilePrompt } from "../src/prompts/prompts.js";
import { compileResource } from "../src/resources/resources.js";
import type { ServerOptions } from "../src/server.js";
import { Connection } from "../src/transports/connection.js";
import { addPrompt, addResource, serverDispatcher } from "./core-helpers.js";

type Run = (args: Record<string, unknown>, ctx: Context) => unknown;

const ALL: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} };
const NAME = z.object({ name: z.string() });

/** A server whose tools are plain `run` functions, plus a prompt and resources that ask. */
function setup(tools: Record<string, Run>, options: Partial<ServerOptions> = {}) {
  const registry = new Registry({ name: "ask", version: "1.0.0", ...options });
  for (const [name, run] of Object.entries(tools)) {
    registry.addTool(compileTool(name, { run } as unknown as ToolConfig<Schema | undefined, Schema | undefined>));
  }
  addPrompt(
    registry,
    compilePrompt("brief", {
      get: async (_args, ctx) => {
        const answer = await ctx.elicit("Context?", z.object({ context: z.string() }), { key: "context" });
        return answer.action === "accept" ? answer.content.context : "none";
      },
    }),
  );
  addResource(
    registry,
    compileResource("notes://{id}", {
      read: async ({ uri }, ctx) => `${uri}: ${(await ctx.roots({ key: "where" }))[0]?.uri}`,
      list: async (ctx) => (await ctx.roots()).map((root) => ({ uri: `notes://${root.name}`, name: root.uri })),
    }),
  );
  return { registry, dispatcher: serverDispatcher(registry) };
}

let nextId = 1;

/** Sends one 2026-07-28 request, statelessly, declaring `capabilities`. */
function modern(
  dispatcher: Dispatcher,
  method: string,
  params: Record<string, unknown>,
  capabilities: ClientCapabilities = ALL,
): Promise<JsonRpcResponse> {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
  const message = { jsonrpc: "2.0", id: nextId++, method, params: { ...params, _meta } } as JsonRpcRequest;
  return Promise.resolve(dispatcher.answer(message, { session: undefined })) as Promise<JsonRpcResponse>;
}

const call = (dispatcher: Dispatcher, name: string, capabilities?: ClientCapabilities, extra = {}) =>
  modern(dispatcher, "tools/call", { name, arguments: {}, ...extra }, capabilities);

/** A legacy connection (stdio-like) after the handshake, recording what the server sends it. */
async function session(dispatcher: Dispatcher, capabilities: ClientCapabilities = ALL, protocolVersion = "2025-11-25") {
  const sent: JsonRpcMessage[] = [];
  const waiters: (() => void)[] = [];
  const connection = new Connection(dispatcher, {
    deliver(message) {
      sent.push(...(Array.isArray(message) ? message : [message]));
      for (const wake of waiters.splice(0)) wake();
    },
  });
  await connection.receive({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion, capabilities, clientInfo: { name: "c", version: "1" } },
  });
  connection.receive({ jsonrpc: "2.0", method: "notifications/initialized" });
  sent.length = 0;
  /** The next message the server sends that matches. */
  const next = async (match: (message: Record<string, unknown>) => boolean) => {
    for (;;) {
      const found = sent.find((message) => match(message as unknown as Record<string, unknown>));
      if (found) {
        sent.splice(sent.indexOf(found), 1);
        return found as unknown as Record<string, unknown> & { id: string; params: Record<string, unknown> };
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const request = (method: string) => next((message) => message.method === method && "id" in message);
  const response = (id: number) => next((message) => message.id === id && !("method" in message));
  const callTool = (id: number, name: string) =>
    connection.receive({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
  const reply = (id: string, result: unknown) => connection.receive({ jsonrpc: "2.0", id, result });
  return { connection, sent, next, request, response, callTool, reply };
}

const textOf = (response: JsonRpcResponse) =>
  ((response.result as { content: { text: string }[] }).content[0] as { text: string }).text;

describe("capabilities: never ask what the client did not declare", () => {
  const { dispatcher } = setup({
    form: async (_args, ctx) => (await ctx.elicit("Name?", NAME)).action,
    url: async (_args, ctx) => (await ctx.elicitUrl("Sign in", "https://example.com/auth")).action,
    sample: async (_args, ctx) => (await ctx.sample("Hi")).model,
    tools: async (_args, ctx) =>
      (await ctx.sample({ messages: [], maxTokens: 10, tools: [{ name: "search", inputSchema: {} }] })).model,
    choice: async (_args, ctx) =>
      (await ctx.sample({ messages: [], maxTokens: 10, toolChoice: { mode: "none" } })).model,
    roots: async (_args, ctx) => (await ctx.roots()).length,
    context: async (_args, ctx) =>
      (await ctx.sample({ messages: [], maxTokens: 10, includeContext: "thisServer" })).model,
    no_context: async (_args, ctx) => (await ctx.sample({ messages: [], maxTokens: 10, includeContext: "none" })).model,
  });

  const missing = async (name: string, capabilities: ClientCapabilities, required: ClientCapabilities) => {
    const response = await call(dispatcher, name, capabilities);
    expect(response.error).toEqual({
      code: ErrorCode.MissingRequiredClientCapability,
      message: expect.stringMatching(/^Missing required client capability: /),
      data: { requiredCapabilities: required },
    });
  };

  it("2026-07-28: -32021 naming what is missing, and nothing asked", async () => {
    await missing("form", {}, { elicitation: {} });
    await missing("form", { elicitation: { url: {} } }, { elicitation: { form: {} } });
    // The message names form mode too, not the elicitation the client did declare.
    const urlOnly = await call(dispatcher, "form", { elicitation: { url: {} } });
    expect(urlOnly.error?.message).toBe("Missing required client capability: elicitation.form");
    await missing("url", {}, { elicitation: { url: {} } });
    // A bare `elicitation: {}` is form mode only.
    await missing("url", { elicitation: {} }, { elicitation: { url: {} } });
    await missing("sample", { roots: {} }, { sampling: {} });
    await missing("tools", { sampling: {} }, { sampling: { tools: {} } });
    await missing("choice", { sampling: {} }, { sampling: { tools: {} } });
    await missing("roots", { sampling: {} }, { roots: {} });
    // includeContext other than "none" only for clients that declare sampling.context (SHOULD NOT otherwise).
    await missing("context", { sampling: {} }, { sampling: { context: {} } });
  });

  it("2026-07-28: a declared capability is asked", async () => {
    for (const [name, capabilities] of [
      ["form", { elicitation: {} }],
      ["form", { elicitation: { form: {} } }],
      ["url", { elicitation: { url: {} } }],
      ["sample", { sampling: {} }],
      ["tools", { sampling: { tools: {} } }],
      ["roots", { roots: {} }],
      ["context", { sampling: { context: {} } }],
      ["no_context", { sampling: {} }],
    ] as const) {
      const response = await call(dispatcher, name, capabilities);
      expect(response.result?.resultType, name).toBe("input_required");
    }
  });

  it("2025 sessions: a tool error the model can read, and no request to the client", async () => {
    const client = await session(dispatcher, { sampling: {} });
    await client.callTool(1, "roots");
    await client.callTool(2, "tools");
    expect(client.sent).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        result: {
          content: [
            {
              type: "text",
              text: 'This client did not declare the "roots" capability, so the server cannot ask it for input.',
            },
          ],
          isError: true,
        },
      },
      {
        jsonrpc: "2.0",
        id: 2,
        result: {
          content: [{ type: "text", text: expect.stringContaining('did not declare the "sampling.tools" capability') }],
          isError: true,
        },
      },
    ]);
  });

  it("server.call asks onInput whatever the capabilities", async () => {
    const server = pico({ name: "s", version: "1" }).tool("roots", {
      run: async (_args, ctx) => (await ctx.roots()).map((root) => root.uri).join(),
    });
    const result = await server.call("roots", undefined, { onInput: () => ({ roots: [{ uri: "file:///a" }] }) });
    expect(result.content).toEqual([{ type: "text", text: "file:///a" }]);
  });

  it("server.call fails a question JSON cannot carry, as a client's call does, and onInput is not asked", async () => {
    const server = pico({ name: "s", version: "1" }).tool("count", {
      run: async (_args, ctx) => {
        const schema = { type: "object", properties: { count: { type: "integer", default: 10n } } };
        return (await ctx.elicit("How many?", schema, { key: "count" })).action;
      },
    });
    const asked: unknown[] = [];
    const result = await server.call("count", undefined, { onInput: (request) => asked.push(request) });
    expect(result).toEqual({
      content: [
        {
          type: "text",
          text: 'The question "count" (elicitation/create) cannot be sent to the client: its params are not JSON (Do not know how to serialize a BigInt). Ask with JSON values only: no BigInt, no cycle.',
        },
      ],
      isError: true,
    });
    expect(asked).toEqual([]);
  });
});

describe("what the client is sent", () => {
  const { dispatcher } = setup({
    zod: async (_args, ctx) => (await ctx.elicit("Name?", NAME)).action,
    url: async (_args, ctx) =>
      (await ctx.elicitUrl("Sign in", "https://example.com/auth?s=1", { elicitationId: "sign-in-1" })).action,
    url_random: async (_args, ctx) => (await ctx.elicitUrl("Sign in", "https://example.com/auth")).action,
    bad_url: async (_args, ctx) => (await ctx.elicitUrl("Sign in", "/relative")).action,
    sample: async (_args, ctx) => (await ctx.sample("Summarise")).model,
    confirm: async (_args, ctx) => ctx.confirm("Delete the repository?"),
  });

  const firstRequest = async (name: string) => {
    const response = await call(dispatcher, name);
    return Object.values(response.result?.inputRequests as Record<string, unknown>)[0];
  };

  it("2026-07-28: form mode with the schema's JSON Schema, without its dialect marker", async () => {
    expect(await firstRequest("zod")).toEqual({
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
    });
  });

  it("2026-07-28: URL mode has no elicitationId (there is no completion notification any more)", async () => {
    expect(await firstRequest("url")).toEqual({
      method: "elicitation/create",
      params: { mode: "url", message: "Sign in", url: "https://example.com/auth?s=1" },
    });
  });

  it("a string to sample is one user message with a token limit; confirm is a boolean form", async () => {
    expect(await firstRequest("sample")).toEqual({
      method: "sampling/createMessage",
      params: { messages: [{ role: "user", content: { type: "text", text: "Summarise" } }], maxTokens: 1000 },
    });
    expect(await firstRequest("confirm")).toEqual({
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Delete the repository?",
        requestedSchema: {
          type: "object",
          properties: {
            confirm: { type: "boolean", title: "Confirm", description: "Check to go ahead", default: false },
          },
          required: ["confirm"],
        },
      },
    });
  });

  it("2025-11-25 sessions: form mode says so; URL mode carries the given id, or a fresh one", async () => {
    const client = await session(dispatcher);
    void client.callTool(1, "zod");
    expect((await client.request("elicitation/create")).params).toEqual({
      mode: "form",
      message: "Name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    void client.callTool(2, "url");
    expect((await client.request("elicitation/create")).params).toEqual({
      mode: "url",
      message: "Sign in",
      url: "https://example.com/auth?s=1",
      elicitationId: "sign-in-1",
    });
    void client.callTool(3, "url_random");
    expect((await client.request("elicitation/create")).params.elicitationId).toMatch(/^[0-9a-f-]{36}$/);
    client.connection.close();
  });

  it("sessions before 2025-11-25 get the 2025-06-18 shape: no mode field", async () => {
    const client = await session(dispatcher, { elicitation: {} }, "2025-06-18");
    void client.callTool(1, "zod");
    expect((await client.request("elicitation/create")).params).toEqual({
      message: "Name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    client.connection.close();
  });

  it("a form that is not flat is the server's bug: a tool error naming the field, and nothing asked", async () => {
    const { dispatcher: nested } = setup({
      nested: async (_args, ctx) =>
        (await ctx.elicit("Address?", z.object({ city: z.string(), geo: z.object({ lat: z.number() }) }))).action,
      nullable: async (_args, ctx) => (await ctx.elicit("Age?", z.object({ age: z.number().nullable() }))).action,
      not_object: async (_args, ctx) => (await ctx.elicit("Raw?", { type: "string" })).action,
      objects: async (_args, ctx) =>
        (await ctx.elicit("Contacts?", z.object({ people: z.array(z.object({ name: z.string() })) }))).action,
      free_strings: async (_args, ctx) => (await ctx.elicit("Tags?", z.object({ tags: z.array(z.string()) }))).action,
    });
    const not = (field: string) =>
      `An elicitation form must be a flat object of simple values, but property "${field}" is not a string, number, integer, boolean, enum or multi-select array (an array whose items have an enum, or an anyOf of { const, title }).`;
    const cases = {
      nested: not("geo"),
      nullable: not("age"),
      objects: not("people"),
      free_strings: not("tags"),
      not_object: "An elicitation form must be a flat object of simple values, but it is not an object schema.",
    };
    for (const [name, text] of Object.entries(cases)) {
      const response = await call(nested, name);
      expect(response.result, name).toEqual({
        content: [{ type: "text", text }],
        isError: true,
        resultType: "complete",
        _meta: expect.anything(),
      });
    }
  });

  it("a URL that is not absolute is the server's bug: a tool error, and nothing asked", async () => {
    const response = await call(dispatcher, "bad_url");
    expect(response.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: 'ctx.elicitUrl needs an absolute URL; got "/relative".' }],
    });
  });
});

describe("answers", () => {
  const SETTINGS = z.object({ name: z.string(), retries: z.number().int().default(3) });
  const { dispatcher } = setup({
    settings: async (_args, ctx) => {
      const answer: ElicitResult<{ name: string; retries: number }> = await ctx.elicit("Settings?", SETTINGS, {
        key: "s",
      });
      return answer;
    },
    raw: async (_args, ctx) =>
      ctx.elicit("Raw?", { type: "object", properties: { a: { type: "string" } } }, { key: "s" }),
    sample: async (_args, ctx) => ctx.sample("Hi", { key: "s" }),
    roots: async (_args, ctx) => ctx.roots({ key: "s" }),
    twice: async (_args, ctx) => Promise.all([ctx.elicit("A?", NAME, { key: "same" }), ctx.roots({ key: "same" })]),
    confirms: async (_args, ctx) => [await ctx.confirm("First?"), await ctx.confirm("Second?")],
  });

  /** Asks, then answers with the requestState of the round that asked. */
  const answered = async (name: string, answer: unknown, capabilities?: ClientCapabilities) => {
    const asked = await call(dispatcher, name, capabilities);
    const requestState = asked.result?.requestState;
    return call(dispatcher, name, capabilities, { inputResponses: { s: answer }, requestState });
  };

  it("accepted form content is validated and parsed by the schema (defaults applied)", async () => {
    const response = await answered("settings", { action: "accept", content: { name: "ci" } });
    expect(JSON.parse(textOf(response))).toEqual({ action: "accept", content: { name: "ci", retries: 3 } });
  });

  it("decline and cancel come back as they are, with no content", async () => {
    for (const action of ["decline", "cancel"]) {
      const response = await answered("settings", { action, content: { name: "ignored" } });
      expect(JSON.parse(textOf(response))).toEqual({ action });
    }
  });

  it("2026-07-28: an answer of the wrong shape is -32602 on the retried request", async () => {
    const cases: [string, unknown, RegExp][] = [
      [
        "settings",
        { action: "accept", content: { name: 7 } },
        /The answer to "Settings\?" does not match its schema:\nname: /,
      ],
      ["settings", { action: "maybe" }, /must be \{ action: "accept" \| "decline" \| "cancel" \}/],
      ["settings", 12345, /must be \{ action/],
      ["raw", { action: "accept", content: "text" }, /has content that is not an object/],
      ["sample", { text: "no role" }, /is not a CreateMessageResult/],
      ["roots", { roots: "file:///" }, /is not a ListRootsResult/],
    ];
    for (const [name, answer, message] of cases) {
      const response = await answered(name, answer);
      expect(response.error, name).toEqual({ code: ErrorCode.InvalidParams, message: expect.stringMatching(message) });
    }
  });

  it("2025 sessions: the client's bad answer is a tool error, not an error on the call", async () => {
    const client = await session(dispatcher);
    void client.callTool(1, "settings");
    const asked = await client.request("elicitation/create");
    client.reply(asked.id, { action: "accept", content: { name: 7 } });
    const response = await client.response(1);
    expect(response.result).toEqual({
      content: [{ type: "text", text: expect.stringMatching(/^The answer to "Settings\?" does not match its schema/) }],
      isError: true,
    });
    client.connection.close();
  });

  it("one key is one question: using a key twice in a run is the handler's bug", async () => {
    const response = await call(dispatcher, "twice");
    expect(response.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: 'Two questions use the key "same"; give each its own key.' }],
    });
  });

  it("default keys count per kind, so two confirmations are two questions", async () => {
    const first = await call(dispatcher, "confirms");
    expect(Object.keys(first.result?.inputRequests as object)).toEqual(["confirm-1"]);
    const yes = { action: "accept", content: { confirm: true } };
    const second = await call(dispatcher, "confirms", ALL, {
      inputResponses: { "confirm-1": yes },
      requestState: first.result?.requestState,
    });
    expect(Object.keys(second.result?.inputRequests as object)).toEqual(["confirm-2"]);
    const done = await call(dispatcher, "confirms", ALL, {
      inputResponses: { "confirm-2": { action: "accept", content: { confirm: false } } },
      requestState: second.result?.requestState,
    });
    expect(textOf(done)).toBe("[true,false]");
  });
});

describe("where a handler may ask", () => {
  const { dispatcher } = setup({ noop: () => "ok" });

  it("prompts/get and resources/read answer input_required in 2026-07-28, then complete", async () => {
    const prompt = await modern(dispatcher, "prompts/get", { name: "brief" });
    expect(prompt.result).toMatchObject({ resultType: "input_required", inputRequests: { context: {} } });
    const done = await modern(dispatcher, "prompts/get", {
      name: "brief",
      inputResponses: { context: { action: "accept", content: { context: "release notes" } } },
      requestState: prompt.result?.requestState,
    });
    expect(done.result).toMatchObject({
      resultType: "complete",
      messages: [{ role: "user", content: { type: "text", text: "release notes" } }],
    });
    const read = await modern(dispatcher, "resources/read", { uri: "notes://7" });
    expect(read.result).toMatchObject({
      resultType: "input_required",
      inputRequests: { where: { method: "roots/list" } },
    });
    // Interim results carry no cache hints (§3.3).
    expect(read.result).not.toHaveProperty("ttlMs");
  });

  it("never on list methods: a list handler that asks fails, and no input_required is sent", async () => {
    const response = await modern(dispatcher, "resources/list", {});
    expect(response.error).toEqual({
      code: ErrorCode.InternalError,
      message: "Internal error: The client can be asked only from tools/call, prompts/get and resources/read handlers.",
    });
    for (const method of ["tools/list", "prompts/list", "resources/templates/list"]) {
      expect((await modern(dispatcher, method, {})).result?.resultType, method).toBe("complete");
    }
  });
});

describe("after the request ended", () => {
  it("a question asked once the handler's request was answered says so, and what to do instead", async () => {
    let failed: Promise<string> | undefined;
    const server = pico({ name: "s", version: "1" }).tool("later", {
      run: (_args, ctx) => {
        // Asked after `run` returned, as from a timer a tool left behind.
        failed = new Promise((resolve) => setTimeout(resolve, 10)).then(() =>
          ctx.roots().then(
            () => "answered",
            (thrown: Error) => thrown.message,
          ),
        );
        return "done";
      },
    });
    await server.call("later", undefined, { onInput: () => ({ roots: [] }) });
    expect(await failed).toBe(
      "The request this handler served has ended (it was answered or cancelled), so its client can no longer be asked: ask before the handler returns, and await each question.",
    );
  });
});

describe("legacy requests over a connection", () => {
  const { dispatcher } = setup(
    {
      greet: async (_args, ctx) => {
        const answer = await ctx.elicit("Name?", NAME);
        return answer.action === "accept" ? `Hello, ${answer.content.name}!` : `No (${answer.action})`;
      },
      sign_in: async (_args, ctx) =>
        (await ctx.elicitUrl("Sign in", "https://example.com/auth", { elicitationId: "e-1" })).action,
      // The abort listeners on the request's signal once its three questions were asked (the
      // handler runs again from the top with each answer), and in a request that asks nothing.
      listeners: async (_args, ctx) => {
        for (const key of ["answered", "refused", "timed out"]) {
          await ctx.elicit("Name?", NAME, { key }).catch(() => undefined);
        }
        return String(getEventListeners(ctx.signal, "abort").length);
      },
      quiet: async (_args, ctx) => String(getEventListeners(ctx.signal, "abort").length),
    },
    { askTimeoutMs: 30 },
  );

  it("takes each question's abort listener off the request's signal once it is answered, refused or timed out", async () => {
    const client = await session(dispatcher);
    void client.callTool(1, "listeners");
    client.reply((await client.request("elicitation/create")).id, { action: "decline" });
    const refused = await client.request("elicitation/create");
    await client.connection.receive({ jsonrpc: "2.0", id: refused.id, error: { code: -32601, message: "No" } });
    await client.request("elicitation/create"); // left to time out
    const asked = textOf((await client.response(1)) as unknown as JsonRpcResponse);
    void client.callTool(2, "quiet");
    expect(asked).toBe(textOf((await client.response(2)) as unknown as JsonRpcResponse));
    client.connection.close();
  });

  it("routes the client's answer back to the waiting handler", async () => {
    const client = await session(dispatcher);
    void client.callTool(1, "greet");
    const asked = await client.request("elicitation/create");
    expect(asked.id).toMatch(/^picomcp-[0-9a-f]{8}-\d+$/);
    client.reply(asked.id, { action: "accept", content: { name: "Ada" } });
    expect(textOf((await client.response(1)) as unknown as JsonRpcResponse)).toBe("Hello, Ada!");
    client.connection.close();
  });

  it("a client error is a tool error that says the client refused", async () => {
    const client = await session(dispatcher);
    void client.callTool(1, "greet");
    const asked = await client.request("elicitation/create");
    await client.connection.receive({ jsonrpc: "2.0", id: asked.id, error: { code: -32601, message: "No handler" } });
    expect((await client.response(1)).result).toEqual({
      content: [{ type: "text", text: "The client refused: No handler (-32601)" }],
      isError: true,
    });
    client.connection.close();
  });

  it("a client that never answers: a tool error after askTimeoutMs, and notifications/cancelled for the question", async () => {
    const client = await session(dispatcher);
    void client.callTool(1, "greet");
    const asked = await client.request("elicitation/create");
    expect((await client.response(1)).result).toEqual({
      content: [{ type: "text", text: "The client did not answer elicitation/create within 0.03 s." }],
      isError: true,
    });
    expect(client.sent).toContainEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: asked.id, reason: "The client did not answer elicitation/create within 0.03 s." },
    });
    // A late answer goes nowhere.
    client.reply(asked.id, { action: "accept", content: { name: "late" } });
    client.connection.close();
  });

  it("cancelling the call withdraws its question, and nothing is answered", async () => {
    const client = await session(dispatcher);
    const done = client.callTool(1, "greet");
    const asked = await client.request("elicitation/create");
    client.connection.receive({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    await done;
    expect(client.sent).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: asked.id, reason: "The request that asked was cancelled." },
      },
    ]);
    client.connection.close();
  });

  it("completeElicitation reaches only the session that was sent the URL, once", async () => {
    const client = await session(dispatcher);
    const other = await session(dispatcher);
    void client.callTool(1, "sign_in");
    const asked = await client.request("elicitation/create");
    expect(asked.params.elicitationId).toBe("e-1");
    client.reply(asked.id, { action: "accept" });
    expect((await client.response(1)).result).toEqual({ content: [{ type: "text", text: "accept" }] });
    expect(completeElicitation(dispatcher.urlElicitations, "e-1")).toBe(true);
    expect(client.sent).toEqual([
      { jsonrpc: "2.0", method: "notifications/elicitation/complete", params: { elicitationId: "e-1" } },
    ]);
    expect(other.sent).toEqual([]);
    expect(completeElicitation(dispatcher.urlElicitations, "e-1")).toBe(false);
    expect(completeElicitation(dispatcher.urlElicitations, "never-sent")).toBe(false);
    client.connection.close();
    other.connection.close();
  });

  it("nothing to complete once the user declined, or the session closed", async () => {
    const client = await session(dispatcher);
    void client.callTool(1, "sign_in");
    client.reply((await client.request("elicitation/create")).id, { action: "decline" });
    await client.response(1);
    expect(completeElicitation(dispatcher.urlElicitations, "e-1")).toBe(false);

    void client.callTool(2, "sign_in");
    client.reply((await client.request("elicitation/create")).id, { action: "accept" });
    await client.response(2);
    client.connection.close();
    expect(completeElicitation(dispatcher.urlElicitations, "e-1")).toBe(false);
    expect(dispatcher.urlElicitations.size).toBe(0);
  });
});
