/**
 * `picomcp/jwt` behind a real server while the issuer rotates its keys: the key set comes from a real
 * JWKS endpoint on 127.0.0.1, and clients send tokens signed with the new key over real HTTP.
 */
import { createServer } from "node:http";
import { afterEach, expect, it, vi } from "vitest";
import { encodeBase64Url } from "../src/auth/jwt.js";
import { pico } from "../src/index.js";
import { jwtVerifier } from "../src/jwt.js";
import type { Listening } from "../src/transports/listen.js";
import { within } from "./http-helpers.js";
import { listenLoopback } from "./loopback-server.js";
import { modernCall, send } from "./wire-helpers.js";

const ISSUER = "https://auth.test";
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** An ES256 signing key with its public JWK, named `kid`. */
async function signingKey(kid: string) {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", pair.publicKey);
  const jwk = { kty, crv, x, y, kid, alg: "ES256", use: "sig" };
  const sign = async (claims: Record<string, unknown>) => {
    const head = `${encodeBase64Url(JSON.stringify({ alg: "ES256", kid }))}.${encodeBase64Url(JSON.stringify(claims))}`;
    const signature = await crypto.subtle.sign(
      { name: "ECDSA", hash: "SHA-256" },
      pair.privateKey,
      new TextEncoder().encode(head),
    );
    return `${head}.${encodeBase64Url(new Uint8Array(signature))}`;
  };
  return { jwk, sign };
}

/** A JWKS endpoint serving `keys()`; `hold()` makes its next answer wait until the returned release is called. */
async function jwksEndpoint(keys: () => object[]) {
  let fetches = 0;
  let held: Promise<void> | undefined;
  const server = createServer(async (_req, res) => {
    fetches++;
    await held;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: keys() }));
  });
  const origin = await listenLoopback(server, closing);
  return {
    url: `${origin}/jwks`,
    fetches: () => fetches,
    hold(): () => void {
      let release!: () => void;
      held = new Promise((resolve) => (release = resolve));
      return release;
    },
  };
}

it("lets every token signed with a new key wait for the key set being fetched, rather than refusing it as unknown", async () => {
  const first = await signingKey("k1");
  const rotated = await signingKey("k2");
  let published = [first.jwk];
  const jwks = await jwksEndpoint(() => published);
  const verifier = jwtVerifier({ issuer: ISSUER, jwksUrl: jwks.url });
  // The requests that reached the verifier, so that the key set is served once all of them are waiting for it.
  let arrived = 0;
  let everyoneArrived!: () => void;
  const allArrived = new Promise<void>((resolve) => (everyoneArrived = resolve));
  const clients = 5;
  const server = pico({
    name: "notes",
    version: "1.0.0",
    auth: {
      verify: (token) => {
        if (++arrived === clients + 1) everyoneArrived();
        return verifier(token);
      },
      authorizationServers: [ISSUER],
    },
  }).tool("whoami", { description: "The signed-in user.", run: (_args, ctx) => ctx.auth!.subject });
  const listening: Listening = await server.serve({ port: 0 });
  closing.push(() => listening.close());
  const now = () => Math.floor(Date.now() / 1000);
  const whoami = async (signer: typeof first, subject: string) => {
    const token = await signer.sign({ iss: ISSUER, sub: subject, aud: listening.url, exp: now() + 600 });
    const { headers, body } = modernCall("tools/call", { name: "whoami" }, { authorization: `Bearer ${token}` });
    return send(listening.url, { headers, body });
  };

  expect((await whoami(first, "ada")).status).toBe(200);
  expect(jwks.fetches()).toBe(1);
  // The issuer publishes a new key and signs with it; past the 30 s between refetches, the first token
  // signed with it has the key set fetched again, and the others arrive while that fetch is under way.
  published = [first.jwk, rotated.jwk];
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + 31_000);
  const release = jwks.hold();
  const calls = Array.from({ length: clients }, (_, i) => whoami(rotated, `user-${i}`));
  await within(allArrived, 10_000, "every request reaching the verifier");
  // A moment for each to look for the key (a digest away), before the key set comes: however long
  // that takes, the replies below must not change.
  await new Promise((resolve) => setTimeout(resolve, 100));
  release();
  const replies = await within(Promise.all(calls), 10_000, "the replies");
  expect(replies.map((reply) => reply.status)).toEqual(Array(clients).fill(200));
  expect(replies.map((reply) => reply.json?.result)).toEqual(
    Array.from({ length: clients }, (_, i) =>
      expect.objectContaining({ content: [{ type: "text", text: `user-${i}` }] }),
    ),
  );
  // One refetch served them all.
  expect(jwks.fetches()).toBe(2);
});
