/**
 * The round runner (src/asking/rounds.ts) on its own, with hand-written handlers: how a handler that asks
 * becomes an `input_required` result with sealed state in 2026-07-28 and a loop of real requests
 * before, and what the sealed state lets through and refuses.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Asker } from "../src/asking/questions.js";
import { MAX_STATE_BYTES, StateSealer } from "../src/asking/request-state.js";
import { legacyRounds, modernRounds } from "../src/asking/rounds.js";
import { MemoryUsedStates } from "../src/asking/used-states.js";
import { toIdentity } from "../src/auth/to-identity.js";
import { type Context, type Era, RequestContext } from "../src/core/context.js";
import { ErrorCode, McpError } from "../src/core/errors.js";
import type { ClientCapabilities, InputRequest } from "../src/core/types.js";

const ALL: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} };
const KEY = "a-key-of-at-least-thirty-two-bytes!";

function context(era: Era = "modern", capabilities: ClientCapabilities = ALL, protocolVersion?: string) {
  return new RequestContext({
    id: 1,
    meta: undefined,
    protocolVersion: protocolVersion ?? (era === "modern" ? "2026-07-28" : "2025-11-25"),
    era,
    clientInfo: undefined,
    clientCapabilities: capabilities,
  });
}

type Handler = (ctx: Context) => Promise<Record<string, unknown>>;

/** One 2026-07-28 request: a fresh context per request, as the dispatcher makes. */
function modern(handler: Handler, sealer = new StateSealer(KEY), method = "tools/call") {
  const keeping = { sealer, used: new MemoryUsedStates(1000) };
  let runs = 0;
  const send = (params: Record<string, unknown> = {}, capabilities = ALL, as = method) => {
    const ctx = context("modern", capabilities);
    const run = () => {
      runs++;
      return handler(ctx);
    };
    return modernRounds({ run, ctx, method: as, params: { name: "t", arguments: { x: 1 }, ...params } }, keeping);
  };
  return { send, sealer, runs: () => runs };
}

const NAME = z.object({ name: z.string() });
const accept = (content: Record<string, unknown>) => ({ action: "accept", content });
const sampled = (text: string) => ({ role: "assistant", content: { type: "text", text }, model: "m" });
const ROOTS = { roots: [{ uri: "file:///home/ada/project", name: "project" }] };

