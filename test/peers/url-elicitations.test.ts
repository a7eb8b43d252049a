/**
 * 2025-11-25 URL-mode elicitations that wait for `server.completeElicitation`, with the official v1
 * client over Streamable HTTP sessions (test/fixtures/ask-server.ts's `sign_in` and
 * `complete_sign_in`): an `elicitationId` still in use is refused, so that no completion reaches the
 * wrong client or is lost (2025-11-25 "Elicitation": unique within the server).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, expect, it } from "vitest";
import type { Listening } from "../../src/transports/listen.js";
import { askServer } from "../fixtures/ask-server.js";

const listenings: Listening[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const listening of listenings.splice(0)) await listening.close();
});

async function serve(): Promise<URL> {
  const listening = await askServer().serve({ port: 0 });
  listenings.push(listening);
  return new URL(listening.url);
}

/** A v1 client session that accepts URL-mode elicitations and records the completions it is told. */
async function session(url: URL) {
  const completed: string[] = [];
  const client = new Client({ name: "v1-url", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept" }));
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    completed.push(notification.params.elicitationId);
  });
  await client.connect(new StreamableHTTPClientTransport(url));
  clients.push(client);
  const call = async (name: string, id: string) => {
    const result = await client.callTool({ name, arguments: { id } });
    return { text: (result.content as { text: string }[])[0]?.text, isError: result.isError === true };
  };
  return { client, completed, call };
}

it("refuses an elicitationId still in use, so that its completion reaches the client that was sent it", async () => {
  const url = await serve();
  const first = await session(url);
  const second = await session(url);
  expect(await first.call("sign_in", "shared")).toEqual({ text: "sign-in accept", isError: false });
  // Was: sent, and the first session's completion went to the second, the first never told.
  expect(await second.call("sign_in", "shared")).toEqual({
    text: 'elicitationId "shared" is in use: a URL-mode elicitation with this id was sent and is not complete yet, and each must have its own (2025-11-25 "Elicitation": unique within the server). Give this ctx.elicitUrl an elicitationId of its own, or call server.completeElicitation("shared") first.',
    isError: true,
  });
  // In one session too.
  expect((await first.call("sign_in", "shared")).isError).toBe(true);
  expect(await first.call("complete_sign_in", "shared")).toEqual({ text: "completed", isError: false });
  await expect.poll(() => first.completed).toEqual(["shared"]);
  // Completed, the id is free again.
  expect(await second.call("sign_in", "shared")).toEqual({ text: "sign-in accept", isError: false });
  expect(await first.call("complete_sign_in", "shared")).toEqual({ text: "completed", isError: false });
  await expect.poll(() => second.completed).toEqual(["shared"]);
  expect(first.completed).toEqual(["shared"]);
});
