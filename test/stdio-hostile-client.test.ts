/**
 * A hostile or broken client on the stdio transport, against the hardening fixture as a child
 * process: what it writes must never draw an answer the protocol does not ask for, nor stop the
 * server answering what it does.
 */
import { afterAll, describe, expect, it } from "vitest";
import { Child, killChildren } from "./hardening-helpers.js";

afterAll(killChildren);

describe("responses from the client", () => {
  /**
   * 2025-11-25 "Base protocol" types an error response's id as optional, left out when the request's
   * could not be read, and JSON-RPC 2.0 §5 sends null then: such a client reporting a line of ours it
   * could not read sends a valid response. Was: `{"jsonrpc":"2.0","error":…}` was answered with
   * -32600 ("method" must be a string) and `"id": null` with -32600 ("id" must be a string or an
   * integer): two peers that each answer what they cannot take would answer each other for ever.
   */
  it("answers none, also an error response whose id is left out or null, or not a request id", async () => {
    const child = new Child();
    await child.initialize();
    const error = { code: -32700, message: "Parse error: the client could not read a line" };
    const responses = [
      { jsonrpc: "2.0", error },
      { jsonrpc: "2.0", id: null, error },
      { jsonrpc: "2.0", id: 1.5, result: {} },
      { jsonrpc: "2.0", result: {} },
      { jsonrpc: "2.0", id: "never-asked", result: {} },
    ];
    for (const response of responses) child.send(response);
    child.send({ jsonrpc: "2.0", id: "after", method: "ping" });
    // The lines are answered in order: whatever the responses drew would come before the ping's answer.
    await child.response("after");
    expect(child.messages()).toEqual([
      expect.objectContaining({ id: "init", result: expect.any(Object) }),
      { jsonrpc: "2.0", id: "after", result: {} },
    ]);
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  });
});
