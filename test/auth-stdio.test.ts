/**
 * Refusals over stdio, where the caller is the identity `auth.stdio` reads from the server's
 * environment: the official clients of both eras drive test/fixtures/stdio-auth-server.ts as a child
 * process. Such a caller cannot sign in or step up, so a refusal says what the user can do (run the
 * server with other credentials) and carries no challenge, even though the server has a `resource`.
 */
import { Client as ModernClient, ProtocolError } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { tsxProgram } from "./peers/fixture.js";

const FIXTURE = "test/fixtures/stdio-auth-server.ts";
const RUN_AS = "the user must run the server with credentials that grant it.";

/** What both clients do here: call a tool, get a prompt; each rejects with the JSON-RPC error. */
interface Peer {
  callTool(params: { name: string }): Promise<{ _meta?: Record<string, unknown> | undefined }>;
  getPrompt(params: { name: string }): Promise<unknown>;
  close(): Promise<void>;
}

const open: Peer[] = [];
afterEach(async () => {
  for (const peer of open.splice(0)) await peer.close();
});

const clients = {
  legacy: async (env: Record<string, string>): Promise<Peer> => {
    const client = new LegacyClient({ name: "v1", version: "1.0.0" });
    open.push(client);
    await client.connect(new LegacyStdio(tsxProgram(FIXTURE, env)));
    return client;
  },
  modern: async (env: Record<string, string>): Promise<Peer> => {
    const client = new ModernClient({ name: "v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } });
    open.push(client);
    await client.connect(new ModernStdio(tsxProgram(FIXTURE, env)));
    return client;
  },
};

/** A tool's refusal: an `isError` result with this text, and no in-band challenge in its `_meta`. */
function expectRefusal(result: { _meta?: Record<string, unknown> | undefined }, text: string): void {
  expect(result).toMatchObject({ content: [{ type: "text", text }], isError: true });
  expect(result._meta?.["mcp/www_authenticate"]).toBeUndefined();
}

describe.each(["legacy", "modern"] as const)("stdio refusals (%s client)", (era) => {
  it("names the scope or role the auth.stdio identity lacks, and sends no sign-in challenge (was: 'sign in again', and a challenge to the HTTP metadata)", async () => {
    const client = await clients[era]({ PICO_TOKEN: "let-me-in" });
    expect(await client.callTool({ name: "whoami" })).toMatchObject({ content: [{ text: "local-user" }] });
    expectRefusal(
      await client.callTool({ name: "purge" }),
      `Tool "purge" needs the scope notes:admin, which this stdio server's identity (from its auth.stdio hook) lacks: ${RUN_AS}`,
    );
    expectRefusal(
      await client.callTool({ name: "promote" }),
      `Tool "promote" needs the role admin, which this stdio server's identity (from its auth.stdio hook) lacks: ${RUN_AS}`,
    );
    // A prompt has no isError lane: a JSON-RPC error, whose data carries no challenge either.
    const refused = client.getPrompt({ name: "audit" });
    await expect(refused).rejects.toBeInstanceOf(era === "legacy" ? McpError : ProtocolError);
    await expect(refused).rejects.toMatchObject({
      code: -32600,
      message: expect.stringContaining(
        `Prompt "audit" needs the scope notes:admin, which this stdio server's identity (from its auth.stdio hook) lacks: ${RUN_AS}`,
      ),
      data: undefined,
    });
  });

  it("tells an anonymous caller to run the server with credentials, not to sign in", async () => {
    const client = await clients[era]({ PICO_TOKEN: "" });
    expect(await client.callTool({ name: "ping" })).toMatchObject({ content: [{ text: "pong" }] });
    expectRefusal(
      await client.callTool({ name: "whoami" }),
      'Tool "whoami" needs a signed-in caller, and this stdio server has no identity: the user must run the server with credentials (its auth.stdio hook reads them from the environment).',
    );
  });
});
