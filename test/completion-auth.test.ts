/**
 * Completion and listing obey each entry's `auth`, over a real loopback listener with signed tokens:
 * a completer or a template's `list()` never runs for a caller its `auth` refuses, a hidden entry
 * answers completion as an unknown one does (`hideUnauthorized`), and completers get the request.
 * And names that are `Object.prototype` members complete like any other name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../src/index.js";
import { type TestIssuer, testIssuer } from "../src/testing.js";
import type { Listening } from "../src/transports/listen.js";
import { challengeOf, modernCall, send, type WireReply } from "./wire-helpers.js";

const issuer: TestIssuer = await testIssuer({ audience: "unused" });

/** What ran, and for whom. */
type Ran = string[];

function notes(ran: Ran, hideUnauthorized: boolean) {
  return pico({
    name: "notes",
    version: "1.0.0",
    auth: {
      verify: issuer.verify,
      authorizationServers: [issuer.issuer],
      required: false,
      hideUnauthorized,
      default: "public",
    },
  })
    .resource("notes://public", { read: () => "hello" })
    .resource("notes://{owner}/private", {
      auth: { scopes: ["notes:read"] },
      read: ({ owner }) => `notes of ${owner}`,
      list: (ctx) => {
        ran.push(`list for ${ctx.auth?.subject ?? "anonymous"}`);
        return [{ uri: "notes://ada/private", name: "Ada's notes" }];
      },
      complete: {
        owner: (_value, context) => {
          ran.push(`owner for ${context.ctx?.auth?.subject ?? "anonymous"}`);
          return ["ada", "bob"];
        },
      },
    })
    .prompt("review", {
      auth: { scopes: ["prompts"] },
      input: z.object({ language: z.string() }),
      complete: {
        language: (_value, context) => {
          ran.push(`language for ${context.ctx?.auth?.subject ?? "anonymous"}`);
          return ["Go", "Rust"];
        },
      },
      get: ({ language }) => `Review this ${language}.`,
    });
}

const templateRef = { type: "ref/resource", uri: "notes://{owner}/private" };
const promptRef = { type: "ref/prompt", name: "review" };

function complete(url: string, ref: unknown, name: string, token?: string): Promise<WireReply> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return send(url, modernCall("completion/complete", { ref, argument: { name, value: "" } }, headers));
}

function resourcesOf(reply: WireReply): unknown[] | undefined {
  return (reply.json?.result as { resources?: unknown[] } | undefined)?.resources;
}

describe.each([false, true])("with hideUnauthorized: %s", (hide) => {
  const ran: Ran = [];
  let listening: Listening;
  let reader: string;
  let noScope: string;

  beforeAll(async () => {
    listening = await notes(ran, hide).serve({ port: 0 });
    const audience = listening.url;
    reader = await issuer.mint({ subject: "ada", scopes: ["notes:read", "prompts"], audience });
    noScope = await issuer.mint({ subject: "eve", scopes: [], audience });
  });
  afterAll(() => listening?.close());

  it("runs no completer for a caller the entry's auth refuses", async () => {
    ran.length = 0;
    for (const [ref, name] of [
      [templateRef, "owner"],
      [promptRef, "language"],
    ] as const) {
      for (const token of [undefined, noScope]) {
        const reply = await complete(listening.url, ref, name, token);
        const who = `${ref.type} ${token ? "eve" : "anonymous"}`;
        if (hide) {
          // Exactly what an entry that does not exist answers: nothing tells the two apart.
          const unknown = await complete(
            listening.url,
            ref.type === "ref/prompt" ? { ...ref, name: "nope" } : { ...ref, uri: "nope://{x}" },
            name,
            token,
          );
          expect(reply.status, who).toBe(200);
          expect(reply.json?.error, who).toMatchObject({ code: -32602 });
          expect(JSON.stringify(reply.json?.error).replace(/review|notes:\/\/\{owner\}\/private/g, "X"), who).toBe(
            JSON.stringify(unknown.json?.error).replace(/nope:\/\/\{x\}|nope/g, "X"),
          );
        } else {
          // As for prompts/get and resources/read: a challenge to sign in, or to grant the scope.
          expect(reply.status, who).toBe(token ? 403 : 401);
          expect(challengeOf(reply.headers["www-authenticate"]).error, who).toBe(
            // Anonymous: no error code (RFC 6750 §3.1).
            token ? "insufficient_scope" : undefined,
          );
          expect(reply.text, who).not.toMatch(/ada|bob|Go|Rust/);
        }
      }
    }
    expect(ran).toEqual([]);
  });

  it("completes for a caller the entry's auth admits, and the completer sees who asks", async () => {
    ran.length = 0;
    const owner = await complete(listening.url, templateRef, "owner", reader);
    expect(owner.json?.result).toMatchObject({ completion: { values: ["ada", "bob"], total: 2, hasMore: false } });
    const language = await complete(listening.url, promptRef, "language", reader);
    expect(language.json?.result).toMatchObject({ completion: { values: ["Go", "Rust"], total: 2, hasMore: false } });
    expect(ran).toEqual(["owner for ada", "language for ada"]);
  });

  it("runs a protected template's list() only for a caller its auth admits", async () => {
    ran.length = 0;
    for (const token of [undefined, noScope]) {
      const reply = await send(
        listening.url,
        modernCall("resources/list", {}, token ? { authorization: `Bearer ${token}` } : {}),
      );
      expect(reply.status).toBe(200);
      expect(reply.json?.result).toMatchObject({ resources: [{ uri: "notes://public" }] });
      expect(resourcesOf(reply)).toHaveLength(1);
    }
    expect(ran).toEqual([]);
    const reply = await send(listening.url, modernCall("resources/list", {}, { authorization: `Bearer ${reader}` }));
    expect(resourcesOf(reply)).toEqual([
      { uri: "notes://public", name: "notes://public" },
      { uri: "notes://ada/private", name: "Ada's notes" },
    ]);
    expect(ran).toEqual(["list for ada"]);
  });
});

