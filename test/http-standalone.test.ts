/**
 * The standalone GET stream of a 2025-11-25 session over a real loopback listener: what the server
 * sends on its own before the client opens it waits there, so a question asked of a client whose
 * POST takes only JSON reaches it on its first GET stream, and the answer completes the call
 * (docs/limits.md: "a legacy question travels on the session's GET stream instead").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import type { Listening } from "../src/transports/listen.js";
import { ELICITING_INITIALIZE, EventReader } from "./http-helpers.js";

let asked: () => void = () => {};
const questionAsked = new Promise<void>((resolve) => {
  asked = resolve;
});

const server = pico({ name: "standalone" }).tool("go", {
  description: "Asks before going.",
  run: async (_args, ctx) => {
    const confirmed = ctx.confirm("Go?");
    asked();
    return (await confirmed) ? "went" : "stayed";
  },
});

let listening: Listening;
beforeAll(async () => {
  listening = await server.serve({ port: 0 });
});
afterAll(async () => {
  await listening.close();
});

function post(session: string | undefined, body: unknown, accept = "application/json, text/event-stream") {
  const headers: Record<string, string> = { "content-type": "application/json", accept };
  if (session) {
    headers["mcp-session-id"] = session;
    headers["mcp-protocol-version"] = "2025-11-25";
  }
  return fetch(listening.url, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
}

describe("the standalone GET stream", () => {
  it("carries a question asked before the client opened it, and the answer completes the call", async () => {
    const opened = await post(undefined, ELICITING_INITIALIZE);
    const session = opened.headers.get("mcp-session-id")!;
    await opened.text();
    expect((await post(session, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);

    // A client that takes only JSON on its POST: the question cannot travel with the answer.
    const answer = post(
      session,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "go" } },
      "application/json",
    );
    await questionAsked;
    // The question's code loads before it is sent: give it its turn before the GET stream opens.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const get = await fetch(listening.url, {
      headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
    });
    expect(get.status).toBe(200);
    const events = new EventReader(get);
    let question: { id: unknown; method: string } | undefined;
    for (let read = 0; read < 5 && !question; read++) {
      const event = await events.next(5000);
      if (!event?.data) continue;
      const message = JSON.parse(event.data) as { id: unknown; method: string };
      if (message.method === "elicitation/create") question = message;
    }
    expect(question).toBeDefined();
    const replied = await post(session, {
      jsonrpc: "2.0",
      id: question!.id,
      result: { action: "accept", content: { confirm: true } },
    });
    expect(replied.status).toBe(202);
    const result = (await (await answer).json()) as { result: { content: { text: string }[] } };
    expect(result.result.content[0]!.text).toBe("went");
    await events.cancel();
  });
});
