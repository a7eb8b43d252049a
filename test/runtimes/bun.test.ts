/**
 * The runtime smoke test on Bun (the `bun` devDependency), running server.ts as TypeScript: once
 * with `serve()` on Bun.serve, imported from an eval so that Bun does not also serve its default
 * export; once as the entry point with `export default server`, which Bun serves itself.
 */
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOTH, hostRefused, modernMessage } from "../http-helpers.js";
import {
  bunExecutable,
  hearsKeepAlives,
  KEEP_ALIVE_SERVER,
  postWithHost,
  rawExchange,
  SERVER,
  START_TIMEOUT,
  type Started,
  smokeV1,
  smokeV2,
  start,
  versionOf,
} from "./harness.js";

const runtime = `bun ${versionOf("bun")}`;

describe(`server.serve() on ${runtime}`, () => {
  let server: Started;
  beforeAll(async () => {
    server = await start(bunExecutable(), ["--eval", `await import(${JSON.stringify(`./${SERVER}`)})`]);
  }, START_TIMEOUT);
  afterAll(() => server?.stop());

  it("serves the v1 client: session, list, call, progress over SSE, validation error, DELETE", () =>
    smokeV1(server.url, runtime));
  it("serves the v2 client in the 2026-07-28 era", () => smokeV2(server.url, runtime));

  it("refuses an HTTP/1.0 request without Host with 403 in JSON, as on Node, not with Bun's error page", async () => {
    // Bun makes such a request's URL its path alone ("/mcp"). Was: parsing it threw, and Bun answered
    // 500 with its development error page: the server's folder, file paths and source lines.
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const { status, body } = await rawExchange(
      Number(new URL(server.url).port),
      `POST /mcp HTTP/1.0\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `Content-Length: ${ping.length}\r\n\r\n${ping}`,
    );
    expect(status).toBe(403);
    expect(JSON.parse(body)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: hostRefused("") },
    });
  });

  it("answers a body that is not UTF-8 with 400 -32700 saying so, as on Node", async () => {
    // Was: a Latin-1 "café" was read as "caf\uFFFD", and the tool ran with it: 200 "Hello, caf\uFFFD".
    const { headers, body } = modernMessage("tools/call", { name: "greet", arguments: { name: "%" } });
    const [before, after] = JSON.stringify(body).split("%");
    const bytes = Buffer.concat([Buffer.from(before!), Buffer.from("café", "latin1"), Buffer.from(after!)]);
    const answer = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: BOTH, ...headers },
      body: new Uint8Array(bytes),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      jsonrpc: "2.0",
      error: {
        code: -32700,
        message:
          "Parse error: the body holds bytes that are not UTF-8; send one JSON-RPC message as the body, as JSON in UTF-8",
      },
    });
  });
});

describe(`a quiet event stream of server.serve() on ${runtime}`, () => {
  let server: Started;
  beforeAll(async () => {
    server = await start(bunExecutable(), ["run", KEEP_ALIVE_SERVER]);
  }, START_TIMEOUT);
  afterAll(() => server?.stop());

  /** Was: none on Bun (only Workers and Node sent them), so a connection that died without closing held its stream, its slot and its session for good. */
  it("carries a keep-alive comment every 15 s (here 100 ms), as on Node", () => hearsKeepAlives(server.url));
});

/** An address of this machine that is not loopback (else, on Linux, 127.0.0.2: on `lo`, yet not 127.0.0.1). */
function otherLocalAddress(): string {
  const external = Object.values(networkInterfaces())
    .flat()
    .find((address) => address && !address.internal && address.family === "IPv4");
  return external?.address ?? "127.0.0.2";
}

/** Whether a TCP connection to `host:port` opens. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 5000 });
    const done = (opened: boolean) => {
      socket.destroy();
      resolve(opened);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  });
}

describe(`export default server as the entry point of bun run, ${runtime}`, () => {
  let server: Started;
  let announced: URL;
  beforeAll(async () => {
    // Without PICO_PORT server.ts does not serve itself: Bun serves its default export, on $PORT.
    server = await start(bunExecutable(), ["run", SERVER], {
      env: { PICO_PORT: "", PORT: "0" },
      // Bun announces the server it started with console.log, on stdout: building a server leaves
      // the console alone (it went to stderr while pico() redirected it at construction, before issue 14).
      from: "stdout",
      endpoint: (line) => /Started (?:development )?server: (http:\/\/\S+?)\/?$/.exec(line)?.[1],
    });
    announced = new URL(server.url);
  }, START_TIMEOUT);
  afterAll(() => server?.stop());

  const url = () => `http://127.0.0.1:${announced.port}/mcp`;

  it("listens on 127.0.0.1 only", async () => {
    expect(announced.hostname).toBe("127.0.0.1");
    expect(await connects("127.0.0.1", Number(announced.port))).toBe(true);
    expect(await connects(otherLocalAddress(), Number(announced.port))).toBe(false);
  });

  it("refuses a Host header that is not loopback with 403, as serve() does", async () => {
    const { status, body } = await postWithHost("evil.com", Number(announced.port));
    expect(status).toBe(403);
    expect(JSON.parse(body)).toMatchObject({ error: { message: hostRefused("evil.com") } });
  });

  it("serves the v1 client: session, list, call, progress over SSE, validation error, DELETE", () =>
    smokeV1(url(), runtime));
  it("serves the v2 client in the 2026-07-28 era", () => smokeV2(url(), runtime));
});

describe(`export default server that cannot start, as the entry point of bun run, ${runtime}`, () => {
  let server: Started;
  beforeAll(async () => {
    server = await start(bunExecutable(), ["run", "test/runtimes/not-started.ts"], {
      env: { PICO_PORT: "", PORT: "0" },
      from: "stdout",
      endpoint: (line) => /Started (?:development )?server: (http:\/\/\S+?)\/?$/.exec(line)?.[1],
    });
  }, START_TIMEOUT);
  afterAll(() => server?.stop());

  it("answers a JSON 500 saying so, not Bun's page of the server's source, and logs why once", async () => {
    // Was: server.fetch rejected, and Bun answered 500 with its development error page, which shows
    // picomcp's source lines and the server's file paths to the client.
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: ping,
        signal: AbortSignal.timeout(10_000),
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        jsonrpc: "2.0",
        error: {
          code: -32603,
          message:
            "Internal Server Error: this MCP server could not start; its operator finds why in the server's log.",
        },
      });
    }
    const told = server.output().split("picomcp: the server could not start").length - 1;
    expect(told, server.output()).toBe(1);
    expect(server.output()).toContain("The HTTP option maxBodyBytes must be an integer of at least 1; got 0.");
  });
});

