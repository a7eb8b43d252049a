import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll } from "vitest";
import type { pico } from "../../src/index.js";
import type { Listening } from "../../src/transports/listen.js";

/**
 * `server` served over Streamable HTTP on 127.0.0.1 for a test file's official clients: it listens
 * before the file's tests, and after them every client connected here is closed, then the listener.
 * Called at the top level of the file.
 */
type LegacyOptions = ConstructorParameters<typeof LegacyClient>[1];
type ModernOptions = ConstructorParameters<typeof ModernClient>[1];

export function servedToClients(server: ReturnType<typeof pico>) {
  let listening: Listening;
  const closing: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    listening = await server.serve({ port: 0 });
  });

  afterAll(async () => {
    for (const each of closing) await each.close();
    await listening?.close();
  });

  return {
    /** The URL it listens on, for requests no official client sends (a method its protocol removed). */
    get url(): string {
      return listening.url;
    },
    /**
     * A 2025-11-25 client (the official v1 SDK), connected; `options` as the client takes them, and
     * `prepare` to set its handlers before it connects.
     */
    async legacy(options?: LegacyOptions, prepare?: (client: LegacyClient) => void): Promise<LegacyClient> {
      const client = new LegacyClient({ name: "v1", version: "1.0.0" }, options);
      prepare?.(client);
      closing.push(client);
      await client.connect(new LegacyTransport(new URL(listening.url)));
      return client;
    },
    /** A 2026-07-28 client (the official v2 SDK, negotiating its version), connected; `options` and `prepare` as for `legacy`. */
    async modern(options?: ModernOptions, prepare?: (client: ModernClient) => void): Promise<ModernClient> {
      const client = new ModernClient(
        { name: "v2", version: "2.0.0" },
        { versionNegotiation: { mode: "auto" }, ...options },
      );
      prepare?.(client);
      closing.push(client);
      await client.connect(new ModernTransport(new URL(listening.url)));
      return client;
    },
  };
}
