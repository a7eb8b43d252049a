/**
 * The Authorization header over a real loopback listener (RFC 6750 §2.1): credentials sent in two
 * lines, and what a refusal repeats of the token it was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthorizationServerUnavailable, InvalidTokenError, pico } from "../src/index.js";
import { type TestIssuer, testIssuer } from "../src/testing.js";
import type { Listening } from "../src/transports/listen.js";
import { challengeOf, modernCall, send } from "./wire-helpers.js";

const RESOURCE = "https://notes.example.com/mcp";
const issuer: TestIssuer = await testIssuer({ audience: RESOURCE });

describe("two Authorization lines", () => {
  const runs: string[] = [];
  let listening: Listening;

  beforeAll(async () => {
    listening = await pico({
      name: "notes",
      version: "1.0.0",
      auth: { verify: issuer.verify, resource: RESOURCE, authorizationServers: [issuer.issuer] },
    })
      .tool("whoami", {
        description: "The signed-in user.",
        run: (_args, ctx) => {
          runs.push(ctx.auth!.subject);
          return ctx.auth!.subject;
        },
      })
      .serve({ port: 0 });
  });
  afterAll(() => listening?.close());

  it("are a malformed Bearer header (400), as on a Web runtime, not the first line's token", async () => {
    const ada = `Bearer ${await issuer.mint({ subject: "ada" })}`;
    const mallory = `Bearer ${await issuer.mint({ subject: "mallory" })}`;
    for (const lines of [
      [ada, mallory],
      [mallory, ada],
    ]) {
      const { headers, body } = modernCall("tools/call", { name: "whoami" }, {});
      const reply = await send(listening.url, { headers: { ...headers, authorization: lines }, body });
      expect(reply.status).toBe(400);
      expect(challengeOf(reply.headers["www-authenticate"])).toMatchObject({
        error: "invalid_request",
        error_description: "The Authorization header must be 'Bearer <access token>'",
      });
    }
    expect(runs).toEqual([]);
    // One line is served as always.
    const { headers, body } = modernCall("tools/call", { name: "whoami" }, { authorization: ada });
    expect((await send(listening.url, { headers, body })).status).toBe(200);
    expect(runs).toEqual(["ada"]);
  });
});

describe("a refusal", () => {
  let listening: Listening;

  beforeAll(async () => {
    listening = await pico({
      name: "notes",
      version: "1.0.0",
      auth: {
        // A verifier whose messages repeat the token it was given, as a hurried one might.
        verify: (token) => {
          if (token.startsWith("down-")) throw new AuthorizationServerUnavailable(`No answer about ${token} yet.`);
          throw new InvalidTokenError(`Unknown token ${token}: sign in again.`);
        },
        resource: RESOURCE,
        authorizationServers: [issuer.issuer],
      },
    })
      .tool("whoami", { description: "The signed-in user.", run: (_args, ctx) => ctx.auth!.subject })
      .serve({ port: 0 });
  });
  afterAll(() => listening?.close());

  it("never repeats the token, in the challenge or the body, whatever the verifier's message says", async () => {
    for (const [token, status, said] of [
      ["stolen-Zq8vXk2LmN4pR7sT", 401, "Unknown token [redacted]: sign in again."],
      ["down-Zq8vXk2LmN4pR7sT", 503, "No answer about [redacted] yet."],
    ] as const) {
      const { headers, body } = modernCall("tools/call", { name: "whoami" }, { authorization: `Bearer ${token}` });
      const reply = await send(listening.url, { headers, body });
      expect(reply.status).toBe(status);
      expect(JSON.stringify(reply.headers)).not.toContain(token);
      expect(reply.text).not.toContain(token);
      expect(reply.json?.error).toMatchObject({ message: said });
      if (status === 401) expect(challengeOf(reply.headers["www-authenticate"]).error_description).toBe(said);
    }
  });
});
