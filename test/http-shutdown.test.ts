import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { registryOf } from "../src/server.js";
import { AFTER_SHUTDOWN, Child, call, killChildren, MODERN_META } from "./hardening-helpers.js";
import {
  BOTH,
  bare,
  ELICITING_INITIALIZE,
  EventReader,
  initialize,
  liveListeners,
  MODERN,
  messageOf,
  signal,
  within,
} from "./http-helpers.js";
import { recordingFetch } from "./peers/http-fixture.js";
import { RawClient, requestHead } from "./socket-helpers.js";

/**
 * SIGTERM on serve({ port }) in a child process: during the grace period the listener keeps
 * accepting, so a request that arrives then is answered 503 with `Connection: close` and a JSON-RPC
 * error (on a new connection and on an idle keep-alive one), never refused or reset, while the
 * request in progress finishes.
 */

afterAll(killChildren);

const HEADERS = {
  "content-type": "application/json",
  accept: BOTH,
  "mcp-protocol-version": MODERN,
  "mcp-method": "tools/call",
};

/** A raw echo call on `client`, kept alive unless the server says otherwise. */
async function echo(client: RawClient, port: number, id: number) {
  const body = JSON.stringify(call(id, "echo", { s: "hi" }));
  await client.write(
    requestHead("POST", "/mcp", {
      host: `127.0.0.1:${port}`,
      "content-length": String(body.length),
      "mcp-name": "echo",
      ...HEADERS,
    }) + body,
  );
  return client.fullResponse(5000);
}

describe("SIGTERM on serve({ port })", () => {
  it("answers requests that arrive during the grace period with 503 and Connection: close, and finishes the one in progress", async () => {
    const child = new Child({ HARDEN_HTTP: "1", HARDEN_GRACE: "10000" });
    await child.until(() => child.lines.length > 0, 10_000, "the URL");
    const { url } = JSON.parse(child.lines[0]!) as { url: string };
    const port = Number(new URL(url).port);

    // A keep-alive connection that served one request and sits idle when the signal comes.
    const idle = await RawClient.connect(port);
    expect((await echo(idle, port, 1)).status).toBe(200);

    const slow = await fetch(url, {
      method: "POST",
      headers: { ...HEADERS, "mcp-name": "slow" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "slow", arguments: { ms: 1500 }, _meta: { ...MODERN_META, progressToken: "p" } },
      }),
    });
    const events = new EventReader(slow);
    // The progress event: the call is running on the server.
    expect(messageOf(await events.next(5000))).toMatchObject({ method: "notifications/progress" });

    child.process.kill("SIGTERM");
    await child.until(() => child.stderr.includes("SIGTERM, shutting down"), 5000, "the shutdown");

    const expectRefused = async (client: RawClient, id: number) => {
      const response = await echo(client, port, id);
      expect(response.status).toBe(503);
      expect(response.headers.connection).toBe("close");
      expect(response.headers["retry-after"]).toBe("1");
      expect(JSON.parse(response.body)).toEqual({
        jsonrpc: "2.0",
        id,
        error: {
          code: -32603,
          message:
            "Server shutting down: it accepts no new requests; send this one again in a moment, to another instance of the server or to this one once restarted",
        },
      });
      await client.gone(5000);
    };
    await expectRefused(await RawClient.connect(port), 3);
    await expectRefused(idle, 4);

    const rest = (await events.rest(5000)).map(messageOf);
    expect(rest.at(-1)).toMatchObject({ id: 2, result: { content: [{ type: "text", text: "slept 1500 ms" }] } });
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});

