/**
 * A registration made once the server serves, whose layer has not loaded: the first `.resource()`,
 * `.prompt()` or auth rule, a server with either included, a method wrapped while a layer installs
 * its methods. Their checks would run only once the layer had loaded, too late to throw at the call,
 * and their mistake would fail every request from then on (was: every request answered -32603 with
 * it, `server.call` rejected with it). Now each throws at the call, and so does a first tool with a
 * `task` setting (the Tasks layer checks it), and the server answers every
 * request as before: official clients over stdio (a child process) and Streamable HTTP on
 * 127.0.0.1, and `server.call`. A mistake in a registration whose layer has loaded throws at the
 * call, naming it, as ever.
 */
import { Client as ModernClient } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { pico } from "../../src/index.js";
import { tsxProgram } from "./fixture.js";
import { servedToClients } from "./served.js";

const serving = (call: string, first: string) =>
  new TypeError(`${call}: the server is serving; ${first} before serve() and the first request.`);
const FIRST_RESOURCE = serving("server.resource", "register its first resource");
const FIRST_PROMPT = serving("server.prompt", "register its first prompt");
const FIRST_RULE = serving("auth", "declare its first rule (or pico({ auth }))");
const FIRST_TASK = serving("server.tool", "register its first task tool");

const echo = { name: "echo", arguments: { text: "still" } };
const ECHOED = { content: [{ type: "text", text: "still" }] };

/** A server of tools only, and one with a middleware, a resource and a prompt before it served. */
const toolsOnly = pico({ name: "late", version: "1.0.0" }).tool("echo", {
  input: z.object({ text: z.string() }),
  run: ({ text }) => text,
});
const loaded = pico({ name: "loaded", version: "1.0.0" })
  .tool("echo", { input: z.object({ text: z.string() }), run: ({ text }) => text })
  .resource("docs://readme", { read: () => "read me" })
  .resource("users://{id}", { read: ({ id }) => `user ${id}` })
  .prompt("greet", { get: () => "hello" })
  .tool("report", { task: "optional", run: () => "a report" })
  .use((_, next) => next());

const toolsOnlyClients = servedToClients(toolsOnly);
const loadedClients = servedToClients(loaded);

describe("a first registration once the server serves (Streamable HTTP)", () => {
  it("throws at the call, and every request is answered as before, in both eras and by server.call", async () => {
    const legacy = await toolsOnlyClients.legacy();
    const modern = await toolsOnlyClients.modern();
    expect(await legacy.callTool(echo)).toEqual(ECHOED);
    expect(() => toolsOnly.resource("", { read: () => "never read" })).toThrow(FIRST_RESOURCE);
    expect(() => toolsOnly.prompt("greet", { get: () => "hello", arguments: [] } as never)).toThrow(FIRST_PROMPT);
    expect(() => toolsOnly.tool("guarded", { auth: { scopes: "x" } as never, run: () => "" })).toThrow(FIRST_RULE);
    expect(() => toolsOnly.tool("report", { task: { support: "optional", ttlMs: -1 }, run: () => "" })).toThrow(
      FIRST_TASK,
    );
    const other = pico({ name: "other" }).resource("docs://a", { read: () => "a" });
    await other.ready();
    const INCLUDE = serving("server.include", "await other.ready(), and include its first resources and prompts");
    expect(() => toolsOnly.include(other)).toThrow(INCLUDE);
    const checking = pico({ name: "checking" }).prompt("p", { get: () => "p" });
    expect(() => toolsOnly.include(checking)).toThrow(INCLUDE);
    expect(await legacy.callTool(echo)).toEqual(ECHOED);
    expect(await modern.callTool(echo)).toMatchObject(ECHOED);
    expect(await toolsOnly.call("echo", { text: "still" })).toEqual(ECHOED);
    // Nothing of what was refused was added.
    expect((await modern.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
    await expect(toolsOnly.ready()).resolves.toBeUndefined();
  });
});

describe("a registration once the server serves, whose layer has loaded (Streamable HTTP)", () => {
  it("throws its mistake at the call, and every request is answered as before", async () => {
    const legacy = await loadedClients.legacy();
    const modern = await loadedClients.modern();
    expect(() => loaded.resource("DOCS://readme", { read: () => "again" })).toThrow(
      /^Resource "DOCS:\/\/readme" is the same URI as resource "docs:\/\/readme"/,
    );
    expect(() => loaded.prompt("greet", { get: () => "again" })).toThrow(
      new TypeError('Prompt "greet" is already registered; prompt names must be unique.'),
    );
    expect(() => loaded.tool("later", { task: "sometimes" as never, run: () => "later" })).toThrow(
      /^Tool "later" has an invalid task setting "sometimes"/,
    );
    expect(() => loaded.use("x/typo", (_, next) => next())).toThrow(
      /^server.use\("x\/typo"\): there is no such request/,
    );
    expect(await legacy.callTool(echo)).toEqual(ECHOED);
    expect(await modern.callTool(echo)).toMatchObject(ECHOED);
    expect(await legacy.readResource({ uri: "users://7" })).toEqual({
      contents: [{ uri: "users://7", text: "user 7" }],
    });
    expect(await loaded.call("echo", { text: "still" })).toEqual(ECHOED);
    await expect(loaded.ready()).resolves.toBeUndefined();
  });
});

const stdio = tsxProgram("test/fixtures/late-registration-server.ts");

const closing: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const each of closing) await each.close();
});

