/**
 * The audience a token must carry (RFC 8707, MCP authorization "Token Audience Binding") is this
 * server's URL, never what a request's Host header says: over a real loopback listener, a token
 * minted by the same issuer for another server is refused whatever Host the request names, and the
 * protected resource metadata names the same URL the audience check accepts.
 */
import { createServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../src/index.js";
import { type TestIssuer, testIssuer } from "../src/testing.js";
import type { Listening } from "../src/transports/listen.js";
import { challengeOf, modernCall, send } from "./wire-helpers.js";

const issuer: TestIssuer = await testIssuer({ audience: "unused" });

function notes(runs: string[], auth: { resource?: string } = {}) {
  return pico({
    name: "notes",
    version: "1.0.0",
    auth: { verify: issuer.verify, authorizationServers: [issuer.issuer], scopesSupported: ["notes:read"], ...auth },
  }).tool("write_note", {
    description: "Adds a note.",
    input: z.object({ text: z.string() }),
    auth: { scopes: ["notes:write"] },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    run: ({ text }, ctx) => {
      runs.push(`${ctx.auth!.subject}: ${text}`);
      return "written";
    },
  });
}

const write = (text: string, headers: Record<string, string>) =>
  modernCall("tools/call", { name: "write_note", arguments: { text } }, headers);

describe("serve({ port }) without auth.resource: the resource is the URL it listens on", () => {
  const runs: string[] = [];
  let listening: Listening;
  /** The same issuer's token for another server on this machine. */
  let otherServers: string[];

  beforeAll(async () => {
    listening = await notes(runs).serve({ port: 0 });
    const other = listening.port === 65535 ? 65534 : listening.port + 1;
    otherServers = [`http://127.0.0.1:${other}/mcp`, `http://localhost:${other}/mcp`, `http://[::1]:${other}/mcp`];
  });
  afterAll(() => listening?.close());

  it("refuses a token for another server's URL, sent with a Host header naming that URL, and never runs the tool", async () => {
    for (const audience of otherServers) {
      const token = await issuer.mint({ subject: "mallory", scopes: ["notes:write"], audience });
      const host = new URL(audience).host;
      const { headers, body } = write("forged", { host, authorization: `Bearer ${token}` });
      const reply = await send(listening.url, { headers, body });
      expect(reply.status, audience).toBe(401);
      expect(challengeOf(reply.headers["www-authenticate"]), audience).toMatchObject({
        error: "invalid_token",
        // What fixes the token: one asked for with this server's resource (was: the refusal alone).
        error_description: `The access token was issued for another resource: sign in again, asking for a token for ${listening.url} (the resource parameter, RFC 8707)`,
        resource_metadata: `http://127.0.0.1:${listening.port}/.well-known/oauth-protected-resource/mcp`,
      });
      // A 2025-11-25 session cannot be opened with it either.
      const initialize = await send(listening.url, {
        headers: { host, authorization: `Bearer ${token}` },
        body: {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
        },
      });
      expect(initialize.status, audience).toBe(401);
    }
    expect(runs).toEqual([]);
  });

  it("accepts a token for the URL it listens on, whatever loopback Host the request names", async () => {
    expect(listening.url).toBe(`http://127.0.0.1:${listening.port}/mcp`);
    const token = await issuer.mint({ subject: "ada", scopes: ["notes:write"], audience: listening.url });
    for (const host of [`127.0.0.1:${listening.port}`, new URL(otherServers[0]!).host]) {
      const { headers, body } = write(`via ${host}`, { host, authorization: `Bearer ${token}` });
      const reply = await send(listening.url, { headers, body });
      expect(reply.status, host).toBe(200);
      expect(reply.json?.result).toMatchObject({ content: [{ type: "text", text: "written" }] });
    }
    expect(runs).toEqual([`ada: via 127.0.0.1:${listening.port}`, `ada: via ${new URL(otherServers[0]!).host}`]);
    runs.length = 0;
  });

  it("publishes that URL as the metadata's resource, whatever Host the request names", async () => {
    for (const host of [`127.0.0.1:${listening.port}`, ...otherServers.map((url) => new URL(url).host)]) {
      const reply = await send(`http://127.0.0.1:${listening.port}/.well-known/oauth-protected-resource/mcp`, {
        method: "GET",
        headers: { host },
      });
      expect(reply.status, host).toBe(200);
      expect(reply.json?.resource, host).toBe(listening.url);
    }
  });
});

describe("serve({ port }) with Host names of its own", () => {
  it("never takes the audience from an allowed Host either: only auth.resource or the listen address counts", async () => {
    const runs: string[] = [];
    const listening = await notes(runs).serve({ port: 0, allowedHosts: ["mcp.test"] });
    try {
      const forged = await issuer.mint({
        subject: "mallory",
        scopes: ["notes:write"],
        audience: "http://mcp.test/mcp",
      });
      const { headers, body } = write("forged", { host: "mcp.test", authorization: `Bearer ${forged}` });
      const reply = await send(listening.url, { headers, body });
      expect(reply.status).toBe(401);
      expect(challengeOf(reply.headers["www-authenticate"]).error).toBe("invalid_token");
      expect(runs).toEqual([]);
    } finally {
      await listening.close();
    }
  });

  it("needs auth.resource to serve on an address that is not loopback, and says so", async () => {
    await expect(notes([]).serve({ port: 0, host: "0.0.0.0" })).rejects.toThrow(
      /auth\.resource is needed.*not loopback: set it to the URL clients connect to/,
    );
  });

  it("uses auth.resource when it is set, for the metadata and the audience", async () => {
    const runs: string[] = [];
    const resource = "https://notes.example.com/mcp";
    const listening = await notes(runs, { resource }).serve({ port: 0 });
    try {
      const metadata = await send(`http://127.0.0.1:${listening.port}/.well-known/oauth-protected-resource/mcp`, {
        method: "GET",
      });
      expect(metadata.json?.resource).toBe(resource);
      const local = await issuer.mint({ subject: "ada", scopes: ["notes:write"], audience: listening.url });
      const refused = await send(listening.url, write("local", { authorization: `Bearer ${local}` }));
      expect(refused.status).toBe(401);
      const right = await issuer.mint({ subject: "ada", scopes: ["notes:write"], audience: resource });
      const accepted = await send(listening.url, write("right", { authorization: `Bearer ${right}` }));
      expect(accepted.status).toBe(200);
      expect(runs).toEqual(["ada: right"]);
    } finally {
      await listening.close();
    }
  });
});

describe("server.fetch and server.node without auth.resource: no listen address to derive it from", () => {
  const missing = /auth\.resource is not set.*Set auth\.resource to the URL clients connect to/;

  it("server.fetch answers 500 with what to set, and runs nothing", async () => {
    const runs: string[] = [];
    const server = notes(runs);
    const token = await issuer.mint({ subject: "ada", scopes: ["notes:write"], audience: "https://evil.test/mcp" });
    const { headers, body } = write("fetch", { authorization: `Bearer ${token}` });
    const reply = await server.fetch(
      new Request("https://evil.test/mcp", {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
      }),
    );
    expect(reply.status).toBe(500);
    expect(await reply.json()).toMatchObject({ error: { code: -32603, message: expect.stringMatching(missing) } });
    const metadata = await server.fetch(new Request("https://evil.test/.well-known/oauth-protected-resource/mcp"));
    expect(metadata.status).toBe(500);
    expect(runs).toEqual([]);
  });

  it("server.node on a listener of the caller's own answers the same", async () => {
    const runs: string[] = [];
    const server = notes(runs);
    const http: NodeServer = createServer(server.node);
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
      const token = await issuer.mint({ subject: "ada", scopes: ["notes:write"], audience: "http://evil.test/mcp" });
      const reply = await send(url, write("node", { host: "evil.test", authorization: `Bearer ${token}` }));
      expect(reply.status).toBe(500);
      expect(reply.json).toMatchObject({ error: { code: -32603, message: expect.stringMatching(missing) } });
      expect(runs).toEqual([]);
    } finally {
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it("server.fetch with auth.resource serves tokens for it", async () => {
    const runs: string[] = [];
    const resource = "https://notes.example.com/mcp";
    const server = notes(runs, { resource });
    const token = await issuer.mint({ subject: "ada", scopes: ["notes:write"], audience: resource });
    const { headers, body } = write("fetch", { authorization: `Bearer ${token}` });
    const reply = await server.fetch(
      new Request(resource, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
      }),
    );
    expect(reply.status).toBe(200);
    expect(runs).toEqual(["ada: fetch"]);
  });
});
