import { readFileSync } from "node:fs";
import { request as httpsRequest, createServer as httpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { pico } from "../src/index.js";
import { BOTH, modernMessage } from "./http-helpers.js";
import { RawClient, requestHead } from "./socket-helpers.js";

/**
 * The Origin check compares scheme, host and port (RFC 6454 §4) over real listeners: plain HTTP
 * from serve({ port }), and TLS from node:https with server.node (test/fixtures/tls: a self-signed
 * certificate for localhost, valid until 2125).
 */

const closers: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function app() {
  return pico({ name: "origin", version: "1.0.0", signals: false }).tool("hello", { run: () => "hello" });
}

const HELLO = modernMessage("tools/call", { name: "hello" }, 1);
const CALL = JSON.stringify(HELLO.body);
const CALL_HEADERS = { "content-type": "application/json", accept: BOTH, ...HELLO.headers };

describe("Origin on serve({ port }) over plain HTTP", () => {
  it("accepts the page of its own origin and refuses the same host and port over https", async () => {
    const listening = await app().serve({ port: 0 });
    closers.push(() => listening.close());
    const host = `127.0.0.1:${listening.port}`;
    const statusFor = async (origin: string) => {
      const client = await RawClient.connect(listening.port);
      await client.write(
        requestHead("POST", "/mcp", {
          host,
          origin,
          connection: "close",
          "content-length": String(CALL.length),
          ...CALL_HEADERS,
        }) + CALL,
      );
      const response = await client.fullResponse(5000);
      client.destroy();
      return response.status;
    };
    expect(await statusFor(`http://${host}`)).toBe(200);
    expect(await statusFor(`https://${host}`)).toBe(403);
    expect(await statusFor(`http://localhost:${listening.port}`)).toBe(403);
  });
});

describe("Origin on server.node mounted in node:https", () => {
  it("takes the scheme from the TLS socket: https is its own origin, http is not", async () => {
    const server = app();
    const tls = {
      key: readFileSync(new URL("fixtures/tls/localhost.key", import.meta.url)),
      cert: readFileSync(new URL("fixtures/tls/localhost.crt", import.meta.url)),
    };
    const https = httpsServer(tls, (req, res) => void server.node(req, res));
    await new Promise<void>((resolve) => https.listen(0, "127.0.0.1", resolve));
    closers.push(async () => {
      https.closeAllConnections();
      await new Promise((resolve) => https.close(resolve));
    });
    const port = (https.address() as AddressInfo).port;
    const statusFor = (origin: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpsRequest(
          {
            host: "127.0.0.1",
            port,
            path: "/mcp",
            method: "POST",
            ca: tls.cert,
            servername: "localhost",
            agent: false,
            headers: { host: `localhost:${port}`, origin, ...CALL_HEADERS },
          },
          (response) => {
            response.resume();
            resolve(response.statusCode!);
          },
        );
        request.on("error", reject);
        request.end(CALL);
      });
    expect(await statusFor(`https://localhost:${port}`)).toBe(200);
    expect(await statusFor(`http://localhost:${port}`)).toBe(403);
  });
});
