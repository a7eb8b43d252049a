/**
 * A client that sends its answers to the server's questions as arrays of responses (JSON-RPC 2.0
 * §6's batch form), over Streamable HTTP: the official v1 client, whose transport is made to wrap each
 * response it sends in an array, in a 2025-11-25 session (a version without batches). An array made
 * only of responses is never answered (JSON-RPC 2.0 §6: nothing at all when no element calls for a
 * response), in any version, and each response in it is taken as if it had come alone. Was: outside a
 * 2025-03-26 session it was refused 400 with -32600 "batches are only allowed in a 2025-03-26
 * session", so the answer was lost and the question waited until it timed out. Raw arrays of
 * responses over stdio: test/stdio-hostile-client.test.ts. Servers on 127.0.0.1.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import type { Listening } from "../../src/transports/listen.js";

const closing: { close(): Promise<void> }[] = [];

afterAll(async () => {
  for (const each of closing.reverse()) await each.close();
});

/** The official v1 transport, sending each response (an answer to the server) in an array of its own. */
class ResponsesInArrays extends StreamableHTTPClientTransport {
  override send(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    const response = !Array.isArray(message) && !("method" in message);
    return super.send(response ? [message] : message);
  }
}

describe("the official v1 client answering in arrays of responses, over a Streamable HTTP session", () => {
  it("has its answer reach the question, and no error back", async () => {
    // A question left unanswered fails its call after 5 s rather than the default minute.
    const server = pico({ name: "greeter", version: "1.0.0", askTimeoutMs: 5000 }).tool("greet", {
      run: async (_args, ctx) => {
        const answer = await ctx.elicit("What is your name?", z.object({ name: z.string() }));
        return answer.action === "accept" ? `Hello, ${answer.content.name}!` : `No name: ${answer.action}`;
      },
    });
    const listening: Listening = await server.serve({ port: 0 });
    closing.push(listening);
    const errors: Error[] = [];
    const client = new Client({ name: "v1-arrays", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
    client.onerror = (error) => void errors.push(error);
    closing.push(client);
    await client.connect(new ResponsesInArrays(new URL(listening.url)));

    expect(await client.callTool({ name: "greet", arguments: {} })).toEqual({
      content: [{ type: "text", text: "Hello, Ada!" }],
    });
    expect(errors).toEqual([]);
  });
});
