/**
 * 2025-11-25 URL-mode elicitations that wait for `server.completeElicitation`, with the official v1
 * client over Streamable HTTP sessions (test/fixtures/ask-server.ts's `sign_in` and
 * `complete_sign_in`): an `elicitationId` still in use is refused, so that no completion reaches the
 * wrong client or is lost (2025-11-25 "Elicitation": unique within the server), and what one session
 * keeps is bounded by `limits.maxUrlElicitationsPerSession` (docs/limits.md).
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

async function serve(limits: { maxUrlElicitationsPerSession?: number } = {}): Promise<URL> {
  const listening = await askServer({ limits }).serve({ port: 0 });
  listenings.push(listening);
  return new URL(listening.url);
}

/** A v1 client session that answers URL-mode elicitations with `answer` and records the completions it is told. */
async function session(url: URL, answer: () => Promise<{ action: "accept" }> = async () => ({ action: "accept" })) {
  const completed: string[] = [];
  const client = new Client({ name: "v1-url", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
  client.setRequestHandler(ElicitRequestSchema, answer);
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

it("keeps at most limits.maxUrlElicitationsPerSession (100) accepted elicitations a session, forgetting the oldest", async () => {
  const url = await serve();
  const user = await session(url);
  for (let n = 0; n <= 100; n++) {
    expect(await user.call("sign_in", `e${n}`)).toEqual({ text: "sign-in accept", isError: false });
  }
  // Was: all 101 kept for the session's whole life, however many a client accepted.
  expect(await user.call("complete_sign_in", "e0")).toEqual({ text: "nobody waits for it", isError: false });
  for (const id of ["e1", "e100"]) {
    expect(await user.call("complete_sign_in", id)).toEqual({ text: "completed", isError: false });
  }
  await expect.poll(() => user.completed).toEqual(["e1", "e100"]);
  // Another session has a limit of its own.
  const other = await session(url);
  expect(await other.call("sign_in", "o1")).toEqual({ text: "sign-in accept", isError: false });
});

it("refuses one more elicitation when every one a session keeps still waits for the user's answer", async () => {
  const url = await serve({ maxUrlElicitationsPerSession: 1 });
  // The user answers the first link only when the test says so, the others at once.
  let answer: (() => void) | undefined;
  const user = await session(url, () =>
    answer
      ? Promise.resolve({ action: "accept" })
      : new Promise((resolve) => {
          answer = () => resolve({ action: "accept" });
        }),
  );
  const waiting = user.call("sign_in", "w1");
  await expect.poll(() => answer).toBeTypeOf("function");
  expect(await user.call("sign_in", "w2")).toEqual({
    text: "Could not send the link: this session has 1 URL-mode elicitations waiting for the user's answer already (limits.maxUrlElicitationsPerSession = 1); wait for the user to answer them, then ask again.",
    isError: true,
  });
  answer?.();
  expect(await waiting).toEqual({ text: "sign-in accept", isError: false });
  // Accepted, it makes room for the next one.
  expect(await user.call("sign_in", "w3")).toEqual({ text: "sign-in accept", isError: false });
  expect(await user.call("complete_sign_in", "w1")).toEqual({ text: "nobody waits for it", isError: false });
});
