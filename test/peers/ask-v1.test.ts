/**
 * The official v1 client (@modelcontextprotocol/sdk, 2025-11-25 sessions) answers real questions
 * from test/fixtures/ask-server.ts: elicitation (accept, decline, cancel, an error, no answer at all),
 * confirmation, sampling with and without tools, roots, several questions in one round, URL mode
 * with `notifications/elicitation/complete`, over stdio (a child process) and over Streamable HTTP
 * sessions; and the tool error a stateless legacy HTTP request gets instead.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type ClientCapabilities,
  type ClientNotification,
  type ClientRequest,
  CreateMessageRequestSchema,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Listening } from "../../src/transports/listen.js";
import { askServer } from "../fixtures/ask-server.js";
import { tsxProgram } from "./fixture.js";

type Extra = RequestHandlerExtra<ClientRequest | ServerRequest, ClientNotification | ServerNotification>;

/** How the client answers each kind of question; a test swaps in what it needs. */
interface Answers {
  elicit: (params: Record<string, unknown>, extra: Extra) => unknown;
  sample: (params: Record<string, unknown>, extra: Extra) => unknown;
  roots: () => unknown;
}

const DEFAULT_ANSWERS: Answers = {
  elicit: (params) =>
    params.mode === "url"
      ? { action: "accept" }
      : String(params.message).startsWith("Delete")
        ? { action: "accept", content: { confirm: true } }
        : { action: "accept", content: { name: "Ada" } },
  sample: () => ({ role: "assistant", content: { type: "text", text: "A summary." }, model: "test-model" }),
  roots: () => ({ roots: [{ uri: "file:///home/ada/picomcp", name: "picomcp" }] }),
};

const EVERYTHING: ClientCapabilities = {
  elicitation: { form: {}, url: {} },
  sampling: { tools: {} },
  roots: { listChanged: true },
};

/** A connected v1 client that records the questions it was asked and the completions it was told. */
async function connect(transport: StdioClientTransport | StreamableHTTPClientTransport, capabilities = EVERYTHING) {
  const answers: Answers = { ...DEFAULT_ANSWERS };
  const asked: { method: string; params: Record<string, unknown> }[] = [];
  const completed: string[] = [];
  const client = new Client({ name: "v1-asked", version: "1.0.0" }, { capabilities });
  if (capabilities.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      asked.push(request);
      return (await answers.elicit(request.params, extra)) as never;
    });
  }
  if (capabilities.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      asked.push(request);
      return (await answers.sample(request.params, extra)) as never;
    });
  }
  if (capabilities.roots) {
    client.setRequestHandler(ListRootsRequestSchema, async (request) => {
      asked.push({ method: request.method, params: request.params ?? {} });
      return answers.roots() as never;
    });
  }
  let onComplete: (() => void) | undefined;
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    completed.push(notification.params.elicitationId);
    onComplete?.();
  });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    return { text: (result.content as { text: string }[])[0]?.text, isError: result.isError === true };
  };
  /** Resolves once the server has reported `count` completions. */
  const completions = (count: number) =>
    new Promise<string[]>((resolve) => {
      onComplete = () => completed.length >= count && resolve(completed);
      onComplete();
    });
  return { client, answers, asked, completions, call };
}

type Peer = Awaited<ReturnType<typeof connect>>;

const stdio = (env: Record<string, string> = {}) =>
  new StdioClientTransport(tsxProgram("test/fixtures/ask-server.ts", env));

const listenings: Listening[] = [];
const clients: Client[] = [];

async function http(options: Parameters<typeof askServer>[0] = {}, serve = {}) {
  const listening = await askServer(options).serve({ port: 0, ...serve });
  listenings.push(listening);
  return new StreamableHTTPClientTransport(new URL(listening.url));
}

afterAll(async () => {
  for (const client of clients) await client.close();
  for (const listening of listenings) await listening.close();
});

async function open(transport: "stdio" | "HTTP session", capabilities = EVERYTHING, timeoutMs?: number) {
  const peer =
    transport === "stdio"
      ? await connect(stdio(timeoutMs ? { PICO_ASK_TIMEOUT_MS: String(timeoutMs) } : {}), capabilities)
      : await connect(await http(timeoutMs ? { askTimeoutMs: timeoutMs } : {}), capabilities);
  clients.push(peer.client);
  return peer;
}