describe("a first registration once the server serves (stdio, a child process)", () => {
  it.each([
    ["legacy", () => new LegacyClient({ name: "v1", version: "1.0.0" }), () => new LegacyStdio(stdio)],
    [
      "modern",
      () => new ModernClient({ name: "v2", version: "2.0.0" }, { versionNegotiation: { mode: "auto" } }),
      () => new ModernStdio(stdio),
    ],
  ] as const)(
    "throws at the call, and the %s client's requests are answered as before",
    async (_, client, transport) => {
      const peer = client();
      closing.push(peer);
      await peer.connect(transport());
      const registered = async (kind: string) => {
        const result = await peer.callTool({ name: "register", arguments: { kind } });
        return (result.content as { text: string }[])[0]?.text;
      };
      expect(await registered("resource")).toBe(`TypeError: ${FIRST_RESOURCE.message}`);
      expect(await registered("prompt")).toBe(`TypeError: ${FIRST_PROMPT.message}`);
      expect(await registered("auth")).toBe(`TypeError: ${FIRST_RULE.message}`);
      expect(await peer.callTool(echo)).toMatchObject(ECHOED);
      expect((await peer.listTools()).tools.map((tool) => tool.name)).toEqual(["echo", "register"]);
    },
  );
});

describe("a first registration once serve({ port }) is called (Streamable HTTP)", () => {
  it("throws at the call, as after serve(), before the endpoint listens; the server then answers as before", async () => {
    // Was: allowed until serve({ port }) had made its endpoint, after ready() (the docs: once serve() has begun).
    const server = pico({ name: "early", version: "1.0.0", signals: false }).tool("echo", {
      input: z.object({ text: z.string() }),
      run: ({ text }) => text,
    });
    const serving = server.serve({ port: 0, host: "127.0.0.1" });
    expect(() => server.resource("docs://readme", { read: () => "read me" })).toThrow(FIRST_RESOURCE);
    expect(() => server.prompt("greet", { get: () => "hello" })).toThrow(FIRST_PROMPT);
    const listening = await serving;
    const legacy = new LegacyClient({ name: "v1", version: "1.0.0" });
    try {
      await legacy.connect(new LegacyHttp(new URL(listening.url)));
      expect(await legacy.callTool(echo)).toEqual(ECHOED);
      expect((await legacy.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
    } finally {
      await legacy.close();
      await listening.close();
    }
  });
});
