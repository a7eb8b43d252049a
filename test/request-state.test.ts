/**
 * The sealed `requestState` of 2026-07-28 multi round-trip requests (src/asking/request-state.ts): what
 * one server seals it opens again, and anything altered, foreign, expired, oversized or malformed
 * is refused with a reason, before a byte of the payload is trusted.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { digest, MAX_STATE_BYTES, type StatePayload, StateSealer, stateId } from "../src/asking/request-state.js";

import { META } from "../src/core/types.js";
import { pico } from "../src/index.js";
import { modern } from "./http-helpers.js";

const KEY = "k".repeat(32);

const payload = (overrides: Partial<StatePayload> = {}): StatePayload => ({
  i: "state-1",
  m: "tools/call",
  d: "digest",
  p: "",
  e: Date.now() + 60_000,
  a: { user_name: { action: "accept", content: { name: "Ada" } } },
  q: ["colour"],
  r: 1,
  ...overrides,
});

/** Flips one character of a base64url string to another valid one. */
const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);

describe("StateSealer", () => {
  it("opens what it sealed, unchanged", async () => {
    const sealer = new StateSealer(KEY);
    const state = await sealer.seal(payload());
    expect(state).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(await sealer.open(state)).toEqual(payload({ e: expect.any(Number) }));
  });

  it("signs but does not encrypt: the payload is readable, so nothing secret goes in it", async () => {
    const state = await new StateSealer(KEY).seal(payload());
    const body = state.split(".")[1]!;
    const json = atob(body.replace(/-/g, "+").replace(/_/g, "/"));
    expect(JSON.parse(json).a.user_name.content.name).toBe("Ada");
  });

  it("refuses a state whose payload was altered", async () => {
    const sealer = new StateSealer(KEY);
    const [version, body, signature] = (await sealer.seal(payload())).split(".");
    // The client rewrites the answers and re-encodes them: the signature no longer matches.
    const forged = btoa(JSON.stringify(payload({ a: { user_name: { action: "accept", content: { name: "Eve" } } } })))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    expect(await sealer.open(`${version}.${forged}.${signature}`)).toMatch(/failed verification/);
    expect(await sealer.open(`${version}.${flip(body!, 5)}.${signature}`)).toMatch(/failed verification/);
  });

  it("refuses an altered signature, a signature that is not base64url, and a suffix", async () => {
    const sealer = new StateSealer(KEY);
    const state = await sealer.seal(payload());
    const [version, body, signature] = state.split(".");
    expect(await sealer.open(`${version}.${body}.${flip(signature!, 3)}`)).toMatch(/failed verification/);
    expect(await sealer.open(`${version}.${body}.***`)).toMatch(/failed verification/);
    // What the conformance suite's tampered-state scenario sends.
    expect(await sealer.open(`${state}-TAMPERED`)).toMatch(/failed verification/);
  });

  it("refuses a state sealed with another key: another process without a shared requestStateKey", async () => {
    const state = await new StateSealer(KEY).seal(payload());
    expect(await new StateSealer("z".repeat(32)).open(state)).toMatch(/issued by another server/);
    expect(await new StateSealer(undefined).open(state)).toMatch(/failed verification/);
  });

  it("accepts the same key as a string or as bytes", async () => {
    const state = await new StateSealer(KEY).seal(payload());
    expect(await new StateSealer(new TextEncoder().encode(KEY)).open(state)).toMatchObject({ m: "tools/call" });
  });

  it("refuses a state past its expiry, and seals with its ttl", async () => {
    const sealer = new StateSealer(KEY);
    expect(await sealer.open(await sealer.seal(payload({ e: Date.now() - 1 })))).toMatch(/expired/);
    expect(sealer.ttlMs).toBe(600_000);
    expect(new StateSealer(KEY, 5_000).ttlMs).toBe(5_000);
  });

  it("refuses an oversized state without verifying or parsing it", async () => {
    const sealer = new StateSealer(KEY);
    const huge = `v1.${"A".repeat(MAX_STATE_BYTES)}.sig`;
    expect(await sealer.open(huge)).toBe(`requestState is larger than ${MAX_STATE_BYTES} bytes`);
  });

  it("refuses states of another format or version", async () => {
    const sealer = new StateSealer(KEY);
    const [, body, signature] = (await sealer.seal(payload())).split(".");
    for (const state of ["", "opaque", "v1.only-two", `v2.${body}.${signature}`, `${body}.${signature}`]) {
      expect(await sealer.open(state), state).toBe(
        "requestState is not one this server issued (it must be v1.<payload>.<signature>, exactly as sent)",
      );
    }
  });

  it("parses strictly: no extra segment, padding, space or other spelling of the signature", async () => {
    const sealer = new StateSealer(KEY);
    const state = await sealer.seal(payload());
    const [, body, signature] = state.split(".") as [string, string, string];
    expect(signature).toHaveLength(43);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    // The last character carries 2 bits that encode nothing: flipping one spells the same bytes.
    const respelled = signature.slice(0, -1) + alphabet[alphabet.indexOf(signature.at(-1)!) ^ 1];
    for (const variant of [`${state}.extra`, `${state}.`, `v1..${body}.${signature}`, ` ${state}`]) {
      expect(await sealer.open(variant), variant).toMatch(/^requestState is not one this server issued/);
    }
    for (const variant of [
      `${state}=`,
      `v1.${body}.${signature.slice(0, 20)} ${signature.slice(20)}`,
      `v1.${body}.${respelled}`,
    ]) {
      expect(await sealer.open(variant), variant).toMatch(/failed verification/);
    }
    expect(await sealer.open(state)).toEqual(payload({ e: expect.any(Number) }));
  });

  it("refuses a signed payload of another shape (a key shared with something else, a state without an id)", async () => {
    const sealer = new StateSealer(KEY);
    const { i: _, ...withoutId } = payload();
    for (const odd of [withoutId, { ...payload(), q: "colour" }, { ...payload(), r: 1.5 }, [1, 2]]) {
      const state = await sealer.seal(odd as unknown as StatePayload);
      expect(await sealer.open(state)).toBe(
        "requestState is not one this server issued (its contents have another form)",
      );
    }
  });

  it("gives each state its own id", () => {
    const ids = new Set(Array.from({ length: 1000 }, stateId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("needs a key of at least 32 bytes", () => {
    expect(() => new StateSealer("short")).toThrow("requestStateKey must be at least 32 bytes");
    expect(() => new StateSealer(new Uint8Array(31))).toThrow("at least 32 bytes");
    expect(() => new StateSealer(new Uint8Array(32))).not.toThrow();
  });
});

describe("digest", () => {
  it("is the same for the same params whatever the key order, and ignores undefined members", async () => {
    const a = await digest({ name: "t", arguments: { x: 1, y: [1, { b: 2, a: 1 }] } });
    const b = await digest({ arguments: { y: [1, { a: 1, b: 2 }], x: 1 }, name: "t", extra: undefined });
    expect(a).toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("differs when any value, array order or type differs", async () => {
    const base = await digest({ name: "t", arguments: { x: 1 } });
    expect(await digest({ name: "t", arguments: { x: 2 } })).not.toBe(base);
    expect(await digest({ name: "t", arguments: { x: "1" } })).not.toBe(base);
    expect(await digest({ name: "u", arguments: { x: 1 } })).not.toBe(base);
    expect(await digest([1, 2])).not.toBe(await digest([2, 1]));
    expect(await digest({ a: null })).not.toBe(await digest({}));
  });

  it("is the SHA-256 of the value's JSON with keys sorted, undefined members left out and undefined items null", async () => {
    const value = { b: [1, undefined, { d: "x", c: null }], a: { f: true, e: undefined }, 'k"q': [] };
    const json = '{"a":{"f":true},"b":[1,null,{"c":null,"d":"x"}],"k\\"q":[]}';
    const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(json)));
    expect(await digest(value)).toBe(Buffer.from(hash).toString("base64url"));
  });

  it("digests params nested 100,000 deep, which JSON.parse reads (was: Maximum call stack size exceeded)", async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { a: deep };
    expect(await digest({ name: "t", arguments: { deep } })).toMatch(/^[\w-]{43}$/);
  });
});

describe("a 2026-07-28 call that asks for input, with an argument nested 100,000 deep (server.fetch)", () => {
  it("answers input_required (was: -32603 Maximum call stack size exceeded)", async () => {
    const server = pico({ name: "deep", version: "1.0.0", signals: false }).tool("ask", {
      input: z.object({ data: z.unknown() }),
      run: async (_args, ctx) => {
        const name = await ctx.elicit("Name?", z.object({ name: z.string() }), { key: "name" });
        return name.action;
      },
    });
    const request = modern("tools/call", {
      name: "ask",
      arguments: { data: 1 },
      _meta: { [META.clientCapabilities]: { elicitation: { form: {} } } },
    });
    const body = (await request.text()).replace('"data":1', `"data":${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    const response = await server.fetch(new Request(request.url, { method: "POST", headers: request.headers, body }));
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({ resultType: "input_required", inputRequests: { name: {} } });
    expect(typeof answer.result.requestState).toBe("string");
  });
});

describe("a 2026-07-28 answer nested 10,000 deep, carried in requestState to the next round (server.fetch)", () => {
  it("seals it for the round after and the handler reads it whole (was: -32603 Maximum call stack size exceeded)", async () => {
    const DEPTH = 10_000;
    const server = pico({ name: "deep", version: "1.0.0", signals: false }).tool("two", {
      run: async (_args, ctx) => {
        const schema = { type: "object", properties: { value: { type: "string" } } };
        const first = await ctx.elicit("First?", schema, { key: "first" });
        const second = await ctx.elicit("Second?", schema, { key: "second" });
        let depth = 0;
        for (let item = first.action === "accept" && first.content.value; Array.isArray(item); item = item[0]) depth++;
        return `depth ${depth}, then ${second.action}`;
      },
    });
    const _meta = { [META.clientCapabilities]: { elicitation: { form: {} } } };
    const call = async (params: Record<string, unknown>, deep?: string) => {
      const request = modern("tools/call", { name: "two", arguments: {}, _meta, ...params });
      const text = await request.text();
      const body = deep ? text.replace('"DEEP"', deep) : text;
      const response = await server.fetch(new Request(request.url, { method: "POST", headers: request.headers, body }));
      return response.json();
    };
    const asked = await call({});
    expect(asked.result).toMatchObject({ resultType: "input_required", inputRequests: { first: {} } });
    const deep = `${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`;
    const first = { first: { action: "accept", content: { value: "DEEP" } } };
    const again = await call({ inputResponses: first, requestState: asked.result.requestState }, deep);
    expect(again.error).toBeUndefined();
    expect(again.result).toMatchObject({ resultType: "input_required", inputRequests: { second: {} } });
    const second = { second: { action: "decline" } };
    const done = await call({ inputResponses: second, requestState: again.result.requestState });
    expect(done.result).toMatchObject({ content: [{ type: "text", text: `depth ${DEPTH}, then decline` }] });
  });
});
