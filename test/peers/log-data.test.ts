/**
 * `ctx.log.<level>(undefined)` sends `notifications/message` with `data: null` (2025-11-25 and
 * 2026-07-28 schema: LoggingMessageNotification params.data is required, any JSON value; JSON has
 * no undefined). Was: the notification went out without `data`, which the schema refuses. Official
 * v1 (a 2025-11-25 session) and v2 (2026-07-28, the level in the request's `_meta`) clients over
 * Streamable HTTP on 127.0.0.1; other values are sent as they were.
 */
import { LoggingMessageNotificationSchema as LegacyLogSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { LOG_LEVELS } from "../../src/core/envelope.js";
import { pico } from "../../src/index.js";
import { servedToClients } from "./served.js";

const server = pico({ name: "log-data", version: "1.0.0" }).tool("log_nothing", {
  description: "Logs undefined at every level, then 0, then a string.",
  run: (_, ctx) => {
    for (const level of LOG_LEVELS) ctx.log[level](undefined);
    ctx.log.info(0, "zero");
    ctx.log.info("plain");
    return "logged";
  },
});

const clients = servedToClients(server);

/** What each notification's params held, and whether `data` was one of them. */
const EXPECTED = [
  ...LOG_LEVELS.map((level) => ({ level, data: null, hasData: true })),
  { level: "info", logger: "zero", data: 0, hasData: true },
  { level: "info", data: "plain", hasData: true },
];

describe("a log message whose data is undefined", () => {
  it("reaches a 2025-11-25 session's client with data: null", async () => {
    const logged: Record<string, unknown>[] = [];
    const client = await clients.legacy(undefined, (client) =>
      client.setNotificationHandler(LegacyLogSchema, ({ params }) => void logged.push(params)),
    );
    await client.setLoggingLevel("debug");
    await client.callTool({ name: "log_nothing" });
    expect(logged.map((params) => ({ ...params, hasData: "data" in params }))).toStrictEqual(EXPECTED);
  });

  it("reaches a 2026-07-28 client with data: null", async () => {
    const logged: Record<string, unknown>[] = [];
    const client = await clients.modern(undefined, (client) =>
      client.setNotificationHandler("notifications/message", ({ params }) => void logged.push(params)),
    );
    await client.callTool({ name: "log_nothing", _meta: { "io.modelcontextprotocol/logLevel": "debug" } });
    expect(logged.map((params) => ({ ...params, hasData: "data" in params }))).toStrictEqual(EXPECTED);
  });
});
