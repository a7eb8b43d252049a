/**
 * 2026-07-28 answers count once, and only with the state that asked (§3.4: sealing limits replay but
 * does not make a state single-use; where single use matters, the server keeps a record). Answers
 * without a requestState are refused; a requestState is accepted once, so a confirmed destructive
 * step cannot be replayed; a state is parsed strictly; and the record of used states stays within
 * `limits.maxUsedRequestStates`, refusing what it can no longer tell apart rather than accepting it
 * twice. Raw JSON-RPC and the official v2 client (@modelcontextprotocol/client) over a loopback
 * listener, and the record on its own for its memory.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client, type JSONRPCMessage, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryUsedStates } from "../src/asking/used-states.js";
import { pico } from "../src/index.js";
import type { Listening } from "../src/transports/listen.js";
import { askServer } from "./fixtures/ask-server.js";

const CAPABILITIES = { elicitation: { form: {} } };
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { ...CAPABILITIES, roots: {}, sampling: {} },
};
const CONFIRMED = { "confirm-1": { action: "accept", content: { confirm: true } } };
const USED =
  "Invalid requestState: it was already used (a requestState is good for one retry). Start the call again: send the request without requestState and inputResponses";

interface Reply {
  result?: { resultType: string; requestState: string; content: { text: string }[]; inputRequests?: object };
  error?: { code: number; message: string };
}

const listenings: Listening[] = [];
const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients) await client.close();
  for (const listening of listenings) await listening.close();
});

/** A loopback listener for the ask fixture, and raw 2026-07-28 requests to it. */
async function open(options: Parameters<typeof askServer>[0] = {}) {
  const listening = await askServer(options).serve({ port: 0 });
  listenings.push(listening);
  let id = 1;
  const post = async (method: string, params: Record<string, unknown>): Promise<Reply> => {
    const name = (params.name ?? params.uri) as string;
    const response = await fetch(listening.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        "mcp-name": name,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: id++, method, params: { ...params, _meta: META } }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Reply;
  };
  const call = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    post("tools/call", { name, arguments: args, ...extra });
  /** How often delete_repo ran, and how often it deleted. */
  const deletions = async () => {
    const runs = JSON.parse((await call("runs", {})).result!.content[0]!.text) as Record<string, number>;
    return { runs: runs.delete_repo ?? 0, deleted: runs["delete_repo:deleted"] ?? 0 };
  };
  /** The first round of delete_repo: its requestState. */
  const ask = async (repo: string) => {
    const first = await call("delete_repo", { repo });
    expect(first.result?.resultType).toBe("input_required");
    return first.result!.requestState;
  };
  return { listening, post, call, deletions, ask };
}