describe("listening.close() while a 2025-11-25 request waits for the client's answer", () => {
  it("takes the answer to the server's question, so the request finishes within the grace period", async () => {
    let asked: () => void = () => {};
    const questionAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const server = pico({ name: "asks", limits: { shutdownGraceMs: 10_000 }, signals: false }).tool("go", {
      description: "Asks before going.",
      run: async (_args, ctx) => {
        const confirmed = ctx.confirm("Go?");
        asked();
        return (await confirmed) ? "went" : "stayed";
      },
    });
    const listening = await server.serve({ port: 0 });
    try {
      const post = (session: string | undefined, body: unknown) =>
        fetch(listening.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: BOTH,
            ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(15_000),
        });
      const opened = await post(undefined, ELICITING_INITIALIZE);
      const session = opened.headers.get("mcp-session-id")!;
      await opened.text();
      expect((await post(session, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
      const events = new EventReader(
        await post(session, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "go" } }),
      );
      await questionAsked;
      let question: { id: unknown; method?: string } | undefined;
      for (let read = 0; read < 5 && question?.method !== "elicitation/create"; read++) {
        const event = await events.next(5000);
        if (event?.data) question = JSON.parse(event.data) as { id: unknown; method?: string };
      }
      expect(question?.method).toBe("elicitation/create");

      const closed = listening.close();
      // A new request is refused, with its id now that its body is read...
      const refused = await post(session, { jsonrpc: "2.0", id: 3, method: "tools/list" });
      expect(refused.status).toBe(503);
      expect(await refused.json()).toEqual({
        jsonrpc: "2.0",
        id: 3,
        error: {
          code: -32603,
          message:
            "Server shutting down: it accepts no new requests; send this one again in a moment, to another instance of the server or to this one once restarted",
        },
      });
      // ...but the answer to the question reaches the request in progress (was: 503, and the call
      // was cut off at the end of the grace period).
      const replied = await post(session, {
        jsonrpc: "2.0",
        id: question!.id,
        result: { action: "accept", content: { confirm: true } },
      });
      expect(replied.status).toBe(202);
      const rest = (await events.rest(15_000)).filter((event) => event.data).map(messageOf);
      expect(rest.at(-1)).toEqual({ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "went" }] } });
      await closed;
    } finally {
      await listening.close();
    }
  });
});

/**
 * A 2025-11-25 client whose POST stream the tool closed (`ctx.closeStream()`, SEP-1699 polling) comes
 * back with GET and Last-Event-ID for the result: a shutdown that begins meanwhile must still let it
 * have the result produced within the grace period. The official v1 client, over `serve({ port })`.
 */
describe("listening.close() while a 2025-11-25 client polls for a result (SEP-1699)", () => {
  async function polling(retryMs: number) {
    const release = signal();
    const detached = signal();
    const server = pico({
      name: "polls",
      limits: { shutdownGraceMs: 10_000 },
      signals: false,
      http: { sessions: { retryMs } },
    }).tool("report", {
      description: "Closes its stream, then answers once the test lets it.",
      run: async (_args, ctx) => {
        ctx.closeStream();
        detached.resolve();
        await release.promise;
        return "the report";
      },
    });
    const listening = await server.serve({ port: 0 });
    const wire = recordingFetch();
    const client = new Client({ name: "poller", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url), { fetch: wire.fetch }));
    const result = client.callTool({ name: "report" }, undefined, { timeout: 15_000 });
    await within(detached.promise, 5000, "the tool closing its stream");
    /** The client's GETs with Last-Event-ID, as the server answered them. */
    const resumes = () => wire.exchanges.filter((each) => each.method === "GET" && each.headers.has("last-event-id"));
    return { listening, client, release, result, resumes };
  }

  it("lets the client resume during the grace period and sends it the result produced then", async () => {
    const { listening, client, release, result, resumes } = await polling(50);
    const closed = listening.close();
    try {
      // The client's GET after the shutdown began is taken (was: 503, and the result never reached it).
      await expect.poll(() => resumes()[0]?.status, { timeout: 5000 }).toBe(200);
      release.resolve();
      expect(await result).toEqual({ content: [{ type: "text", text: "the report" }] });
      await closed;
    } finally {
      release.resolve();
      await client.close();
      await listening.close();
    }
  });

  it("keeps a result produced before the client came back until it does, within the grace period", async () => {
    const { listening, client, release, result, resumes } = await polling(1000);
    const closed = listening.close();
    try {
      // The result is ready at once, while the client waits its retry interval before polling (was:
      // the sessions and the listener closed with it undelivered, and the client's GET was refused).
      release.resolve();
      expect(await result).toEqual({ content: [{ type: "text", text: "the report" }] });
      expect(resumes().map((each) => each.status)).toEqual([200]);
      await closed;
    } finally {
      await client.close();
      await listening.close();
    }
  });
});

/**
 * The first stream of a server opens during the grace period: its answer, kept for a client that
 * polls for it (SEP-1699), is waited for as the answers of streams opened before the shutdown are.
 */
