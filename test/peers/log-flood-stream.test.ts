/**
 * A tool that calls ctx.log and ctx.progress in a tight loop, then answers in a later turn, as each
 * era's official client calls it over Streamable HTTP, reading as fast as 127.0.0.1 allows. Log and
 * progress notifications are best-effort (servers SHOULD rate-limit them, 2025-11-25 "Logging",
 * "Progress"): past limits.maxSseBufferBytes the server lets go of some, as it does over stdio and on
 * a 2025 session's stream, and the answer still arrives.
 */
import { describe, expect, it } from "vitest";
import { pico } from "../../src/index.js";
import { servedToClients } from "./served.js";

const COUNT = 4000;
const LINE = "x".repeat(1000);

const clients = servedToClients(
  pico({ name: "flood", version: "1.0.0", limits: { maxSseBufferBytes: 64 * 1024 } }).tool("flood", {
    description: "Logs and reports progress 4,000 times in one turn (about 4 MB), then answers in a later one.",
    run: async (_args, ctx) => {
      for (let n = 1; n <= COUNT; n++) {
        ctx.log.info(`${n} ${LINE}`);
        ctx.progress(n, COUNT);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
      return "flooded";
    },
  }),
);

const LOG_LEVEL = { "io.modelcontextprotocol/logLevel": "info" };

function textOf(result: object): string | undefined {
  return "content" in result ? (result.content as { text: string }[])[0]?.text : undefined;
}

describe("a tool flooding ctx.log and ctx.progress before it answers", () => {
  it("the official v2 client (2026-07-28, the request's own stream) gets the answer, and increasing progress", async () => {
    const client = await clients.modern();
    const progress: number[] = [];
    // Was: the stream was dropped once the burst's turn ended (more than twice maxSseBufferBytes unread),
    // the request cancelled, and the client got no answer.
    const result = await client.callTool(
      { name: "flood", arguments: {}, _meta: LOG_LEVEL },
      { onprogress: (update) => progress.push(update.progress), timeout: 10_000 },
    );
    expect(textOf(result)).toBe("flooded");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it("the official v1 client (2025-11-25 session) gets the answer, and increasing progress", async () => {
    const client = await clients.legacy();
    const progress: number[] = [];
    const result = await client.callTool({ name: "flood", arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update.progress),
      timeout: 10_000,
    });
    expect(textOf(result)).toBe("flooded");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });
});
