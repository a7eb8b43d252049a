import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ErrorCode, pico } from "../src/index.js";
import type { HttpOptions } from "../src/transports/http/options.js";
import { HttpSession } from "../src/transports/http/sessions.js";
import { bare, EventReader, initialize, inSession, post, signal, within } from "./http-helpers.js";

/**
 * Legacy (2025-11-25 and older) Streamable HTTP sessions (spec-2025-11-25 §17.6-17.7, §2 batches):
 * the handshake, session ids, the version header, batches, DELETE, idle expiry and eviction, and
 * the stateless legacy mode. Streams and resumption are in http-streams.test.ts.
 */

function server(http: HttpOptions = {}) {
  const started = signal();
  const aborted = signal<unknown>();
  const app = pico({ name: "sessions", version: "1.0.0", http })
    .tool("echo", { input: z.object({ text: z.string() }), run: ({ text }) => text })
    .tool("wait", {
      run: async (_args, ctx) => {
        started.resolve();
        if (!ctx.signal.aborted) {
          await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
        }
        aborted.resolve(ctx.signal.reason);
        return "too late";
      },
    });
  return { app, started, aborted };
}

const call = (id: number | string, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});
const list = (id: number | string = 1) => ({ jsonrpc: "2.0", id, method: "tools/list" });

async function errorOf(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json");
  return (await response.json()) as { id?: unknown; error: { code: number; message: string; data?: unknown } };
}

describe("initialize", () => {
  it("starts a session: 200 JSON with an unguessable Mcp-Session-Id and a legacy result", async () => {
    const { app } = server();
    const response = await app.fetch(
      post({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("mcp-session-id")).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    const body = await response.json();
    expect(body).toMatchObject({
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: "2025-11-25",
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: "sessions", version: "1.0.0" },
      },
    });
    // Legacy results get no 2026-07-28 fields.
    expect(body.result).not.toHaveProperty("resultType");
    expect(body.result).not.toHaveProperty("_meta");
    expect(await initialize(app)).not.toBe(response.headers.get("mcp-session-id"));
  });

  it("echoes a served version and counter-offers the newest for an unknown one", async () => {
    const { app } = server();
    for (const [asked, got] of [
      ["2025-03-26", "2025-03-26"],
      ["2024-11-05", "2024-11-05"],
      ["2099-01-01", "2025-11-25"],
    ]) {
      const response = await app.fetch(
        post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: asked, capabilities: {} } }),
      );
      expect((await response.json()).result.protocolVersion, asked).toBe(got);
    }
  });

  it("starts no session when initialize fails: 400 without Mcp-Session-Id", async () => {
    const { app } = server();
    const response = await app.fetch(post({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }));
    expect(response.headers.get("mcp-session-id")).toBeNull();
    const body = await errorOf(response, 400);
    expect(body).toMatchObject({ id: 1, error: { code: ErrorCode.InvalidParams } });
  });

  it("ignores a stale Mcp-Session-Id and the version header on initialize", async () => {
    const { app } = server();
    const response = await app.fetch(
      post(
        { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {} } },
        { "mcp-session-id": "stale", "mcp-protocol-version": "2025-03-26" },
      ),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).not.toBe("stale");
  });

  it("refuses initialize under a 2026-07-28 header: the client speaks the modern era", async () => {
    const { app } = server();
    const response = await app.fetch(
      post(
        { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {} } },
        { "mcp-protocol-version": "2026-07-28" },
      ),
    );
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect((await errorOf(response, 400)).error.code).toBe(ErrorCode.HeaderMismatch);
  });
});

