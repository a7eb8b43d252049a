/**
 * resources/subscribe from the official v1 client over Streamable HTTP without sessions
 * (`http: { sessions: false }`, the default on Workers): each 2025 request is served on its own, and
 * GET, the stream updates would travel on, answers 405. A subscription there could never be told of
 * an update, so it is refused with an error that says why and what to do, never taken and forgotten
 * with an empty result the client would wait on. With sessions, the same subscribe succeeds.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import type { Listening } from "../../src/transports/listen.js";

const listeners: Listening[] = [];
const clients: Client[] = [];

afterAll(async () => {
  for (const client of clients) await client.close();
  for (const listening of listeners) await listening.close();
});

async function connected(sessions: boolean): Promise<Client> {
  const server = pico({ name: "notes", version: "1.0.0", http: { sessions } }).resource("notes://{id}", {
    read: ({ id }) => id,
  });
  const listening = await server.serve({ port: 0 });
  listeners.push(listening);
  const client = new Client({ name: "v1", version: "1.0.0" });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
  return client;
}

describe("resources/subscribe of a 2025-11-25 client over Streamable HTTP", () => {
  it("is refused without sessions, saying there is no stream for updates", async () => {
    const client = await connected(false);
    const subscribed = client.subscribeResource({ uri: "notes://a" });
    await expect(subscribed).rejects.toMatchObject({ code: -32600 });
    await expect(subscribed).rejects.toThrow(
      "resources/subscribe needs a session, and this server answers 2025 requests without one (http.sessions: false): it has no stream to send updates on. Read the resource again to see whether it changed.",
    );
    // The rest of the resource methods are served as before.
    expect((await client.readResource({ uri: "notes://a" })).contents).toEqual([{ uri: "notes://a", text: "a" }]);
    expect(await client.unsubscribeResource({ uri: "notes://a" })).toEqual({});
  });

  it("succeeds with sessions", async () => {
    const client = await connected(true);
    expect(await client.subscribeResource({ uri: "notes://a" })).toEqual({});
  });
});
