import { afterAll, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { Child, call, killChildren, MODERN_META } from "./hardening-helpers.js";
import { BOTH, EventReader, MODERN, messageOf } from "./http-helpers.js";
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
        error: { code: -32603, message: "Server shutting down: it accepts no new requests" },
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
      const opened = await post(undefined, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: { elicitation: { form: {} } },
          clientInfo: { name: "t", version: "1" },
        },
      });
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
        error: { code: -32603, message: "Server shutting down: it accepts no new requests" },
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
