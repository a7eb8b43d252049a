/**
 * A tool, prompt or resource template the server does not have, named at length, as each era's official
 * client asks for it over Streamable HTTP. The error's message goes into the model's context: it
 * quotes the first 200 characters of the name, as the not-found error of resources/read does, not
 * the whole of what the client sent (up to limits.maxMessageBytes, 4 MiB).
 */

import type { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { servedToClients } from "./served.js";

/** 10,000 characters: an Mcp-Name header of that length is still within what Node reads. */
const LONG = `review_${"x".repeat(9_993)}`;
const CUT = `${LONG.slice(0, 200)}…`;

const clients = servedToClients(
  pico({ name: "unknown", version: "1.0.0" })
    .tool("search", { run: () => "found" })
    .prompt("review", {
      input: z.object({ language: z.string() }),
      complete: { language: () => ["Go"] },
      get: ({ language }) => `Review this ${language} code.`,
    })
    .resource("repos://{owner}", { complete: { owner: () => ["acme"] }, read: ({ owner }) => owner }),
);

/** What the two clients share here; callTool's second parameter differs between them, and is not used. */
type Client = Pick<LegacyClient, "getPrompt" | "complete"> & { callTool(params: { name: string }): Promise<unknown> };

/** The same cases for each era's client. */
function eachClient(connect: () => Promise<Client>) {
  let client: Client;

  beforeAll(async () => {
    client = await connect();
  });

  it("quotes 200 characters of an unknown tool's name, for tools/call", async () => {
    const called = client.callTool({ name: LONG });
    await expect(called).rejects.toMatchObject({ code: -32602 });
    await expect(called).rejects.toThrow(`Unknown tool "${CUT}". Call tools/list to see the available tools.`);
  });

  it("quotes a short tool name whole", async () => {
    await expect(client.callTool({ name: "serach" })).rejects.toThrow(
      'Unknown tool "serach". Call tools/list to see the available tools.',
    );
  });

  it("quotes 200 characters of an unknown prompt's name, for prompts/get", async () => {
    const got = client.getPrompt({ name: LONG });
    await expect(got).rejects.toMatchObject({ code: -32602 });
    await expect(got).rejects.toThrow(`Unknown prompt "${CUT}". Call prompts/list to see the available prompts.`);
  });

  it("quotes 200 characters of an unknown prompt or template, for completion/complete", async () => {
    const prompt = client.complete({ ref: { type: "ref/prompt", name: LONG }, argument: { name: "a", value: "" } });
    await expect(prompt).rejects.toMatchObject({ code: -32602 });
    await expect(prompt).rejects.toThrow(`Unknown prompt "${CUT}". Call prompts/list to see the available prompts.`);
    const template = client.complete({
      ref: { type: "ref/resource", uri: LONG },
      argument: { name: "a", value: "" },
    });
    await expect(template).rejects.toMatchObject({ code: -32602 });
    await expect(template).rejects.toThrow(
      `Unknown resource template "${CUT}". Call resources/templates/list to see them.`,
    );
  });

  it("quotes a short name whole", async () => {
    await expect(client.getPrompt({ name: "reveiw" })).rejects.toThrow(
      'Unknown prompt "reveiw". Call prompts/list to see the available prompts.',
    );
  });
}

describe("a 2025-11-25 client (official v1 SDK)", () => {
  eachClient(() => clients.legacy());
});

describe("a 2026-07-28 client (official v2 SDK)", () => {
  eachClient(() => clients.modern());
});