describe("answers to a question, over HTTP (a loopback listener)", () => {
  let server: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    server = await open();
  });

  it("sent without requestState, do not count: the question is asked, and nothing past it runs", async () => {
    const before = await server.deletions();
    const reply = await server.call("delete_repo", { repo: "acme/unasked" }, { inputResponses: CONFIRMED });
    expect(reply.result).toMatchObject({
      resultType: "input_required",
      inputRequests: { "confirm-1": { method: "elicitation/create" } },
      requestState: expect.stringMatching(/^v1\./),
    });
    const after = await server.deletions();
    expect(after.deleted).toBe(before.deleted);
    expect(after.runs - before.runs).toBe(1);
  });

  it("count once: a confirmed destructive step replayed three times with its state is refused each time", async () => {
    const requestState = await server.ask("acme/once");
    const before = await server.deletions();
    const retry = { inputResponses: CONFIRMED, requestState };
    const done = await server.call("delete_repo", { repo: "acme/once" }, retry);
    expect(done.result?.content).toEqual([{ type: "text", text: "Deleted acme/once" }]);
    for (let replay = 0; replay < 3; replay++) {
      const again = await server.call("delete_repo", { repo: "acme/once" }, retry);
      expect(again.error, `replay ${replay + 1}`).toEqual({ code: -32602, message: USED });
    }
    const after = await server.deletions();
    expect(after.deleted - before.deleted).toBe(1);
    // The replays were refused before the handler ran.
    expect(after.runs - before.runs).toBe(1);
  });

  it("a state used by one round is refused for the rounds after it too (earlier states cannot be replayed)", async () => {
    const first = await server.call("profile", {});
    const state = first.result!.requestState;
    const answers = {
      name: { action: "accept", content: { name: "Ada" } },
      roots: { roots: [{ uri: "file:///p", name: "p" }] },
    };
    const second = await server.call("profile", {}, { inputResponses: answers, requestState: state });
    expect(second.result?.resultType).toBe("input_required");
    const again = await server.call("profile", {}, { inputResponses: answers, requestState: state });
    expect(again.error).toEqual({ code: -32602, message: USED });
    const bio = { bio: { role: "assistant", content: { type: "text", text: "Bio." }, model: "m" } };
    const done = await server.call("profile", {}, { inputResponses: bio, requestState: second.result!.requestState });
    expect(done.result?.content).toEqual([{ type: "text", text: "Ada: Bio." }]);
  });

  it("a state is parsed strictly: extra segments, padding, spaces or another spelling of the signature are refused, and leave it unused", async () => {
    const requestState = await server.ask("acme/strict");
    const [version, body, signature] = requestState.split(".") as [string, string, string];
    // The signature is 32 bytes: 43 base64url characters, the last one carrying 2 unused bits.
    const last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".indexOf(signature.at(-1)!);
    const respelled =
      signature.slice(0, -1) + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[last ^ 1];
    const variants = [
      `${requestState}.extra`,
      `${requestState}.`,
      `${requestState}.${signature}`,
      `${requestState}=`,
      `${version}.${body}.${signature.slice(0, 20)} ${signature.slice(20)}`,
      `${version}.${body}.${respelled}`,
      `${version}..${body}.${signature}`,
      ` ${requestState}`,
    ];
    const before = await server.deletions();
    for (const variant of variants) {
      const reply = await server.call(
        "delete_repo",
        { repo: "acme/strict" },
        { inputResponses: CONFIRMED, requestState: variant },
      );
      expect(reply.error?.code, variant).toBe(-32602);
      expect(reply.error?.message, variant).toMatch(/^Invalid requestState: /);
    }
    expect(await server.deletions()).toEqual(before);
    const done = await server.call("delete_repo", { repo: "acme/strict" }, { inputResponses: CONFIRMED, requestState });
    expect(done.result?.content).toEqual([{ type: "text", text: "Deleted acme/strict" }]);
  });
});

describe("the official v2 client", () => {
  it("completes a confirmation once; the retry it sent, replayed byte for byte, is refused", async () => {
    const server = await open();
    const sent: { url: string; body: string; headers: Record<string, string> }[] = [];
    const tapped = ((url: string | URL, init?: RequestInit) => {
      if (typeof init?.body === "string") {
        sent.push({ url: String(url), body: init.body, headers: Object.fromEntries(new Headers(init.headers)) });
      }
      return fetch(url, init);
    }) as typeof fetch;
    const client = new Client(
      { name: "v2-replay", version: "2.0.0" },
      { versionNegotiation: { mode: "auto" }, capabilities: CAPABILITIES },
    );
    clients.push(client);
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { confirm: true } }));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.listening.url), { fetch: tapped }));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const before = await server.deletions();
    const result = await client.callTool({ name: "delete_repo", arguments: { repo: "acme/v2" } });
    expect(result.content).toEqual([{ type: "text", text: "Deleted acme/v2" }]);
    const retry = sent.find((request) => {
      const message = JSON.parse(request.body) as JSONRPCMessage & { params?: Record<string, unknown> };
      return "method" in message && message.method === "tools/call" && message.params?.requestState !== undefined;
    });
    expect(retry, "the client's retry with requestState").toBeDefined();
    for (let replay = 0; replay < 3; replay++) {
      const response = await fetch(retry!.url, { method: "POST", headers: retry!.headers, body: retry!.body });
      expect(response.status).toBe(200);
      expect(((await response.json()) as Reply).error).toEqual({ code: -32602, message: USED });
    }
    expect((await server.deletions()).deleted - before.deleted).toBe(1);
  });
});