describe("session ids", () => {
  it("serves a request carrying the session id, and echoes the id", async () => {
    const { app } = server();
    const session = await initialize(app);
    const response = await app.fetch(inSession(session, call(2, "echo", { text: "in" })));
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBe(session);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: "in" }] },
    });
  });

  it("answers 400 to a request without a session id", async () => {
    const { app } = server();
    await initialize(app);
    for (const body of [list(), { jsonrpc: "2.0", id: 2, method: "ping" }]) {
      const answer = await errorOf(await app.fetch(post(body)), 400);
      expect(answer.error).toEqual({
        code: ErrorCode.InvalidRequest,
        message: "Bad Request: the Mcp-Session-Id header is required; send initialize first to start a session",
      });
    }
  });

  it("answers 404 to an id it never issued", async () => {
    const { app } = server();
    for (const request of [
      post(list(), { "mcp-session-id": "never-issued" }),
      post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "mcp-session-id": "never-issued" }),
      post({ jsonrpc: "2.0", id: 1, result: {} }, { "mcp-session-id": "never-issued" }),
      post([list()], { "mcp-session-id": "never-issued" }),
      bare("GET", { accept: "text/event-stream", "mcp-session-id": "never-issued" }),
    ]) {
      const answer = await errorOf(await app.fetch(request), 404);
      expect(answer.error).toEqual({
        code: ErrorCode.InvalidRequest,
        message: "Session not found: it ended or expired; send initialize to start a new session",
      });
    }
  });
});

describe("MCP-Protocol-Version in a session", () => {
  it("answers 400 to an unsupported version", async () => {
    const { app } = server();
    const session = await initialize(app);
    for (const version of ["2024-01-01", "1.0"]) {
      const answer = await errorOf(
        await app.fetch(inSession(session, list(3), { "mcp-protocol-version": version })),
        400,
      );
      expect(answer).toMatchObject({ id: 3, error: { code: ErrorCode.InvalidRequest } });
      expect(answer.error.message).toBe(
        `Bad Request: unsupported MCP-Protocol-Version "${version}"; this server supports 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05`,
      );
    }
  });

  // "zzz" sorts after every date, as a modern revision would: it names no revision all the same.
  it.each(["1999-01-01", "zzz"])(
    "answers 400 to an unsupported version (%s) on every message of the session, GET and DELETE too",
    async (version) => {
      const { app } = server();
      const session = await initialize(app);
      const bad = { "mcp-session-id": session, "mcp-protocol-version": version };
      const requests = [
        inSession(
          session,
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { "mcp-protocol-version": version },
        ),
        inSession(session, { jsonrpc: "2.0", id: 9, result: {} }, { "mcp-protocol-version": version }),
        bare("GET", { ...bad, accept: "text/event-stream" }),
        bare("DELETE", bad),
      ];
      for (const request of requests) {
        const answer = await errorOf(await app.fetch(request), 400);
        expect(answer.error.message, request.method).toBe(
          `Bad Request: unsupported MCP-Protocol-Version "${version}"; this server supports 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05`,
        );
      }
      // The session is still there: the DELETE was refused.
      expect((await app.fetch(inSession(session, list()))).status).toBe(200);
    },
  );

  it("accepts any supported legacy version inside a 2025-11-25 session, and no header at all", async () => {
    const { app } = server();
    const session = await initialize(app, "2025-11-25");
    for (const version of ["2025-03-26", "2025-06-18", "2025-11-25", null]) {
      const response = await app.fetch(inSession(session, list(), { "mcp-protocol-version": version }));
      expect(response.status, String(version)).toBe(200);
    }
  });

  it("answers -32602/400 to a claim-less request under a 2026-07-28 header", async () => {
    const { app } = server();
    const session = await initialize(app);
    const answer = await errorOf(
      await app.fetch(inSession(session, list(4), { "mcp-protocol-version": "2026-07-28" })),
      400,
    );
    expect(answer).toEqual({
      jsonrpc: "2.0",
      id: 4,
      error: {
        code: ErrorCode.InvalidParams,
        message:
          'Invalid params: a 2026-07-28 request needs params._meta with "io.modelcontextprotocol/protocolVersion" and "io.modelcontextprotocol/clientCapabilities"',
      },
    });
  });
});

