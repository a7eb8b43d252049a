/**
 * The capabilities `initialize` offers are those of the version it negotiates (each revision's
 * ServerCapabilities in the official schema/<version>/schema.ts): `tasks` (2025-11-25 "Tasks",
 * experimental) only to 2025-11-25, `completions` (added in 2025-03-26) to 2025-03-26 and later;
 * `extensions`, a plug-in's, to every version (SEP-2133 negotiates extensions in `initialize`, its
 * example under 2025-06-18). The built-in Tasks extension is offered only by 2026-07-28's
 * `server/discover`, which never offers `tasks` (SEP-2663 "Backward Compatibility": the extension
 * "is not defined under the 2025-11-25 protocol version"; the legacy capability MUST NOT be
 * advertised under a version that includes it). Was: every version was offered every member, so a
 * 2025-06-18 or 2025-03-26 client read `tasks`, and a 2024-11-05 client `tasks` and `completions`;
 * then every 2025 version, 2025-11-25 included, was offered the Tasks extension. The official v1
 * client (told to ask for each version) over stdio and over a Streamable HTTP session, raw JSON
 * lines over stdio, and the official v2 client's `server/discover` over HTTP; servers on 127.0.0.1.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, describe, expect, it } from "vitest";
import type { Listening } from "../../src/transports/listen.js";
import { capabilitiesServer, PLUGIN_EXTENSION } from "../fixtures/capabilities-server.js";
import { modernMessage } from "../http-helpers.js";
import { type LineClient, type Program, spawnLineClient } from "../size-helpers.js";
import { HttpOfVersion, StdioOfVersion } from "./versioned.js";

const FIXTURE = "test/fixtures/capabilities-server.ts";
const TASKS = "io.modelcontextprotocol/tasks";

/** What every version is offered by the fixture. */
const COMMON = {
  logging: {},
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  extensions: { [PLUGIN_EXTENSION]: {} },
};
/** What 2026-07-28's `server/discover` offers: the Tasks extension too, and never `tasks`. */
const DISCOVERED = { ...COMMON, completions: {}, extensions: { [PLUGIN_EXTENSION]: {}, [TASKS]: {} } };
const LEGACY_TASKS = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** Each handshake version and the capabilities its `initialize` result carries. */
const OFFERED: [string, Record<string, unknown>][] = [
  ["2025-11-25", { ...COMMON, completions: {}, tasks: LEGACY_TASKS }],
  ["2025-06-18", { ...COMMON, completions: {} }],
  ["2025-03-26", { ...COMMON, completions: {} }],
  ["2024-11-05", COMMON],
];

const closing: { close(): Promise<void> }[] = [];
const programs: Program[] = [];

afterAll(async () => {
  for (const each of closing.reverse()) await each.close();
  for (const program of programs) {
    program.child.stdin.end();
    // A failure guard, not a measurement: the server exits once stdin ends.
    const timer = setTimeout(() => program.child.kill("SIGKILL"), 10_000);
    await program.exited;
    clearTimeout(timer);
  }
});

async function connected(transport: StdioOfVersion | HttpOfVersion): Promise<Client> {
  const client = new Client({ name: "v1-versions", version: "1.0.0" });
  closing.push(client);
  await client.connect(transport);
  return client;
}

describe("the official v1 client, negotiating each handshake version", () => {
  it.for(OFFERED)("over stdio, %s is offered what that version defines", async ([version, offered]) => {
    const client = await connected(new StdioOfVersion(FIXTURE, version));
    expect(client.getServerCapabilities()).toEqual(offered);
  });

  it.for(OFFERED)(
    "over a Streamable HTTP session, %s is offered what that version defines",
    async ([version, offered]) => {
      const listening: Listening = await capabilitiesServer().serve({ port: 0 });
      closing.unshift(listening);
      const client = await connected(new HttpOfVersion(new URL(listening.url), version));
      expect(client.getServerCapabilities()).toEqual(offered);
    },
  );
});

describe("the official v2 client, 2026-07-28", () => {
  it("is offered the Tasks extension by server/discover over HTTP, and never tasks", async () => {
    const listening: Listening = await capabilitiesServer().serve({ port: 0 });
    closing.unshift(listening);
    const client = new ModernClient(
      { name: "v2-versions", version: "2.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    closing.push(client);
    await client.connect(new ModernTransport(new URL(listening.url)));
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getServerCapabilities()).toEqual(DISCOVERED);
  });
});

describe("raw JSON lines over stdio", () => {
  function served(): LineClient {
    return spawnLineClient(FIXTURE, programs);
  }

  it.for(OFFERED)("initialize with %s is answered with that version's capabilities", async ([version, offered]) => {
    const params = { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "0" } };
    expect(await served().request({ jsonrpc: "2.0", id: 1, method: "initialize", params })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        protocolVersion: version,
        capabilities: offered,
        serverInfo: { name: "capabilities", version: "1.0.0" },
      },
    });
  });

  it("2026-07-28: server/discover offers the extensions and completions, never 2025-11-25's tasks", async () => {
    const answer = await served().request(modernMessage("server/discover", {}, 1).body);
    expect((answer.result as Record<string, unknown>).capabilities).toEqual(DISCOVERED);
  });
});