describe("the record of used states", () => {
  it("keeps at most limits.maxUsedRequestStates ids; a state older than what it remembers is refused, never accepted twice", async () => {
    const limit = 20;
    const server = await open({ limits: { maxUsedRequestStates: limit } });
    // Issued first and never used: once older states are forgotten, it can no longer be told apart from a used one.
    const early = await server.ask("acme/early");
    const retries: Record<string, unknown>[] = [];
    for (let round = 0; round < 3 * limit; round++) {
      const repo = `acme/r${round}`;
      const retry = { inputResponses: CONFIRMED, requestState: await server.ask(repo) };
      const done = await server.call("delete_repo", { repo }, retry);
      expect(done.result?.content).toEqual([{ type: "text", text: `Deleted ${repo}` }]);
      retries.push({ repo, retry });
    }
    const before = await server.deletions();
    for (const { repo, retry } of retries as { repo: string; retry: Record<string, unknown> }[]) {
      const again = await server.call("delete_repo", { repo }, retry);
      expect(again.error, repo).toEqual({ code: -32602, message: USED });
    }
    const late = await server.call(
      "delete_repo",
      { repo: "acme/early" },
      { inputResponses: CONFIRMED, requestState: early },
    );
    expect(late.error).toEqual({ code: -32602, message: USED });
    expect(await server.deletions()).toEqual(before);
    // A fresh state is still accepted.
    const fresh = { inputResponses: CONFIRMED, requestState: await server.ask("acme/fresh") };
    const done = await server.call("delete_repo", { repo: "acme/fresh" }, fresh);
    expect(done.result?.content).toEqual([{ type: "text", text: "Deleted acme/fresh" }]);
  });

  it("stays within its limit in memory, however many states are used", () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const limit = 1000;
    const claims = 200_000;
    const used = new MemoryUsedStates(limit);
    const expiry = Date.now() + 600_000;
    const id = (n: number) => `state-${n.toString(36).padStart(16, "0")}`;
    for (let n = 0; n < limit; n++) expect(used.claim(id(n), expiry + n)).toBe(true);
    gc();
    const baseline = process.memoryUsage().heapUsed;
    let refused = 0;
    let largest = 0;
    for (let n = limit; n < claims; n++) {
      if (!used.claim(id(n), expiry + n)) refused++;
      largest = Math.max(largest, used.size);
    }
    gc();
    const grown = process.memoryUsage().heapUsed - baseline;
    // 199,000 more ids held would be about 25 MiB (130 bytes each); bounded, the record holds 1,000.
    expect(grown).toBeLessThan(2 * 1024 * 1024);
    expect({ refused, largest, size: used.size }).toEqual({ refused: 0, largest: limit, size: limit });
    // Every id ever claimed is refused again: remembered, or older than what is remembered.
    for (let n = 0; n < claims; n += 997) expect(used.claim(id(n), expiry + n), `id ${n}`).toBe(false);
    expect(used.claim(id(claims), expiry + claims)).toBe(true);
  });

  it("forgets expired ids first, and refuses a state that expires no later than one it forgot", () => {
    const used = new MemoryUsedStates(3);
    const now = Date.now();
    expect(used.claim("a", now - 1)).toBe(true);
    expect(used.claim("b", now + 60_000)).toBe(true);
    // "a" expired, so claiming "b" forgot it; nothing that expires by then is accepted again.
    expect(used.claim("c", now + 60_000)).toBe(true);
    expect(used.size).toBe(2);
    expect(used.claim("a", now - 1)).toBe(false);
    expect(used.claim("b", now + 60_000)).toBe(false);
    expect(used.claim("d", now + 61_000)).toBe(true);
  });
});

it("limits.maxUsedRequestStates is validated like every limit", () => {
  expect(() => pico({ name: "t", version: "1", limits: { maxUsedRequestStates: 0 } })).toThrow(
    "limits.maxUsedRequestStates must be an integer of at least 1, at most 2^53 - 1, or Infinity; got 0.",
  );
  expect(() => pico({ name: "t", version: "1", limits: { maxUsedRequestStates: Infinity } })).not.toThrow();
});
