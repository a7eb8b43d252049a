/**
 * `picomcp/jwt`'s key set fetch when the JWKS URL redirects: every hop, not only the last, must be
 * https (http only on a loopback host), and the chain is bounded. An http hop in between is where
 * anyone on the network path could send the fetch on to keys of their choosing. A hop to this
 * machine, a private network or a link-local address is refused unless the key set URL is on the
 * same too: a public host that redirects there would have the server fetch what only it can reach
 * (SSRF), the cloud metadata service at 169.254.169.254 first of all. The JWKS endpoints are
 * node:http servers on 127.0.0.1, or a fetch standing in for hosts elsewhere (`elsewhere`); the one
 * hop elsewhere through the real fetch (`.invalid`, RFC 2606) is refused before it is asked, so
 * nothing leaves the machine.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { afterEach, expect, it } from "vitest";
import { encodeBase64Url } from "../src/auth/jwt.js";
import { jwtVerifier } from "../src/jwt.js";
import { listenLoopback } from "./loopback-server.js";

const ISSUER = "https://auth.test";
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** An ES256 key named k1: its public JWK and a token it signed. */
async function signingKey() {
  const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", pair.publicKey);
  const claims = { iss: ISSUER, sub: "ada", exp: Math.floor(Date.now() / 1000) + 600 };
  const head = `${encodeBase64Url(JSON.stringify({ alg: "ES256", kid: "k1" }))}.${encodeBase64Url(JSON.stringify(claims))}`;
  const signature = await crypto.subtle.sign(
    { name: "ECDSA", hash: "SHA-256" },
    pair.privateKey,
    new TextEncoder().encode(head),
  );
  return { jwk: { kty, crv, x, y, kid: "k1" }, token: `${head}.${encodeBase64Url(new Uint8Array(signature))}` };
}

/** A server on 127.0.0.1 answering with `handle`; `asked` lists the path of every request it got. */
async function endpoint(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? "");
    handle(req, res);
  });
  const origin = await listenLoopback(server, closing);
  return { origin: origin, asked };
}

it("follows redirects between secure URLs (relative Location, 301, 302, 303, 307, 308) to the key set", async () => {
  const { jwk, token } = await signingKey();
  const keys = await endpoint((_, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] })),
  );
  const hops = await endpoint((req, res) => {
    const step = Number(new URL(req.url ?? "", "http://x").searchParams.get("step"));
    const chain: [number, string][] = [
      [301, "?step=1"],
      [302, "/jwks?step=2"],
      [303, "?step=3"],
      [307, "?step=4"],
      [308, `${keys.origin}/keys.json`],
    ];
    const [status, location] = chain[step]!;
    res.writeHead(status, { location }).end();
  });
  const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: `${hops.origin}/jwks?step=0` });
  expect((await verify(token)).subject).toBe("ada");
  expect(hops.asked).toEqual(["/jwks?step=0", "/jwks?step=1", "/jwks?step=2", "/jwks?step=3", "/jwks?step=4"]);
  expect(keys.asked).toEqual(["/keys.json"]);
});

it("refuses a redirect to a plain http URL that is not loopback, before asking it, saying which and why", async () => {
  const { token } = await signingKey();
  const jwks = await endpoint((_, res) => res.writeHead(302, { location: "http://keys.invalid/jwks" }).end());
  const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: `${jwks.origin}/jwks` });
  const error = await verify(token).catch((thrown: Error) => thrown);
  expect(error).toMatchObject({ name: "AuthorizationServerUnavailable" });
  expect((error as Error).message).toBe(
    `The signing keys could not be fetched: ${jwks.origin}/jwks redirected to http://keys.invalid/jwks, which is not https (http only on a loopback host): a document fetched over plain http could be anyone's`,
  );
  expect(jwks.asked).toEqual(["/jwks"]);
});

it("refuses a redirect chain longer than 5 hops, having asked only those", async () => {
  const { token } = await signingKey();
  let hop = 0;
  const jwks = await endpoint((_, res) => res.writeHead(302, { location: `/jwks/${++hop}` }).end());
  const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: `${jwks.origin}/jwks` });
  await expect(verify(token)).rejects.toThrow(
    `The signing keys could not be fetched: ${jwks.origin}/jwks redirected more than 5 times: set the URL the redirects lead to instead`,
  );
  expect(jwks.asked).toEqual(["/jwks", "/jwks/1", "/jwks/2", "/jwks/3", "/jwks/4", "/jwks/5"]);
});