describe.each(["stdio", "HTTP session"] as const)("v1 client over %s answers the server's questions", (transport) => {
  let peer: Peer;

  beforeAll(async () => {
    peer = await open(transport);
  });

  const answering = (answers: Partial<Answers>) => Object.assign(peer.answers, DEFAULT_ANSWERS, answers);

  it("form elicitation: a real elicitation/create request, and the accepted content reaches the tool", async () => {
    answering({});
    peer.asked.length = 0;
    expect(await peer.call("greet")).toEqual({ text: "Hello, Ada!", isError: false });
    expect(peer.asked).toEqual([
      {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: "What is your name?",
          requestedSchema: {
            type: "object",
            properties: { name: { type: "string", description: "Your name" } },
            required: ["name"],
          },
        },
      },
    ]);
  });

  it("decline and cancel reach the tool as they are", async () => {
    answering({ elicit: () => ({ action: "decline" }) });
    expect(await peer.call("greet")).toEqual({ text: "No name: decline", isError: false });
    answering({ elicit: () => ({ action: "cancel" }) });
    expect(await peer.call("greet")).toEqual({ text: "No name: cancel", isError: false });
  });

  it("confirm: the side effect after the question happens once, and only on yes", async () => {
    const before = JSON.parse((await peer.call("runs")).text!);
    answering({ elicit: () => ({ action: "accept", content: { confirm: true } }) });
    expect(await peer.call("delete_repo", { repo: "acme/old" })).toEqual({ text: "Deleted acme/old", isError: false });
    answering({ elicit: () => ({ action: "accept", content: { confirm: false } }) });
    expect(await peer.call("delete_repo", { repo: "acme/new" })).toEqual({ text: "Kept acme/new", isError: false });
    answering({ elicit: () => ({ action: "decline" }) });
    expect(await peer.call("delete_repo", { repo: "acme/new" })).toEqual({ text: "Kept acme/new", isError: false });
    const after = JSON.parse((await peer.call("runs")).text!);
    // Three calls, each run twice (before and after its answer); one deletion.
    expect(after.delete_repo - (before.delete_repo ?? 0)).toBe(6);
    expect((after["delete_repo:deleted"] ?? 0) - (before["delete_repo:deleted"] ?? 0)).toBe(1);
  });

  it("a client that answers with an error: a tool error saying it refused", async () => {
    answering({
      elicit: () => {
        throw new McpError(-32603, "The user closed the dialog");
      },
    });
    const result = await peer.call("greet");
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^The client refused: .*The user closed the dialog \(-32603\)$/);
  });

  it("sampling: the tool gets the client model's answer", async () => {
    answering({});
    peer.asked.length = 0;
    expect(await peer.call("summarize", { text: "a long text" })).toEqual({
      text: "A summary. (test-model)",
      isError: false,
    });
    expect(peer.asked).toEqual([
      {
        method: "sampling/createMessage",
        params: {
          messages: [{ role: "user", content: { type: "text", text: "Summarise: a long text" } }],
          systemPrompt: "You summarise.",
          maxTokens: 50,
        },
      },
    ]);
  });

  it("tool-enabled sampling, for a client that declares sampling.tools", async () => {
    answering({
      sample: (params) => {
        expect(params.tools).toEqual([
          { name: "search", description: "Searches the code", inputSchema: { type: "object" } },
        ]);
        return {
          role: "assistant",
          content: [{ type: "tool_use", id: "call-1", name: "search", input: { q: "bug" } }],
          model: "test-model",
          stopReason: "toolUse",
        };
      },
    });
    expect(await peer.call("plan_with_tools")).toEqual({ text: "toolUse: [tool_use]", isError: false });
  });

  it("roots", async () => {
    answering({});
    expect(await peer.call("workspace")).toEqual({ text: "picomcp=file:///home/ada/picomcp", isError: false });
  });

  it("several questions in one round travel together, then the next round's", async () => {
    answering({});
    peer.asked.length = 0;
    const before = JSON.parse((await peer.call("runs")).text!).profile ?? 0;
    expect(await peer.call("profile")).toEqual({ text: "Ada: A summary.", isError: false });
    expect(peer.asked.map((question) => question.method)).toEqual([
      "elicitation/create",
      "roots/list",
      "sampling/createMessage",
    ]);
    // Three runs: no answers, two answers, three answers.
    expect(JSON.parse((await peer.call("runs")).text!).profile - before).toBe(3);
  });

  it("a prompt asks the same way", async () => {
    answering({ elicit: () => ({ action: "accept", content: { topic: "release notes" } }) });
    const prompt = await peer.client.getPrompt({ name: "brief" });
    expect(prompt.messages).toEqual([
      { role: "user", content: { type: "text", text: "Write a brief about release notes." } },
    ]);
  });

  it("URL mode: the id the tool gave, then notifications/elicitation/complete from server.completeElicitation", async () => {
    answering({});
    peer.asked.length = 0;
    const id = `sign-in-${transport.replace(" ", "-")}`;
    expect(await peer.call("sign_in", { id })).toEqual({ text: "sign-in accept", isError: false });
    expect(peer.asked[0]).toEqual({
      method: "elicitation/create",
      params: {
        mode: "url",
        message: "Sign in to continue",
        url: `https://auth.example.com/start?session=${id}`,
        elicitationId: id,
      },
    });
    expect(await peer.call("complete_sign_in", { id })).toEqual({ text: "completed", isError: false });
    expect(await peer.completions(1)).toEqual([id]);
    // Once only: the id is forgotten after its completion.
    expect(await peer.call("complete_sign_in", { id })).toEqual({ text: "nobody waits for it", isError: false });
  });

  it("a declined URL elicitation has nothing to complete", async () => {
    answering({ elicit: () => ({ action: "decline" }) });
    expect(await peer.call("sign_in", { id: "declined" })).toEqual({ text: "sign-in decline", isError: false });
    expect(await peer.call("complete_sign_in", { id: "declined" })).toEqual({
      text: "nobody waits for it",
      isError: false,
    });
  });

  it("a client that never answers: a tool error after askTimeoutMs, and the client is told to stop", async () => {
    const slow = await open(transport, EVERYTHING, 300);
    let stopped: (reason: unknown) => void;
    const withdrawn = new Promise((resolve) => {
      stopped = resolve;
    });
    Object.assign(slow.answers, {
      elicit: (_params: unknown, extra: Extra) =>
        new Promise((resolve) => {
          extra.signal.addEventListener("abort", () => {
            stopped(extra.signal.reason);
            resolve({ action: "cancel" });
          });
        }),
    });
    expect(await slow.call("greet")).toEqual({
      text: "The client did not answer elicitation/create within 0.3 s.",
      isError: true,
    });
    // notifications/cancelled reached the client's handler as an abort, with the server's reason.
    expect(String(await withdrawn)).toMatch(/did not answer elicitation\/create within 0.3 s/);
  });

  it("a question JSON cannot carry: a tool error saying what and why at once, not after askTimeoutMs", async () => {
    // Before: the question was dropped unsent and the tool waited out askTimeoutMs (here 5 s, 60 s by default).
    const strict = await open(transport, EVERYTHING, 5000);
    expect(await strict.call("count_default")).toEqual({
      text: 'The question "count" (elicitation/create) cannot be sent to the client: its params are not JSON (Do not know how to serialize a BigInt). Ask with JSON values only: no BigInt, no cycle.',
      isError: true,
    });
    const looped = await strict.call("looped_sample");
    expect(looped.isError).toBe(true);
    expect(looped.text).toMatch(
      /^The question "sampling-1" \(sampling\/createMessage\) cannot be sent to the client: its params are not JSON \(Converting circular structure to JSON.*\)\. Ask with JSON values only: no BigInt, no cycle\.$/s,
    );
    expect(strict.asked).toEqual([]);
  });

  it("a client without the capabilities: a tool error, and no question sent", async () => {
    const plain = await open(transport, {});
    expect(await plain.call("greet")).toEqual({
      text: 'This client did not declare the "elicitation" capability, so the server cannot ask it for input.',
      isError: true,
    });
    expect(await plain.call("workspace")).toMatchObject({ isError: true, text: expect.stringContaining('"roots"') });
    const noTools = await open(transport, { sampling: {} });
    expect(await noTools.call("plan_with_tools")).toEqual({
      text: 'This client did not declare the "sampling.tools" capability, so the server cannot ask it for input.',
      isError: true,
    });
    expect(noTools.asked).toEqual([]);
  });

  it("a client that elicits by URL only: the tool error names form mode, which it lacks", async () => {
    const urlOnly = await open(transport, { elicitation: { url: {} } });
    expect(await urlOnly.call("greet")).toEqual({
      text: 'This client did not declare the "elicitation.form" capability, so the server cannot ask it for input.',
      isError: true,
    });
    expect(urlOnly.asked).toEqual([]);
  });
});

describe("v1 client over stateless HTTP (sessions: false)", () => {
  it("gets a tool error that says there is no way back to the client", async () => {
    const peer = await connect(await http({}, { sessions: false }));
    clients.push(peer.client);
    const result = await peer.call("greet");
    expect(result).toEqual({
      text: "This request cannot ask the client for input: it came over stateless HTTP, which has no way back to the client. Use a session (the default), or the 2026-07-28 protocol.",
      isError: true,
    });
    expect(peer.asked).toEqual([]);
  });
});
