/**
 * Property-based fuzzing of the Streamable HTTP message path through `server.fetch`, both eras:
 * any method, any headers, any body. Every request gets an HTTP answer (never a throw), every JSON
 * or SSE body carries only JSON-RPC messages with no stack or path, a request with a readable id
 * is answered at most once, and the server keeps answering a well-formed call afterwards.
 * FUZZ_RUNS sets the number of runs (default 300).
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { checkLine } from "../hardening-helpers.js";
import { initialize } from "../http-helpers.js";
import { fuzzServer, type Line, line, METHODS, MODERN_META, RUNS, TIME_LIMIT_MS } from "./inputs.js";
import { replyTexts } from "./replies.js";

const counts = { runs: 0, statuses: new Map<number, number>(), sse: 0 };
afterAll(() => {
  const statuses = [...counts.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`);
  console.log(`[fuzz] HTTP fetch: ${counts.runs} runs, ${counts.sse} SSE replies, statuses { ${statuses.join(", ")} }`);
});

/** Mostly a value that makes sense, sometimes none, sometimes junk. */
const header = (values: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 6, arbitrary: values },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );

const request = fc.record({
  method: fc.oneof(
    { weight: 12, arbitrary: fc.constant("POST") },
    { weight: 1, arbitrary: fc.constantFrom("GET", "DELETE", "PUT", "OPTIONS") },
  ),
  body: line,
  session: fc.constantFrom("valid", "valid", "valid", "valid-2025-03-26", "unknown", "none"),
  accept: header(
    fc.constantFrom("application/json, text/event-stream", "application/json", "text/event-stream", "*/*"),
  ),
  contentType: header(fc.constantFrom("application/json", "application/json; charset=utf-8")),
  version: header(fc.constantFrom("2026-07-28", "2025-11-25", "2025-03-26", "2024-11-05")),
  mcpMethod: header(fc.constantFrom(...METHODS)),
  mcpName: header(fc.constantFrom("echo", "slow", "fuzz://fixed")),
  lastEventId: fc.option(fc.constantFrom("0-0", "1-1", "x"), { nil: undefined }),
  /** Mirror the body's method and name in Mcp-Method and Mcp-Name, as a real 2026-07-28 client does. */
  mirror: fc.boolean(),
});

const decoder = new TextDecoder();

function idsIn(body: Line): Map<unknown, number> {
  const ids = new Map<unknown, number>();
  try {
    const value = JSON.parse(typeof body === "string" ? body : decoder.decode(body)) as unknown;
    for (const each of Array.isArray(value) ? value : [value]) {
      const id = (each as { id?: unknown } | null)?.id;
      if (id !== undefined) ids.set(id, (ids.get(id) ?? 0) + 1);
    }
  } catch {}
  return ids;
}

function mirrored(body: Line): Record<string, string> {
  try {
    const value = JSON.parse(typeof body === "string" ? body : decoder.decode(body)) as Record<string, unknown>;
    const params = value.params as Record<string, unknown> | undefined;
    const headers: Record<string, string> = {};
    if (typeof value.method === "string") headers["mcp-method"] = value.method;
    const named = params?.name ?? params?.uri;
    if (typeof named === "string") headers["mcp-name"] = named;
    return headers;
  } catch {
    return {};
  }
}

/** Reads a reply body, SSE streams for at most `ms` (a GET stream or a listen stays open). */
async function bodyLines(response: Response, ms = 150): Promise<string[]> {
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) counts.sse++;
  return replyTexts(response, { ms, readErrors: "end" });
}

describe("fuzz: HTTP", () => {
  it(
    "answers every request with an HTTP reply carrying only JSON-RPC, and keeps serving",
    async () => {
      const server = fuzzServer();
      const session = await initialize(server);
      const oldSession = await initialize(server, "2025-03-26");
      await fc.assert(
        fc.asyncProperty(request, async (input) => {
          counts.runs++;
          const headers: Record<string, string> = {};
          if (input.accept !== undefined) headers.accept = input.accept;
          if (input.contentType !== undefined) headers["content-type"] = input.contentType;
          if (input.version !== undefined) headers["mcp-protocol-version"] = input.version;
          if (input.mcpMethod !== undefined) headers["mcp-method"] = input.mcpMethod;
          if (input.mcpName !== undefined) headers["mcp-name"] = input.mcpName;
          if (input.lastEventId !== undefined) headers["last-event-id"] = input.lastEventId;
          if (input.session === "valid") headers["mcp-session-id"] = session;
          if (input.session === "valid-2025-03-26") headers["mcp-session-id"] = oldSession;
          if (input.session === "unknown") headers["mcp-session-id"] = "no-such-session";
          if (input.mirror) Object.assign(headers, mirrored(input.body));
          const body: Line = input.body;
          const response = await server.fetch(
            new Request("http://localhost/mcp", {
              method: input.method,
              headers,
              body: input.method === "GET" || input.method === "OPTIONS" ? undefined : (body as BodyInit),
            }),
          );
          expect(response.status).toBeGreaterThanOrEqual(200);
          expect(response.status).toBeLessThan(600);
          counts.statuses.set(response.status, (counts.statuses.get(response.status) ?? 0) + 1);
          const answers = new Map<unknown, number>();
          for (const text of await bodyLines(response)) {
            const message = checkLine(text);
            const each = Array.isArray(message.batch) ? (message.batch as Record<string, unknown>[]) : [message];
            for (const one of each) {
              if (!("method" in one) && one.id !== undefined) answers.set(one.id, (answers.get(one.id) ?? 0) + 1);
            }
          }
          // Each id is answered at most as often as it was sent (a batch may repeat one).
          const sent = idsIn(input.body);
          for (const [id, count] of answers) {
            expect(count, `answers to ${JSON.stringify(id)}`).toBeLessThanOrEqual(sent.get(id) ?? 0);
          }
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
      );
      // Still serving, in both eras.
      const modern = await server.fetch(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/call",
            "mcp-name": "echo",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: "after",
            method: "tools/call",
            params: { name: "echo", arguments: { s: "still here" }, _meta: MODERN_META },
          }),
        }),
      );
      expect(await modern.json()).toMatchObject({ id: "after", result: { content: [{ text: "still here" }] } });
      await server.close();
    },
    TIME_LIMIT_MS + 30_000,
  );
});
