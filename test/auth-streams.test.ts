/**
 * Authorization on streamed (SSE) replies, as docs/authorization.md promises it for JSON ones: the
 * raw bearer token cut out of everything a request's stream carries (notifications, its result, and
 * what a 2025 session keeps for a resume), and a refusal answered as a 401/403 challenge while the
 * reply's status has not gone out, or in-band (the challenge in the result's `_meta`) once it has.
 * Both eras, through `server.fetch`.
 */
import { describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { bare, ENDPOINT, EventReader, messageOf, modern, post, type SseEvent, signal, within } from "./http-helpers.js";

const READER = "opaque-reader-7f3a9c41d2";
const WRITER = "opaque-writer-0b8e5d62aa";

/** A server whose `echo` tool leaks the token it was told (a careless handler) into a progress and its result. */
function leaky() {
  let leaked = "";
  const released = signal();
  const server = pico({
    name: "streams",
    version: "1.0.0",
    auth: {
      verify: async (token) =>
        token === READER || token === WRITER
          ? { subject: "ada", audience: ENDPOINT, scopes: token === WRITER ? ["notes:write"] : ["notes:read"] }
          : undefined,
      resource: ENDPOINT,
      authorizationServers: ["https://auth.example.com"],
      scopesSupported: ["notes:read"],
    },
  })
    .tool("echo", {
      description: "Says what it was told.",
      run: (_args, ctx) => {
        ctx.progress(1, 2, `checking ${leaked}`);
        return `done with ${leaked}`;
      },
    })
    .tool("write", { description: "Writes.", auth: { scopes: ["notes:write"] }, run: () => "written" })
    .tool("keyed", {
      description: "Logs what it was told as a key and as a value.",
      run: (_args, ctx) => {
        ctx.log.info({ [leaked]: "as a key", value: leaked });
        return "logged";
      },
    });
  // An audit step that reports progress, then waits: the reply is a stream whose status has gone out.
  server.use({ tool: "write" }, async ({ ctx }, next) => {
    ctx.progress(0, 1, "audited");
    await released.promise;
    return next();
  });
  return {
    server,
    leak: (token: string) => {
      leaked = token;
    },
    release: released.resolve,
  };
}

type Server = ReturnType<typeof leaky>["server"];

/** A caller of each era, with a token: its tool calls, and the headers of its requests (a 2025 session's too). */
interface Caller {
  call(name: string, accept?: string): Request;
  headers: Record<string, string>;
}

const eras: Record<"modern" | "legacy", (server: Server, token: string) => Promise<Caller>> = {
  modern: async (_server, token) => {
    const headers = { authorization: `Bearer ${token}` };
    const params = (name: string) => ({
      name,
      arguments: {},
      _meta: { progressToken: "p", "io.modelcontextprotocol/logLevel": "info" },
    });
    return { headers, call: (name, accept) => modern("tools/call", params(name), { ...headers, accept }) };
  },
  legacy: async (server, token) => {
    const headers = await openSession(server, token);
    let id = 1;
    const message = (name: string) => ({
      jsonrpc: "2.0",
      id: id++,
      method: "tools/call",
      params: { name, arguments: {}, _meta: { progressToken: "p" } },
    });
    return { headers, call: (name, accept) => post(message(name), { ...headers, accept }) };
  },
};

/** A 2025 session of the caller of `token`, initialized: the headers of its requests. */
async function openSession(
  server: Server,
  token: string,
  { protocolVersion = "2025-11-25", capabilities = {} }: { protocolVersion?: string; capabilities?: object } = {},
): Promise<Record<string, string>> {
  const authorization = `Bearer ${token}`;
  const params = { protocolVersion, capabilities, clientInfo: { name: "test", version: "1" } };
  const opened = await server.fetch(post({ jsonrpc: "2.0", id: 0, method: "initialize", params }, { authorization }));
  expect(opened.status).toBe(200);
  await opened.json();
  const headers = {
    authorization,
    "mcp-session-id": opened.headers.get("mcp-session-id")!,
    "mcp-protocol-version": protocolVersion,
  };
  const initialized = await server.fetch(post({ jsonrpc: "2.0", method: "notifications/initialized" }, headers));
  expect(initialized.status).toBe(202);
  return headers;
}

/** The messages of a stream, read to its end (a priming event, with no data, carries none). */
async function messages(response: Response): Promise<Record<string, unknown>[]> {
  const events = await within(new EventReader(response).rest());
  return events.filter((event) => event.data !== "").map((event) => messageOf(event));
}

describe.each(["modern", "legacy"] as const)("a streamed reply under auth (%s era)", (era) => {
  it("carries no raw token: not in a notification, not in the result, not in what a resume replays", async () => {
    const { server, leak } = leaky();
    leak(READER);
    const { call, headers } = await eras[era](server, READER);
    const response = await server.fetch(call("echo"));
    expect(response.status).toBe(200);
    const body = await within(response.text());
    expect(body).not.toContain(READER);
    expect(body).toContain("checking [redacted]");
    expect(body).toContain("done with [redacted]");
    if (era === "legacy") {
      // A 2025 session keeps the stream's events for a resume: they were kept without the token.
      const priming = /^id: (\S+)$/m.exec(body)![1]!;
      const resumed = await server.fetch(
        bare("GET", { ...headers, accept: "text/event-stream", "last-event-id": priming }),
      );
      expect(resumed.status).toBe(200);
      const replayed = await within(resumed.text());
      expect(replayed).toContain("done with [redacted]");
      expect(replayed).not.toContain(READER);
    }
  });

  it("cuts the token out of a key of a notification as out of a value, and out of what a resume replays", async () => {
    const { server, leak } = leaky();
    leak(READER);
    const { call, headers } = await eras[era](server, READER);
    const response = await server.fetch(call("keyed"));
    expect(response.status).toBe(200);
    const body = await within(response.text());
    const log = (text: string) => JSON.parse(/^data: (.*notifications\/message.*)$/m.exec(text)![1]!).params.data;
    // Was: { "opaque-reader-…": "as a key", value: "[redacted]" }, the key sent and kept as it was.
    expect(log(body)).toEqual({ "[redacted]": "as a key", value: "[redacted]" });
    expect(body).not.toContain(READER);
    if (era === "legacy") {
      const priming = /^id: (\S+)$/m.exec(body)![1]!;
      const resumed = await server.fetch(
        bare("GET", { ...headers, accept: "text/event-stream", "last-event-id": priming }),
      );
      const replayed = await within(resumed.text());
      expect(log(replayed)).toEqual({ "[redacted]": "as a key", value: "[redacted]" });
      expect(replayed).not.toContain(READER);
    }
  });

  it("answers a client that takes only event streams with the 403 challenge, not a 200 stream", async () => {
    const { server, release } = leaky();
    release();
    const { call } = await eras[era](server, READER);
    const response = await server.fetch(call("write", "text/event-stream"));
    expect(response.status).toBe(403);
    const challenge = response.headers.get("www-authenticate");
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="notes:write notes:read"');
    await response.body?.cancel();
    // The scope it asked for is enough.
    const writer = await eras[era](server, WRITER);
    const written = await server.fetch(writer.call("write", "text/event-stream"));
    expect(written.status).toBe(200);
    expect((await messages(written)).at(-1)?.result).toMatchObject({ content: [{ type: "text", text: "written" }] });
  });

  it("says a refusal in-band once the stream's 200 has gone out: the challenge in the result's _meta", async () => {
    const { server, release } = leaky();
    const { call } = await eras[era](server, READER);
    const response = await server.fetch(call("write"));
    // The audit's progress made the reply a stream, and its status is out before the caller is checked.
    expect(response.status).toBe(200);
    expect(response.headers.get("www-authenticate")).toBeNull();
    release();
    const answer = (await messages(response)).at(-1)!;
    const result = answer.result as { isError: boolean; content: { text: string }[]; _meta: Record<string, string[]> };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain("notes:write");
    const [challenge] = result._meta["mcp/www_authenticate"]!;
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain(
      'resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp", scope="notes:write notes:read"',
    );
  });
});

/**
 * A 2025-11-25 session's GET stream is the session's, not a request's: what goes there (the question
 * of a request whose client takes no stream on its POST, a notification of a 2025-03-26 batch) has
 * every token the session's requests presented cut out, before the session keeps it for a resume.
 */
describe("a session's GET stream under auth", () => {
  /** A server whose `ask` tool asks with, and whose `count` tool reports progress with, the token it was told. */
  function asking() {
    let leaked = "";
    const server = pico({
      name: "standalone",
      version: "1.0.0",
      auth: {
        // Two tokens of one caller (a refresh): same subject, no issuer, so one owner.
        verify: async (token) =>
          token === READER || token === WRITER ? { subject: "ada", audience: ENDPOINT } : undefined,
        resource: ENDPOINT,
        authorizationServers: ["https://auth.example.com"],
      },
    })
      .tool("ask", {
        description: "Asks before answering.",
        run: async (_args, ctx) => ((await ctx.confirm(`Use ${leaked}?`)) ? `used ${leaked}` : "not used"),
      })
      .tool("count", {
        description: "Counts.",
        run: (_args, ctx) => {
          ctx.progress(1, 2, `counting with ${leaked}`);
          return "counted";
        },
      });
    return { server, leak: (token: string) => (leaked = token) };
  }

  /** A session of a client that elicits (its questions go to the GET stream). */
  const open = (server: Server, token: string, protocolVersion?: string) =>
    openSession(server, token, { protocolVersion, capabilities: { elicitation: { form: {} } } });

  /** Reads the GET stream until a message `method` arrives (a bounded number of events): its event, and the priming id. */
  async function until(events: EventReader, method: string): Promise<{ event: SseEvent; priming: string }> {
    let priming = "";
    for (let read = 0; read < 5; read++) {
      const event = await events.next(5000);
      if (!event) break;
      if (event.data === "") priming ||= event.id ?? "";
      else if (messageOf(event).method === method) return { event, priming };
    }
    throw new Error(`no ${method} on the GET stream`);
  }

  /** A JSON-only call's question on the GET stream: answered, and what a resume of the stream replays. */
  async function askOverGet(server: Server, session: Record<string, string>, caller: Record<string, string>) {
    const get = await server.fetch(bare("GET", { ...session, accept: "text/event-stream" }));
    expect(get.status).toBe(200);
    const events = new EventReader(get);
    const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "ask", arguments: {} } };
    const answer = server.fetch(post(call, { ...caller, accept: "application/json" }));
    const { event, priming } = await until(events, "elicitation/create");
    const question = messageOf(event) as { id: string; params: { message: string } };
    const replied = await server.fetch(
      post({ jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { confirm: true } } }, caller),
    );
    expect(replied.status).toBe(202);
    const result = (await (await within(answer)).json()) as { result: { content: { text: string }[] } };
    await events.cancel();
    const resumed = await server.fetch(
      bare("GET", { ...session, accept: "text/event-stream", "last-event-id": priming }),
    );
    expect(resumed.status).toBe(200);
    const reader = new EventReader(resumed);
    const replayed = (await until(reader, "elicitation/create")).event.data;
    await reader.cancel();
    return { data: event.data, message: question.params.message, result: result.result.content[0]!.text, replayed };
  }

  it("cuts the token out of a question asked there, and out of what a resume replays", async () => {
    const { server, leak } = asking();
    leak(READER);
    const session = await open(server, READER);
    const asked = await askOverGet(server, session, session);
    expect(asked.data).not.toContain(READER);
    expect(asked.message).toBe("Use [redacted]?");
    expect(asked.replayed).not.toContain(READER);
    expect(asked.replayed).toContain("Use [redacted]?");
    // The JSON reply to the call is redacted as before.
    expect(asked.result).toBe("used [redacted]");
  });

  it("cuts out a token the session presented earlier, not only the asking request's (a refresh)", async () => {
    const { server, leak } = asking();
    const session = await open(server, READER);
    // The question carries the session's first token; the request that asks presents the refreshed one.
    leak(READER);
    const refreshed = { ...session, authorization: `Bearer ${WRITER}` };
    const asked = await askOverGet(server, session, refreshed);
    expect(asked.data).not.toContain(READER);
    expect(asked.message).toBe("Use [redacted]?");
    expect(asked.replayed).not.toContain(READER);
  });

  it("cuts the token out of a notification a 2025-03-26 batch sends there", async () => {
    const { server, leak } = asking();
    leak(READER);
    const session = await open(server, READER, "2025-03-26");
    const get = await server.fetch(bare("GET", { ...session, accept: "text/event-stream" }));
    expect(get.status).toBe(200);
    const events = new EventReader(get);
    const call = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "count", arguments: {}, _meta: { progressToken: "p" } },
    };
    const batch = await server.fetch(post([call], session));
    expect(batch.status).toBe(200);
    await batch.json();
    const { event } = await until(events, "notifications/progress");
    await events.cancel();
    expect(event.data).not.toContain(READER);
    expect((messageOf(event).params as { message: string }).message).toBe("counting with [redacted]");
  });
});