describe("notifications and cancellation in a session", () => {
  it("cancels a request on notifications/cancelled: its signal aborts and no response is sent", async () => {
    const { app, started, aborted } = server();
    const session = await initialize(app);
    const pending = app.fetch(inSession(session, call("w1", "wait")));
    await within(started.promise, 2000, "the tool starting");
    const cancel = await app.fetch(
      inSession(session, {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: "w1", reason: "changed my mind" },
      }),
    );
    expect(cancel.status).toBe(202);
    const reason = await within(aborted.promise, 2000, "ctx.signal aborting");
    expect(reason).toMatchObject({ name: "AbortError", message: "changed my mind" });
    // A POST carrying a request is answered with a stream or JSON: an event stream with nothing in it.
    const response = await pending;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toBe("");
  });

  it("cancels a request whose client disconnects before its reply started", async () => {
    const { app, started, aborted } = server();
    const session = await initialize(app);
    const client = new AbortController();
    const pending = app.fetch(inSession(session, call(5, "wait"), {}, { signal: client.signal }));
    await within(started.promise);
    client.abort();
    await within(aborted.promise, 2000, "ctx.signal aborting");
    expect((await pending).status).toBe(202);
  });

  it("ignores cancellations of unknown requests", async () => {
    const { app } = server();
    const session = await initialize(app);
    for (const params of [{ requestId: "nope" }, { requestId: null }, {}]) {
      const response = await app.fetch(
        inSession(session, { jsonrpc: "2.0", method: "notifications/cancelled", params }),
      );
      expect(response.status).toBe(202);
    }
  });
});

describe("batches", () => {
  it("answers a batch in a 2025-03-26 session with one JSON array", async () => {
    const { app } = server();
    const session = await initialize(app, "2025-03-26");
    const response = await app.fetch(
      inSession(
        session,
        [
          call(1, "echo", { text: "a" }),
          { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
          list(2),
          { jsonrpc: "2.0", id: 3, method: "initialize", params: { protocolVersion: "2025-03-26" } },
          { jsonrpc: "2.0", id: 4, method: "nope" },
        ],
        { "mcp-protocol-version": "2025-03-26" },
      ),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("mcp-session-id")).toBe(session);
    const answers = await response.json();
    expect(answers).toHaveLength(4);
    expect(answers[0]).toEqual({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "a" }] } });
    expect(answers[1]).toMatchObject({ id: 2, result: { tools: [{ name: "echo" }, { name: "wait" }] } });
    expect(answers[2]).toMatchObject({
      id: 3,
      error: { code: ErrorCode.InvalidRequest, message: "Invalid Request: initialize must not be part of a batch" },
    });
    expect(answers[3]).toMatchObject({ id: 4, error: { code: ErrorCode.MethodNotFound } });
  });

  it("answers 202 to a batch of notifications and responses", async () => {
    const { app } = server();
    const session = await initialize(app, "2025-03-26");
    const response = await app.fetch(
      inSession(session, [
        { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
        { jsonrpc: "2.0", id: "s1", result: {} },
      ]),
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("refuses batches outside a 2025-03-26 session, and empty ones: 400 with -32600", async () => {
    const { app } = server();
    const old = await initialize(app, "2025-03-26");
    for (const version of ["2025-11-25", "2025-06-18", "2024-11-05"]) {
      const session = await initialize(app, version);
      const answer = await errorOf(await app.fetch(inSession(session, [list()])), 400);
      expect(answer.error).toEqual({
        code: ErrorCode.InvalidRequest,
        message: `Invalid Request: batches are only allowed in a 2025-03-26 session, and this one is ${version}; send one message per POST`,
      });
    }
    expect((await errorOf(await app.fetch(inSession(old, [])), 400)).error).toEqual({
      code: ErrorCode.InvalidRequest,
      message: "Invalid Request: an empty batch; send one message per POST",
    });
    expect((await errorOf(await app.fetch(post([list()])), 400)).error.message).toMatch(/Mcp-Session-Id/);
  });

  it("serves 2025-03-26 batches without sessions, the version a missing header means; refuses them under later ones", async () => {
    const { app } = server({ sessions: false });
    for (const headers of [{}, { "mcp-protocol-version": "2025-03-26" }]) {
      const response = await app.fetch(post([call(1, "echo", { text: "a" }), list(2)], headers));
      expect(response.status).toBe(200);
      expect(response.headers.get("mcp-session-id")).toBeNull();
      const answers = await response.json();
      expect(answers).toEqual([
        { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "a" }] } },
        expect.objectContaining({ id: 2, result: expect.objectContaining({ tools: expect.any(Array) }) }),
      ]);
    }
    const notifications = await app.fetch(post([{ jsonrpc: "2.0", method: "notifications/initialized" }]));
    expect(notifications.status).toBe(202);
    const later = await errorOf(await app.fetch(post([list()], { "mcp-protocol-version": "2025-06-18" })), 400);
    expect(later.error).toEqual({
      code: ErrorCode.InvalidRequest,
      message:
        'Invalid Request: batches are only allowed under protocol 2025-03-26 (MCP-Protocol-Version "2025-03-26", or none); send one message per POST',
    });
  });
});

