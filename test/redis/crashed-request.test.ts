/**
 * A 2025-11-25 request whose instance crashed (SIGKILL) while it ran, its stream resumed with
 * `Last-Event-ID` on another instance sharing a real Redis (docs/scaling.md "Deploys, crashes and a
 * Redis outage"): once the crashed instance's lease has run out, the resumed stream sends the
 * request's JSON-RPC error response, saying the instance stopped and to send the request again, and
 * ends, as the stream of any answered request does. Two child processes
 * (test/fixtures/scaling-server.ts) with leases of 900 ms; every wait is bounded by a generous
 * limit (a failure guard, not a timing). Skipped (with the install command as the reason) without
 * redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { EventReader, failure, onceFound, signal, within } from "../http-helpers.js";
import { Cluster } from "./cluster.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();
let cluster: Cluster | undefined;
let prefixes = 0;

afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

const STOPPED = "The server instance running this request stopped before it finished; send the request again";

/** Far longer than a lease of 900 ms and the poll of a resumed stream: past it the stream was left open. */
const LIMIT_MS = 15_000;

/**
 * A tool call that sends one progress notification, then runs for ten minutes
 * (test/fixtures/scaling-server.ts's `steps`): what the client holds last is that event, which the
 * test sees copied to Redis before it kills the instance.
 */
const LONG_CALL = { name: "steps", arguments: { count: 1, everyMs: 600_000 } };

async function twoInstances(): Promise<[URL, URL]> {
  cluster = await Cluster.start(2, {
    REDIS_URL: redis.get().url,
    REDIS_CLIENT: "node-redis",
    PREFIX: `crash-${prefixes++}:`,
    LEASE_MS: "900",
  });
  return [cluster.instances[0]!.url, cluster.instances[1]!.url];
}

const BOTH = "application/json, text/event-stream";

/** A raw 2025-11-25 client of one session, each request sent to the instance it names. */
class Raw {
  session = "";

  headers(extra: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { "content-type": "application/json", accept: BOTH, ...extra };
    if (this.session) {
      headers["mcp-session-id"] = this.session;
      headers["mcp-protocol-version"] = "2025-11-25";
    }
    return headers;
  }

  post(to: URL, body: Record<string, unknown>): Promise<Response> {
    const headers = this.headers({});
    return fetch(to, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", ...body }) });
  }

  async open(to: URL): Promise<void> {
    const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } };
    const opened = await this.post(to, { id: 0, method: "initialize", params });
    expect(opened.status).toBe(200);
    this.session = opened.headers.get("mcp-session-id")!;
    await opened.text();
    expect((await this.post(to, { method: "notifications/initialized" })).status).toBe(202);
  }

  /** The session's standalone GET stream (2025-11-25 "Listening for Messages from the Server"). */
  listen(to: URL): Promise<Response> {
    const { "content-type": _, ...headers } = this.headers({ accept: "text/event-stream" });
    return fetch(to, { method: "GET", headers });
  }

  /** A resume of a stream after `lastEventId`. */
  resume(to: URL, lastEventId: string): Promise<Response> {
    const { "content-type": _, ...headers } = this.headers({
      accept: "text/event-stream",
      "last-event-id": lastEventId,
    });
    return fetch(to, { method: "GET", headers });
  }
}

/**
 * Resumes after `lastEventId` on `to` until it is served: an event reaches the shared history a
 * moment after it went out, so this also waits until the event is copied there. Its priming event,
 * which carries `lastEventId`, is read.
 */
async function resumed(client: Raw, to: URL, lastEventId: string): Promise<EventReader> {
  const response = await onceFound(() => client.resume(to, lastEventId));
  expect(response.status).toBe(200);
  return new EventReader(response).primed(lastEventId);
}

/** Waits until the event `lastEventId` is in the shared history (a crash from then on does not lose it). */
async function copied(client: Raw, to: URL, lastEventId: string): Promise<void> {
  await (await resumed(client, to, lastEventId)).cancel();
}

