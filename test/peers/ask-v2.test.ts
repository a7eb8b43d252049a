/**
 * The official v2 client (@modelcontextprotocol/client) in the 2026-07-28 era answers the questions
 * of test/fixtures/ask-server.ts. It fulfils `input_required` results itself (its default
 * `inputRequired.autoFulfill`): it calls the handlers registered with setRequestHandler, then retries
 * the call with `inputResponses` and the byte-exact `requestState`, on a new id. Over stdio (a child
 * process) and Streamable HTTP. Then raw JSON-RPC over HTTP for what a well-behaved client never
 * sends: wrong keys, extra keys, altered, expired, oversized or foreign state.
 */
import {
  Client,
  type JSONRPCMessage,
  ProtocolError,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_STATE_BYTES, StateSealer } from "../../src/asking/request-state.js";
import type { Listening } from "../../src/transports/listen.js";
import { askServer } from "../fixtures/ask-server.js";
import { tsxProgram } from "./fixture.js";

type Capabilities = ConstructorParameters<typeof Client>[1] extends infer O
  ? O extends { capabilities?: infer C }
    ? NonNullable<C>
    : never
  : never;

const EVERYTHING = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} } as Capabilities;

interface Answers {
  elicit: (params: Record<string, unknown>) => unknown;
  sample: (params: Record<string, unknown>) => unknown;
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

/** Records what the client sends on the pipe (the probe runs on it too, being a subclass). */
class TappedStdio extends StdioClientTransport {
  readonly #sent: JSONRPCMessage[];
  constructor(params: ConstructorParameters<typeof StdioClientTransport>[0], sent: JSONRPCMessage[]) {
    super(params);
    this.#sent = sent;
  }
  override send(message: JSONRPCMessage): Promise<void> {
    this.#sent.push(message);
    return super.send(message);
  }
}

/** A `fetch` that keeps each POSTed JSON-RPC body. */
function tappedFetch(sent: JSONRPCMessage[]) {
  return ((url: string | URL, init?: RequestInit) => {
    if (typeof init?.body === "string") sent.push(JSON.parse(init.body));
    return fetch(url, init);
  }) as typeof fetch;
}

const clients: Client[] = [];
const listenings: Listening[] = [];

afterAll(async () => {
  for (const client of clients) await client.close();
  for (const listening of listenings) await listening.close();
});

async function open(transport: "stdio" | "HTTP", capabilities: Capabilities = EVERYTHING) {
  const answers: Answers = { ...DEFAULT_ANSWERS };
  const asked: { method: string; params: Record<string, unknown> }[] = [];
  const sent: JSONRPCMessage[] = [];
  const client = new Client(
    { name: "v2-asked", version: "2.0.0" },
    { versionNegotiation: { mode: "auto" }, capabilities },
  );
  clients.push(client);
  const record = (method: string, params: unknown) => asked.push({ method, params: params as Record<string, unknown> });
  if (capabilities.elicitation) {
    client.setRequestHandler("elicitation/create", async (request) => {
      record(request.method, request.params);
      return answers.elicit(request.params as Record<string, unknown>) as never;
    });
  }
  if (capabilities.sampling) {
    client.setRequestHandler("sampling/createMessage", async (request) => {
      record(request.method, request.params);
      return answers.sample(request.params as Record<string, unknown>) as never;
    });
  }
  if (capabilities.roots) {
    client.setRequestHandler("roots/list", async (request) => {
      record(request.method, request.params ?? {});
      return answers.roots() as never;
    });
  }
  if (transport === "stdio") {
    const tapped = new TappedStdio(tsxProgram("test/fixtures/ask-server.ts"), sent);
    await client.connect(tapped);
  } else {
    const listening = await askServer().serve({ port: 0 });
    listenings.push(listening);
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url), { fetch: tappedFetch(sent) }));
  }
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    return { text: (result.content as { text: string }[])[0]?.text, isError: result.isError === true };
  };
  /** The tools/call requests of the last call, in order (one per round). */
  const rounds = (name: string) =>
    sent.filter(
      (message) =>
        "method" in message && message.method === "tools/call" && (message.params as { name: string }).name === name,
    ) as { id: number; params: Record<string, unknown> }[];
  return { client, answers, asked, sent, call, rounds };
}