describe("DELETE", () => {
  it("ends the session: 200, then 404 for its id", async () => {
    const { app } = server();
    const session = await initialize(app);
    const other = await initialize(app);
    const deleted = await app.fetch(bare("DELETE", { "mcp-session-id": session }));
    expect(deleted.status).toBe(200);
    expect(await deleted.text()).toBe("");
    expect((await app.fetch(inSession(session, list()))).status).toBe(404);
    expect((await app.fetch(bare("GET", { accept: "text/event-stream", "mcp-session-id": session }))).status).toBe(404);
    const again = await errorOf(await app.fetch(bare("DELETE", { "mcp-session-id": session })), 404);
    expect(again.error.message).toBe("Session not found: it already ended or expired");
    // Other sessions are untouched.
    expect((await app.fetch(inSession(other, list()))).status).toBe(200);
  });

  it("answers 400 without a session id", async () => {
    const { app } = server();
    const answer = await errorOf(await app.fetch(bare("DELETE")), 400);
    expect(answer.error.message).toBe(
      "Bad Request: the Mcp-Session-Id header is required; send the id of the session to end, as initialize's answer gave it",
    );
  });

  it("cancels the session's requests in flight and ends its streams", async () => {
    const { app, started, aborted } = server();
    const session = await initialize(app);
    const stream = new EventReader(
      await app.fetch(bare("GET", { accept: "text/event-stream", "mcp-session-id": session })),
    );
    expect((await stream.next())?.data).toBe("");
    const pending = app.fetch(inSession(session, call(1, "wait")));
    await within(started.promise);
    expect((await app.fetch(bare("DELETE", { "mcp-session-id": session }))).status).toBe(200);
    await within(aborted.promise, 2000, "the request being cancelled");
    expect(await stream.rest()).toEqual([]);
    // Answered with why, not an empty stream its client would resume into a 404 (test/http-session-end.test.ts).
    const answered = await pending;
    expect(answered.headers.get("content-type")).toBe("application/json");
    expect(await answered.json()).toMatchObject({
      id: 1,
      error: { code: -32600, message: expect.stringMatching(/^Session ended: /) },
    });
  });
});