/**
 * A fetch for a key set URL on a public host, `auth.example` (RFC 2606), that answers only with a
 * redirect to `location`, and passes every other URL to the real fetch: the public host is not
 * reached (nothing leaves the machine), the loopback endpoint it leads to is.
 */
function publicHostRedirectingTo(location: string): typeof fetch {
  return async (input, init) => {
    const url = String(input);
    if (new URL(url).hostname === "auth.example") return new Response(null, { status: 302, headers: { location } });
    return fetch(url, init);
  };
}

it.each([
  ["127.0.0.1", (origin: string) => origin],
  ["https://127.0.0.1", (origin: string) => origin.replace("http:", "https:")],
  ["localhost", (origin: string) => origin.replace("127.0.0.1", "localhost")],
  ["127.1 (127.0.0.1 spelled short)", (origin: string) => origin.replace("127.0.0.1", "127.1")],
  ["[::1]", (origin: string) => origin.replace("127.0.0.1", "[::1]")],
  ["[::ffff:127.0.0.1]", (origin: string) => origin.replace("127.0.0.1", "[::ffff:127.0.0.1]")],
  ["0.0.0.0 (this host)", (origin: string) => origin.replace("127.0.0.1", "0.0.0.0")],
  ["keys.localhost (RFC 6761 §6.3)", (origin: string) => origin.replace("127.0.0.1", "keys.localhost")],
])(
  "refuses a redirect from a key set URL on a public host to this machine, %s, before asking it (SSRF)",
  async (_, on) => {
    const { jwk, token } = await signingKey();
    const keys = await endpoint((_, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] })),
    );
    const target = new URL("/keys.json", on(keys.origin)).href;
    const verify = jwtVerifier({
      issuer: ISSUER,
      jwksUrl: "https://auth.example/jwks",
      fetch: publicHostRedirectingTo(target),
    });
    const error = await verify(token).catch((thrown: Error) => thrown);
    expect(error).toMatchObject({ name: "AuthorizationServerUnavailable" });
    expect((error as Error).message).toBe(
      `The signing keys could not be fetched: https://auth.example/jwks redirected to ${target}, which is this machine (loopback): only a key set URL on this machine itself may lead there, for local development; set jwksUrl to the issuer's public key set URL`,
    );
    expect(keys.asked).toEqual([]);
  },
);

it("follows a redirect from a key set URL on loopback to another loopback URL (local development)", async () => {
  const { jwk, token } = await signingKey();
  const keys = await endpoint((_, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] })),
  );
  const localhost = keys.origin.replace("127.0.0.1", "localhost");
  const jwks = await endpoint((_, res) => res.writeHead(302, { location: `${localhost}/keys.json` }).end());
  const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: `${jwks.origin.replace("127.0.0.1", "localhost")}/jwks` });
  expect((await verify(token)).subject).toBe("ada");
  expect(jwks.asked).toEqual(["/jwks"]);
  expect(keys.asked).toEqual(["/keys.json"]);
});

/**
 * A fetch standing in for hosts elsewhere, so that nothing leaves the machine: each URL of
 * `redirects` answers with a redirect to where it says, any other URL with the key set of `jwk`;
 * `asked` lists every URL it was asked.
 */
function elsewhere(redirects: Record<string, string>, jwk: JsonWebKey) {
  const asked: string[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    const url = String(input);
    asked.push(url);
    const location = redirects[url];
    if (location) return new Response(null, { status: 302, headers: { location } });
    return Response.json({ keys: [jwk] });
  };
  return { fetch, asked };
}

const INSTEAD = "; set jwksUrl to the issuer's public key set URL";
const PRIVATE = `a private network address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7): only a key set URL on a private network itself may lead there${INSTEAD}`;
const LINK_LOCAL = `a link-local address (169.254.0.0/16, fe80::/10, where cloud metadata services answer): only a key set URL on a link-local address itself may lead there${INSTEAD}`;