/**
 * A server of the user's own on Bun (`Bun.serve({ fetch: server.fetch })`) with a short `idleTimeout`,
 * which Bun applies to a streamed response too: an event stream quiet for longer (a long tool call
 * after its first progress, a GET or listen stream with nothing to say) must not be cut.
 */
describe(`an event stream quiet past Bun.serve's idleTimeout, ${runtime}`, () => {
  let server: Started;
  beforeAll(async () => {
    const code = `
      const { pico } = await import("./src/index.ts");
      const server = pico({ name: "quiet", version: "1.0.0" }).tool("quiet", {
        description: "Reports progress, then says nothing for 6 s (Bun checks idleness every 4 s or so).",
        run: async (_args, ctx) => {
          ctx.progress(1, 2);
          await new Promise((resolve) => setTimeout(resolve, 6000));
          return "answered after 6 s of quiet";
        },
      });
      const bun = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 1, fetch: server.fetch });
      console.log(JSON.stringify({ url: "http://127.0.0.1:" + bun.port + "/mcp" }));
    `;
    server = await start(bunExecutable(), ["--eval", code]);
  }, START_TIMEOUT);
  afterAll(() => server?.stop());

  it("keeps the stream open until the answer: Bun's idle timeout does not apply to it", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "quiet",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "quiet",
          _meta: {
            progressToken: "p",
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
          },
        },
      }),
      signal: AbortSignal.timeout(20_000),
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    // Was: Bun closed the connection a second after the progress event, which cancelled the call.
    const text = await response.text().catch((thrown: unknown) => `the stream broke: ${String(thrown)}`);
    expect(text).toContain('"progress":1');
    expect(text).toContain("answered after 6 s of quiet");
  });
});

/**
 * A server of the user's own on Bun bound by name, `Bun.serve({ hostname: "localhost", fetch:
 * server.fetch })`: Bun binds it to 127.0.0.1 but reports its `hostname` as "localhost", as it does
 * for a server bound to every interface; its `address` tells the two apart.
 */
describe(`Bun.serve({ hostname: "localhost", fetch: server.fetch }), ${runtime}`, () => {
  let server: Started;
  beforeAll(async () => {
    const code = `
      const { smokeServer } = await import("./test/runtimes/server.ts");
      const bun = Bun.serve({ port: 0, hostname: "localhost", fetch: smokeServer().fetch });
      console.log(JSON.stringify({ url: "http://127.0.0.1:" + bun.port + "/mcp" }));
    `;
    server = await start(bunExecutable(), ["--eval", code], { env: { PICO_PORT: "" } });
  }, START_TIMEOUT);
  afterAll(() => server?.stop());

  it("refuses a Host header that is not loopback with 403, as on 127.0.0.1", async () => {
    // Was: served, the server being on loopback: a page of evil.com rebound to 127.0.0.1 could call its tools.
    const { status, body } = await postWithHost("evil.com", Number(new URL(server.url).port));
    expect(status).toBe(403);
    expect(JSON.parse(body)).toMatchObject({ error: { message: hostRefused("evil.com") } });
  });

  it("serves the v2 client", () => smokeV2(server.url, runtime));
});