describe("listening.close() before the server's first event stream opens", () => {
  it("keeps the answer of a stream opened during the grace period until the client comes back for it", async () => {
    const go = signal();
    const running = signal();
    const server = pico({
      name: "late-stream",
      limits: { shutdownGraceMs: 10_000 },
      signals: false,
      http: { sessions: { retryMs: 1000 } },
    }).tool("report", {
      description: "Waits until the test lets it, closes its stream, then answers at once.",
      run: async (_args, ctx) => {
        running.resolve();
        await go.promise;
        ctx.closeStream();
        return "the report";
      },
    });
    const listening = await server.serve({ port: 0 });
    const client = new Client({ name: "poller", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
    try {
      const result = client.callTool({ name: "report" }, undefined, { timeout: 15_000 });
      // The call runs, answered by neither JSON nor a stream yet, when the shutdown begins.
      await within(running.promise, 5000, "the tool running");
      const closed = listening.close();
      go.resolve();
      // Was: the shutdown did not wait for the kept answer, and the client's GET found the listener closed.
      expect(await result).toEqual({ content: [{ type: "text", text: "the report" }] });
      await closed;
    } finally {
      go.resolve();
      await client.close();
      await listening.close();
    }
  });
});

/**
 * A request the shutdown cancels at the end of its grace period is answered 503 with words the model
 * can act on: it may have been partly done, and another instance of the server, or this one once
 * restarted, answers it sent again. Each era's official client over serve({ port }).
 */
describe("server.close() whose grace period ends with a request in progress", () => {
  it.each(["2025-11-25 (official v1 client)", "2026-07-28 (official v2 client)"])(
    "answers a %s with 503 and what to do",
    async (era) => {
      const running = signal();
      const server = pico({ name: "hangs", limits: { shutdownGraceMs: 50 }, signals: false }).tool("hang", {
        description: "Never answers.",
        run: () => {
          running.resolve();
          return new Promise(() => {});
        },
      });
      const listening = await server.serve({ port: 0 });
      const wire = recordingFetch();
      const url = new URL(listening.url);
      const client = era.startsWith("2025")
        ? new Client({ name: "v1", version: "1.0.0" })
        : new ModernClient({ name: "v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
      await client.connect(
        era.startsWith("2025")
          ? new StreamableHTTPClientTransport(url, { fetch: wire.fetch })
          : new ModernTransport(url, { fetch: wire.fetch }),
      );
      try {
        const calling = client.callTool({ name: "hang" });
        calling.catch(() => {});
        await within(running.promise, 5000, "the tool running");
        await listening.close();
        // The client fails the call with the body of the 503 (a client retries elsewhere on it).
        await expect(calling).rejects.toThrow(/Error POSTing to endpoint/);
        const answered = wire.exchanges.find((each) => each.method === "POST" && each.status === 503);
        await expect.poll(() => answered?.done).toBe(true);
        // Was: '… did not finish within … and was cancelled', and no word of what to do.
        expect(JSON.parse(answered!.text).error).toEqual({
          code: -32603,
          message:
            'Server shutting down: "tools/call" did not finish within the 0.05 s grace period of the shutdown ' +
            `(limits.shutdownGraceMs) and was cancelled${AFTER_SHUTDOWN}`,
        });
      } finally {
        await client.close();
      }
    },
  );
});

describe("server.close() after server.fetch, then serve({ port })", () => {
  it("ends the sessions of both endpoints, and leaves no listener on the registry", async () => {
    const server = pico({ name: "two-endpoints", version: "1.0.0", signals: false }).tool("echo", {
      description: "Echoes.",
      run: () => "hi",
    });
    const live = liveListeners(registryOf(server as never));
    // A session of the endpoint server.fetch made, its GET stream open.
    const session = await initialize(server);
    const stream = await server.fetch(
      bare("GET", { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }),
    );
    expect(stream.status).toBe(200);
    const reader = new EventReader(stream);
    const listening = await server.serve({ port: 0, host: "127.0.0.1" });
    try {
      await server.close();
      // Was: only the endpoint of serve({ port }) closed; the session of server.fetch's stayed, its stream open.
      await reader.rest();
      // Was: 1, that session store's subscription.
      expect(live()).toBe(0);
    } finally {
      await listening.close();
    }
  });
});
