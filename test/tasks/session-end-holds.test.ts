/**
 * A 2025-11-25 session that ends lets go of its tasks' holds on it (Session.tasks, tasks/holds.ts),
 * whichever way it ends: DELETE, eviction at `maxSessions`, or its idle timeout once its tasks' TTLs
 * have passed. Was: the server's Tasks kept each hold, and with it the session, until the task's TTL
 * (an hour by default) or the next walk of every hold, once their number had doubled: a server
 * whose clients leave results untaken kept every ended session of theirs. The session and its holds
 * are watched with WeakRefs taken in its task's run; the official v1 client on a 127.0.0.1 listener.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { requestOf } from "../../src/tasks/contexts.js";
import type { SessionOptions } from "../../src/transports/http/options.js";
import type { Listening } from "../../src/transports/listen.js";
import { collect } from "../heap-helpers.js";

const IDLE_MS = 300;
/** Tasks an instance keeps channels for (tasks.ts MAX_CHANNELS): as many after it let go of the first session's. */
const CHANNELS = 1000;

const clients: Client[] = [];
let listening: Listening | undefined;

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  await listening?.close();
});

async function connect(url: string): Promise<Parameters<Ending["end"]>[0]> {
  const client = new Client({ name: "v1-session-end", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

/** Starts the `quick` tool as a task, whose result nobody takes. */
async function startQuick(client: Client, ttl?: number): Promise<void> {
  const params = { name: "quick", arguments: {}, task: ttl === undefined ? {} : { ttl } };
  await client.request({ method: "tools/call", params }, CreateTaskResultSchema);
}

/** How a session ends, and its task's TTL (undefined: the tool's, an hour: the hold stands when the session ends). */
interface Ending {
  how: string;
  sessions: SessionOptions;
  ttl?: number;
  end(first: { client: Client; transport: StreamableHTTPClientTransport }): Promise<void>;
}

const ENDINGS: Ending[] = [
  { how: "DELETE", sessions: {}, end: ({ transport }) => transport.terminateSession() },
  // The next client's session takes its place; both are in use (GET streams, the task): the older goes.
  { how: "eviction at maxSessions", sessions: { maxSessions: 1 }, end: async () => {} },
  {
    how: "its idle timeout, its task's TTL passed",
    sessions: { idleTimeoutMs: IDLE_MS },
    ttl: IDLE_MS,
    // Its GET stream closed, and its task's TTL passed: idle; the other client's requests sweep it.
    end: async ({ client }) => {
      await client.close();
      await sleep(2.5 * IDLE_MS);
    },
  },
];

it.each(ENDINGS)(
  "lets go of a session ended by $how with a task's result not taken",
  async ({ sessions, ttl, end }) => {
    // The first session, and its tasks' holds on it (Session.tasks, set before its task's run starts).
    const ended: { session?: WeakRef<object>; holds?: WeakRef<object> } = {};
    const server = pico({ name: "session-end-holds", http: { sessions } });
    server.tool("quick", {
      description: "Answers at once.",
      task: "optional",
      run: (_args, ctx) => {
        const session = requestOf(ctx)?.session;
        if (session?.tasks && !ended.session) {
          ended.session = new WeakRef(session);
          ended.holds = new WeakRef(session.tasks);
        }
        return "quick";
      },
    });
    listening = await server.serve({ port: 0 });
    const first = await connect(listening.url);
    await startQuick(first.client, ttl);
    expect(ended.holds).toBeDefined();
    await end(first);
    // The other client's tasks take every channel, the first session's (its way to a tasks/result) too.
    const { client } = await connect(listening.url);
    for (let i = 0; i < CHANNELS; i++) await startQuick(client);
    await collect();
    expect(ended.session?.deref(), "the ended session is still kept").toBeUndefined();
    expect(ended.holds?.deref(), "the ended session's holds are still kept").toBeUndefined();
  },
);