describe("completion of names that are Object.prototype members", () => {
  const names = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
  let listening: Listening;

  beforeAll(async () => {
    listening = await pico({ name: "t", version: "1" })
      .resource("repos://{owner}", { read: ({ owner }) => owner, complete: { owner: () => ["acme"] } })
      .resource("odd://{constructor}/{toString}{?__proto__}", {
        read: (args) => JSON.stringify(args),
        complete: { constructor: () => ["made"], toString: (_value, { arguments: args }) => [`${args.constructor}!`] },
      })
      .prompt("greet", {
        input: z.object({ name: z.string() }),
        complete: { name: () => ["Ada"] },
        get: ({ name }) => `Hello ${name}`,
      })
      .serve({ port: 0 });
  });
  afterAll(() => listening?.close());

  it("answers no values for such a name that has no completer, as for any other name", async () => {
    for (const ref of [
      { type: "ref/resource", uri: "repos://{owner}" },
      { type: "ref/prompt", name: "greet" },
    ]) {
      for (const name of names) {
        const reply = await complete(listening.url, ref, name);
        expect(reply.status, `${ref.type} ${name}`).toBe(200);
        expect(reply.json?.result, `${ref.type} ${name}: ${reply.text}`).toMatchObject({
          completion: { values: [], total: 0, hasMore: false },
        });
      }
    }
  });

  it("runs the completer of a variable so named, with the other arguments as they were sent", async () => {
    const ref = { type: "ref/resource", uri: "odd://{constructor}/{toString}{?__proto__}" };
    expect((await complete(listening.url, ref, "constructor")).json?.result).toMatchObject({
      completion: { values: ["made"] },
    });
    const reply = await send(
      listening.url,
      modernCall("completion/complete", {
        ref,
        argument: { name: "toString", value: "" },
        // Own properties, as JSON.parse makes them: "__proto__" is a name like any other here.
        context: { arguments: JSON.parse('{"constructor":"made","__proto__":"x"}') },
      }),
    );
    expect(reply.json?.result).toMatchObject({ completion: { values: ["made!"] } });
  });

  it("refuses context arguments that are not strings with -32602", async () => {
    const reply = await send(
      listening.url,
      modernCall("completion/complete", {
        ref: { type: "ref/resource", uri: "repos://{owner}" },
        argument: { name: "owner", value: "" },
        context: { arguments: { other: 1 } },
      }),
    );
    expect(reply.json?.error).toMatchObject({ code: -32602, message: expect.stringMatching(/context\.arguments/) });
  });

  it("reads template variables so named, in the path and the query", async () => {
    const uri = "odd://a/b?__proto__=c";
    const reply = await send(listening.url, modernCall("resources/read", { uri }));
    const text = (reply.json?.result as { contents: { text: string }[] } | undefined)?.contents[0]?.text;
    expect(Object.entries(JSON.parse(text ?? "{}"))).toEqual([
      ["constructor", "a"],
      ["toString", "b"],
      ["__proto__", "c"],
      ["uri", uri],
    ]);
  });
});