it.each([
  ["https://10.0.0.1/keys.json", PRIVATE],
  ["https://10.1/keys.json", PRIVATE],
  ["https://172.16.0.1/keys.json", PRIVATE],
  ["https://172.31.255.254/keys.json", PRIVATE],
  ["https://192.168.1.1/keys.json", PRIVATE],
  ["https://[fd00::1]/keys.json", PRIVATE],
  ["https://[fc00::1]/keys.json", PRIVATE],
  ["https://[::ffff:10.0.0.1]/keys.json", PRIVATE],
  ["https://[::ffff:192.168.0.1]/keys.json", PRIVATE],
  ["https://169.254.169.254/latest/meta-data/", LINK_LOCAL],
  ["https://0xa9.254.169.254/latest/meta-data/", LINK_LOCAL],
  ["https://2852039166/latest/meta-data/", LINK_LOCAL],
  ["https://[fe80::1]/keys.json", LINK_LOCAL],
  ["https://[febf::1]/keys.json", LINK_LOCAL],
  ["https://[::ffff:169.254.169.254]/latest/meta-data/", LINK_LOCAL],
])("refuses a redirect from a key set URL on a public host to %s, before asking it (SSRF)", async (target, problem) => {
  const { jwk, token } = await signingKey();
  const hosts = elsewhere({ "https://auth.example/jwks": target }, jwk);
  const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: "https://auth.example/jwks", fetch: hosts.fetch });
  const error = await verify(token).catch((thrown: Error) => thrown);
  expect(error).toMatchObject({ name: "AuthorizationServerUnavailable" });
  expect((error as Error).message).toBe(
    `The signing keys could not be fetched: https://auth.example/jwks redirected to ${new URL(target).href}, which is ${problem}`,
  );
  expect(hosts.asked).toEqual(["https://auth.example/jwks"]);
});

it.each([
  "https://172.15.255.255/keys.json",
  "https://172.32.0.1/keys.json",
  "https://192.169.0.1/keys.json",
  "https://169.255.0.1/keys.json",
  "https://11.0.0.1/keys.json",
  "https://[fbff::1]/keys.json",
  "https://[fec0::1]/keys.json",
  "https://[2001:db8::1]/keys.json",
])(
  "follows a redirect from a key set URL on a public host to %s, a public address beside those ranges",
  async (target) => {
    const { jwk, token } = await signingKey();
    const hosts = elsewhere({ "https://auth.example/jwks": target }, jwk);
    const verify = jwtVerifier({ issuer: ISSUER, jwksUrl: "https://auth.example/jwks", fetch: hosts.fetch });
    expect((await verify(token)).subject).toBe("ada");
    expect(hosts.asked).toEqual(["https://auth.example/jwks", new URL(target).href]);
  },
);

it("follows a redirect from a key set URL on a private network to another address on one, and refuses one to a link-local address or to this machine", async () => {
  const { jwk, token } = await signingKey();
  const jwksUrl = "https://10.0.0.5/jwks";
  const sameNetwork = elsewhere({ [jwksUrl]: "https://192.168.1.7/keys.json" }, jwk);
  expect((await jwtVerifier({ issuer: ISSUER, jwksUrl, fetch: sameNetwork.fetch })(token)).subject).toBe("ada");
  expect(sameNetwork.asked).toEqual([jwksUrl, "https://192.168.1.7/keys.json"]);
  for (const [target, problem] of [
    ["https://169.254.169.254/latest/meta-data/", LINK_LOCAL],
    [
      "https://127.0.0.1/keys.json",
      `this machine (loopback): only a key set URL on this machine itself may lead there, for local development${INSTEAD}`,
    ],
  ]) {
    const hosts = elsewhere({ [jwksUrl]: target! }, jwk);
    await expect(jwtVerifier({ issuer: ISSUER, jwksUrl, fetch: hosts.fetch })(token)).rejects.toThrow(
      `The signing keys could not be fetched: ${jwksUrl} redirected to ${target}, which is ${problem}`,
    );
    expect(hosts.asked).toEqual([jwksUrl]);
  }
});

it("follows a redirect from a key set URL on a link-local address to another one", async () => {
  const { jwk, token } = await signingKey();
  const jwksUrl = "https://169.254.10.1/jwks";
  const hosts = elsewhere({ [jwksUrl]: "https://[fe80::2]/keys.json" }, jwk);
  expect((await jwtVerifier({ issuer: ISSUER, jwksUrl, fetch: hosts.fetch })(token)).subject).toBe("ada");
  expect(hosts.asked).toEqual([jwksUrl, "https://[fe80::2]/keys.json"]);
});