describe("idle expiry", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("forgets a session idle for longer than idleTimeoutMs; its id then answers 404", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { app } = server({ sessions: { idleTimeoutMs: 1000 } });
    const session = await initialize(app);
    vi.setSystemTime(start + 600);
    expect((await app.fetch(inSession(session, list()))).status).toBe(200);
    // 1200 ms after it started, but only 600 ms after it was last used.
    vi.setSystemTime(start + 1200);
    expect((await app.fetch(inSession(session, list()))).status).toBe(200);
    vi.setSystemTime(start + 2300);
    const answer = await errorOf(await app.fetch(inSession(session, list())), 404);
    expect(answer.error.message).toMatch(/^Session not found/);
    expect((await app.fetch(bare("DELETE", { "mcp-session-id": session }))).status).toBe(404);
  });

  it("keeps a session used again just before its timeout, though it was opened first, and forgets the one opened after it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { app } = server({ sessions: { idleTimeoutMs: 1000 } });
    const first = await initialize(app);
    const second = await initialize(app);
    vi.setSystemTime(start + 999);
    expect((await app.fetch(inSession(first, list()))).status).toBe(200);
    // The first is idle 1 ms short of idleTimeoutMs, the second longer: the first opened first,
    // and is looked at first, but its last use is what counts.
    vi.setSystemTime(start + 1998);
    expect((await app.fetch(inSession(second, list()))).status).toBe(404);
    expect((await app.fetch(inSession(first, list()))).status).toBe(200);
  });

  it("expires exactly across the 12 days after which the store counts last uses from 0 again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const day = 24 * 60 * 60_000;
    const { app } = server({ sessions: { idleTimeoutMs: 20 * day } });
    const kept = await initialize(app);
    const expired = await initialize(app);
    const late = await initialize(app);
    // Past 2^30 ms (12.4 days) since the store began: its clock starts again from 0 with this request.
    vi.setSystemTime(start + 13 * day);
    expect((await app.fetch(inSession(late, list()))).status).toBe(200);
    // Idle a millisecond short of idleTimeoutMs, across the restart: kept; idle exactly that: gone.
    vi.setSystemTime(start + 20 * day - 1);
    expect((await app.fetch(inSession(kept, list()))).status).toBe(200);
    vi.setSystemTime(start + 20 * day);
    expect((await app.fetch(inSession(expired, list()))).status).toBe(404);
    // Used on the new clock, idle exactly idleTimeoutMs: gone; the one used since, kept.
    vi.setSystemTime(start + 33 * day);
    expect((await app.fetch(inSession(late, list()))).status).toBe(404);
    expect((await app.fetch(inSession(kept, list()))).status).toBe(200);
  });

  it("keeps a session that holds a stream open", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { app } = server({ sessions: { idleTimeoutMs: 1000 } });
    const watched = await initialize(app);
    const idle = await initialize(app);
    const stream = new EventReader(
      await app.fetch(bare("GET", { accept: "text/event-stream", "mcp-session-id": watched })),
    );
    await stream.next();
    vi.setSystemTime(start + 5000);
    expect((await app.fetch(inSession(idle, list()))).status).toBe(404);
    expect((await app.fetch(inSession(watched, list()))).status).toBe(200);
    await stream.cancel();
  });

  it("keeps a session whose request is still in progress, answered with JSON (no stream open)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    let finish: (text: string) => void = () => {};
    const app = pico({ name: "slow", http: { sessions: { idleTimeoutMs: 1000 } } }).tool("slow", {
      run: () => new Promise<string>((resolve) => (finish = resolve)),
    });
    const working = await initialize(app);
    const idle = await initialize(app);
    const answer = app.fetch(inSession(working, call(2, "slow"), { accept: "application/json" }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    vi.setSystemTime(start + 5000);
    // The next request sweeps: the idle session goes, the working one stays, and its call is answered.
    expect((await app.fetch(inSession(idle, list()))).status).toBe(404);
    finish("done");
    const answered = (await (await answer).json()) as { result: { content: { text: string }[] } };
    expect(answered.result.content[0]!.text).toBe("done");
    expect((await app.fetch(inSession(working, list()))).status).toBe(200);
  });

  it("looks at an idle session holding a stream once, not again on every request after", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { app } = server({ sessions: { idleTimeoutMs: 1000 } });
    const streams: EventReader[] = [];
    for (let i = 0; i < 3; i++) {
      const watched = await initialize(app);
      const stream = new EventReader(
        await app.fetch(bare("GET", { accept: "text/event-stream", "mcp-session-id": watched })),
      );
      await stream.next();
      streams.push(stream);
    }
    vi.setSystemTime(start + 5000);
    const active = await initialize(app);
    const inUse = vi.spyOn(HttpSession.prototype, "inUse", "get");
    for (let i = 0; i < 10; i++) expect((await app.fetch(inSession(active, list()))).status).toBe(200);
    // The first sweep (at initialize) found the three holding streams in use and marked them used:
    // no session can expire before idleTimeoutMs after it, so no request until then sweeps.
    expect(inUse).not.toHaveBeenCalled();
    inUse.mockRestore();
    for (const stream of streams) await stream.cancel();
  });
});