describe.each(["stdio", "HTTP"] as const)(
  "v2 client (2026-07-28) over %s fulfils input_required results",
  (transport) => {
    let peer: Awaited<ReturnType<typeof open>>;

    beforeAll(async () => {
      peer = await open(transport);
      expect(peer.client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    });

    const answering = (answers: Partial<Answers>) => {
      Object.assign(peer.answers, DEFAULT_ANSWERS, answers);
      peer.asked.length = 0;
      peer.sent.length = 0;
    };

    it("one question: an input_required result, then a retry with inputResponses and requestState on a new id", async () => {
      answering({});
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
      const [first, retry] = peer.rounds("greet");
      expect(first!.params).not.toHaveProperty("inputResponses");
      expect(retry!.id).not.toBe(first!.id);
      expect(retry!.params).toMatchObject({
        name: "greet",
        inputResponses: { name: { action: "accept", content: { name: "Ada" } } },
        requestState: expect.stringMatching(/^v1\./),
      });
    });

    it("decline and cancel reach the tool as they are", async () => {
      answering({ elicit: () => ({ action: "decline" }) });
      expect(await peer.call("greet")).toEqual({ text: "No name: decline", isError: false });
      answering({ elicit: () => ({ action: "cancel" }) });
      expect(await peer.call("greet")).toEqual({ text: "No name: cancel", isError: false });
    });

    it("confirm: the handler re-runs from the top, and the side effect after the question happens once", async () => {
      answering({});
      const before = JSON.parse((await peer.call("runs")).text!);
      expect(await peer.call("delete_repo", { repo: "acme/old" })).toEqual({
        text: "Deleted acme/old",
        isError: false,
      });
      answering({ elicit: () => ({ action: "accept", content: { confirm: false } }) });
      expect(await peer.call("delete_repo", { repo: "acme/new" })).toEqual({ text: "Kept acme/new", isError: false });
      const after = JSON.parse((await peer.call("runs")).text!);
      expect(after.delete_repo - (before.delete_repo ?? 0)).toBe(4);
      expect((after["delete_repo:deleted"] ?? 0) - (before["delete_repo:deleted"] ?? 0)).toBe(1);
    });

    it("several questions in one round, then another round: three requests, each round's answers only", async () => {
      answering({});
      expect(await peer.call("profile")).toEqual({ text: "Ada: A summary.", isError: false });
      expect(peer.asked.map((question) => question.method)).toEqual([
        "elicitation/create",
        "roots/list",
        "sampling/createMessage",
      ]);
      const rounds = peer.rounds("profile");
      expect(rounds.map((round) => Object.keys((round.params.inputResponses as object) ?? {}))).toEqual([
        [],
        ["name", "roots"],
        ["bio"],
      ]);
      expect(rounds[2]!.params.requestState).not.toBe(rounds[1]!.params.requestState);
    });

    it("sampling, with tools for a client that declares sampling.tools", async () => {
      answering({});
      expect(await peer.call("summarize", { text: "a long text" })).toEqual({
        text: "A summary. (test-model)",
        isError: false,
      });
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

    it("roots, and a prompt that asks", async () => {
      answering({});
      expect(await peer.call("workspace")).toEqual({ text: "picomcp=file:///home/ada/picomcp", isError: false });
      answering({ elicit: () => ({ action: "accept", content: { topic: "release notes" } }) });
      const prompt = await peer.client.getPrompt({ name: "brief" });
      expect(prompt.messages).toEqual([
        { role: "user", content: { type: "text", text: "Write a brief about release notes." } },
      ]);
    });

    it("URL mode: no elicitationId and no completion notification in this era", async () => {
      answering({});
      expect(await peer.call("sign_in", { id: "modern" })).toEqual({ text: "sign-in accept", isError: false });
      expect(peer.asked[0]).toEqual({
        method: "elicitation/create",
        params: { mode: "url", message: "Sign in to continue", url: "https://auth.example.com/start?session=modern" },
      });
      expect(await peer.call("complete_sign_in", { id: "modern" })).toEqual({
        text: "nobody waits for it",
        isError: false,
      });
    });

    it("a question JSON cannot carry: a tool error saying what and why, and nothing asked", async () => {
      // Before: the whole call failed with -32603 "the response cannot be sent as JSON", naming no question.
      answering({});
      expect(await peer.call("count_default")).toEqual({
        text: 'The question "count" (elicitation/create) cannot be sent to the client: its params are not JSON (Do not know how to serialize a BigInt). Ask with JSON values only: no BigInt, no cycle.',
        isError: true,
      });
      const looped = await peer.call("looped_sample");
      expect(looped.isError).toBe(true);
      expect(looped.text).toMatch(
        /^The question "sampling-1" \(sampling\/createMessage\) cannot be sent to the client: its params are not JSON \(Converting circular structure to JSON.*\)\. Ask with JSON values only: no BigInt, no cycle\.$/s,
      );
      expect(peer.asked).toEqual([]);
    });

    it("a client without the capability: -32021 naming it, and nothing asked", async () => {
      const plain = await open(transport, {} as Capabilities);
      const error = await plain.client.callTool({ name: "greet", arguments: {} }).catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
      const noTools = await open(transport, { sampling: {} } as Capabilities);
      const refused = await noTools.client
        .callTool({ name: "plan_with_tools", arguments: {} })
        .catch((thrown) => thrown);
      expect(refused).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: { tools: {} } } } });
      expect(noTools.asked).toEqual([]);
    });
  },
);