describe("a request whose instance crashed, its stream resumed on another instance", () => {
  it("fails the official v1 client's call with the error saying the instance stopped (was: the call timed out)", {
    timeout: 60_000,
  }, async () => {
    const [a, b] = await twoInstances();
    // The client's resumes (GET) go to b, everything else to a.
    const routed: typeof fetch = (_input, init) => fetch(init?.method === "GET" ? b : a, init);
    const transport = new StreamableHTTPClientTransport(a, { fetch: routed });
    const client = new Client({ name: "v1", version: "1.0.0" });
    await client.connect(transport);
    try {
      const progressed = signal<string>();
      let token = "";
      const call = failure(
        client.callTool(LONG_CALL, undefined, {
          timeout: LIMIT_MS,
          onresumptiontoken: (seen) => {
            token = seen;
          },
          onprogress: () => progressed.resolve(token),
        }),
      );
      const raw = new Raw();
      raw.session = transport.sessionId!;
      await copied(raw, b, await within(progressed.promise, 5000, "the tool's progress from instance a"));
      await cluster!.kill(0);
      // Was: "MCP error -32001: Request timed out", the stream the client resumed on b open until then.
      expect(await within(call, LIMIT_MS + 5000, "the call's end")).toBe(`MCP error -32603: ${STOPPED}`);
    } finally {
      await client.close();
    }
  });

  it("sends the request's error response on the resumed stream, then ends it; a later resume replays the same end", {
    timeout: 60_000,
  }, async () => {
    const [a, b] = await twoInstances();
    const client = new Raw();
    await client.open(a);
    const params = { ...LONG_CALL, _meta: { progressToken: "p" } };
    const call = await client.post(a, { id: 7, method: "tools/call", params });
    expect(call.status).toBe(200);
    const own = new EventReader(call);
    const priming = (await own.next(5000))!.id!;
    const progress = (await own.next(5000))!;
    expect(JSON.parse(progress.data)).toMatchObject({ method: "notifications/progress" });
    await copied(client, b, progress.id!);
    await cluster!.kill(0);
    // Was: nothing, the stream open and silent until the client gave up.
    const events = await (await resumed(client, b, progress.id!)).rest(LIMIT_MS).catch((error: Error) => {
      throw new Error(`the resumed stream stayed open: ${error.message}`);
    });
    expect(events.map((event) => JSON.parse(event.data))).toEqual([
      { jsonrpc: "2.0", id: 7, error: { code: -32603, message: STOPPED } },
    ]);
    // Another resume, from the start, gets the same events, then the same end.
    const again = await (await resumed(client, b, priming)).rest(LIMIT_MS);
    expect(again).toEqual([progress, ...events]);
    // Nothing follows the response: a resume after it is refused.
    const after = await client.resume(b, events[0]!.id!);
    expect(after.status).toBe(404);
    await after.text();
  });
});

/** Reads `reader` until a message of `method` comes (bounded, LIMIT_MS of silence); fails if the stream ends first. */
async function until(reader: EventReader, method: string): Promise<{ id: string; message: Record<string, unknown> }> {
  for (let event = await reader.next(LIMIT_MS); event; event = await reader.next(LIMIT_MS)) {
    if (!event.data) continue;
    const message = JSON.parse(event.data) as Record<string, unknown>;
    if (message.method === method) return { id: event.id!, message };
  }
  throw new Error(`the stream ended before ${method}`);
}

describe("a session's GET stream whose instance crashed, resumed on another instance", () => {
  it("goes on there as that instance's GET stream: list changes and updates made there, even before the takeover, reach the client (was: open, silent for ever; then those before the takeover lost)", {
    timeout: 60_000,
  }, async () => {
    const [a, b] = await twoInstances();
    const client = new Raw();
    await client.open(a);
    const listening = await client.listen(a);
    expect(listening.status).toBe(200);
    const own = new EventReader(listening);
    await own.next(5000);
    const subscribed = await client.post(a, { id: 0, method: "resources/subscribe", params: { uri: "doc://a" } });
    await subscribed.text();
    const grown = await client.post(a, {
      id: 1,
      method: "tools/call",
      params: { name: "grow", arguments: { name: "g1" } },
    });
    await grown.text();
    const changed = (await own.next(5000))!;
    expect(JSON.parse(changed.data)).toMatchObject({ method: "notifications/tools/list_changed" });
    await copied(client, b, changed.id!);
    await cluster!.kill(0);
    // After the crash, before b takes the stream over (no stream of the session is open on b yet, and
    // a's lease may not have run out): a list change and an update sent to the session on b.
    const before = await client.post(b, {
      id: 3,
      method: "tools/call",
      params: { name: "grow", arguments: { name: "g0" } },
    });
    await before.text();
    const updated = await client.post(b, {
      id: 4,
      method: "tools/call",
      params: { name: "notify", arguments: { uri: "doc://a" } },
    });
    await updated.text();
    const resumedOnB = await resumed(client, b, changed.id!);
    // Once a's lease has run out, b carries the connection on as its own GET stream, primed with its first id.
    // Was: nothing, the stream open and silent: b's list changes went to no stream of the session.
    const primed = await resumedOnB.next(LIMIT_MS).catch((error: Error) => {
      throw new Error(`the resumed GET stream stayed open with nothing arriving: ${error.message}`);
    });
    expect(primed).toMatchObject({ data: "" });
    expect(primed!.id!.split("-")[0]).not.toBe(changed.id!.split("-")[0]);
    // What was sent before the takeover reached no GET stream: the client is told again once it is taken over.
    // Was: neither came, the client's list of tools and its copy of doc://a stale.
    expect((await until(resumedOnB, "notifications/tools/list_changed")).id.split("-")[0]).toBe(
      primed!.id!.split("-")[0],
    );
    expect((await until(resumedOnB, "notifications/resources/updated")).message).toMatchObject({
      params: { uri: "doc://a" },
    });
    const again = await client.post(b, {
      id: 2,
      method: "tools/call",
      params: { name: "grow", arguments: { name: "g2" } },
    });
    await again.text();
    const live = await until(resumedOnB, "notifications/tools/list_changed");
    expect(live.id.split("-")[0]).toBe(primed!.id!.split("-")[0]);
    await resumedOnB.cancel();
  });
});