describe("idle expiry after a stream", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("counts the time a stream was open as activity, so a dropped stream can be resumed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { app } = server({ sessions: { idleTimeoutMs: 1000 } });
    const session = await initialize(app);
    const stream = new EventReader(
      await app.fetch(bare("GET", { accept: "text/event-stream", "mcp-session-id": session })),
    );
    expect((await stream.next())?.id).toBe("0-0");
    // The stream stays open well past the idle timeout, then the connection drops.
    vi.setSystemTime(start + 5000);
    await stream.cancel();
    const resumed = await app.fetch(
      bare("GET", { accept: "text/event-stream", "mcp-session-id": session, "last-event-id": "0-0" }),
    );
    expect(resumed.status).toBe(200);
    await resumed.body?.cancel();
    vi.setSystemTime(start + 5500);
    expect((await app.fetch(inSession(session, list()))).status).toBe(200);
  });

  it("forgets a session idle for longer than idleTimeoutMs though a session used before it closed a stream since", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { app } = server({ sessions: { idleTimeoutMs: 1000 } });
    const watched = await initialize(app);
    const stream = new EventReader(
      await app.fetch(bare("GET", { accept: "text/event-stream", "mcp-session-id": watched })),
    );
    await stream.next();
    const idle = await initialize(app);
    vi.setSystemTime(start + 900);
    expect((await app.fetch(inSession(idle, list()))).status).toBe(200);
    // The stream closes after the idle session's last use: that session is still the one idle longest.
    vi.setSystemTime(start + 1500);
    await stream.cancel();
    vi.setSystemTime(start + 2000);
    // Idle 1100 ms: gone (was: served, the sweep stopping at the session whose stream closed, older in its order).
    expect((await app.fetch(inSession(idle, list()))).status).toBe(404);
    expect((await app.fetch(inSession(watched, list()))).status).toBe(200);
  });
});

describe("maxSessions", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("evicts the least recently used session; its id answers 404", async () => {
    // Last uses count to the millisecond: each use here is a millisecond after the one before.
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { app } = server({ sessions: { maxSessions: 2 } });
    const a = await initialize(app);
    const b = await initialize(app);
    vi.setSystemTime(start + 1);
    expect((await app.fetch(inSession(a, list()))).status).toBe(200);
    vi.setSystemTime(start + 2);
    const c = await initialize(app);
    expect((await app.fetch(inSession(b, list()))).status).toBe(404);
    vi.setSystemTime(start + 3);
    expect((await app.fetch(inSession(a, list()))).status).toBe(200);
    vi.setSystemTime(start + 4);
    expect((await app.fetch(inSession(c, list()))).status).toBe(200);
    // A was used before C: A goes next.
    const d = await initialize(app);
    expect((await app.fetch(inSession(a, list()))).status).toBe(404);
    expect((await app.fetch(inSession(c, list()))).status).toBe(200);
    expect((await app.fetch(inSession(d, list()))).status).toBe(200);
  });

  it("evicts in order of last use, not of opening", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.now();
    const { app } = server({ sessions: { maxSessions: 3 } });
    const opened = [await initialize(app), await initialize(app), await initialize(app)];
    // Used in the reverse order of their opening, a millisecond apart: the last opened is now the least recently used.
    for (const [i, id] of [...opened].reverse().entries()) {
      vi.setSystemTime(start + 1 + i);
      expect((await app.fetch(inSession(id, list()))).status).toBe(200);
    }
    await initialize(app);
    expect((await app.fetch(inSession(opened[2]!, list()))).status).toBe(404);
    await initialize(app);
    expect((await app.fetch(inSession(opened[1]!, list()))).status).toBe(404);
    expect((await app.fetch(inSession(opened[0]!, list()))).status).toBe(200);
  });

  it("evicts an idle session before one in use, however long ago that one was used", async () => {
    const { app, started } = server({ sessions: { maxSessions: 2 } });
    const busy = await initialize(app);
    const pending = app.fetch(inSession(busy, call(1, "wait")));
    await within(started.promise);
    const idle = await initialize(app);
    expect((await app.fetch(inSession(idle, list()))).status).toBe(200);
    // The busy session was used least recently, but its call is in progress: the idle one goes (was:
    // the busy one, its call cancelled, so a flood of initialize requests cut off work in progress).
    const fresh = await initialize(app);
    expect((await app.fetch(inSession(idle, list()))).status).toBe(404);
    expect((await app.fetch(inSession(busy, list()))).status).toBe(200);
    expect((await app.fetch(inSession(fresh, list()))).status).toBe(200);
    expect((await app.fetch(bare("DELETE", { "mcp-session-id": busy }))).status).toBe(200);
    await pending;
  });

  it("ends an evicted session cleanly: its stream ends, its requests are cancelled, every later use is 404", async () => {
    const { app, started, aborted } = server({ sessions: { maxSessions: 1 } });
    const evicted = await initialize(app);
    const stream = new EventReader(
      await app.fetch(bare("GET", { accept: "text/event-stream", "mcp-session-id": evicted })),
    );
    await stream.next();
    const pending = app.fetch(inSession(evicted, call(1, "wait")));
    await within(started.promise);
    const fresh = await initialize(app);
    await within(aborted.promise, 2000, "the evicted session's request being cancelled");
    expect(await stream.rest()).toEqual([]);
    // Answered with why, not an empty stream its client would resume into a 404 (test/http-session-end.test.ts).
    const answered = await pending;
    expect(answered.headers.get("content-type")).toBe("application/json");
    expect(await answered.json()).toMatchObject({
      id: 1,
      error: { code: -32600, message: expect.stringMatching(/^Session ended: /) },
    });
    for (const request of [
      inSession(evicted, list()),
      inSession(evicted, { jsonrpc: "2.0", method: "notifications/initialized" }),
      bare("GET", { accept: "text/event-stream", "mcp-session-id": evicted }),
      bare("GET", { accept: "text/event-stream", "mcp-session-id": evicted, "last-event-id": "0-0" }),
      bare("DELETE", { "mcp-session-id": evicted }),
    ]) {
      expect((await app.fetch(request)).status).toBe(404);
    }
    expect((await app.fetch(inSession(fresh, list()))).status).toBe(200);
  });
});