/** The step-by-step handler most tests use: a name, then a colour, in two rounds. */
const twoSteps: Handler = async (ctx) => {
  const name = await ctx.elicit("Name?", NAME, { key: "step1" });
  const colour = await ctx.elicit("Colour?", z.object({ colour: z.string() }), { key: "step2" });
  return {
    text: `${name.action === "accept" ? name.content.name : "-"} likes ${colour.action === "accept" ? colour.content.colour : "-"}`,
  };
};

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeInstanceOf(McpError);
  return thrown as McpError;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("modern rounds (2026-07-28)", () => {
  it("a handler that asks nothing answers at once, and the request pays for no hashing or signing", async () => {
    const digest = vi.spyOn(crypto.subtle, "digest");
    const sign = vi.spyOn(crypto.subtle, "sign");
    const { send, runs } = modern(async () => ({ text: "done" }));
    expect(await send()).toEqual({ text: "done" });
    expect(runs()).toBe(1);
    expect(digest).not.toHaveBeenCalled();
    expect(sign).not.toHaveBeenCalled();
  });

  it("ends the request at an unanswered question with keyed inputRequests and a sealed requestState", async () => {
    const { send, runs } = modern(async (ctx) => {
      const name = await ctx.elicit("What is your name?", NAME, { key: "user_name" });
      return { text: name.action === "accept" ? `Hello, ${name.content.name}!` : "no" };
    });
    const first = await send();
    expect(first).toEqual({
      resultType: "input_required",
      inputRequests: {
        user_name: {
          method: "elicitation/create",
          params: {
            mode: "form",
            message: "What is your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          },
        },
      },
      requestState: expect.stringMatching(/^v1\./),
    });
    const done = await send({
      inputResponses: { user_name: accept({ name: "Ada" }) },
      requestState: first.requestState,
    });
    expect(done).toEqual({ text: "Hello, Ada!" });
    // The handler ran again from the top with the answer known.
    expect(runs()).toBe(2);
  });

  it("asks every question of one round together (Promise.all), and re-asks only what is missing", async () => {
    const { send, runs } = modern(async (ctx) => {
      const [name, greeting, roots] = await Promise.all([
        ctx.elicit("Name?", NAME, { key: "user_name" }),
        ctx.sample("Generate a greeting", { key: "greeting" }),
        ctx.roots({ key: "client_roots" }),
      ]);
      const who = name.action === "accept" ? name.content.name : "-";
      return { text: `${(greeting.content as { text: string }).text} ${who} in ${roots[0]?.name}` };
    });
    const first = await send();
    expect(Object.keys(first.inputRequests as object)).toEqual(["user_name", "greeting", "client_roots"]);
    expect(first.inputRequests).toMatchObject({
      greeting: {
        method: "sampling/createMessage",
        params: {
          messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
          maxTokens: 1000,
        },
      },
      client_roots: { method: "roots/list" },
    });
    // Two answers of three: the next round asks for the third only, and carries the other two.
    const second = await send({
      inputResponses: { user_name: accept({ name: "Ada" }), greeting: sampled("Hi") },
      requestState: first.requestState,
    });
    expect(second.resultType).toBe("input_required");
    expect(Object.keys(second.inputRequests as object)).toEqual(["client_roots"]);
    const done = await send({ inputResponses: { client_roots: ROOTS }, requestState: second.requestState });
    expect(done).toEqual({ text: "Hi Ada in project" });
    expect(runs()).toBe(3);
  });

  it("runs several rounds, carrying earlier answers in requestState (a retry holds only its round's answers)", async () => {
    const { send } = modern(twoSteps);
    const first = await send();
    const second = await send({ inputResponses: { step1: accept({ name: "Ada" }) }, requestState: first.requestState });
    expect(Object.keys(second.inputRequests as object)).toEqual(["step2"]);
    expect(second.requestState).not.toBe(first.requestState);
    const done = await send({
      inputResponses: { step2: accept({ colour: "blue" }) },
      requestState: second.requestState,
    });
    expect(done).toEqual({ text: "Ada likes blue" });
  });

  it("re-asks, rather than failing, when the retry answers the wrong keys or none", async () => {
    const { send } = modern(twoSteps);
    const first = await send();
    const wrong = await send({
      inputResponses: { wrong_key: accept({ data: "x" }) },
      requestState: first.requestState,
    });
    expect(Object.keys(wrong.inputRequests as object)).toEqual(["step1"]);
    const again = await send({ inputResponses: {}, requestState: wrong.requestState });
    expect(Object.keys(again.inputRequests as object)).toEqual(["step1"]);
  });

  it("ignores answers to keys it did not ask, and never seals them", async () => {
    const { send, sealer } = modern(twoSteps);
    const first = await send();
    const second = await send({
      inputResponses: { step1: accept({ name: "Ada" }), junk: accept({ foo: "bar" }) },
      requestState: first.requestState,
    });
    expect(Object.keys(second.inputRequests as object)).toEqual(["step2"]);
    const opened = await sealer.open(second.requestState as string);
    expect(opened).toMatchObject({ m: "tools/call", p: "", q: ["step2"], r: 2 });
    expect(Object.keys((opened as { a: object }).a)).toEqual(["step1"]);
  });

  it("with requestState, reads from inputResponses only the keys the last round asked: earlier answers stay", async () => {
    const { send } = modern(twoSteps);
    const first = await send();
    const second = await send({ inputResponses: { step1: accept({ name: "Ada" }) }, requestState: first.requestState });
    const done = await send({
      inputResponses: { step1: accept({ name: "Eve" }), step2: accept({ colour: "red" }) },
      requestState: second.requestState,
    });
    expect(done).toEqual({ text: "Ada likes red" });
  });

  it("ignores answers without a requestState: the question was never asked, so it is asked", async () => {
    const { send, runs } = modern(async (ctx) => ({ ok: await ctx.confirm("Delete it?", { key: "sure" }) }));
    for (const inputResponses of [{ sure: accept({ confirm: true }) }, { sure: { action: "decline" } }, {}]) {
      const asked = await send({ inputResponses });
      expect(asked).toMatchObject({ resultType: "input_required", inputRequests: { sure: {} } });
    }
    expect(runs()).toBe(3);
  });

  describe("a question asked upFront", () => {
    const greet: Handler = async (ctx) => {
      const answer = await ctx.elicit("Name?", NAME, { key: "user_name", upFront: true });
      return { text: answer.action === "accept" ? `Hello, ${answer.content.name}` : answer.action };
    };

    it("takes an answer sent without a requestState: no round, and the keys nobody asked are ignored", async () => {
      const { send, runs } = modern(greet);
      const inputResponses = { user_name: accept({ name: "Ada" }), unknown_extra_key: accept({ foo: "bar" }) };
      expect(await send({ inputResponses })).toEqual({ text: "Hello, Ada" });
      expect(runs()).toBe(1);
    });

    it("checks that answer as any other: content that does not match its schema is -32602", async () => {
      const { send } = modern(greet);
      const error = await rejection(send({ inputResponses: { user_name: accept({ name: 42 }) } }));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toMatch(/does not match its schema/);
    });

    it("is asked when the client sent no answer for its key, and the questions beside it are asked whatever was sent", async () => {
      const { send } = modern(async (ctx) => {
        const name = await ctx.elicit("Name?", NAME, { key: "user_name", upFront: true });
        const sure = await ctx.confirm("Delete it?", { key: "sure" });
        return { text: `${name.action} ${sure}` };
      });
      expect(await send({ inputResponses: { wrong_key: accept({ name: "Ada" }) } })).toMatchObject({
        resultType: "input_required",
        inputRequests: { user_name: { method: "elicitation/create" } },
      });
      const asked = await send({
        inputResponses: { user_name: accept({ name: "Ada" }), sure: accept({ confirm: true }) },
      });
      expect(Object.keys(asked.inputRequests as object)).toEqual(["sure"]);
      const done = await send({
        inputResponses: { sure: accept({ confirm: true }) },
        requestState: asked.requestState,
      });
      expect(done).toEqual({ text: "accept true" });
    });

    it("never covers a confirmation: ctx.confirm has no upFront, and untyped code that passes it is still asked", async () => {
      // @ts-expect-error: a confirmation is always asked, so its options have no upFront
      const { send } = modern(async (ctx) => ({ ok: await ctx.confirm("Delete it?", { key: "sure", upFront: true }) }));
      const asked = await send({ inputResponses: { sure: accept({ confirm: true }) } });
      expect(asked).toMatchObject({ resultType: "input_required", inputRequests: { sure: {} } });
    });
  });

  it("accepts each requestState once: the same retry again is refused, and the handler does not run", async () => {
    const { send, runs } = modern(async (ctx) => ({ ok: await ctx.confirm("Delete it?", { key: "sure" }) }));
    const { requestState } = await send();
    const retry = { inputResponses: { sure: accept({ confirm: true }) }, requestState };
    expect(await send(retry)).toEqual({ ok: true });
    const error = await rejection(send(retry));
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toMatch(/^Invalid requestState: it was already used/);
    expect(runs()).toBe(2);
  });

  describe("refuses a requestState it cannot trust, with -32602", () => {
    const handler: Handler = async (ctx) => {
      const answer = await ctx.elicit("Ok?", z.object({ ok: z.boolean() }), { key: "confirm" });
      return { ok: answer.action };
    };
    const answers = { confirm: accept({ ok: true }) };

    it("altered", async () => {
      const { send } = modern(handler);
      const { requestState } = await send();
      const error = await rejection(send({ inputResponses: answers, requestState: `${requestState}-TAMPERED` }));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toMatch(/^Invalid requestState: .*failed verification/);
    });

    it("issued by another process (another key)", async () => {
      const { send } = modern(handler);
      const { requestState } = await send();
      const other = modern(handler, new StateSealer("another-key-of-thirty-two-bytes!!!"));
      const error = await rejection(other.send({ inputResponses: answers, requestState }));
      expect(error.code).toBe(ErrorCode.InvalidParams);
    });

    it("expired", async () => {
      const { send } = modern(handler, new StateSealer(KEY, -1));
      const { requestState } = await send();
      const error = await rejection(send({ inputResponses: answers, requestState }));
      expect(error.message).toMatch(/expired/);
    });

    it("oversized", async () => {
      const { send } = modern(handler);
      const error = await rejection(
        send({ inputResponses: answers, requestState: "v1.".padEnd(MAX_STATE_BYTES + 1, "A") }),
      );
      expect(error.message).toMatch(/larger than 65536 bytes/);
    });

    it("from another method", async () => {
      const { send } = modern(handler);
      const { requestState } = await send({}, ALL, "prompts/get");
      const error = await rejection(send({ inputResponses: answers, requestState }));
      expect(error.message).toBe(
        "Invalid requestState: it belongs to a different request or caller; send this one without it",
      );
    });

    it("from the same method with other params", async () => {
      const { send } = modern(handler);
      const { requestState } = await send();
      const error = await rejection(send({ arguments: { x: 2 }, inputResponses: answers, requestState }));
      expect(error.message).toMatch(/belongs to a different request/);
    });

    it("minted for another caller", async () => {
      const as = (subject: string | undefined) => {
        const keeping = { sealer: new StateSealer(KEY), used: new MemoryUsedStates(1000) };
        return async (params: Record<string, unknown> = {}) => {
          const ctx = context("modern");
          // The verified caller, as the auth layer makes it (to-identity.ts, which keys its owner) and sets it on the context.
          const identity = subject && (await toIdentity({ subject, issuer: "https://id.example" }));
          if (identity) Object.defineProperty(ctx, "auth", { value: identity });
          const request = { run: () => handler(ctx), ctx, method: "tools/call", params: { name: "t", ...params } };
          return modernRounds(request, keeping);
        };
      };
      const alice = as("alice");
      const { requestState } = await alice();
      expect(await alice({ inputResponses: answers, requestState })).toEqual({ ok: "accept" });
      for (const other of [as("bob"), as(undefined)]) {
        const error = await rejection(other({ inputResponses: answers, requestState }));
        expect(error.message).toMatch(/belongs to a different request or caller/);
      }
    });

    it("not a string; and inputResponses that are not an object", async () => {
      const { send } = modern(handler);
      expect((await rejection(send({ requestState: 42 }))).message).toMatch(/must be a string/);
      expect((await rejection(send({ inputResponses: [1] }))).message).toMatch(/inputResponses must be an object/);
    });
  });

  it("the same params with another _meta are the same request (the envelope is not part of the digest)", async () => {
    const { send } = modern(handler2());
    const { requestState } = await send({ _meta: { a: 1 } });
    expect(await send({ _meta: { b: 2 }, inputResponses: { n: accept({ name: "Ada" }) }, requestState })).toEqual({
      name: "Ada",
    });
  });

  it("stops a handler that never stops asking", async () => {
    const { send } = modern(async (ctx) => {
      for (let index = 0; ; index++) await ctx.elicit(`Question ${index}?`, NAME, { key: `q${index}` });
    });
    let result = await send();
    for (let round = 1; round < 16; round++) {
      const key = Object.keys(result.inputRequests as object)[0]!;
      result = await send({ inputResponses: { [key]: accept({ name: "x" }) }, requestState: result.requestState });
      expect(result.resultType).toBe("input_required");
    }
    const error = await rejection(
      send({ inputResponses: { q15: accept({ name: "x" }) }, requestState: result.requestState }),
    );
    expect(error.code).toBe(ErrorCode.InternalError);
    expect(error.message).toBe("The handler asked for input 16 times without finishing");
  });

  it("fails, rather than sealing a state the server would refuse, when the answers grow too large", async () => {
    const { send } = modern(async (ctx) => {
      await ctx.sample("Write a long story", { key: "story" });
      await ctx.elicit("Like it?", NAME, { key: "verdict" });
      return {};
    });
    const first = await send();
    const error = await rejection(
      send({ inputResponses: { story: sampled("x".repeat(MAX_STATE_BYTES)) }, requestState: first.requestState }),
    );
    expect(error.message).toMatch(/too large to carry in requestState/);
  });
});

function handler2(): Handler {
  return async (ctx) => {
    const answer = await ctx.elicit("Name?", NAME, { key: "n" });
    return { name: answer.action === "accept" ? answer.content.name : "-" };
  };
}

describe("legacy rounds (2025 sessions)", () => {
  function legacy(handler: Handler, ask: Asker["ask"] | undefined, ctx = context("legacy")) {
    let runs = 0;
    const run = () => {
      runs++;
      return handler(ctx);
    };
    const result = legacyRounds({ run, ctx, ask: ask && { ask } });
    return { result, runs: () => runs, ctx };
  }

  it("sends each round's questions as requests, then runs the handler again with the answers", async () => {
    const asked: InputRequest[] = [];
    const answers: Record<string, unknown> = { step1: accept({ name: "Ada" }), step2: accept({ colour: "blue" }) };
    let next = 0;
    const { result, runs } = legacy(twoSteps, async (request) => {
      asked.push(request);
      return Object.values(answers)[next++];
    });
    expect(await result).toEqual({ text: "Ada likes blue" });
    expect(runs()).toBe(3);
    expect(asked.map((request) => request.params?.message)).toEqual(["Name?", "Colour?"]);
    expect(asked[0]).toEqual({
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
    });
  });

  it("sends the questions of one round together", async () => {
    const inFlight: string[] = [];
    let release!: () => void;
    const both = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { result } = legacy(
      async (ctx) => {
        const [a, b] = await Promise.all([ctx.elicit("A?", NAME, { key: "a" }), ctx.roots({ key: "b" })]);
        return { a: a.action, b: b.length };
      },
      async (request) => {
        inFlight.push(request.method);
        if (inFlight.length === 2) release();
        await both;
        return request.method === "roots/list" ? ROOTS : accept({ name: "x" });
      },
    );
    expect(await result).toEqual({ a: "accept", b: 1 });
    expect(inFlight).toEqual(["elicitation/create", "roots/list"]);
  });

  it("turns a failed question (timeout, refusal) into a rejection at the question, which the handler may catch", async () => {
    const { result } = legacy(
      async (ctx) => {
        try {
          await ctx.roots();
          return { roots: "yes" };
        } catch (error) {
          return { caught: (error as Error).message };
        }
      },
      async () => {
        throw new Error("The client did not answer roots/list within 0.1 s.");
      },
    );
    expect(await result).toEqual({ caught: "The client did not answer roots/list within 0.1 s." });
  });

  it("without a way back to the client, fails at the first question with why (before any capability check)", async () => {
    const { result } = legacy(async (ctx) => ({ ok: await ctx.confirm("Sure?") }), undefined, context("legacy", {}));
    await expect(result).rejects.toThrow(/stateless HTTP, which has no way back to the client/);
  });

  it("answers nothing once the request is cancelled while it waits for the client", async () => {
    const ctx = context("legacy");
    const { result } = legacy(
      async (inner) => ({ ok: await inner.confirm("Sure?") }),
      async () => {
        ctx.cancel(new Error("cancelled"));
        throw new Error("The request that asked was cancelled.");
      },
      ctx,
    );
    expect(await result).toEqual({});
  });

  it("stops a handler that never stops asking", async () => {
    const { result } = legacy(
      async (ctx) => {
        for (let index = 0; ; index++) await ctx.elicit(`Q${index}?`, NAME, { key: `q${index}` });
      },
      async () => accept({ name: "x" }),
    );
    await expect(result).rejects.toThrow("The handler asked for input 16 times without finishing.");
  });
});
