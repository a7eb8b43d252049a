/**
 * Property-based fuzzing of the Streamable HTTP path past the envelope checks: POSTs with the headers
 * a real client sends (content type, Accept, MCP-Protocol-Version, the session, Mcp-Method and
 * Mcp-Name mirroring the body), carrying fuzzed JSON-RPC messages, in both eras, to a server with
 * every layer (middleware and a plug-in, tools that ask the client, a task tool, resources, prompts),
 * with 2025 sessions and without. A run is several messages in one session (or none). Each request
 * is answered exactly once, or, for a subscriptions/listen stream, at most once; a response (a
 * message with a result or an error and no method) is never answered; nothing answers an id that was
 * not sent; and the server still answers a well-formed call in both eras. Meanwhile the official v1
 * and v2 clients, connected to the same servers over 127.0.0.1, call and list in a loop, and every
 * one of their calls succeeds. FUZZ_RUNS sets the runs.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { checkLine } from "../hardening-helpers.js";
import { initialize, within } from "../http-helpers.js";
import { layeredServer, MODERN_META, message, RUNS, TIME_LIMIT_MS } from "./inputs.js";
import { replyTexts } from "./replies.js";

const BOUND_MS = 5000;

const counts = { peerCalls: 0, runs: 0, requests: 0, answered: 0, responses: 0, statuses: new Map<number, number>() };
afterAll(() => {
  const statuses = [...counts.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
  console.log(
    `[fuzz] HTTP layered: ${counts.runs} runs, ${counts.peerCalls} official clients' calls meanwhile, ${counts.requests} requests (${counts.answered} answered), ${counts.responses} responses sent in, statuses { ${statuses.join(", ")} }`,
  );
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isRequestId = (value: unknown) => typeof value === "string" || Number.isSafeInteger(value);

/** What classify calls a request: a readable id, a method, object params or none. */
function isRequest(value: Record<string, unknown>): boolean {
  return (
    value.jsonrpc === "2.0" &&
    isRequestId(value.id) &&
    typeof value.method === "string" &&
    (value.params === undefined || isObject(value.params))
  );
}

function isResponse(value: Record<string, unknown>): boolean {
  return value.jsonrpc === "2.0" && value.method === undefined && ("result" in value || "error" in value);
}

/**
 * A message of a real client, mostly: "2.0", a method, well-formed ids, the era's envelope in _meta
 * (a 2025 message none of 2026-07-28's); anything else as fuzzed, and one in eight left as it came.
 */
const shaped = fc
  .tuple(message, fc.boolean(), fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), fc.nat(7))
  .map(([value, modern, id, raw]) => {
    if (raw === 0) return { value, modern };
    const params = isObject(value.params) ? { ...value.params } : value.params;
    if (isObject(params)) {
      const meta: Record<string, unknown> = isObject(params._meta) ? { ...params._meta } : {};
      for (const key of Object.keys(MODERN_META)) delete meta[key];
      params._meta = modern ? { ...meta, ...MODERN_META } : meta;
    }
    const method = typeof value.method === "string" ? value.method : "tools/call";
    const shapedValue = { ...value, jsonrpc: "2.0", id: value.id === undefined ? undefined : id, params };
    return { value: isResponse(shapedValue) ? shapedValue : { ...shapedValue, method }, modern };
  });

const run = fc.record({
  sessions: fc.boolean(),
  /** 2025 messages go in a session (when the server has them), or without one. */
  inSession: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  messages: fc.array(shaped, { minLength: 1, maxLength: 5 }),
});

/** Reads a reply body: its JSON, or an SSE stream's messages for at most `ms` (a listen stays open). */
async function bodyMessages(response: Response, ms = 400): Promise<Record<string, unknown>[]> {
  return (await replyTexts(response, { ms, readErrors: "throw" })).flatMap((text) => {
    const checked = checkLine(text);
    return Array.isArray(checked.batch) ? (checked.batch as Record<string, unknown>[]) : [checked];
  });
}

const servers = { true: layeredServer(true), false: layeredServer(false) };
const sessionsOf = new Map<boolean, string>();

function post(body: Record<string, unknown>, modern: boolean, session: string | undefined): Request {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": modern ? "2026-07-28" : "2025-11-25",
  };
  if (session !== undefined && !modern) headers["mcp-session-id"] = session;
  if (typeof body.method === "string" && modern) headers["mcp-method"] = body.method;
  const params = isObject(body.params) ? body.params : {};
  const named = params.name ?? params.uri;
  if (typeof named === "string" && modern) headers["mcp-name"] = named;
  return new Request("http://localhost/mcp", { method: "POST", headers, body: JSON.stringify(body) });
}

/**
 * The official clients of both eras on `server`, served on 127.0.0.1, calling in a loop until `stop`:
 * an echo and a question answered (v1), an echo and the tool list (v2). Resolves once they stopped, or
 * rejects with the first failure.
 */