describe("stateless legacy mode (sessions: false)", () => {
  it("answers initialize without a session id", async () => {
    const { app } = server({ sessions: false });
    const response = await app.fetch(
      post({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {} },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect((await response.json()).result.protocolVersion).toBe("2025-11-25");
  });

  it("serves each request on its own, with or without the version header, ignoring any session id", async () => {
    const { app } = server({ sessions: false });
    for (const headers of [{}, { "mcp-protocol-version": "2025-06-18" }, { "mcp-session-id": "anything" }]) {
      const response = await app.fetch(post(call(1, "echo", { text: "x" }), headers));
      expect(response.status).toBe(200);
      expect(response.headers.get("mcp-session-id")).toBeNull();
      expect(await response.json()).toEqual({
        jsonrpc: "2.0",
        id: 1,
        result: { content: [{ type: "text", text: "x" }] },
      });
    }
    const bad = await errorOf(await app.fetch(post(list(), { "mcp-protocol-version": "2024-01-01" })), 400);
    expect(bad.error.code).toBe(ErrorCode.InvalidRequest);
  });

  it("accepts notifications and client responses with 202", async () => {
    const { app } = server({ sessions: false });
    for (const body of [
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 1, result: {} },
    ]) {
      const response = await app.fetch(post(body));
      expect(response.status).toBe(202);
      expect(await response.text()).toBe("");
    }
  });

  it("answers GET and DELETE with 405", async () => {
    const { app } = server({ sessions: false });
    for (const method of ["GET", "DELETE"]) {
      const response = await app.fetch(bare(method, { accept: "text/event-stream" }));
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
  });

  it("cancels a request when its client goes away", async () => {
    const { app, started, aborted } = server({ sessions: false });
    const client = new AbortController();
    const pending = app.fetch(post(call(1, "wait"), {}, { signal: client.signal }));
    await within(started.promise);
    client.abort();
    await within(aborted.promise, 2000, "ctx.signal aborting");
    expect((await pending).status).toBe(202);
  });
});
