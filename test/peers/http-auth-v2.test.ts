/**
 * The official v2 client (@modelcontextprotocol/client, 2026-07-28 era) with a bearer token
 * provider against a picomcp server protected with JWTs, over 127.0.0.1: every stateless request
 * carries the token; an expired one is refreshed through the provider's onUnauthorized; a missing
 * scope is refused with 403 before the tool runs; the _meta copy of securitySchemes reaches it.
 */
import { type AuthProvider, Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { type TestIssuer, testIssuer } from "../../src/testing.js";
import type { Listening } from "../../src/transports/listen.js";

describe("v2 client with a bearer token, 2026-07-28 era", () => {
  let issuer: TestIssuer;
  let listening: Listening;
  const runs: string[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    issuer = await testIssuer({ audience: "placeholder" });
    const server = pico({
      name: "notes",
      version: "1.0.0",
      auth: { verify: issuer.verify, authorizationServers: [issuer.issuer], scopesSupported: ["notes:read"] },
    })
      .tool("read_notes", {
        description: "Reads the signed-in user's notes.",
        auth: { scopes: ["notes:read"] },
        run: (_args, ctx) => {
          runs.push("read_notes");
          return `notes of ${ctx.auth!.subject} (${ctx.era})`;
        },
      })
      .tool("write_note", {
        description: "Adds a note.",
        input: z.object({ text: z.string().describe("The note.") }),
        auth: { scopes: ["notes:read", "notes:write"] },
        run: () => {
          runs.push("write_note");
          return "written";
        },
      });
    listening = await server.serve({ port: 0 });
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    await listening?.close();
  });

  async function connect(provider: AuthProvider): Promise<Client> {
    const client = new Client({ name: "v2-auth", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(listening.url), { authProvider: provider }));
    return client;
  }

  it("sends the token on every request, refreshes an expired one, and is refused a scope it lacks", async () => {
    const audience = listening.url;
    let token = await issuer.bad.expired({ subject: "ada", scopes: ["notes:read"], audience });
    let refreshed = 0;
    const client = await connect({
      token: async () => token,
      onUnauthorized: async () => {
        refreshed++;
        token = await issuer.mint({ subject: "ada", scopes: ["notes:read"], audience });
      },
    });
    expect(refreshed).toBe(1);
    const { tools } = await client.listTools();
    // The v2 client keeps only the fields of the spec's Tool: the copy in _meta is what reaches it.
    expect(tools.map((tool) => [tool.name, tool._meta?.securitySchemes])).toEqual([
      ["read_notes", [{ type: "oauth2", scopes: ["notes:read"] }]],
      ["write_note", [{ type: "oauth2", scopes: ["notes:read", "notes:write"] }]],
    ]);
    expect(await client.callTool({ name: "read_notes" })).toMatchObject({
      content: [{ type: "text", text: "notes of ada (modern)" }],
    });
    await expect(client.callTool({ name: "write_note", arguments: { text: "hi" } })).rejects.toThrow(/403|scope/i);
    expect(runs).toEqual(["read_notes"]);
  });

  it("cannot connect without a token", async () => {
    await expect(connect({ token: async () => undefined })).rejects.toThrow();
  });
});