async function peersLoop(
  server: ReturnType<typeof layeredServer>,
  { stop, listening: connected }: { stop: Promise<void>; listening: () => void },
): Promise<void> {
  const listening = await server.serve({ port: 0 });
  const legacy = new LegacyClient({ name: "v1", version: "1" }, { capabilities: { elicitation: {} } });
  legacy.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
  const modern = new ModernClient({ name: "v2", version: "2" }, { versionNegotiation: { mode: "auto" } });
  let stopped = false;
  void stop.then(() => (stopped = true));
  try {
    await legacy.connect(new LegacyTransport(new URL(listening.url)));
    await modern.connect(new ModernTransport(new URL(listening.url)));
    connected();
    while (!stopped) {
      const echoed = await legacy.callTool({ name: "echo", arguments: { s: "v1" } });
      expect(echoed).toMatchObject({ content: [{ text: "v1" }], _meta: { "fuzz.example/wrapped": true } });
      const asked = await legacy.callTool({ name: "ask", arguments: {} });
      expect(asked, JSON.stringify(asked)).toMatchObject({ content: [{ text: "accept" }] });
      expect(await modern.callTool({ name: "echo", arguments: { s: "v2" } })).toMatchObject({
        content: [{ text: "v2" }],
      });
      expect((await modern.listTools()).tools.map((tool) => tool.name)).toContain("later");
      counts.peerCalls += 4;
    }
  } finally {
    await legacy.close();
    await modern.close();
    await listening.close();
  }
}

describe("fuzz: HTTP with every layer", () => {
  it(
    "answers each request once, never a response, and keeps serving both eras",
    async () => {
      let stop = () => {};
      const stopping = new Promise<void>((resolve) => (stop = resolve));
      let listening = () => {};
      const listened = new Promise<void>((resolve) => (listening = resolve));
      const peers = peersLoop(servers.true, { stop: stopping, listening });
      // A failure of the official clients ends the fuzz at the next run (and is reported as the failure).
      let peersFailed: unknown;
      peers.catch((thrown: unknown) => (peersFailed = thrown));
      await within(listened, BOUND_MS, "the official clients connecting");
      // After serve({ port }): its endpoint is the one server.fetch serves from then on.
      sessionsOf.set(true, await initialize(servers.true));
      await fc.assert(
        fc.asyncProperty(run, async ({ sessions, inSession, messages }) => {
          if (peersFailed) throw peersFailed;
          counts.runs++;
          const server = servers[`${sessions}`];
          const session = inSession ? sessionsOf.get(sessions) : undefined;
          for (const { value, modern } of messages) {
            const body = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
            const request = isRequest(body);
            if (request) counts.requests++;
            if (isResponse(body)) counts.responses++;
            const response = await within(server.fetch(post(body, modern, session)), BOUND_MS, "the reply");
            counts.statuses.set(response.status, (counts.statuses.get(response.status) ?? 0) + 1);
            expect(response.status).toBeGreaterThanOrEqual(200);
            expect(response.status).toBeLessThan(600);
            const answers = (await within(bodyMessages(response), BOUND_MS, "the body")).filter(
              (each) => !("method" in each),
            );
            const what = `${JSON.stringify(body).slice(0, 300)} -> ${response.status} ${JSON.stringify(answers).slice(0, 300)}`;
            if (isResponse(body)) {
              // Accepted, 202 with no body; or refused as HTTP (no session header where one is required).
              if (response.status < 400) expect(answers, `a response answered: ${what}`).toEqual([]);
              continue;
            }
            for (const answer of answers) {
              if (answer.id !== undefined) expect(answer.id, `an answer to another id: ${what}`).toEqual(body.id);
            }
            if (!request) continue;
            const mine = answers.filter((answer) => answer.id === body.id);
            // A session that is unknown (404) or a refusal before the body is read answer without the id.
            if (response.status >= 400 && mine.length === 0) continue;
            if (body.method === "subscriptions/listen") expect(mine.length, what).toBeLessThanOrEqual(1);
            else expect(mine, what).toHaveLength(1);
            if (mine.length === 1) counts.answered++;
          }
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
      );
      for (const server of Object.values(servers)) {
        const after = await server.fetch(
          post(
            {
              jsonrpc: "2.0",
              id: "after",
              method: "tools/call",
              params: { name: "echo", arguments: { s: "still here" }, _meta: MODERN_META },
            },
            true,
            undefined,
          ),
        );
        expect(await after.json()).toMatchObject({ id: "after", result: { content: [{ text: "still here" }] } });
      }
      stop();
      await within(peers, BOUND_MS * 2, "the official clients' loop ending");
      expect(counts.peerCalls).toBeGreaterThan(0);
      for (const server of Object.values(servers)) await server.close();
    },
    TIME_LIMIT_MS + 60_000,
  );
});
