/**
 * A middleware that answers at once and calls `next()` later (to refresh what it answered with,
 * say), as each era's official client meets it over Streamable HTTP on 127.0.0.1. The request is
 * over once the middleware has returned: its answer is sent, its slot and its deadline are released
 * and its cancellation reaches no one. So a `next()` called then does not run the tool, which would
 * act for a request nobody waits for any more; it rejects, saying so.
 */
import { describe, expect, it } from "vitest";
import { pico, text } from "../../src/index.js";
import { servedToClients } from "./served.js";

const deployed: string[] = [];
/** What each late `next()` settled with. */
const late: Promise<string>[] = [];

const server = pico({ name: "late", version: "1.0.0" })
  .tool("deploy", {
    description: "Deploys the site.",
    run: (_, ctx) => {
      deployed.push(ctx.era);
      return "deployed";
    },
  })
  .use({ tool: "deploy" }, (_, next) => {
    late.push(
      new Promise((resolve) => setTimeout(resolve, 0)).then(() =>
        next().then(
          () => "resolved",
          (error: Error) => error.message,
        ),
      ),
    );
    return { content: [text("A deployment is already under way.")] };
  });

const clients = servedToClients(server);

describe("next() called after the middleware returned", () => {
  it("runs no tool and rejects, for a 2026-07-28 and a 2025-11-25 client", async () => {
    const answer = { content: [{ type: "text", text: "A deployment is already under way." }] };
    expect(await (await clients.modern()).callTool({ name: "deploy", arguments: {} })).toMatchObject(answer);
    expect(await (await clients.legacy()).callTool({ name: "deploy", arguments: {} })).toEqual(answer);
    const settled = await Promise.all(late);
    expect(settled).toEqual([
      expect.stringMatching(/^Middleware for "tools\/call" called next\(\) after it returned/),
      expect.stringMatching(/^Middleware for "tools\/call" called next\(\) after it returned/),
    ]);
    expect(deployed).toEqual([]);
  });
});
