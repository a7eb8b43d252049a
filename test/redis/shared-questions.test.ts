/**
 * Questions (2025-11-25 elicitation) asked in one shared session (`pico({ state })`) by requests
 * running on two instances at once: each has an id of its own in the session (2025-11-25 "Requests":
 * an id the requestor has not used in the session), so the client's answer to one reaches that
 * question alone, whichever instance the answer is posted to. Skipped (with the install command as
 * the reason) without redis-server, failed with PICOMCP_REQUIRE_REDIS.
 */
import { createClient } from "redis";
import { afterAll, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { redisState } from "../../src/redis.js";
import type { SharedState } from "../../src/state/state.js";
import { ELICITING_INITIALIZE, EventReader, messageOf, post } from "../http-helpers.js";
import { useRedisServer } from "./redis-server.js";

const redis = useRedisServer();
const clients: ReturnType<typeof createClient>[] = [];

afterAll(async () => {
  for (const client of clients) await client.close();
});

async function state(): Promise<SharedState> {
  const client: ReturnType<typeof createClient> = createClient({ url: redis.get().url });
  client.on("error", () => {});
  await client.connect();
  clients.push(client);
  return redisState({ client, prefix: "questions:" });
}

it("routes each answer to the question it answers, with questions of one session asked on two instances", async () => {
  const states = [await state(), await state()];
  const [first, second] = states.map((shared) =>
    pico({ name: "asks", requestStateKey: "a shared secret of 32 bytes or more!", state: shared, signals: false }).tool(
      "approve",
      {
        input: z.object({ what: z.string() }),
        run: async ({ what }, ctx) => `${what}: ${(await ctx.confirm(`Approve ${what}?`)) ? "approved" : "refused"}`,
      },
    ),
  );
  const init = ELICITING_INITIALIZE;
  const opened = await first!.fetch(post(init));
  const session = { "mcp-session-id": opened.headers.get("mcp-session-id"), "mcp-protocol-version": "2025-11-25" };
  await opened.text();
  expect((await first!.fetch(post({ jsonrpc: "2.0", method: "notifications/initialized" }, session))).status).toBe(202);

  /** Calls approve on `server` and answers its stream and the question it carries. */
  const call = async (server: typeof first, id: number, what: string) => {
    const params = { name: "approve", arguments: { what } };
    const events = new EventReader(
      await server!.fetch(post({ jsonrpc: "2.0", id, method: "tools/call", params }, session)),
    );
    for (let read = 0; read < 5; read++) {
      const event = await events.next(5000);
      if (!event?.data) continue;
      const question = messageOf(event) as { id: string; method: string };
      if (question.method === "elicitation/create") return { events, question };
    }
    throw new Error(`no question for ${what}`);
  };
  const deploy = await call(first, 2, "deploy");
  const drop = await call(second, 3, "drop");
  // Each instance numbers its questions with a random part of its own (main 196a3be).
  expect(deploy.question.id).not.toBe(drop.question.id);

  const answer = async (server: typeof first, id: string, confirm: boolean) => {
    const response = { jsonrpc: "2.0", id, result: { action: "accept", content: { confirm } } };
    expect((await server!.fetch(post(response, session))).status).toBe(202);
  };
  // Each answer is posted to the instance that did not ask, as a balancer may send it.
  await answer(first, drop.question.id, false);
  await answer(second, deploy.question.id, true);
  const resultOf = async (events: EventReader) =>
    (await events.rest(5000))
      .filter((event) => event.data)
      .map(messageOf)
      .at(-1);
  // Before 196a3be: the answer to "drop" (refused) also settled "deploy", which the client approved.
  expect(await resultOf(deploy.events)).toMatchObject({ id: 2, result: { content: [{ text: "deploy: approved" }] } });
  expect(await resultOf(drop.events)).toMatchObject({ id: 3, result: { content: [{ text: "drop: refused" }] } });
  await first!.close();
  await second!.close();
  for (const shared of states) await shared.close();
});