/** A JSON-RPC response as these tests read it. */
interface Reply {
  result: { resultType: string; requestState: string; content: unknown; inputRequests: Record<string, unknown> };
  error?: { code: number; message: string; data?: unknown };
}

describe("raw 2026-07-28 JSON-RPC over HTTP: what the server refuses or ignores", () => {
  const KEY = "shared-key-for-every-instance-0123456789";
  let url: string;
  let twin: string;
  let stranger: string;
  let id = 1;

  beforeAll(async () => {
    // Two instances sharing requestStateKey (as behind a load balancer), and one with its own random key.
    for (const options of [{ requestStateKey: KEY }, { requestStateKey: KEY }, {}]) {
      const listening = await askServer(options).serve({ port: 0 });
      listenings.push(listening);
    }
    [url, twin, stranger] = listenings.slice(-3).map((listening) => listening.url) as [string, string, string];
  });

  async function post(
    to: string,
    method: string,
    params: Record<string, unknown>,
    capabilities: Record<string, unknown> = EVERYTHING as Record<string, unknown>,
  ) {
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": capabilities,
    };
    const name = (params.name ?? params.uri) as string | undefined;
    const response = await fetch(to, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        ...(name ? { "mcp-name": name } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params: { ...params, _meta } }),
    });
    return { status: response.status, body: (await response.json()) as Reply };
  }

  const greet = (extra: Record<string, unknown> = {}, to = url) =>
    post(to, "tools/call", { name: "greet", arguments: {}, ...extra });
  const ada = { name: { action: "accept", content: { name: "Ada" } } };

  it("re-asks, with a new input_required result, when the retry answers the wrong key", async () => {
    const first = await greet();
    const retry = await greet({ inputResponses: { wrong: ada.name }, requestState: first.body.result.requestState });
    expect(retry.status).toBe(200);
    expect(retry.body.result).toMatchObject({ resultType: "input_required", inputRequests: { name: {} } });
  });

  it("ignores keys it did not ask", async () => {
    const first = await greet();
    const retry = await greet({
      inputResponses: { ...ada, extra: { action: "accept", content: { foo: "bar" } } },
      requestState: first.body.result.requestState,
    });
    expect(retry.body.result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
  });

  it("a state issued by another instance with the same requestStateKey is accepted; by another key, refused", async () => {
    const first = await greet();
    const requestState = first.body.result.requestState;
    const there = await greet({ inputResponses: ada, requestState }, twin);
    expect(there.body.result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    const foreign = await greet({ inputResponses: ada, requestState }, stranger);
    expect(foreign.status).toBe(200);
    expect(foreign.body.error).toEqual({
      code: -32602,
      message: "Invalid requestState: requestState failed verification (it was altered, or issued by another server)",
    });
  });

  it("refuses altered, expired, oversized and wrong-method state with -32602", async () => {
    const first = await greet();
    const state: string = first.body.result.requestState;
    const refused = async (requestState: string, method = "tools/call", params: Record<string, unknown> = {}) => {
      const reply =
        method === "tools/call"
          ? await greet({ inputResponses: ada, requestState, ...params })
          : await post(url, method, { name: "brief", inputResponses: ada, requestState });
      expect(reply.body.error?.code).toBe(-32602);
      return reply.body.error!.message;
    };
    expect(await refused(`${state.slice(0, -2)}AA`)).toMatch(/failed verification/);
    const [, body] = state.split(".");
    const payload = JSON.parse(Buffer.from(body!, "base64url").toString());
    const expired = await new StateSealer(KEY).seal({ ...payload, e: Date.now() - 1000 });
    expect(await refused(expired)).toBe(
      "Invalid requestState: requestState has expired; send the request again without it",
    );
    expect(await refused(`v1.${"A".repeat(MAX_STATE_BYTES)}.x`)).toMatch(/larger than 65536 bytes/);
    expect(await refused(state, "prompts/get")).toMatch(/belongs to a different request/);
    expect(await refused(state, "tools/call", { arguments: { other: 1 } })).toMatch(/belongs to a different request/);
  });

  it("-32021 with requiredCapabilities is HTTP 400", async () => {
    const reply = await post(url, "tools/call", { name: "workspace", arguments: {} }, { sampling: {} });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toEqual({
      code: -32021,
      message: "Missing required client capability: roots",
      data: { requiredCapabilities: { roots: {} } },
    });
  });

  it("no input_required on list methods", async () => {
    for (const method of ["tools/list", "prompts/list"]) {
      const reply = await post(url, method, {});
      expect(reply.body.result.resultType, method).toBe("complete");
    }
  });
});
